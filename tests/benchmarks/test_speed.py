"""Speed benchmarks (pytest-benchmark). Disabled timing by default (`--benchmark-disable` in addopts:
each runs once as a plain test); measure with `pytest tests/benchmarks --benchmark-enable`.

Measured: random games per second, legal-action enumerations per second, microseconds per clone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import clone
from tabula.interpreter.run.runtime import Runtime

# Benchmarks measure; as plain tests they only run whole games once: the full suite runs them.
pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = {"mini": ROOT / "tests" / "games" / "mini"}
if (ROOT / "gamedefs" / "porta-nigra" / "flow.yaml").exists():
    GAMES["porta-nigra"] = ROOT / "gamedefs" / "porta-nigra"
PLAYERS = {"mini": [2, 3], "porta-nigra": [2, 3, 4]}
CASES = [(name, n) for name in GAMES for n in PLAYERS[name]]


def random_game(engine: Engine, players: int, seed: int) -> dict[str, Any]:
    st = engine.new_game(players, seed=seed)
    bot = rng.seed_state(seed)
    while st["dec"] is not None:
        engine.apply_inplace(st, rng.below(bot, len(st["dec"]["ids"])))
    return st


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{c[0]}-{c[1]}p" for c in CASES])
def test_random_games(benchmark: Any, name: str, players: int) -> None:
    engine = Engine(load_game(GAMES[name]))
    seeds = iter(range(1, 1_000_000))
    st = benchmark(lambda: random_game(engine, players, next(seeds)))
    assert st["dec"] is None


@pytest.mark.parametrize("name", list(GAMES))
def test_clone(benchmark: Any, name: str) -> None:
    engine = Engine(load_game(GAMES[name]))
    st = engine.new_game(PLAYERS[name][-1], seed=1)
    copy = benchmark(clone, st)
    assert copy == st and copy is not st


def recompute(engine: Engine, st: dict[str, Any]) -> list[str]:
    """Recompute a state's legal choices from scratch (re-run the step that asks)."""
    s = clone(st)
    fr = s["stk"][-1]
    if s["dec"]["k"] == "choose":
        fr[1] -= 1
    s["dec"] = None
    Runtime(engine.game, s).run()
    ids: list[str] = s["dec"]["ids"]
    return ids


@pytest.mark.parametrize("name", list(GAMES))
def test_legal_action_enumeration(benchmark: Any, name: str) -> None:
    """Legal choices of every decision of one random game, recomputed (one round = all of them)."""
    engine = Engine(load_game(GAMES[name]))
    st = engine.new_game(PLAYERS[name][-1], seed=1)
    bot = rng.seed_state(1)
    states = []
    while st["dec"] is not None:
        states.append(clone(st))
        engine.apply_inplace(st, rng.below(bot, len(st["dec"]["ids"])))

    def enumerate_all() -> int:
        return sum(len(recompute(engine, s)) for s in states)

    total = benchmark(enumerate_all)
    assert total == sum(len(s["dec"]["ids"]) for s in states)
    benchmark.extra_info["decisions"] = len(states)
