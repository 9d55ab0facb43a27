"""Tiles with sides (load/tiles.py, run/tiles.py): rotations and mirrors as side permutations, the
work budget charged per side visited, run-time errors in the DSL's words (R015), and the errors of
sides that cannot be read, located (C011). Hand-counted cases on a whole board are the scenarios
of tests/games/edges."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import boards, support, tiles
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


def test_parts_turn_with_their_side_and_face_the_neighbours_parts_in_reverse_order() -> None:
    names = ["n1", "n", "n2", "e1", "e", "e2", "s1", "s", "s2", "w1", "w", "w2"]
    turned = [names[k] for k in tiles._perm(4, 1, 3)]
    assert turned[:6] == ["w1", "w", "w2", "n1", "n", "n2"]  # the west side's parts face north
    mirrored = [names[k] for k in tiles._perm(4, 4, 3)]
    assert mirrored[:4] == ["n2", "n", "n1", "w2"]  # e and w swapped, each side's ends swapped
    assert [names[tiles._across(4, 3, i)] for i in (0, 1, 2, 3, 11)] == ["s2", "s", "s1", "w2", "e1"]
    assert [tiles._across(4, 1, i) for i in range(4)] == [2, 3, 0, 1]  # whole sides, as before


LANES = """\
game: {id: lanes, players: {min: 2, max: 2}}
boards:
  table: {kind: square, size: [2, 1], holds: {}}
components:
  lane:
    sides: {joins: joins, parts: {road: [field, road, field]}}
    properties: {sides: list, joins: list}
    instances:
      - {name: Straight, sides: [road, field, road, field], copies: 2,
         joins: [[n, s], [n2, e1, e, e2, s1], [s2, w1, w, w2, n1]]}
actions:
  wait: {closes_window: true, do: pass}
flow:
  turn:
    phases: [{id: main, do: 'window p: wait'}]
"""


def test_fields_beside_a_road_are_two_features_joined_across_tiles(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(LANES)
    game = load_game(tmp_path)
    rt = Runtime(game, Engine(game).new_game(2))
    rt.budget = 100_000
    a, b = rt.g.boards.tables["table"].cells[0]
    straight = [c.id for c in rt.g.components if c.name == "Straight"]
    assert tiles.rotations(rt, straight[0]) == [0, 1]
    for tile, cell in zip(straight, (a, b), strict=True):
        rt.st["m"]["turn"][tile] = 1  # the road runs w-e
        support.move_component(rt, tile, rt.g.boards.zone_of_cell[cell], False)
    assert tiles.side(rt, a, "e") == "road" and tiles.side(rt, a, "e1") == "field"
    north = [[a, p] for p in ("n1", "n", "n2", "e1")] + [[a, "w2"]]
    assert tiles.feature(rt, a, "n") == north + [[b, p] for p in ("n1", "n", "n2", "e1", "w2")]
    assert tiles.open_ends(rt, tiles.feature(rt, a, "n")) == 8  # its parts along the board's edge
    assert len(tiles.features(rt, ("table", 0), "field")) == 2
    assert len(tiles.features(rt, ("table", 0), "road")) == 1
    with pytest.raises(GameRuntimeError, match="'x' is not a part of a tile of 12 parts"):
        tiles.side(rt, a, "x")


def test_a_road_side_does_not_fit_a_field_side_once_split_into_parts(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(LANES)
    game = load_game(tmp_path)
    rt = Runtime(game, Engine(game).new_game(2))
    rt.budget = 100_000
    a, b = rt.g.boards.tables["table"].cells[0]
    one, two = [c.id for c in rt.g.components if c.name == "Straight"]
    rt.st["m"]["turn"][one] = 1
    support.move_component(rt, one, rt.g.boards.zone_of_cell[a], False)
    assert tiles.fits(rt, two, b, 1) and not tiles.fits(rt, two, b, 0)


def test_parts_that_cannot_be_read_are_located(tmp_path: Path) -> None:
    text = LANES.replace("[field, road, field]}", "[field, road, field], city: [city, city]}")
    (tmp_path / "game.yaml").write_text(text)
    with pytest.raises(AuthorError) as err:
        load_game(tmp_path)
    report = render_report(err.value.report)
    assert (
        "game.yaml:6:34: error[C011]: 'parts' gives each terrain the parts of its side, all 2 or all 3"
        in report
    )
    assert "parts: {road: [field, road, field]}" in report
    (tmp_path / "game.yaml").write_text(LANES.replace("[n, s], [n2", "[n, s], [ne, n2"))
    with pytest.raises(AuthorError) as err:
        load_game(tmp_path)
    report = render_report(err.value.report)
    assert "error[C011]: 'joins' lists groups of sides joined inside the tile; 'ne' is not a side" in report
    assert "(sides: n1 n n2 e1 e e2 s1 s s2 w1 w w2)" in report  # the hint names the parts
