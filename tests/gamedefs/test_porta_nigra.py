"""Porta Nigra conservation laws, checked after every choice of seeded random games.

90 bricks across the supply, the market, the players' boards and the sites; 15 Romans per colour
across the area, the reserve and the elements on the board; every component in exactly one place.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import places
import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import Report
from tabula.interpreter.dsl.parser import PlainOrigin
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.game import Closure, CompiledGame
from tabula.interpreter.run.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]
BRICKS = (
    "brick_supply + sum(market(c) for c in colours)"
    " + sum(sum(bricks(q, c) for c in colours) for q in players)"
    " + sum(s.height for s in sites)"
)
ROMANS = "[romans(q) + roman_reserve(q) + count(s for s in sites where s.owned_by == q) for q in players]"


@functools.cache
def porta_nigra() -> CompiledGame:
    """The game, compiled on first use (not at collection)."""
    return load_game(ROOT / "gamedefs" / "porta-nigra")


def compile_check(text: str) -> Closure:
    report = Report()
    f = porta_nigra().snippets.expr(text, PlainOrigin("test_porta_nigra.py"), report, {})
    assert f is not None and not report.has_errors, report.diagnostics
    return f


def check_places(st: dict[str, Any]) -> None:
    """Every component in one place; the action cards of absent seats may stay out of play."""
    owners = [c.props.get("owner") for c in porta_nigra().components]
    places.check_places(porta_nigra(), st, [c for c, o in enumerate(owners) if o is None or o < st["t"]["n"]])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conservation_in_random_games(players: int) -> None:
    engine = Engine(porta_nigra())
    bricks, romans = compile_check(BRICKS), compile_check(ROMANS)
    for seed in (11, 12):
        st = engine.new_game(players, seed=seed)
        bot = rng.seed_state(seed)
        while True:
            rt = Runtime(porta_nigra(), st)
            rt.loc = {}
            assert bricks(rt) == 90
            assert romans(rt) == [15] * players
            check_places(st)
            if engine.is_terminal(st):
                break
            engine.apply_inplace(st, rng.below(bot, len(st["dec"]["ids"])))
