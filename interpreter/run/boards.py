"""The spatial builtins: cells, neighbours, lines, regions, paths and placements on declared boards.

Stage: run. Generated code calls these by name (compile/python/expressions/builtins.py registers
them); they only look up the tables a board's geometry was computed into at load (model/boards.py),
and charge the work budget one unit per cell or edge they visit. A board is given as a pair
(board name, copy): the copy is the player of a per-player board, 0 for a global one.

A board that grows (`grows: true`, load/boards.py) has no tables: its cells are a pool whose first
n are on the board, each with its coordinates in its marks `x` and `y` (plain data in the state).
`grow` adds the empty cells round a cell when something is moved onto it (run/support.py calls
it), the next cells of the pool in the order of the board's directions; the helpers `_near`,
`_toward`, `_xy` and `_order` answer for both kinds, so every builtin below works on both.
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
        raise _no_direction(table, d)
    return step


def _no_direction(table: BoardTable, d: Any) -> GameRuntimeError:
    dirs = ", ".join(table.geometry.directions) or "none: a graph has no directions"
    return _error(f"'{d}' is not a direction of board '{table.name}' (directions: {dirs})")


# ---------------------------------------------------------------- boards that grow

# per board that grows: the state's list of x marks it was read from, and (x, y) -> cell index
_PLACED: dict[int, tuple[list[Any], BoardTable, dict[tuple[int, int], int]]] = {}


def _placed(st: dict[str, Any], table: BoardTable) -> dict[tuple[int, int], int]:
    """The cells a board that grows has so far, (x, y) -> index: the first n of its pool (they are
    added in order and never taken away), read again only from where the last reading stopped."""
    xs, ys = st["m"]["x"], st["m"]["y"]
    cells = table.cells[0]
    hit = _PLACED.get(id(table))
    if hit is not None and hit[0] is xs and hit[1] is table:
        at = hit[2]
        if not at or xs[cells[len(at) - 1]] is not None:
            n = len(at)
            while n < len(cells) and xs[cells[n]] is not None:
                at[(xs[cells[n]], ys[cells[n]])] = n
                n += 1
            return at
    at = {}
    n = 0
    while n < len(cells) and xs[cells[n]] is not None:
        at[(xs[cells[n]], ys[cells[n]])] = n
        n += 1
    _PLACED[id(table)] = (xs, table, at)
    return at


def _xy(rt: Runtime, table: BoardTable, copy: int, i: int) -> tuple[int, int]:
    """The coordinates of cell i (R015 for a cell of a board that grows not added yet)."""
    if not table.geometry.grows:
        return table.geometry.coords[i]
    c = table.cells[copy][i]
    x = rt.st["m"]["x"][c]
    if x is None:
        raise _error(
            f"{_name(rt, c)} is not on the board '{table.name}' yet: the board grows where things are "
            f"placed (cells({table.name}) lists its cells)"
        )
    return x, rt.st["m"]["y"][c]


def _near(rt: Runtime, table: BoardTable, copy: int, i: int) -> list[int]:
    """The indices of the cells next to cell i, in the order of the board's directions."""
    geo = table.geometry
    if not geo.grows:
        return geo.neighbours[i]
    x, y = _xy(rt, table, copy, i)
    at = _placed(rt.st, table)
    return [j for dx, dy in geo.offsets.values() if (j := at.get((x + dx, y + dy))) is not None]


def _toward(rt: Runtime, table: BoardTable, copy: int, d: Any, i: int) -> int:
    """The index of the cell next to cell i in direction d, or -1."""
    geo = table.geometry
    if not geo.grows:
        return _step(table, d)[i]
    off = geo.offsets.get(d) if isinstance(d, str) else None
    if off is None:
        raise _no_direction(table, d)
    x, y = _xy(rt, table, copy, i)
    return _placed(rt.st, table).get((x + off[0], y + off[1]), -1)


def _order(rt: Runtime, table: BoardTable, copy: int) -> list[int]:
    """The indices of the board's cells in board order: row by row (y, then x)."""
    if not table.geometry.grows:
        return list(range(len(table.cells[copy])))
    return [i for _, i in sorted(((y, x), i) for (x, y), i in _placed(rt.st, table).items())]


def add_cell(rt: Runtime, table: BoardTable, x: int, y: int) -> int:
    """The index of the cell at (x, y) of a board that grows, added when it has none (a scenario's
    `given` names cells by coordinates; R003 past `max_cells`)."""
    at = _placed(rt.st, table)
    if (x, y) not in at:
        cells = table.cells[0]
        if len(at) == len(cells):
            raise _full(rt, table, f"for [{x}, {y}]")
        rt.st["m"]["x"][cells[len(at)]], rt.st["m"]["y"][cells[len(at)]] = x, y
        at[(x, y)] = len(at)
    return at[(x, y)]


