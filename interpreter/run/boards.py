"""The spatial builtins: cells, neighbours, lines, regions, paths and placements on declared boards.

Stage: run. Generated code calls these by name (compile/python/expressions/builtins.py registers
them); they only look up the tables a board's geometry was computed into at load (model/boards.py),
and charge the work budget one unit per cell or edge they visit. A board is given as a pair
(board name, copy): the copy is the player of a per-player board, 0 for a global one.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from typing import Any

from tabula.interpreter.model.boards import BoardTable
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime, over_budget

BoardRef = tuple[str, int]
Test = Callable[[int], Any]


def _charge(rt: Runtime, n: int) -> None:
    b = rt.budget - n
    rt.budget = b
    if b < 0:
        over_budget()


def _error(message: str) -> GameRuntimeError:
    return GameRuntimeError(message, None, "R015")


def _name(rt: Runtime, c: Any) -> str:
    if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(rt.g.components):
        return str(rt.g.components[c].name)
    return "none" if c is None else repr(c)


def _at(rt: Runtime, c: Any) -> tuple[BoardTable, int, int]:
    """The board, copy and index of cell `c` (R015 when it is no cell of a board)."""
    where = rt.g.boards.cell_of.get(c) if isinstance(c, int) else None
    if where is None:
        raise _error(f"{_name(rt, c)} is not a cell or space of a board")
    board, copy, i = where
    return rt.g.boards.tables[board], copy, i


def _table(rt: Runtime, ref: BoardRef) -> BoardTable:
    board, copy = ref
    table = rt.g.boards.tables[board]
    if not 0 <= copy < len(table.cells):
        raise _error(f"board '{board}' has no copy for player {copy}")
    return table


def _step(table: BoardTable, d: Any) -> list[int]:
    step = table.geometry.step.get(d) if isinstance(d, str) else None
    if step is None:
        dirs = ", ".join(table.geometry.directions) or "none: a graph has no directions"
        raise _error(f"'{d}' is not a direction of board '{table.name}' (directions: {dirs})")
    return step


# ---------------------------------------------------------------- cells


def cell(rt: Runtime, ref: BoardRef, x: Any, y: Any) -> int | None:
    """The cell at (x, y), or none off the board (or outside its mask)."""
    table = _table(rt, ref)
    _charge(rt, 1)
    if not (isinstance(x, int) and isinstance(y, int)):
        return None
    i = table.geometry.index(x, y)
    return None if i < 0 else table.cells[ref[1]][i]


def cells(rt: Runtime, ref: BoardRef) -> list[int]:
    """Every cell (or space) of the board, in board order (row by row)."""
    table = _table(rt, ref)
    _charge(rt, len(table.cells[ref[1]]))
    return list(table.cells[ref[1]])


def neighbours(rt: Runtime, c: Any) -> list[int]:
    """The cells next to `c`, as the board's adjacency says (4, 8, 6, or a graph's edges)."""
    table, copy, i = _at(rt, c)
    near = table.geometry.neighbours[i]
    _charge(rt, len(near))
    return [table.cells[copy][j] for j in near]


def in_direction(rt: Runtime, c: Any, d: Any, n: Any = 1) -> int | None:
    """The cell `n` steps from `c` in direction `d`, or none off the board."""
    table, copy, i = _at(rt, c)
    step = _step(table, d)
    if not isinstance(n, int) or n < 0:
        raise _error(f"in_direction needs a number of steps of 0 or more, got {n!r}")
    _charge(rt, n)
    for _ in range(n):
        i = step[i]
        if i < 0:
            return None
    return table.cells[copy][i]


def line_from(rt: Runtime, c: Any, d: Any) -> list[int]:
    """The cells from `c` (not included) in direction `d` up to the edge of the board."""
    table, copy, i = _at(rt, c)
    step = _step(table, d)
    out: list[int] = []
    i = step[i]
    while i >= 0:
        out.append(table.cells[copy][i])
        i = step[i]
    _charge(rt, len(out) + 1)
    return out


def bounding_box(rt: Runtime, xs: Any) -> list[int] | None:
    """[min x, min y, max x, max y] of the cells, or none for no cells."""
    _charge(rt, len(xs))
    points = [_at(rt, c) for c in xs]
    if not points:
        return None
    coords = [t.geometry.coords[i] for t, _, i in points]
    return [
        min(x for x, _ in coords),
        min(y for _, y in coords),
        max(x for x, _ in coords),
        max(y for _, y in coords),
    ]


def zone_on(rt: Runtime, c: Any, board: str) -> int:
    """The zone on cell `c` of `board` (`on_wall(c)`)."""
    table, _, _ = _at(rt, c)
    if table.name != board:
        raise _error(f"{_name(rt, c)} is a cell of board '{table.name}', not of '{board}'")
    return rt.g.boards.zone_of_cell[c]


def frontier(rt: Runtime, ref: BoardRef) -> list[int]:
    """The empty cells next to a cell holding something (in the zones `holds:` gives), in board
    order: where a tile may be laid next to those laid, with no list kept by the game."""
    table = _table(rt, ref)
    if not table.cell_zones:
        raise _error(f"board '{table.name}' holds nothing on its cells: give it holds: {{}}")
    zones, z = table.cell_zones[ref[1]], rt.st["z"]
    geo = table.geometry
    _charge(rt, len(zones))
    out: list[int] = []
    for i, zone in enumerate(zones):
        if not z[zone]:
            near = geo.neighbours[i]
            _charge(rt, len(near))
            if any(z[zones[j]] for j in near):
                out.append(table.cells[ref[1]][i])
    return out


# ---------------------------------------------------------------- regions


def region(rt: Runtime, seeds: Any, test: Test) -> list[int]:
    """The cells reached from the seeds that pass `test`, through neighbours that pass it (in
    board order): `region(x for x in [c] where x.colour == c.colour)`."""
    seen: set[int] = set()
    todo = deque(c for c in seeds if c not in seen and test(c))
    seen.update(todo)
    while todo:
        c = todo.popleft()
        table, copy, i = _at(rt, c)
        _charge(rt, 1 + len(table.geometry.neighbours[i]))
        for j in table.geometry.neighbours[i]:
            n = table.cells[copy][j]
            if n not in seen and test(n):
                seen.add(n)
                todo.append(n)
    return sorted(seen)


def regions(rt: Runtime, xs: Any, test: Test, key: Test) -> list[list[int]]:
    """The connected groups of the cells `xs` that pass `test`, two neighbours in one group when
    their keys are equal: `regions(x for x in wall where x.colour != none by x.colour)`."""
    _charge(rt, len(xs))
    keys = {c: key(c) for c in xs if test(c)}
    done: set[int] = set()
    out: list[list[int]] = []
    for start in sorted(keys):
        if start in done:
            continue
        group = region(rt, [start], lambda c, k=keys[start]: c in keys and keys[c] == k)  # type: ignore[misc]
        done.update(group)
        out.append(group)
    return out


# ---------------------------------------------------------------- paths


def _allowed(rt: Runtime, within: Any) -> tuple[set[int] | None, set[int] | None]:
    """The cells and the edges a path may use (None: any)."""
    if within is None:
        return None, None
    _charge(rt, len(within))
    edges = {e for e in within if e in rt.g.boards.edge_of}
    cells = {c for c in within if c in rt.g.boards.cell_of}
    return (None, edges) if edges else (cells, None)


def _moves(
    rt: Runtime, c: int, cells: set[int] | None, edges: set[int] | None
) -> list[tuple[int, int | None]]:
    """(next cell, edge id or None) from `c`, restricted to the allowed cells or edges."""
    table, copy, i = _at(rt, c)
    geo = table.geometry
    if table.edges and table.edges[copy]:
        out: list[tuple[int, int | None]] = []
        for e in geo.incident[i]:
            a, b = geo.edges[e]
            eid = table.edges[copy][e]
            if edges is None or eid in edges:
                out.append((table.cells[copy][b if a == i else a], eid))
    else:
        out = [(table.cells[copy][j], None) for j in geo.neighbours[i]]
    _charge(rt, 1 + len(out))
    return [(n, e) for n, e in out if cells is None or n in cells]


def shortest_path(rt: Runtime, a: Any, b: Any, within: Any = None, weight: Any = None) -> list[int]:
    """The cells of a shortest path from a to b (both included), [] when there is none: through
    the cells or edges `within` when given, counting each edge's property `weight` when named."""
    _at(rt, a), _at(rt, b)
    cells, edges = _allowed(rt, within)
    if cells is not None and (a not in cells or b not in cells):
        return []
    came: dict[int, int | None] = {a: None}
    best = {a: 0}
    todo: list[tuple[int, int, int]] = [(0, a, 0)]
    tick = 0
    while todo:
        d, c, _ = heapq.heappop(todo)
        if c == b:
            break
        if d > best[c]:
            continue
        for n, e in _moves(rt, c, cells, edges):
            cost = 1 if weight is None or e is None else _weight(rt, e, weight)
            if n not in best or d + cost < best[n]:
                best[n], came[n] = d + cost, c
                tick += 1
                heapq.heappush(todo, (d + cost, n, tick))
    if b not in came:
        return []
    path = [b]
    while path[-1] != a:
        path.append(came[path[-1]])
    return path[::-1]


