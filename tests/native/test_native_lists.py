"""Lists as values, `none` given for typed parameters, number-keyed tables, enum names as lists and
the `simultaneous` statement on the native backend (issue 33), each played by a small fixture game
(tests/native/games) against the Python backend, decision by decision."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_native_equivalence import engines, play_both

from tabula.interpreter.base import rng
from tabula.interpreter.engine import load_game
from tabula.interpreter.model.state import semantic_hash

HERE = Path(__file__).resolve().parent
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "6"))


def _both(name: str, options: dict[str, object] | None, players: int) -> None:
    py, nat = engines(load_game(HERE / "games" / name, options))
    for seed in range(1, GAMES + 1):
        assert play_both(py, nat, players, seed) > 0
        a, b = py.new_game(players, seed), nat.new_game(players, seed)
        ga, gb = rng.seed_state(seed), rng.seed_state(seed)
        assert py.playout(a, ga) == nat.playout(b, gb)
        assert ga == gb and semantic_hash(a) == semantic_hash(nat.plain(b))


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("backwards", [False, True])
def test_list_values(players: int, backwards: bool) -> None:
    """tests/native/games/order: `list(...)` of a list, a zone and a generator, `reversed`, a list
    local walked with a window inside, `none` given for a `player` parameter."""
    _both("order", {"backwards": backwards}, players)