def _full(rt: Runtime, table: BoardTable, wanted: str) -> GameRuntimeError:
    n = len(table.cells[0])
    return GameRuntimeError(
        f"board '{table.name}' has grown to its {n} cells (max_cells: {n}) and needs more {wanted}",
        None,
        "R003",
    )


def grow(rt: Runtime, zone: int) -> None:
    """Something was moved into `zone`, the zone of a cell of a board that grows: add the cells
    round it that the board lacks, the next cells of its pool (R003 past `max_cells`)."""
    board, i = rt.g.boards.growing[zone]
    table = rt.g.boards.tables[board]
    x, y = _xy(rt, table, 0, i)
    cells, xs, ys = table.cells[0], rt.st["m"]["x"], rt.st["m"]["y"]
    at = _placed(rt.st, table)
    for dx, dy in table.geometry.offsets.values():
        if (x + dx, y + dy) in at:
            continue
        n = len(at)
        if n == len(cells):
            raise _full(rt, table, f"round {_name(rt, cells[i])}")
        xs[cells[n]], ys[cells[n]] = x + dx, y + dy
        at[(x + dx, y + dy)] = n


# ---------------------------------------------------------------- cells


def cell(rt: Runtime, ref: BoardRef, x: Any, y: Any) -> int | None:
    """The cell at (x, y), or none off the board (or outside its mask)."""
    table = _table(rt, ref)
    _charge(rt, 1)
    if not (isinstance(x, int) and isinstance(y, int)):
        return None
    if table.geometry.grows:
        i = _placed(rt.st, table).get((x, y), -1)
        return None if i < 0 else table.cells[ref[1]][i]
    i = table.geometry.index(x, y)
    return None if i < 0 else table.cells[ref[1]][i]


def cells(rt: Runtime, ref: BoardRef) -> list[int]:
    """Every cell (or space) of the board, in board order (row by row): of a board that grows, the
    cells it has so far."""
    table = _table(rt, ref)
    if table.geometry.grows:
        order = _order(rt, table, ref[1])
        _charge(rt, len(order))
        return [table.cells[ref[1]][i] for i in order]
    _charge(rt, len(table.cells[ref[1]]))
    return list(table.cells[ref[1]])


def neighbours(rt: Runtime, c: Any) -> list[int]:
    """The cells next to `c`, as the board's adjacency says (4, 8, 6, or a graph's edges)."""
    table, copy, i = _at(rt, c)
    near = _near(rt, table, copy, i)
    _charge(rt, len(near))
    return [table.cells[copy][j] for j in near]


def in_direction(rt: Runtime, c: Any, d: Any, n: Any = 1) -> int | None:
    """The cell `n` steps from `c` in direction `d`, or none off the board."""
    table, copy, i = _at(rt, c)
    _toward(rt, table, copy, d, i)  # the direction checked, even for 0 steps
    if not isinstance(n, int) or n < 0:
        raise _error(f"in_direction needs a number of steps of 0 or more, got {n!r}")
    _charge(rt, n)
    for _ in range(n):
        i = _toward(rt, table, copy, d, i)
        if i < 0:
            return None
    return table.cells[copy][i]


def line_from(rt: Runtime, c: Any, d: Any) -> list[int]:
    """The cells from `c` (not included) in direction `d` up to the edge of the board."""
    table, copy, i = _at(rt, c)
    out: list[int] = []
    i = _toward(rt, table, copy, d, i)
    while i >= 0:
        out.append(table.cells[copy][i])
        i = _toward(rt, table, copy, d, i)
    _charge(rt, len(out) + 1)
    return out


def bounding_box(rt: Runtime, xs: Any) -> list[int] | None:
    """[min x, min y, max x, max y] of the cells, or none for no cells."""
    _charge(rt, len(xs))
    points = [_at(rt, c) for c in xs]
    if not points:
        return None
    coords = [_xy(rt, t, copy, i) for t, copy, i in points]
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
    if table.geometry.grows:
        return _grown_frontier(rt, table)
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


def _grown_frontier(rt: Runtime, table: BoardTable) -> list[int]:
    """frontier of a board that grows: its empty cells next to one holding something (the engine
    added them round it), or its first cell, [0, 0], while nothing lies on it."""
    zones, z, cells = table.cell_zones[0], rt.st["z"], table.cells[0]
    order = _order(rt, table, 0)
    _charge(rt, len(order))
    if not any(z[zones[i]] for i in order):
        return [cells[0]]
    out: list[int] = []
    for i in order:
        if not z[zones[i]]:
            near = _near(rt, table, 0, i)
            _charge(rt, len(near))
            if any(z[zones[j]] for j in near):
                out.append(cells[i])
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
        near = _near(rt, table, copy, i)
        _charge(rt, 1 + len(near))
        for j in near:
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
        out = [(table.cells[copy][j], None) for j in _near(rt, table, copy, i)]
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
