"""The runtime hooks scenarios use: the watch (events, phase starts, the flow's moments), rigged
shuffles (plain data in the state, used up by the next shuffle, never in a view) and asking a
pending question again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import rig
from tabula.interpreter.run.runtime import GameRuntimeError

RELAY = Path(__file__).resolve().parents[1] / "games" / "relay"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game(RELAY))


def names(engine: Engine, ids: list[int]) -> list[str]:
    return [engine.game.components[c].name for c in ids]


def zone(engine: Engine, name: str) -> int:
    return engine.game.zones[name].index(None)


def test_the_watch_sees_events_with_their_arguments_and_phase_starts(engine: Engine) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    engine.watch = lambda name, args: seen.append((name, dict(args)))
    try:
        st = engine.new_game(2, seed=3)
        card = st["dec"]["ids"][0]
        engine.apply_inplace(st, card)
    finally:
        engine.watch = None
    kinds = [name for name, _ in seen]
    assert kinds[:3] == ["flow:round_start", "phase:draw", "phase:play"]
    played = next(args for name, args in seen if name == "card_played")
    assert engine.game.components[played["c"]].name == card.split(":")[1] and played["by"] == 0
    assert kinds[kinds.index("card_played") + 1 :][:3] == ["phase:cleanup", "turn_over", "phase:draw"]
    assert seen[kinds.index("phase:cleanup")][1] == {"p": 0, "me": 0}


def test_the_watch_sees_a_round_end_after_its_on_end_and_the_game_end_before_finish(engine: Engine) -> None:
    seen: list[str] = []
    engine.watch = lambda name, args: seen.append(name)
    try:
        st = engine.new_game(2, seed=3, options={"rounds": 1})
        while st["dec"] is not None:  # play the first card offered, every turn
            engine.apply_inplace(st, next(i for i in st["dec"]["ids"] if i.startswith("play:")))
    finally:
        engine.watch = None
    moments = [name for name in seen if name.startswith("flow:")]
    assert moments == ["flow:round_start", "flow:round_end", "flow:game_end"]
    assert seen[seen.index("flow:round_end") - 1] == "turn_over"  # after the last turn's cleanup


def test_without_a_watch_nothing_is_called(engine: Engine) -> None:
    assert engine.watch is None
    st = engine.new_game(2, seed=3)
    engine.apply_inplace(st, 0)  # runs emit and phase starts with rt.watch None
    assert st["dec"] is not None


def empty_deck_game(engine: Engine, seed: int = 5) -> dict[str, Any]:
    """Ann is about to draw from an empty deck: her draw phase reshuffles the discard pile."""
    st = engine.new_game(2, seed=seed, pause="draw")
    deck, discard = zone(engine, "deck"), zone(engine, "discard")
    for cid in list(st["z"][deck]):
        st["z"][deck].remove(cid)
        st["z"][discard].append(cid)
        st["loc"][cid] = discard
    return st


def by_name(engine: Engine, name: str) -> list[int]:
    return [c.id for c in engine.game.components if c.name == name]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_rigged_shuffle_puts_the_listed_components_on_top_and_is_used_up(engine: Engine, seed: int) -> None:
    st = empty_deck_game(engine, seed)
    first, second = sorted(st["z"][zone(engine, "discard")])[-2:]  # two that will be reshuffled
    rig.rig_zone(st, zone(engine, "deck"), [[first], by_name(engine, engine.game.components[second].name)])
    engine.resume(st)
    hand = st["z"][engine.game.zones["hand"].index(0)]
    assert hand[-1] == first  # drawn right after the shuffle
    assert names(engine, st["z"][zone(engine, "deck")])[:1] == [engine.game.components[second].name]
    assert "rig" not in st


def test_a_rigged_order_survives_a_copy_and_never_reaches_a_view(engine: Engine) -> None:
    st = empty_deck_game(engine)
    rig.rig_zone(st, zone(engine, "deck"), [by_name(engine, "G3")])
    copy = engine.clone(st)
    assert copy["rig"] == st["rig"] and copy["rig"] is not st["rig"]
    for player in (0, 1):
        assert "rig" not in engine.view(st, player)


def test_a_rigged_order_naming_an_absent_component_fails_at_the_shuffle(engine: Engine) -> None:
    st = empty_deck_game(engine)
    hand = st["z"][engine.game.zones["hand"].index(0)]
    rig.rig_zone(st, zone(engine, "deck"), [[hand[0]]])  # in Ann's hand, not in the discard pile
    with pytest.raises(GameRuntimeError) as err:
        engine.resume(st)
    assert "next shuffle" in err.value.message and err.value.span is not None
    assert err.value.span.line > 0 and "game.yaml" in err.value.span.file


def test_without_a_rig_the_shuffle_is_the_seeded_one(engine: Engine) -> None:
    a, b = empty_deck_game(engine), empty_deck_game(engine)
    engine.resume(a)
    engine.resume(b)
    assert a["z"] == b["z"]


def test_reoffer_asks_a_window_again_from_the_state_as_written(engine: Engine) -> None:
    st = engine.new_game(2, seed=1, pause="play")
    engine.resume(st)
    hand = engine.game.zones["hand"].index(0)
    before = list(st["dec"]["ids"])
    g3 = by_name(engine, "G3")[0]
    old = st["loc"][g3]
    st["z"][old].remove(g3)
    st["z"][hand].append(g3)
    st["loc"][g3] = hand
    assert st["dec"]["ids"] == before  # asked before the write
    engine.reoffer(st)
    assert "play:G3" in st["dec"]["ids"] and st["dec"]["p"] == 0


def test_reoffer_asks_a_choose_again(engine: Engine) -> None:
    st = engine.new_game(2, seed=1, pause="play")
    engine.resume(st)
    engine.apply_inplace(st, "buy_any")
    assert st["dec"]["k"] == "choose" and st["dec"]["ids"] == ["red", "blue"]
    stock = engine.game.counters["stock"]
    st["c"][stock.base + stock.keys.index("green")] = 1
    st["c"][stock.base + stock.keys.index("red")] = 0
    engine.reoffer(st)
    assert st["dec"]["ids"] == ["blue", "green"]
    engine.apply_inplace(st, "green")
    assert st["dec"]["k"] == "window" and st["dec"]["p"] == 0
