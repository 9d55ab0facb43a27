"""Boards that grow on the screens (issue 37, docs/presentation.md "Boards"): a board that grows is
drawn from the cells it has so far, each at its x/y marks, in their bounding box with a margin of
one cell, titled with its coordinates; a cell not added yet is neither drawn nor listed as an empty
zone; a choice, a label and a log line name a cell by its coordinates (`x=1, y=0`), not by the
order it was added in (`land3`); the terminal draws the board too. And a tile type whose mirror
images are rotations (`sides: {mirror: true}`, tests/games/turned --variant mirrored) is drawn
mirrored where it lies mirrored, and its piece previewed mirrored where the choice says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import visible_log
from tabula.play.board import build_board
from tabula.play.choicelog import apply_named
from tabula.play.grid import grid_lines
from tabula.play.layout import DrawnBoard
from tabula.play.screen import choice_cell

GAMES = Path(__file__).resolve().parents[1] / "games"


def cells_of(engine: Engine, st: dict[str, Any], board: str) -> dict[str, tuple[int, int]]:
    g = engine.game
    return {
        g.components[c].name: (st["m"]["x"][c], st["m"]["y"][c])
        for c in g.boards.tables[board].cells[0]
        if st["m"]["x"][c] is not None
    }


def cell_places(drawn: DrawnBoard) -> dict[str, tuple[float, float, str]]:
    return {p.choice or "": (p.x, p.y, p.title) for p in drawn.places if p.ids}


def test_a_growing_board_is_drawn_from_its_cells_coordinates_in_their_box_and_a_margin() -> None:
    engine = Engine(load_game(GAMES / "sprawl"))
    st = engine.new_game(2, 3)
    log: list[dict[str, Any]] = []
    for _ in range(3):
        apply_named(engine, st, engine.legal_ids(st)[-1], log)
    cells = cells_of(engine, st, "table")
    assert len(cells) > 5
    drawn = build_board(engine, st, 0).table.board
    assert drawn is not None and drawn.grid
    places = cell_places(drawn)
    assert set(places) == set(cells)  # every cell it has, and no cell of the pool not added yet
    x0, y0 = min(x for x, _ in cells.values()), min(y for _, y in cells.values())
    for name, (x, y) in cells.items():  # one cell of margin on the left and the top
        assert places[name] == (x - x0 + 1, y - y0 + 1, f"{x},{y}"), name
    x1, y1 = max(x for x, _ in cells.values()), max(y for _, y in cells.values())
    assert (drawn.width, drawn.height) == (x1 - x0 + 3, y1 - y0 + 3)
    laid = [p for p in drawn.places if p.cards]
    assert len(laid) == 3 and all(p.cards[0].title in ("Red", "Blue") for p in laid)
    # the pool's cells not added yet are not listed as empty zones
    rows = [ln.name for s in build_board(engine, st, 0).table.sections for ln in s.lines]
    assert not [r for r in rows if r.startswith("on_table(") and r[9:-1] not in cells], rows
    # the choices, and the log, name the cells by their coordinates
    dec = build_board(engine, st, st["dec"]["p"]).decision
    assert dec is not None
    for choice in dec.choices:
        x, y = cells[choice.id.removeprefix("lay:")]
        assert choice.label == f"lay: x={x}, y={y}", choice
    lines = [str(line) for line in visible_log(log, 0)]
    assert lines[0].endswith(": lay: x=0, y=0"), lines  # the first tile, on the first cell, [0, 0]


def test_carcassonne_open_table_labels_and_the_terminal_draw_the_growing_table() -> None:
    engine = Engine(load_game("carcassonne", variant="open-table"))
    st = engine.new_game(2, 5)
    board = build_board(engine, st, st["dec"]["p"])
    cells = cells_of(engine, st, "land")
    assert sorted(cells.values()) == [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)]
    assert board.decision is not None
    for choice in board.decision.choices:
        cell, turn = choice.id.removeprefix("lay:").split(",")
        x, y = cells[cell]
        assert choice.label == f"lay the tile on x={x}, y={y}, turned {int(turn) * 90}°", choice
    start = next(p for p in board.table.board.places if p.title == "0,0")  # type: ignore[union-attr]
    assert start.cards[0].title == "Start" and (start.image or "").startswith("data:image/svg+xml")
    # the terminal: the start tile in the middle, a dot on each free cell round it, the x of each
    # column over them and the y of each row before them
    text = [line.plain.rstrip() for line in grid_lines(board.table.board)]  # type: ignore[arg-type]
    assert text == ["         -1  0   1", "-1           ·", " 0       ·   Sta ·", " 1           ·"], text


def test_a_tile_laid_mirrored_is_drawn_mirrored_and_its_piece_previewed_so() -> None:
    engine = Engine(load_game(GAMES / "turned", variant="mirrored"))
    st = engine.new_game(2, 5)
    dec = build_board(engine, st, st["dec"]["p"]).decision
    assert dec is not None
    ways = {c.id: (c.rotation, c.mirror, c.label) for c in dec.choices}
    assert ways["lay:b1,6"] == (180, True, "on b1, mirrored, turned 180°")
    assert ways["lay:b1,2"] == (180, False, "on b1, turned 180°")
    engine.apply_inplace(st, "lay:b1,6", [])
    drawn = build_board(engine, st, 0).table.board
    assert drawn is not None
    looks = {p.choice: (p.rotation, p.mirror) for p in drawn.places if p.cards}
    assert looks == {"b1": (180, True), "b2": (0, False)}  # the hook mirrored; the cross as it lies


def test_two_boards_that_grow_are_drawn_one_under_the_other() -> None:
    """tests/native/games/spread: a square board and a hex one that both grow, in one scope; the
    second is drawn under the first, the gap of two boards apart, however the first has grown."""
    engine = Engine(load_game(Path(__file__).resolve().parents[1] / "native" / "games" / "spread"))
    st = engine.new_game(2, 4)
    for choice in ("hive:comb1", "put:yard1", "put:yard5", "put:yard2"):
        engine.apply_inplace(st, choice, [])
    drawn = build_board(engine, st, 0).table.board
    assert drawn is not None
    yard = [p for p in drawn.places if p.name.startswith("on_yard(")]
    comb = [p for p in drawn.places if p.name.startswith("on_comb(")]
    assert len(yard) > 9 and len(comb) == 7  # three stones on the yard, one on the comb
    bottom = max(p.y + p.h for p in yard)
    # the yard's margin of a cell, the gap of two boards (half a cell), the comb's margin
    assert min(p.y for p in comb) == bottom + 2.5
    assert drawn.height == max(p.y + p.h for p in comb) + 1
    # the terminal: the yard with its x and y written round it; the comb's rows are shifted half a
    # cell (hex), so no column is one x: none written
    text = [line.plain.rstrip() for line in grid_lines(drawn)]
    assert text == [
        "         -2  -1  0   1",
        "-2           ·   ·   ·",
        "-1       ·   ·   Blu ·",
        " 0       ·   Blu Red ·",
        " 1       ·   ·   ·   ·",
        "           ·   ·",
        "         ·   Blu ·",
        "           ·   ·",
    ], text
    # a choice naming a cell by the order it was added in says where it lies
    dec = build_board(engine, st, st["dec"]["p"]).decision
    assert dec is not None
    cells = [choice_cell(1, c).plain for c in dec.choices]
    assert " 1) put:yard6 (put: x=1, y=-1)" in cells and " 1) look:0" in cells, cells
