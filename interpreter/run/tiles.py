"""Tiles with sides: rotations, edge matching and the features joined across laid tiles.

Stage: run. A tile is a component of a type declaring `sides:` (load/tiles.py, model/boards.py
`TileSpec`): its sides are listed clockwise (square: n e s w; hex: e se sw w nw ne) and its
rotation is a mark (`turn`, plain data in the state). Rotation r < n turns the tile r steps
clockwise, so the side listed at n faces e after one quarter turn; with `mirror: true`, rotation
n + r is the tile mirrored (east and west swapped) then turned r steps. A tile lies on a cell of
a board that `holds:` a zone per cell: the first tile in that zone is the cell's tile.

A feature is the set of (cell, side) pairs joined together: sides of one tile in one group (its
`joins`, or else its equal sides), and the facing sides of two tiles next to each other when they
show the same terrain. Every side visited charges the work budget one unit.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from tabula.interpreter.load.tiles import SIDE_NAMES
from tabula.interpreter.model.boards import TileSpec
from tabula.interpreter.run.boards import BoardRef, _at, _charge, _error, _name, _table
from tabula.interpreter.run.runtime import Runtime

Pair = tuple[int, int]  # (cell, index of a side in SIDE_NAMES[n])


def _spec(rt: Runtime, t: Any) -> TileSpec:
    comps = rt.g.components
    ok = isinstance(t, int) and not isinstance(t, bool) and 0 <= t < len(comps)
    spec = rt.g.boards.tiles.get(comps[t].type) if ok else None
    if spec is None:
        raise _error(f"{_name(rt, t)} is not a tile (a component of a type with sides:)")
    return spec


def _turn(rt: Runtime, spec: TileSpec, t: int, r: Any) -> int:
    """Rotation r checked, or the tile's own (its mark) when r is None."""
    if r is None:
        r = rt.st["m"][spec.mark][t]
    top = spec.count * (2 if spec.mirror else 1)
    if not (isinstance(r, int) and not isinstance(r, bool) and 0 <= r < top):
        raise _error(f"a rotation of {_name(rt, t)} is a number from 0 to {top - 1}, got {r!r}")
    return r


def _perm(n: int, r: int) -> list[int]:
    """For each side facing direction i after rotation r, the index of that side as listed."""
    turned = [(i - r % n) % n for i in range(n)]
    if r < n:
        return turned
    flip = 0 if n == 4 else 3  # a mirror swaps e and w: k -> -k (n e s w), 3 - k (e se sw w nw ne)
    return [(flip - k) % n for k in turned]


def _listed(rt: Runtime, spec: TileSpec, t: int) -> list[Any]:
    sides: list[Any] = rt.g.components[t].props[spec.prop]
    return sides


def _groups(rt: Runtime, spec: TileSpec, t: int) -> list[int]:
    """The group of each side as listed: its `joins` group, or else one group per terrain."""
    sides = _listed(rt, spec, t)
    joins = rt.g.components[t].props.get(spec.joins) if spec.joins else None
    if joins is None:
        return [sides.index(s) for s in sides]
    names = SIDE_NAMES[spec.count]
    out = [spec.count + i for i in range(spec.count)]  # a side in no group is alone
    for g, group in enumerate(joins):
        for s in group:
            out[names.index(s)] = g
    return out


def turned(rt: Runtime, t: Any, r: Any = None) -> list[Any]:
    """The sides of tile t facing each direction (n e s w, or e se sw w nw ne) after rotation r
    (default: the tile's own rotation, its mark)."""
    spec = _spec(rt, t)
    sides = _listed(rt, spec, t)
    _charge(rt, spec.count)
    return [sides[k] for k in _perm(spec.count, _turn(rt, spec, t, r))]


def rotations(rt: Runtime, t: Any) -> list[int]:
    """The rotations of tile t that differ (in sides or in how they join), smallest first."""
    spec = _spec(rt, t)
    sides, groups = _listed(rt, spec, t), _groups(rt, spec, t)
    seen: set[tuple[Any, ...]] = set()
    out: list[int] = []
    for r in range(spec.count * (2 if spec.mirror else 1)):
        _charge(rt, spec.count)
        p = _perm(spec.count, r)
        key = tuple((sides[k], tuple(j for j in range(spec.count) if groups[p[j]] == groups[k])) for k in p)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def tile_on(rt: Runtime, c: Any) -> int | None:
    """The tile on cell c (the first tile in its zone), or none."""
    _at(rt, c)
    zone = rt.g.boards.zone_of_cell.get(c)
    if zone is None:
        table = rt.g.boards.tables[rt.g.boards.cell_of[c][0]]
        raise _error(f"board '{table.name}' holds nothing on its cells: give it holds: {{}} to lay tiles")
    tiles, comps = rt.g.boards.tiles, rt.g.components
    items = rt.st["z"][zone]
    _charge(rt, 1 + len(items))
    return next((x for x in items if comps[x].type in tiles), None)


