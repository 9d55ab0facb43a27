"""Ticket to Ride on the native backend (issue 33): nothing left that `tabula check --native` lists
(a list used as a condition, `if fit`, is true when it has items, as in Python), and it plays
exactly as on the Python backend: random games at 2-5 players compared decision by decision, whole
playouts drawing the Python choices, its recorded traces replayed. It ships no variant nor
expansion (`tabula variants gamedefs/ticket-to-ride`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_native_equivalence import engines, play_both, playouts_agree, replay_traces_natively

from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import load_game

GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "2"))  # random games per seat count
TRACE_GAMES = int(os.environ.get("TABULA_NATIVE_TRACES", "1"))  # 0: every recorded game
TRACES = Path(__file__).resolve().parent.parent / "traces"
SEATS = (2, 3, 4, 5)


@pytest.mark.slow  # the game loaded and lowered
def test_nothing_left() -> None:
    _, walk = lower_game(load_game("ticket-to-ride"))
    assert [d.message for d in walk.report.diagnostics] == []


@pytest.mark.slow  # whole games on both backends, compared at every decision
@pytest.mark.parametrize("players", SEATS)
def test_random_games(players: int) -> None:
    py, nat = engines(load_game("ticket-to-ride"))
    assert nat.native is not None
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, players, seed) > 50


@pytest.mark.slow  # playouts on each backend
@pytest.mark.parametrize("limit", [1 << 40, 29])
def test_playouts_draw_the_python_choices(limit: int) -> None:
    """Engine.playout in native code against the Python loop: the same decisions, generator words
    and state; stopped by a limit (perhaps at a choice inside `claim`), it goes on as Python's."""
    py, nat = engines(load_game("ticket-to-ride"))
    for players in SEATS:
        for seed in range(1, 3):
            playouts_agree(py, nat, players, seed, limit)


@pytest.mark.slow  # a recorded game of each trace file, hashed at every decision
@pytest.mark.parametrize("trace", sorted(p.name for p in TRACES.glob("ticket-to-ride_*.jsonl.gz")))
def test_traces_replay_on_native(trace: str) -> None:
    assert replay_traces_natively(TRACES / trace, TRACE_GAMES or None) > 0
