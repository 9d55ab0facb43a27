"""Boards declared in YAML (load/boards.py): the components, zones and geometry a board makes, and
the errors of a board that cannot be read, located in `boards:` (C010, S003)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import load_game
from tabula.interpreter.load.boards import column_name, geometry

HEAD = "game: {id: b, players: {min: 2, max: 3}}\n"
FLOW = "flow:\n  turn:\n    phases: [{id: main, do: 'pass'}]\n"


def folder_with(tmp_path: Path, boards: str, extra: str = "") -> Path:
    (tmp_path / "game.yaml").write_text(HEAD + "boards:\n" + boards + extra + FLOW)
    return tmp_path


def errors(folder: Path) -> str:
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return render_report(err.value.report)


def test_a_square_board_is_one_component_per_cell_named_as_chess_names_squares(tmp_path: Path) -> None:
    game = load_game(folder_with(tmp_path, "  grid: {kind: square, size: [3, 2], marks: {colour: none}}\n"))
    cells = [game.components[i] for i in game.by_type["grid"]]
    assert [c.name for c in cells] == ["a1", "b1", "c1", "a2", "b2", "c2"]
    assert [(c.props["x"], c.props["y"]) for c in cells] == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    assert game.marks["colour"] is None
    table = game.boards.tables["grid"]
    assert table.cells == [game.by_type["grid"]]
    assert table.geometry.step["e"] == [1, 2, -1, 4, 5, -1]  # no wrap at the edge


def test_a_mask_leaves_out_cells_and_their_neighbours(tmp_path: Path) -> None:
    boards = "  ring: {kind: square, size: [3, 3], mask: ['###', '#.#', '###'], diagonal: true}\n"
    game = load_game(folder_with(tmp_path, boards))
    geo = game.boards.tables["ring"].geometry
    assert len(geo.names) == 8 and "b2" not in geo.names
    assert sorted(geo.names[j] for j in geo.neighbours[geo.names.index("a1")]) == ["a2", "b1"]


def test_a_per_player_board_is_one_copy_per_seat_each_with_its_zones(tmp_path: Path) -> None:
    boards = "  quilt: {kind: square, size: [2, 2], per: player, holds: {visibility: owner}}\n"
    game = load_game(folder_with(tmp_path, boards))
    table = game.boards.tables["quilt"]
    assert len(table.cells) == 3  # max players
    assert [game.components[c].props["owner"] for c in table.cells[2]] == [2, 2, 2, 2]
    zone = game.zones["on_quilt(a1)"]
    assert zone.per_player and zone.visibility == "owner"
    assert game.boards.zone_of_cell[table.cells[1][0]] == zone.base + 1


def test_a_graph_board_makes_spaces_and_edges_with_their_properties(tmp_path: Path) -> None:
    boards = (
        "  map:\n    kind: graph\n    spaces: {A: {at: [0, 0]}, B: {at: [3, 1]}, C: {at: [1, 1]}}\n"
        "    edges: [{from: A, to: B, length: 2, colour: red}, {from: A, to: B, length: 2},\n"
        "            {from: B, to: C}]\n"
        "    edge_marks: {owner: none}\n"
    )
    game = load_game(folder_with(tmp_path, boards))
    edges = [game.components[i] for i in game.by_type["map_edge"]]
    assert [e.key for e in edges] == ["A-B#1", "A-B#2", "B-C"]  # a double route: two copies
    assert edges[0].props["ends"] == ["A", "B"] and edges[0].props["length"] == 2
    geo = game.boards.tables["map"].geometry
    assert geo.neighbours == [[1], [0, 2], [1]]
    assert geo.incident == [[0, 1], [0, 1, 2], [2]]


def test_the_halves_of_a_double_route_are_drawn_side_by_side(tmp_path: Path) -> None:
    """A graph's edge is a line from the rim of one space's dot to the rim of the other's; edges
    joining the same two spaces are moved apart across the line between them, so that each can be
    seen and clicked (authoring/maplayout.py)."""
    boards = (
        "  map:\n    kind: graph\n    spaces: {A: {at: [0, 0]}, B: {at: [4, 0]}, C: {at: [0, 2]}}\n"
        "    edges: [{from: A, to: B}, {from: B, to: A}, {from: A, to: C}]\n"
    )
    game = load_game(folder_with(tmp_path, boards))
    areas = game.presentation.layout.table.areas
    centre = {a.choice: (a.x + a.w / 2, a.y + a.h / 2) for a in areas if a.shape == "dot"}
    line = {a.choice: a.line for a in areas if a.shape == "edge"}
    (ax, ay), (bx, by), (cx, cy) = centre["A"], centre["B"], centre["C"]
    # a small map is scaled up to 6 cells across: 1.5 cells a unit of `at:`
    assert (bx - ax, by - ay, cx - ax, cy - ay) == pytest.approx((6, 0, 0, 3))
    rim, half = 0.145 + 0.06, 0.17 / 2  # a dot's radius and a little; half the room between twins
    assert line["A-B"] == pytest.approx((ax + rim, ay - half, bx - rim, ay - half), abs=1e-3)
    assert line["B-A"] == pytest.approx((bx - rim, ay + half, ax + rim, ay + half), abs=1e-3)  # from B
    assert line["A-C"] == pytest.approx((ax, ay + rim, ax, cy - rim), abs=1e-3)  # alone: centre to centre


def test_hex_directions_are_axial() -> None:
    geo = geometry({"kind": "hex", "size": [3, 3]})
    centre = geo.index(1, 1)
    assert len(geo.neighbours[centre]) == 6
    assert {geo.coords[geo.step[d][centre]] for d in geo.directions} == {
        (2, 1),
        (2, 0),
        (1, 0),
        (0, 1),
        (0, 2),
        (1, 2),
    }


def test_columns_after_z_are_named_as_spreadsheets_name_them() -> None:
    assert [column_name(x) for x in (0, 25, 26, 27, 52)] == ["a", "z", "aa", "ab", "ba"]


def test_errors_of_boards_are_located_and_reported_together(tmp_path: Path) -> None:
    boards = (
        "  grid: {kind: square, size: [3, 2], mask: ['###', '#x#']}\n"
        "  map:\n    kind: graph\n    spaces: {A: {at: [0, 0]}, B: {at: [1, 0]}}\n"
        "    edges: [{from: A, to: Bb}]\n"
        "  hexy: {kind: hex}\n"
        "  odd: {kind: circle}\n"
    )
    text = errors(folder_with(tmp_path, boards))
    assert "game.yaml:3:52: error[C010]: row 1 of the mask must be 3 characters, each '#' or '.'" in text
    assert "game.yaml:7:27: error[C010]: edge 0 joins the unknown space 'Bb'" in text
    assert "did you mean 'B'?" in text
    assert "game.yaml:8:3: error[C010]: a hex board needs a size [width, height]" in text
    assert "error[S003]: 'boards.odd.kind' must be one of 'square', 'hex' or 'graph'" in text


def test_a_board_named_as_a_component_type_is_refused(tmp_path: Path) -> None:
    extra = "components:\n  grid: {instances: [{name: X}]}\n"
    text = errors(folder_with(tmp_path, "  grid: {kind: square, size: [2, 2]}\n", extra))
    assert (
        "game.yaml:3:3: error[C010]: board 'grid' makes the component type 'grid', which is declared too"
        in text
    )