def _next(rt: Runtime, c: int, n: int, i: int) -> int | None:
    """The cell next to c across side i (none off the board)."""
    table, copy, at = _at(rt, c)
    names = SIDE_NAMES[n]
    kind = "square" if n == 4 else "hex"
    if table.geometry.kind != kind:
        raise _error(f"a tile of {n} sides lies on a {kind} board, not on '{table.name}'")
    j = table.geometry.step[names[i]][at]
    return None if j < 0 else table.cells[copy][j]


def fits(rt: Runtime, t: Any, c: Any, r: Any) -> bool:
    """True when cell c holds no tile and tile t, turned r, shows each neighbouring tile the
    terrain that tile shows it (an empty neighbour, or none, matches anything)."""
    spec = _spec(rt, t)
    if tile_on(rt, c) is not None:
        return False
    mine = turned(rt, t, r)
    n = spec.count
    for i in range(n):
        other = _next(rt, c, n, i)
        u = None if other is None else tile_on(rt, other)
        if u is not None and turned(rt, u)[(i + n // 2) % n] != mine[i]:
            return False
    return True


def side(rt: Runtime, c: Any, d: Any) -> Any:
    """The terrain of the side facing direction d of the tile on cell c, or none (no tile)."""
    u = tile_on(rt, c)
    if u is None:
        return None
    n = _spec(rt, u).count
    return turned(rt, u)[_index(n, d)]


def _index(n: int, d: Any) -> int:
    names = SIDE_NAMES[n]
    if d not in names:
        raise _error(f"'{d}' is not a side of a tile of {n} sides (sides: {' '.join(names)})")
    return names.index(d)


def _joined(rt: Runtime, u: int, i: int) -> list[int]:
    """The sides of tile u (as they face, laid) joined inside it to the side facing i."""
    spec = _spec(rt, u)
    p = _perm(spec.count, _turn(rt, spec, u, None))
    groups = _groups(rt, spec, u)
    return [j for j in range(spec.count) if groups[p[j]] == groups[p[i]]]


def _walk(rt: Runtime, c: int, i: int) -> list[Pair]:
    """The feature through side i of the tile on cell c: every (cell, side) pair, sorted."""
    u = tile_on(rt, c)
    if u is None:
        return []
    n = _spec(rt, u).count
    terrain = turned(rt, u)[i]
    seen: set[Pair] = set()
    todo = deque([(c, u, i)])
    while todo:
        cell, tile, k = todo.popleft()
        if (cell, k) in seen:
            continue
        for j in _joined(rt, tile, k):
            _charge(rt, 1)
            if (cell, j) in seen:
                continue
            seen.add((cell, j))
            other = _next(rt, cell, n, j)
            v = None if other is None else tile_on(rt, other)
            back = (j + n // 2) % n
            if other is not None and v is not None and turned(rt, v)[back] == terrain:
                todo.append((other, v, back))
    return sorted(seen)


def _as_feature(rt: Runtime, n: int, pairs: list[Pair]) -> list[list[Any]]:
    names = SIDE_NAMES[n]
    return [[cell, names[i]] for cell, i in pairs]


def feature(rt: Runtime, c: Any, d: Any) -> list[list[Any]]:
    """The feature through side d of the tile on cell c: its [cell, side] pairs in board order
    ([] when c holds no tile)."""
    u = tile_on(rt, c)
    if u is None:
        return []
    n = _spec(rt, u).count
    return _as_feature(rt, n, _walk(rt, c, _index(n, d)))


def features(rt: Runtime, ref: BoardRef, kind: Any) -> list[list[list[Any]]]:
    """Every feature of terrain `kind` on the board, each as `feature` gives it, in board order
    of their first pair."""
    table = _table(rt, ref)
    out: list[list[list[Any]]] = []
    done: set[Pair] = set()
    for c in table.cells[ref[1]]:
        u = tile_on(rt, c)
        if u is None:
            continue
        sides = turned(rt, u)
        n = len(sides)
        for i, terrain in enumerate(sides):
            if terrain == kind and (c, i) not in done:
                pairs = _walk(rt, c, i)
                done.update(pairs)
                out.append(_as_feature(rt, n, pairs))
    return out


def open_ends(rt: Runtime, f: Any) -> int:
    """How many sides of the feature f (a list of [cell, side] pairs) face no tile: 0 when closed."""
    if not isinstance(f, list):
        raise _error(f"a feature is a list of [cell, side] pairs, got {f!r}")
    _charge(rt, len(f))
    count = 0
    for pair in f:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise _error(f"a feature is a list of [cell, side] pairs, and {pair!r} is not one")
        c, d = pair
        table, _, _ = _at(rt, c)
        n = 4 if table.geometry.kind == "square" else 6
        other = _next(rt, c, n, _index(n, d))
        count += other is None or tile_on(rt, other) is None
    return count
