"""Declared boards drawn by default: the places of `presentation.layout` made from a board's geometry.

Stage: authoring (compile_layout calls it once the section's own layout is compiled). Each board of
the `boards:` section (model/boards.py) becomes places on the table's board (a per-player board:
on each player's): one per cell at its position (a square grid's x and y, a hex grid's rows each
shifted half a cell, a graph's `at:`), holding the cell's zone when the board `holds:` one, else
showing the cell's first mark; a graph's edges are places between their spaces showing theirs.
Each place's `choice` is the cell's (or edge's) name and its `part` the cell itself, so a choice
naming that component (`claim:A-B`, or a placement `lay:a1+b1`) highlights it on its own board only.
A board that grows has no fixed places: the layout names it (`BoardLayout.grows`, with how far down
it is drawn), and its cells are placed when a seat's board is built, from their x/y marks (`grown`).
A game whose layout already draws a scope draws its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from tabula.interpreter.authoring.maplayout import (
    DOT,
    EDGE,
    SPACE,
    colour_of,
    lay_out_map,
    segments_of,
)
from tabula.interpreter.base.types import COMP, PLAYER
from tabula.interpreter.model.boards import BoardTable
from tabula.interpreter.model.game import CompiledGame

GAP = 0.5  # cells between two boards drawn one under the other
HEX_ROW = 0.87  # the height of a row of hexes, in cells


class _Compiler(Protocol):
    g: CompiledGame

    def template(self, text: str, path: Any, local: dict[str, str], shift: int = 0) -> Any: ...


def declared_boards(
    c: _Compiler, per_player: bool, area: Any, board_layout: Any, colours: dict[str, str]
) -> Any:
    """A BoardLayout of every declared board of one scope (global or per player), one under the
    other, or None; `area` and `board_layout` are layout.py's classes (passed in: it imports this),
    `colours` the presentation's (a graph's edges name them)."""
    tables = [t for t in c.g.boards.tables.values() if t.per_player == per_player]
    if not tables:
        return None
    places: list[Any] = []
    top = width = 0.0
    for table in tables:
        if table.geometry.grows:
            continue
        made, wide, height = _board(c, table, area, top, colours)
        places += made
        top += height + GAP
        width = max(width, wide)
    # a board that grows has no fixed places (its cells' coordinates come while playing): drawn
    # under the others when a seat's board is built (tools/play/layout.py, `grown`)
    grows = [(t.name, round(top, 2)) for t in tables if t.geometry.grows]
    height = top - GAP if places else 0.0
    return board_layout(round(width, 2), round(max(height, 0.0), 2), 56, places, True, grows)


def _board(
    c: _Compiler, table: BoardTable, area: Any, top: float, colours: dict[str, str]
) -> tuple[list[Any], float, float]:
    """The places of one board drawn `top` cells down, with its width and height."""
    geo = table.geometry
    holds = table.zone is not None
    if geo.kind == "graph":
        segments = [segments_of(c.g.components[e].props) for e in table.edges[0]]
        drawing = lay_out_map(table, holds, segments)
        spots = [(x, y + top) for x, y in drawing.spots]
        width, height = drawing.width, drawing.height
        size = SPACE if holds else DOT
    else:
        spots = [spot(geo.kind, x, y) for x, y in geo.coords]
        x0, y0 = min(x for x, _ in spots), min(y for _, y in spots)
        spots = [(x - x0 + 0.5, y - y0 + top + 0.5) for x, y in spots]  # centres
        size = 1.0
        width, height = max(x for x, _ in spots) + 0.5, max(y for _, y in spots) + 0.5 - top
    local = {"p": PLAYER} if table.per_player else {}
    ref = f"{table.name}(p)" if table.per_player else table.name
    marks = _marks(c.g, table.name)
    # one template for every cell, its cell bound as `self` where it is drawn (tools/play/layout.py):
    # parsed once, not once a cell (a 141x141 board took 20 s and 400 MB to check)
    shown = c.template("{self." + marks[0] + "}", ("layout",), {**local, "self": COMP}, -1) if marks else None
    places = []
    for i, name in enumerate(geo.names):
        x, y = spots[i][0] - size / 2, spots[i][1] - size / 2
        px, py = geo.coords[i]
        if holds:
            place = area("zone", f"{table.zone}({name})", name, x, y, size, size)
        else:
            place = area("empty", "", name, x, y, size, size)
            if marks:
                place.kind, place.name = "value", f"cell({ref}, {px}, {py}).{marks[0]}"
                place.value = shown
        place.shape = (
            "rect" if geo.kind == "square" else "dot" if geo.kind == "graph" and not holds else "circle"
        )
        place.choice, place.part = name, (table.name, "cell", i)
        place.detail = "short"
        places.append(place)
    if geo.kind == "graph":
        for place, side in zip(places, drawing.sides, strict=True):
            place.side = side
        lines = [(a, b + top, c, d + top) for a, b, c, d in drawing.lines]
        places += _edges(c, table, lines, area, local, (segments, colours))
    return places, width, height


def _edges(
    c: _Compiler,
    table: BoardTable,
    lines: list[tuple[float, float, float, float]],
    area: Any,
    local: Any,
    looks: tuple[list[int], dict[str, str]],
) -> list[Any]:
    """A line between the two spaces of each edge (maplayout.py), its place's box half way."""
    segments, colours = looks
    out = []
    marks = _marks(c.g, f"{table.name}_edge")
    players = [m for m in marks if c.g.mark_kinds.get(m) == PLAYER]
    shown = (players or marks)[:1]  # who holds it, when a mark names a player
    value = c.template("{self." + shown[0] + "}", ("layout",), {**local, "self": COMP}, -1) if shown else None
    for k, (name, line) in enumerate(zip(table.geometry.edge_names, lines, strict=True)):
        mx, my = (line[0] + line[2]) / 2, (line[1] + line[3]) / 2
        place = area("empty", "", name, mx - EDGE[0] / 2, my - EDGE[1] / 2, *EDGE)
        eid = table.edges[0][k]
        if shown:
            place.kind, place.name = (
                "value",
                f"first(e for e in {table.name}_edge where e.id == {eid}).{shown[0]}",
            )
            place.value = value
        place.shape, place.choice, place.detail = "edge", name, "short"
        place.line, place.segments = tuple(round(v, 3) for v in line), segments[k]
        place.colour = colour_of(c.g.components[eid].props, colours)
        place.part = (table.name, "edge", k)
        out.append(place)
    return out


def spot(kind: str, x: int, y: int) -> tuple[float, float]:
    """Where cell (x, y) of a square or hex grid is drawn, in cells (a hex row shifted half a cell)."""
    if kind == "hex":
        return x + y / 2, y * HEX_ROW
    return float(x), float(y)


def _marks(g: CompiledGame, ctype: str) -> list[str]:
    return [m for m, types in g.mark_types.items() if ctype in types]
