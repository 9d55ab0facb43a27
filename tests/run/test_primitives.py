"""API-level tests on the primitives test game (tests/games/primitives): what each player sees, a
decision by another player in the middle of an effect, save/load of a pending decision, replay.

The scenarios in tests/games/primitives/scenarios/ prove the rules themselves (values, rules,
triggers, turn order, end checks); these tests look at the engine's API around them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.view import HIDDEN
from tabula.interpreter.scenarios import run_scenario_file

PRIMITIVES = Path(__file__).resolve().parents[1] / "games" / "primitives"
ANN, BOB, CID = 0, 1, 2


@pytest.fixture(scope="module")
def game() -> CompiledGame:
    return load_game(PRIMITIVES)


@pytest.fixture(scope="module")
def engine(game: CompiledGame) -> Engine:
    return Engine(game)


def zone(game: CompiledGame, name: str, player: int | None = None) -> int:
    """The index of a zone instance in state["z"]."""
    return game.zones[name].base + (player or 0)


def counter(game: CompiledGame, st: dict[str, Any], name: str, player: int) -> int:
    value: int = st["c"][game.counters[name].base + player]
    return value


def names(game: CompiledGame, ids: list[int]) -> list[str]:
    return [game.components[c].key for c in ids]


# ------------------------------------------------------------------ views


def test_a_view_hides_other_hands_and_shows_ones_own(game: CompiledGame, engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob", "Cid"], seed=4)
    for viewer in (ANN, BOB, CID):
        view = engine.view(st, viewer)
        for p in (ANN, BOB, CID):
            hand = st["z"][zone(game, "hand", p)]
            assert len(hand) == 2
            if p == viewer:
                assert view["z"][zone(game, "hand", p)] == hand
                assert all(view["loc"][c] == zone(game, "hand", p) for c in hand)
            else:
                assert view["z"][zone(game, "hand", p)] == [HIDDEN, HIDDEN]
                assert all(view["loc"][c] == HIDDEN for c in hand)
        # the hidden deck keeps its size; public zones are shown
        deck = st["z"][zone(game, "deck")]
        assert view["z"][zone(game, "deck")] == [HIDDEN] * len(deck)
        assert view["z"][zone(game, "pool")] == st["z"][zone(game, "pool")]


def test_another_players_pending_choice_is_not_in_a_view(game: CompiledGame, engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob"], seed=4)
    engine.apply_inplace(st, "demand")
    bob_hand = names(game, st["z"][zone(game, "hand", BOB)])
    ann_view = engine.view(st, ANN)
    assert ann_view["dec"] == {"p": BOB}
    text = json.dumps(ann_view)
    for name in bob_hand:
        assert f'"{name}"' not in text
    assert engine.view(st, BOB)["dec"]["ids"] == bob_hand


def test_a_revealed_card_of_a_hidden_zone_is_in_every_view(game: CompiledGame, engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob"], seed=4)
    deck = zone(game, "deck")
    top, *rest = st["z"][deck]
    engine.apply_inplace(st, "peek")
    for viewer in (ANN, BOB):
        view = engine.view(st, viewer)
        assert view["z"][deck] == [top] + [HIDDEN] * len(rest)
        assert view["loc"][top] == deck
    engine.apply_inplace(st, "cover")
    for viewer in (ANN, BOB):
        assert engine.view(st, viewer)["z"][deck] == [HIDDEN] * (1 + len(rest))


def test_a_revealed_card_is_hidden_again_once_it_moves_into_a_hand(
    game: CompiledGame, engine: Engine
) -> None:
    st = engine.new_game(["Ann", "Bob"], seed=4)
    top = st["z"][zone(game, "deck")][0]
    engine.apply_inplace(st, "peek")
    engine.apply_inplace(st, "draw_chip")
    assert top in st["z"][zone(game, "hand", ANN)]
    assert top in engine.view(st, ANN)["z"][zone(game, "hand", ANN)]
    assert top not in engine.view(st, BOB)["z"][zone(game, "hand", ANN)]
    assert engine.view(st, BOB)["loc"][top] == HIDDEN


def test_a_component_var_is_blanked_for_players_who_cannot_see_it(game: CompiledGame, engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob", "Cid"], seed=4)
    engine.apply_inplace(st, "demand")
    given = st["z"][zone(game, "hand", BOB)][0]
    engine.apply_inplace(st, game.components[given].key)
    assert st["v"]["gift"] == given  # now in Ann's hand
    assert engine.view(st, ANN)["v"]["gift"] == given
    assert engine.view(st, CID)["v"]["gift"] == HIDDEN


# ------------------------------------------------------------------ a decision inside another player's effect


def test_another_player_decides_in_the_middle_of_an_effect(game: CompiledGame, engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob", "Cid"], seed=4)
    assert engine.current_player(st) == ANN
    engine.apply_inplace(st, "demand")
    bob_hand = st["z"][zone(game, "hand", BOB)]
    assert engine.current_player(st) == BOB
    offered = engine.legal_actions(st)
    assert {c.player for c in offered} == {BOB}
    assert [c.id for c in offered] == names(game, bob_hand)
    assert offered[0].prompt == "Give Ann a chip"

    chosen = bob_hand[-1]
    engine.apply_inplace(st, game.components[chosen].key)
    # Ann's action went on after Bob's answer: the chip moved, Ann scored its size, Ann decides again
    assert chosen in st["z"][zone(game, "hand", ANN)]
    assert len(st["z"][zone(game, "hand", BOB)]) == 1
    assert counter(game, st, "points", ANN) == game.components[chosen].props["size"]
    assert engine.current_player(st) == ANN
    assert "done" in engine.legal_ids(st)


def test_ann_cannot_answer_for_bob(game: CompiledGame, engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob"], seed=4)
    engine.apply_inplace(st, "demand")
    for c in st["z"][zone(game, "hand", ANN)]:
        assert game.components[c].key not in engine.legal_ids(st)


# ------------------------------------------------------------------ save / load, replay


def test_saving_and_loading_a_pending_decision_changes_nothing(game: CompiledGame, engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob", "Cid"], seed=7)
    engine.apply_inplace(st, "demand")
    choice = engine.legal_ids(st)[1]

    loaded = engine.from_json(engine.to_json(st))
    assert engine.hash(loaded) == engine.hash(st)
    assert engine.current_player(loaded) == BOB
    assert engine.legal_ids(loaded) == engine.legal_ids(st)

    direct = engine.apply(st, choice)
    resumed = engine.apply(loaded, choice)
    assert engine.hash(resumed) == engine.hash(direct)
    for more in ("acquire:Plus", "done", "spark"):
        direct = engine.apply(direct, more)
        resumed = engine.apply(resumed, more)
        assert engine.hash(resumed) == engine.hash(direct)


def test_saving_and_loading_inside_a_loop_of_decisions_changes_nothing(engine: Engine) -> None:
    st = engine.new_game(["Ann", "Bob", "Cid", "Dee"], seed=2, options={"polling": True})
    engine.apply_inplace(st, "1")  # Bob answers the poll; Cid and Dee are still to answer
    assert engine.current_player(st) == CID
    loaded = engine.from_json(engine.to_json(st))
    for choice in ("0", "1", "done", "1"):
        st = engine.apply(st, choice)
        loaded = engine.apply(loaded, choice)
        assert engine.hash(loaded) == engine.hash(st)


def _play(engine: Engine, st: dict[str, Any], moves: int) -> list[str]:
    """A fixed, varied policy; returns the choices made."""
    made: list[str] = []
    for i in range(moves):
        ids = [x for x in engine.legal_ids(st) if x not in ("spark", "crown")] or engine.legal_ids(st)
        if not ids:
            break
        choice = ids[(i * 7 + 3) % len(ids)]
        made.append(choice)
        engine.apply_inplace(st, choice)
    return made


@pytest.mark.parametrize("options", [{}, {"polling": True, "goal": 12}], ids=["default", "polling"])
def test_replay_from_seed_and_choices_gives_the_same_state(engine: Engine, options: dict[str, Any]) -> None:
    players = ["Ann", "Bob", "Cid"]
    st = engine.new_game(players, seed=11, options=options)
    made = _play(engine, st, 60)
    assert len(made) > 20
    again = engine.replay(players, 11, made, options)
    assert engine.hash(again) == engine.hash(st)
    assert engine.to_json(again) == engine.to_json(st)


def test_the_same_choices_from_another_seed_deal_other_hands(game: CompiledGame, engine: Engine) -> None:
    hands = {
        seed: engine.new_game(["Ann", "Bob"], seed=seed)["z"][zone(game, "hand", ANN)] for seed in range(6)
    }
    assert len({tuple(h) for h in hands.values()}) > 1


# ------------------------------------------------------------------ known defects (not committed: they fail)


def test_a_trigger_sees_every_keyword_argument_of_its_emit(tmp_path: Path) -> None:
    folder = tmp_path / "primitives"
    shutil.copytree(PRIMITIVES, folder)
    text = (folder / "game.yaml").read_text()
    old = "emit claimed(who=me, orb=c, size=c.size)"
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, "emit claimed(size=max(c.size, 0), who=me, orb=c)"))
    game = load_game(folder)  # today: E101 unknown name 'who' in the trigger big_claim
    engine = Engine(game)
    st = engine.new_game(["Ann", "Bob"], seed=1)
    engine.apply_inplace(st, "acquire:Key")
    engine.apply_inplace(st, "claim:O2")
    assert counter(game, st, "points", ANN) == 12


def test_a_failing_expression_in_a_scenario_condition_is_reported_not_raised(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        f"scenario: bad index\ngame: {PRIMITIVES}\nplayers: [Ann, Bob]\nthen:\n  - circle[7] == Ann\n"
    )
    result = run_scenario_file(scenario)  # today: IndexError escapes
    assert not result.passed
    assert result.error is not None and "s.yaml:5" in result.error


def test_the_generated_end_checks_do_what_the_loop_over_them_does(game: CompiledGame, engine: Engine) -> None:
    from tabula.interpreter.base import rng
    from tabula.interpreter.model.state import clone
    from tabula.interpreter.run.runtime import Runtime

    fused = game.fire_end_checks
    assert fused is not None and fused.__name__ == "_fire_end_checks"
    held = 0
    for seed in range(1, 25):
        st = engine.new_game(["Ann", "Bob", "Cid"], seed=seed, options={"goal": 3})
        bot = rng.seed_state(seed)
        while st["dec"] is not None:
            # as it is (the checks were tested before this decision), and with doom or points at
            # the checks' thresholds (one check or both newly holding)
            for doom, points in ((None, None), (2, None), (None, 3), (2, 3)):
                a = clone(st)
                if doom is not None:
                    a["c"][game.counters["doom"].base] = doom
                if points is not None:
                    a["c"][game.counters["points"].base + seed % 3] = points
                b = clone(a)
                assert fused(Runtime(game, a)) == _loop_end_checks(game, b)
                assert a == b
                held += len(a["t"]["fired"]) - len(st["t"]["fired"])
            engine.apply_inplace(st, rng.below(bot, len(st["dec"]["ids"])))
    assert held > 0  # checks newly holding were marked and pushed the same way by both


def _loop_end_checks(game: CompiledGame, st: dict[str, Any]) -> bool:
    """Runtime.fire_end_checks as it is without the generated function: a loop over the checks."""
    from tabula.interpreter.run.runtime import Runtime

    saved, game.fire_end_checks = game.fire_end_checks, None
    try:
        return Runtime(game, st).fire_end_checks()
    finally:
        game.fire_end_checks = saved