def _weight(rt: Runtime, e: int, prop: Any) -> int:
    v = rt.g.components[e].props.get(prop)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise _error(f"edge {_name(rt, e)} has no number '{prop}' to measure a path by")
    return v


def path_exists(rt: Runtime, a: Any, b: Any, within: Any = None) -> bool:
    """True when b can be reached from a (through the cells or edges `within` when given)."""
    return bool(shortest_path(rt, a, b, within))


def distance(rt: Runtime, a: Any, b: Any, within: Any = None) -> int | None:
    """The number of steps of a shortest path from a to b, or none when there is none."""
    path = shortest_path(rt, a, b, within)
    return len(path) - 1 if path else None


def longest_path(rt: Runtime, edges: Any, weight: Any = None) -> int:
    """The length of the longest trail through the given edges, each used at most once (the number
    of edges, or the sum of their property `weight` when named): a route game's longest road."""
    _charge(rt, len(edges))
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for e in edges:
        where = rt.g.boards.edge_of.get(e) if isinstance(e, int) else None
        if where is None:
            raise _error(f"{_name(rt, e)} is not an edge of a graph board")
        table = rt.g.boards.tables[where[0]]
        a, b = table.geometry.edges[where[2]]
        length = 1 if weight is None else _weight(rt, e, weight)
        adj.setdefault(a, []).append((b, e, length))
        adj.setdefault(b, []).append((a, e, length))
    used: set[int] = set()

    def walk(at: int) -> int:
        best = 0
        for nxt, e, length in adj.get(at, []):
            if e not in used:
                _charge(rt, 1)
                used.add(e)
                best = max(best, length + walk(nxt))
                used.discard(e)
        return best

    return max((walk(start) for start in sorted(adj)), default=0)
