"""Tiles with sides (load/tiles.py, run/tiles.py): rotations and mirrors as side permutations, the
work budget charged per side visited, run-time errors in the DSL's words (R015), and the errors of
sides that cannot be read, located (C011). Hand-counted cases on a whole board are the scenarios
of tests/games/edges."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import boards, tiles
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture(scope="module")
def rt() -> Runtime:
    game = load_game(GAMES / "edges")
    return Runtime(game, Engine(game).new_game(2))


def _tile(rt: Runtime, name: str) -> int:
    return next(c.id for c in rt.g.components if c.name == name)


def test_a_turn_moves_each_side_one_step_clockwise_and_a_mirror_swaps_east_and_west() -> None:
    sides = ["N", "E", "S", "W"]
    assert [sides[k] for k in tiles._perm(4, 1)] == ["W", "N", "E", "S"]
    assert [sides[k] for k in tiles._perm(4, 4)] == ["N", "W", "S", "E"]  # mirrored
    assert [sides[k] for k in tiles._perm(4, 5)] == ["E", "N", "W", "S"]  # mirrored, then turned
    hexes = ["e", "se", "sw", "w", "nw", "ne"]
    assert [hexes[k] for k in tiles._perm(6, 1)] == ["ne", "e", "se", "sw", "w", "nw"]
    assert [hexes[k] for k in tiles._perm(6, 6)] == ["w", "sw", "se", "e", "ne", "nw"]


def test_the_tile_builtins_charge_each_side_they_visit(rt: Runtime) -> None:
    rt.budget = 1000
    assert tiles.rotations(rt, _tile(rt, "Curve")) == [0, 1, 2, 3]
    assert rt.budget == 1000 - 16  # four sides of four rotations
    rt.budget = 3
    with pytest.raises(GameRuntimeError) as err:
        tiles.rotations(rt, _tile(rt, "Curve"))
    assert err.value.code == "R002"


def test_a_component_without_sides_or_a_wrong_rotation_is_a_run_time_error(rt: Runtime) -> None:
    rt.budget = 1000
    cell = rt.g.boards.tables["table"].cells[0][0]
    with pytest.raises(GameRuntimeError, match="a1 is not a tile"):
        tiles.rotations(rt, cell)
    with pytest.raises(GameRuntimeError, match="a rotation of Curve is a number from 0 to 3, got 4"):
        tiles.fits(rt, _tile(rt, "Curve"), cell, 4)
    with pytest.raises(GameRuntimeError, match="'ne' is not a side of a tile of 4 sides"):
        tiles.open_ends(rt, [[cell, "ne"]])


def test_sides_that_cannot_be_read_are_located(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(
        "game: {id: b, players: {min: 2, max: 2}}\n"
        "components:\n"
        "  t:\n"
        "    sides: {joins: joins}\n"
        "    instances:\n"
        "      - {name: A, sides: [road, road, field]}\n"
        "      - {name: B, sides: [road, road, field, field], joins: [[n, e], [n]]}\n"
        "flow:\n  turn:\n    phases: [{id: main, do: 'pass'}]\n"
    )
    with pytest.raises(AuthorError) as err:
        load_game(tmp_path)
    text = render_report(err.value.report)
    assert "game.yaml:6:26: error[C011]: a tile's 'sides' is a list of its 4 sides (n e s w)" in text
    assert "sides: [road, field, road, field]" in text  # the hint
    joins = "game.yaml:7:61: error[C011]: 'joins' lists groups of sides joined inside the tile;"
    assert joins + " 'n' is named twice" in text


def test_the_frontier_is_the_empty_cells_next_to_laid_ones_charged_per_cell(rt: Runtime) -> None:
    table = rt.g.boards.tables["table"]
    rt.budget = 1000
    assert boards.frontier(rt, ("table", 0)) == []  # nothing laid
    assert rt.budget == 1000 - 9 - sum(len(n) for n in table.geometry.neighbours)
