"""Patchwork (issue 28 item 7), the bundled polyomino-placement game on a personal 9x9 quilt.

- Random games end with both time tokens on the last space, every patch in one place, each
  covered square covered by a patch its owner bought, and one winner (ties go to the first home).
- The 33 patches match the published totals the data was checked against.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def patchwork() -> Engine:
    return Engine(load_game(ROOT / "gamedefs" / "patchwork"))


def test_the_patches_are_33_with_5_leather_patches_beside() -> None:
    comps = patchwork().game.components
    patches = [c for c in comps if c.type == "patch" and c.props.get("space") is None]
    leather = [c for c in comps if c.type == "patch" and c.props.get("space") is not None]
    assert len(patches) == 33 and sorted(c.props["space"] for c in leather) == [20, 26, 32, 44, 50]
    for c in patches:  # each shape's size is its number of squares, every square once
        shape = [tuple(xy) for xy in c.props["shape"]]
        assert len(set(shape)) == len(shape) == c.props["size"], c.name
    # the totals of the data as recorded (166 squares, 38 buttons of income, 133 buttons of cost)
    assert sum(c.props["size"] for c in patches) == 166
    assert sum(c.props["income"] for c in patches) == 38
    assert sum(c.props["cost"] for c in patches) == 133


@pytest.mark.slow  # two random games
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_end_with_every_square_covered_by_its_owners_patch(seed: int) -> None:
    engine = patchwork()
    g = engine.game
    st = engine.new_game(2, seed=seed)
    gen = rng.seed_state(seed)
    while not engine.is_terminal(st):
        engine.apply_inplace(st, engine.random_choice(st, gen))
    quilt = g.boards.tables["quilt"]
    for seat in (0, 1):
        pieces = set(st["z"][g.zones["pieces"].base + seat])
        sewn = st["m"]["sewn"]
        covered = [sewn[cid] for cid in quilt.cells[seat] if sewn[cid] is not None]
        assert set(covered) <= pieces  # only patches the player took
        for pid in set(covered):  # a patch covers as many squares as it has
            assert covered.count(pid) == g.components[pid].props["size"]
    placed = sorted(c for zone in st["z"] for c in zone)
    assert placed == sorted({c for zone in st["z"] for c in zone}) and len(placed) == 38
    assert len(engine.winners(st)) == 1  # a tie goes to the first player home: one winner
