"""Porta Nigra conservation laws, checked after every choice of seeded random games.

90 bricks across the supply, the market, the players' boards and the sites; 15 Romans per colour
across the area, the reserve and the elements on the board; every component in exactly one place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter import rng
from interpreter.dsl.parser import PlainOrigin
from interpreter.engine import Engine, load_game
from interpreter.model import Closure
from interpreter.runtime import Runtime
from interpreter.source import Report

ROOT = Path(__file__).resolve().parent.parent
GAME = load_game(ROOT / "gamedefs" / "porta-nigra")
BRICKS = (
    "brick_supply + sum(market(c) for c in colours)"
    " + sum(sum(bricks(q, c) for c in colours) for q in players)"
    " + sum(s.height for s in sites)"
)
ROMANS = "[romans(q) + roman_reserve(q) + count(s for s in sites where s.owned_by == q) for q in players]"


def compile_check(text: str) -> Closure:
    report = Report()
    f = GAME.snippets.expr(text, PlainOrigin("test_porta_nigra.py"), report, {})
    assert f is not None and not report.has_errors, report.diagnostics
    return f


def check_places(st: dict[str, Any]) -> None:
    seen: dict[int, int] = {}
    for zi, zone in enumerate(st["z"]):
        for cid in zone:
            assert cid not in seen, f"{GAME.components[cid].key} is in two zones"
            seen[cid] = zi
    for cid, loc in enumerate(st["loc"]):
        key = GAME.components[cid].key
        assert seen.get(cid, -1) == loc, f"{key}: location {loc}, found in {seen.get(cid)}"
        owner = GAME.components[cid].props.get("owner")
        if owner is None or owner < st["t"]["n"]:
            assert loc >= 0, f"{GAME.components[cid].key} is nowhere"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conservation_in_random_games(players: int) -> None:
    engine = Engine(GAME)
    bricks, romans = compile_check(BRICKS), compile_check(ROMANS)
    for seed in (11, 12):
        st = engine.new_game(players, seed=seed)
        bot = rng.seed_state(seed)
        while True:
            rt = Runtime(GAME, st)
            rt.loc = {}
            assert bricks(rt) == 90
            assert romans(rt) == [15] * players
            check_places(st)
            if engine.is_terminal(st):
                break
            engine.apply_inplace(st, rng.below(bot, len(st["dec"]["ids"])))
