"""A declared board's cells and edges drawn with their first mark (docs/presentation.md, "Boards"):
one template a board, read with the cell or edge as `self`, parsed once (issue 34: a 141x141 board
parsed it 19,881 times, 20 s and 400 MB to check)."""

from __future__ import annotations

from pathlib import Path

from tabula.interpreter.engine import Engine, load_game
from tabula.play.board import build_board

RAILS = Path(__file__).resolve().parents[1] / "native" / "games" / "rails"  # a graph and a grid


def test_cells_and_edges_share_one_template_a_board() -> None:
    layout = load_game(RAILS).presentation.layout
    assert layout is not None and layout.table is not None
    shown = [a for a in layout.table.areas if a.part is not None and a.kind == "value"]
    assert len(shown) == 7 + 9  # the graph's edges (its spaces have no mark) and the grid's cells
    assert len({id(a.value) for a in shown}) == 2


def test_a_cell_and_an_edge_show_their_owner() -> None:
    engine = Engine(load_game(RAILS))
    st = engine.new_game(2, 1)
    for choice in ("claim:B-C#2", "square:b2"):
        engine.apply_inplace(st, engine.legal_ids(st).index(choice))
    board = build_board(engine, st, 0).table.board
    assert board is not None
    assert [(p.title, p.text) for p in board.places if p.ids and p.text] == [("B-C", "P1"), ("b2", "P2")]
