"""A graph board drawn by default (authoring/maplayout.py): scaled so that no two names meet, each
name on the side of its dot that no edge crosses, an edge drawn as its length's segments in its
colour. The page's drawing of it is tested in tests/browser (test_browser_ticket_to_ride.py)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tabula.interpreter.authoring.maplayout import (
    DOT,
    GREY,
    colour_of,
    lay_out_map,
    name_box,
    segments_of,
)
from tabula.interpreter.engine import load_game
from tabula.interpreter.model.boards import BoardTable

GAMES = Path(__file__).resolve().parents[2] / "gamedefs"
HEAD = "game: {id: m, players: {min: 2, max: 3}}\n"
FLOW = "flow:\n  turn:\n    phases: [{id: main, do: 'pass'}]\n"


def board(tmp_path: Path, spaces: str, edges: str) -> BoardTable:
    text = f"boards:\n  map:\n    kind: graph\n    spaces: {spaces}\n    edges: {edges}\n"
    (tmp_path / "game.yaml").write_text(HEAD + text + FLOW)
    return load_game(tmp_path).boards.tables["map"]


def meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_no_two_names_of_the_usa_map_meet_nor_a_name_and_another_dot() -> None:
    game = load_game(GAMES / "ticket-to-ride")
    table = game.boards.tables["map"]
    drawn = lay_out_map(table, False, [segments_of(game.components[e].props) for e in table.edges[0]])
    names = table.geometry.names
    boxes = [name_box(s, x, y, n) for s, (x, y), n in zip(drawn.sides, drawn.spots, names, strict=True)]
    for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2):
        assert not meet(a, b), (names[i], names[j])
    for i, (x, y) in enumerate(drawn.spots):
        dot = (x - DOT / 2, y - DOT / 2, x + DOT / 2, y + DOT / 2)
        assert not any(meet(dot, b) for j, b in enumerate(boxes) if j != i), names[i]
    # everything on the map: no name or dot past its edges
    assert all(b[0] >= 0 and b[2] <= drawn.width and b[1] >= 0 and b[3] <= drawn.height for b in boxes)
    # 56 px a cell: ~1080 px, drawn at 80 % or more in the page's 1000 px panel (names of 9.6 px+)
    assert drawn.width * 56 <= 1000 / 0.8


def test_a_name_moves_off_an_edge_that_leaves_its_dot_downwards(tmp_path: Path) -> None:
    """A is above B, joined by an edge: below A the edge would cross A's name, so it goes above;
    B's name stays below (the first side in order, A to C runs to its right)."""
    table = board(
        tmp_path,
        "{A: {at: [0, 0]}, B: {at: [0, 2]}, C: {at: [3, 2]}}",
        "[{from: A, to: B}, {from: B, to: C}]",
    )
    assert lay_out_map(table, False, [0, 0]).sides == ["above", "below", "below"]


def test_a_long_edge_of_close_spaces_scales_the_map_up_to_hold_its_segments(tmp_path: Path) -> None:
    table = board(tmp_path, "{A: {at: [0, 0]}, B: {at: [1, 0]}, C: {at: [20, 0]}}", "[{from: A, to: B}]")
    short = lay_out_map(table, False, [1]).spots
    long = lay_out_map(table, False, [6]).spots
    assert long[1][0] - long[0][0] > short[1][0] - short[0][0]
    assert long[1][0] - long[0][0] >= DOT + 6 * 0.28  # each segment 0.28 cells or more


def test_an_edge_is_drawn_as_its_length_in_segments_and_in_its_colour() -> None:
    assert [segments_of({"length": n}) for n in (1, 4, 12, 13, 0, True, "3")] == [1, 4, 12, 0, 0, 0, 0]
    assert segments_of({}) == 0  # no length: one line
    colours = {"yellow": "#d4ac0d"}  # the presentation's own, first
    assert colour_of({"colour": "yellow"}, colours) == "#d4ac0d"
    assert colour_of({"colour": "blue"}, colours) == "#2e86de"  # a colour word
    assert colour_of({"color": "#123456"}, colours) == "#123456"
    assert colour_of({"colour": "rainbow"}, colours) == GREY  # names no colour
    assert colour_of({"length": 3}, colours) == GREY


def test_a_map_whose_spaces_hold_pieces_draws_them_as_circles_holding_their_zones(tmp_path: Path) -> None:
    text = (
        "boards:\n  map:\n    kind: graph\n    holds: {}\n"
        "    spaces: {A: {at: [0, 0]}, B: {at: [1, 0]}}\n    edges: [{from: A, to: B, length: 2}]\n"
    )
    (tmp_path / "game.yaml").write_text(HEAD + text + FLOW)
    areas = load_game(tmp_path).presentation.layout.table.areas
    a, b, edge = areas
    assert (a.kind, a.shape, a.name, a.w) == ("zone", "circle", "on_map(A)", 0.9)
    assert b.x - a.x >= 0.9  # the circles apart
    assert edge.shape == "edge" and edge.segments == 2
    assert edge.line is not None and edge.line[0] == pytest.approx(a.x + 0.9 + 0.06, abs=1e-3)  # from A's rim
