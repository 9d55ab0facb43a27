"""Porta Nigra runs natively and plays exactly as on the Python backend: choices inside effects
(master builder, shops, sites, whites, interim scoring, start player, the honour cards' own hooks),
in every variant and expansion, compared decision by decision; whole playouts in native code draw
the Python choices (stopping inside a segment included); recorded traces replay natively."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_native_equivalence import engines, play_both, replay_traces_natively

from tabula.interpreter.base import rng
from tabula.interpreter.engine import load_game
from tabula.interpreter.model.state import semantic_hash
from tabula.interpreter.run.runtime import GameRuntimeError

# random games per configuration and player count (CI: 1, about 230 decisions each); on demand more
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "1"))
# recorded games replayed per trace file (CI: 1); TABULA_NATIVE_TRACES=0 replays every one
TRACE_GAMES = int(os.environ.get("TABULA_NATIVE_TRACES", "1"))
HERE = Path(__file__).resolve().parent
TRACES = HERE.parent / "traces"
CONFIGS = [(None, ()), ("family", ()), ("short-game", ()), (None, ("honour-plus",))]


@pytest.mark.slow  # whole games on both backends, compared at every decision
@pytest.mark.parametrize(("variant", "expansions"), CONFIGS)
def test_porta_nigra_random_games(variant: str | None, expansions: tuple[str, ...]) -> None:
    py, nat = engines(load_game("porta-nigra", variant=variant, expansions=expansions))
    for players in (2, 3, 4):
        for seed in range(1, GAMES + 1):
            assert play_both(py, nat, players, seed) > 100


def test_porta_nigra_choices_inside_effects_stay_native() -> None:
    """A choice inside an effect is posed by native code (kind 2) and answered there: the state
    stays in native words, its plain form is Python's (frames and decision), and a save of it loads."""
    py, nat = engines(load_game("porta-nigra"))
    st = nat.new_game(2, 1)
    plain = nat.plain(st)
    assert plain["dec"]["k"] == "choose" and nat.native.choosing(st)  # type: ignore[union-attr]
    assert plain == py.new_game(2, 1)
    assert nat.legal_ids(st) == ["0", "1", "2", "3"]
    assert [c.prompt for c in nat.legal_actions(st)] == ["Place your master builder in any quarter, free"] * 4
    who = plain["dec"]["p"]
    nat.apply_inplace(st, "2")
    assert st.plain is None  # type: ignore[attr-defined]
    after = nat.plain(st)
    assert after["v"]["builder"][who] == 2 and after["dec"]["k"] == "window" and after["dec"]["p"] == who
    loaded = nat.from_json(nat.to_json(st))
    assert nat.plain(loaded) == nat.plain(st)


@pytest.mark.slow  # 30 playouts on each backend
@pytest.mark.parametrize("limit", [1 << 40, 1, 37, 150])
def test_porta_nigra_playouts_draw_the_python_choices(limit: int) -> None:
    """Engine.playout in native code (choices inside effects answered inline) against the Python
    loop: the same decisions taken, generator words and final state; a limit that falls inside a
    segment leaves the native state at that choice, which goes on as Python's does."""
    py, nat = engines(load_game("porta-nigra", expansions=("honour-plus",)))
    stopped_inside = 0
    for players in (2, 3, 4):
        for seed in range(1, 11):
            a, b = py.new_game(players, seed), nat.new_game(players, seed)
            ga, gb = rng.seed_state(seed), rng.seed_state(seed)
            assert py.playout(a, ga, limit) == nat.playout(b, gb, limit)
            assert ga == gb and semantic_hash(a) == semantic_hash(nat.plain(b)), (players, seed)
            assert b.plain is None  # type: ignore[attr-defined]
            if a["dec"] is not None and a["dec"]["k"] == "choose":
                stopped_inside += 1
                assert nat.playout(b, gb) == py.playout(a, ga)
                assert semantic_hash(a) == semantic_hash(nat.plain(b))
            if limit > 1000:
                assert nat.ranking_keys(b) == py.ranking_keys(a)
    if limit == 37:
        assert stopped_inside > 0


@pytest.mark.slow  # a recorded game of each Porta Nigra trace file, hashed at every decision
@pytest.mark.parametrize("name", sorted(p.name for p in TRACES.glob("porta-nigra*.jsonl.gz")))
def test_porta_nigra_traces_replay_on_native(name: str) -> None:
    assert replay_traces_natively(TRACES / name, TRACE_GAMES or None) > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_choices_inside_effects_random_games(players: int) -> None:
    """tests/native/games/pick: a choice in setup (the first segment starts before any window),
    before a phase's window, optional in an action, in a loop of a round's end, in a card's hook."""
    py, nat = engines(load_game(HERE / "games" / "pick"))
    for seed in range(1, 4):
        assert play_both(py, nat, players, seed) >= 3 * players


@pytest.mark.parametrize(("trap", "code"), [(1, "R011"), (2, "R008")])
def test_a_failing_choice_is_reported_by_python(trap: int, code: str) -> None:
    """A choice without options, or by none: native code stops, Python says where (the same
    message, code and place), in the same decision."""
    py, nat = engines(load_game(HERE / "games" / "pick", {"trap": trap}))
    assert play_both(py, nat, 2, 1) >= 0
    with pytest.raises(GameRuntimeError) as err:
        st = py.new_game(2, 1)
        while not py.is_terminal(st):
            py.apply_inplace(st, 0)
    assert err.value.code == code and err.value.span is not None
    # in a batch of playouts (one native call), that game is played again alone: Python says so too
    with pytest.raises(GameRuntimeError) as want:
        py.playouts(2, [1, 2], [rng.seed_state(1), rng.seed_state(2)])
    with pytest.raises(GameRuntimeError) as got:
        nat.playouts(2, [1, 2], [rng.seed_state(1), rng.seed_state(2)])
    assert (got.value.message, got.value.code, got.value.span) == (want.value.message, code, want.value.span)
