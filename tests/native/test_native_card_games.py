"""Coup, Sushi Go and Hanabi on the native backend (issue 33): nothing left that `tabula check
--native` lists, and each plays exactly as on the Python backend: random games of every option
compared decision by decision, whole playouts drawing the Python choices, recorded traces replayed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_native_equivalence import engines, play_both, playouts_agree, replay_traces_natively

from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import load_game

GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "2"))  # random games per configuration
TRACE_GAMES = int(os.environ.get("TABULA_NATIVE_TRACES", "1"))  # 0: every recorded game
TRACES = Path(__file__).resolve().parent.parent / "traces"
# each game with the options it ships (none of them has variants or expansions), and its seats
CONFIGS: list[tuple[str, dict[str, object], tuple[int, ...]]] = [
    ("coup", {}, (2, 3, 4, 5, 6)),
    ("coup", {"response_order": "counterclockwise"}, (2, 3, 6)),
    ("coup", {"two_player_first_coin": True}, (2,)),
    ("sushi-go", {}, (2, 3, 4, 5)),
    ("hanabi", {}, (2, 3, 4, 5)),
]
NAMES = sorted({name for name, _, _ in CONFIGS})


@pytest.mark.slow  # each game loaded and lowered
@pytest.mark.parametrize("name", NAMES)
def test_nothing_left(name: str) -> None:
    _, walk = lower_game(load_game(name))
    assert [d.message for d in walk.report.diagnostics] == []


@pytest.mark.slow  # whole games on both backends, compared at every decision
@pytest.mark.parametrize(("name", "options", "seats"), CONFIGS)
def test_random_games(name: str, options: dict[str, object], seats: tuple[int, ...]) -> None:
    """Random games on both backends: choice ids, legal actions, frames, decision and state hash
    compared at every decision (tests/native/test_native_equivalence.py)."""
    py, nat = engines(load_game(name, options or None))
    for players in seats:
        for seed in range(1, GAMES + 1):
            assert play_both(py, nat, players, seed) > 0


@pytest.mark.slow  # playouts on each backend
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("limit", [1 << 40, 23])
def test_playouts_draw_the_python_choices(name: str, limit: int) -> None:
    """Engine.playout in native code against the Python loop: the same decisions, generator words
    and state; stopped by a limit, the native state goes on as Python's does."""
    py, nat = engines(load_game(name))
    seats = next(s for n, _, s in CONFIGS if n == name)
    for players in seats:
        for seed in range(1, 4):
            playouts_agree(py, nat, players, seed, limit)


@pytest.mark.slow  # a recorded game of each trace file, hashed at every decision
@pytest.mark.parametrize("trace", sorted(p.name for name in NAMES for p in TRACES.glob(f"{name}_*.jsonl.gz")))
def test_traces_replay_on_native(trace: str) -> None:
    assert replay_traces_natively(TRACES / trace, TRACE_GAMES or None) > 0
