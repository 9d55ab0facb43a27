"""Placing a multi-cell piece (a domino, a polyomino) on a board: every distinct placement.

Stage: run; the builtin `placements(board, shape)` (compile/python/expressions/builtins.py). A
shape is a list of [x, y] offsets; it may be turned and mirrored (8 ways on a square grid, 12 on a
hex grid). A placement is the list of the cells it covers, in board order, so two ways of turning
a symmetric piece that cover the same cells are one placement, offered once.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.run.boards import BoardRef, _charge, _error, _table
from tabula.interpreter.run.runtime import Runtime

Shape = tuple[tuple[int, int], ...]


def _shape(raw: Any) -> Shape:
    ok = isinstance(raw, list) and raw
    cells = []
    for p in raw if ok else []:
        if not (isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p)):
            ok = False
            break
        cells.append((p[0], p[1]))
    if not ok:
        raise _error(f"a piece's shape is a list of [x, y] offsets, got {raw!r}")
    return tuple(cells)


def _normal(cells: list[tuple[int, int]]) -> Shape:
    """The shape moved so that its smallest x and y are 0, its cells sorted."""
    mx, my = min(x for x, _ in cells), min(y for _, y in cells)
    return tuple(sorted({(x - mx, y - my) for x, y in cells}))


def orientations(shape: Shape, kind: str, turn: bool = True) -> list[Shape]:
    """The distinct shapes a piece takes turned and mirrored (only itself when `turn` is false)."""
    if not turn:
        return [_normal(list(shape))]
    out: list[Shape] = []
    for mirrored in (False, True):
        # a mirror: x -> -x on a square grid, q <-> r in axial coordinates
        cells = [((y, x) if kind == "hex" else (-x, y)) if mirrored else (x, y) for x, y in shape]
        for _ in range(6 if kind == "hex" else 4):
            s = _normal(cells)
            if s not in out:
                out.append(s)
            # a quarter turn of (x, y) with y down; a sixth of a turn in axial coordinates
            cells = [(-y, x + y) if kind == "hex" else (-y, x) for x, y in cells]
    return out


def placements(rt: Runtime, ref: BoardRef, raw: Any, turn: Any = True, within: Any = None) -> list[list[int]]:
    """Every distinct placement of the shape on the board: the cells it covers, in board order;
    `turn` false keeps the piece as drawn (no turning, no mirroring); `within`, a list of cells,
    keeps the placements that cover only those (the free cells: one set lookup a cell, where a
    condition over each placement's cells would run the DSL once a cell). The work budget is
    charged per orientation the board's cells times the piece's (each anchor tried), then the
    piece's cells per placement found."""
    table = _table(rt, ref)
    geo = table.geometry
    if geo.kind == "graph":
        raise _error(f"pieces are placed on grids, and '{table.name}' is a graph")
    if geo.grows:
        raise _error(f"pieces are placed on grids of a fixed size, and '{table.name}' grows")
    shapes = orientations(_shape(raw), geo.kind, bool(turn))
    ids = table.cells[ref[1]]
    at = _allowed(rt, ids, geo.coords, within)
    anchors = list(at)  # the cells a shape's first cell may lie on, in board order
    found: set[tuple[int, ...]] = set()
    for s in shapes:
        _charge(rt, len(geo.coords) * len(s))
        fx, fy = s[0]
        for cx, cy in anchors:
            ox, oy = cx - fx, cy - fy
            idx = [at.get((ox + dx, oy + dy), -1) for dx, dy in s]
            if min(idx) >= 0:
                found.add(tuple(sorted(idx)))
    # each placement found is a list of its cells: charged as made (77,000 on a 141x141 board)
    _charge(rt, len(found) * len(shapes[0]))
    return [[ids[i] for i in cover] for cover in sorted(found)]


def _allowed(
    rt: Runtime, ids: list[int], coords: list[tuple[int, int]], within: Any
) -> dict[tuple[int, int], int]:
    """The cells a piece may cover, (x, y) -> index: every cell, or those of the list `within`."""
    if within is None:
        return {xy: i for i, xy in enumerate(coords)}
    if not isinstance(within, list):
        raise _error(f"the cells a piece may cover are a list of cells, got {within!r}")
    _charge(rt, len(within))
    inside = set(within)
    return {xy: i for i, xy in enumerate(coords) if ids[i] in inside}
