"""Declared boards drawn by default: the places of `presentation.layout` made from a board's geometry.

Stage: authoring (compile_layout calls it once the section's own layout is compiled). Each board of
the `boards:` section (model/boards.py) becomes places on the table's board (a per-player board:
on each player's): one per cell at its position (a square grid's x and y, a hex grid's rows each
shifted half a cell, a graph's `at:`), holding the cell's zone when the board `holds:` one, else
showing the cell's first mark; a graph's edges are places between their spaces showing theirs.
Each place's `choice` is the cell's (or edge's) name and its `part` the cell itself, so a choice
naming that component (`claim:A-B`, or a placement `lay:a1+b1`) highlights it on its own board only.
A game whose layout already draws a scope draws its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from tabula.interpreter.base.types import PLAYER
from tabula.interpreter.model.boards import BoardTable
from tabula.interpreter.model.game import CompiledGame

GAP = 0.5  # cells between two boards drawn one under the other
HEX_ROW = 0.87  # the height of a row of hexes, in cells
GRAPH_SCALE = 1.5  # cells per unit of a graph's `at:`
SPACE = 0.9  # the size of a graph's space, in cells
EDGE = (1.0, 0.8)  # the size of the place of a graph's edge


class _Compiler(Protocol):
    g: CompiledGame

    def template(self, text: str, path: Any, local: dict[str, str], shift: int = 0) -> Any: ...


def declared_boards(c: _Compiler, per_player: bool, area: Any, board_layout: Any) -> Any:
    """A BoardLayout of every declared board of one scope (global or per player), one under the
    other, or None; `area` and `board_layout` are layout.py's classes (passed in: it imports this)."""
    tables = [t for t in c.g.boards.tables.values() if t.per_player == per_player]
    if not tables:
        return None
    places: list[Any] = []
    top = 0.0
    for table in tables:
        made, height = _board(c, table, area, top)
        places += made
        top += height + GAP
    width = max(p.x + p.w for p in places)
    return board_layout(round(width, 2), round(top - GAP, 2), 56, places, True)


def _board(c: _Compiler, table: BoardTable, area: Any, top: float) -> tuple[list[Any], float]:
    geo = table.geometry
    spots = [_spot(geo.kind, x, y) for x, y in geo.coords]
    x0, y0 = min(x for x, _ in spots), min(y for _, y in spots)
    spots = [(x - x0, y - y0 + top) for x, y in spots]
    size = SPACE if geo.kind == "graph" else 1.0
    local = {"p": PLAYER} if table.per_player else {}
    ref = f"{table.name}(p)" if table.per_player else table.name
    marks = _marks(c.g, table.name)
    places = []
    for i, name in enumerate(geo.names):
        x, y = spots[i]
        px, py = geo.coords[i]
        if table.zone is not None:
            place = area("zone", f"{table.zone}({name})", name, x, y, size, size)
        else:
            place = area("empty", "", name, x, y, size, size)
            if marks:
                place.kind, place.name = "value", f"cell({ref}, {px}, {py}).{marks[0]}"
                place.value = c.template("{" + place.name + "}", ("layout",), local, -1)
        place.shape = "circle" if geo.kind != "square" else "rect"
        place.choice, place.part = name, (table.name, "cell", i)
        place.detail = "short"
        places.append(place)
    places += _edges(c, table, spots, area, local)
    height = max(y + size for _, y in spots) - top
    return places, height


def _edges(
    c: _Compiler, table: BoardTable, spots: list[tuple[float, float]], area: Any, local: Any
) -> list[Any]:
    """A small place half way between the two spaces of each edge of a graph."""
    out = []
    marks = _marks(c.g, f"{table.name}_edge")
    edges = table.geometry.edges
    for k, ((a, b), name) in enumerate(zip(edges, table.geometry.edge_names, strict=True)):
        # centred half way between the centres of the two spaces, side by side with the edges
        # joining the same two spaces (a double route), across the line between them
        twins = [i for i, e in enumerate(edges) if set(e) == {a, b}]
        shift = twins.index(k) - (len(twins) - 1) / 2
        lo, hi = min(a, b), max(a, b)  # one direction for all of them, whichever way each is written
        dx, dy = spots[hi][0] - spots[lo][0], spots[hi][1] - spots[lo][1]
        norm = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        x = (spots[a][0] + spots[b][0]) / 2 + SPACE / 2 - EDGE[0] / 2 - dy / norm * shift * EDGE[0]
        y = (spots[a][1] + spots[b][1]) / 2 + SPACE / 2 - EDGE[1] / 2 + dx / norm * shift * EDGE[1]
        place = area("empty", "", name, x, y, *EDGE)
        if marks:
            eid = table.edges[0][k]
            place.kind, place.name = (
                "value",
                f"first(e for e in {table.name}_edge where e.id == {eid}).{marks[0]}",
            )
            place.value = c.template("{" + place.name + "}", ("layout",), local, -1)
        place.shape, place.choice, place.detail = "rect", name, "short"
        place.part = (table.name, "edge", k)
        out.append(place)
    return out


def _spot(kind: str, x: int, y: int) -> tuple[float, float]:
    if kind == "hex":
        return x + y / 2, y * HEX_ROW
    if kind == "graph":  # room for the edges between the spaces
        return x * GRAPH_SCALE, y * GRAPH_SCALE
    return float(x), float(y)


def _marks(g: CompiledGame, ctype: str) -> list[str]:
    return [m for m, types in g.mark_types.items() if ctype in types]
