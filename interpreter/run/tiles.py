"""Tiles with sides: rotations, edge matching and the features joined across laid tiles.

Stage: run. A tile is a component of a type declaring `sides:` (load/tiles.py, model/boards.py
`TileSpec`): its sides are listed clockwise (square: n e s w; hex: e se sw w nw ne) and its
rotation is a mark (`turn`, plain data in the state). Rotation r < n turns the tile r steps
clockwise, so the side listed at n faces e after one quarter turn; with `mirror: true`, rotation
n + r is the tile mirrored (east and west swapped) then turned r steps. A tile lies on a cell of
a board that `holds:` a zone per cell: the first tile in that zone is the cell's tile.

A type with `parts:` splits each side into 2 or 3 parts (`n1 n n2`, clockwise): what the builtins
say of sides they say of parts (a turn moves each part `per` places; two tiles next to each other
face each other's parts in reverse order), so a feature may run beside a road (a field).

A feature is the set of (cell, side) pairs joined together: sides of one tile in one group (its
`joins`, or else its equal sides), and the facing sides of two tiles next to each other when they
show the same terrain. Every side visited charges the work budget one unit.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any

from tabula.interpreter.load.tiles import SIDE_NAMES, part_names
from tabula.interpreter.model.boards import TileSpec
from tabula.interpreter.run import boards
from tabula.interpreter.run.boards import BoardRef, _at, _charge, _error, _name, _toward
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


def _perm(n: int, r: int, per: int = 1) -> list[int]:
    """For each part facing position i after rotation r, the index of that part as listed (a tile
    of n sides of `per` parts each: a turn moves every part `per` places clockwise)."""
    size = n * per
    turned = [(i - r % n * per) % size for i in range(size)]
    if r < n:
        return turned
    # a mirror swaps e and w, reversing the order: k -> -k (n e s w), 3 - k (e se sw w nw ne), and
    # the parts of one side swap ends: n1 n n2 -> n2 n n1
    flip = (0 if n == 4 else 3) * per + per - 1
    return [(flip - k) % size for k in turned]


def _across(n: int, per: int, i: int) -> int:
    """The part of the neighbouring tile that part i faces: the opposite side, its parts reversed."""
    k, j = divmod(i, per)
    return (k + n // 2) % n * per + per - 1 - j


def _listed(rt: Runtime, spec: TileSpec, t: int) -> list[Any]:
    """The tile's parts as listed: its sides, each split into its parts when the type has `parts:`."""
    sides: list[Any] = rt.g.components[t].props[spec.prop]
    if spec.parts is None:
        return sides
    parts, per = spec.parts, spec.per
    return [p for s in sides for p in parts.get(s, [s] * per)]


def _groups(rt: Runtime, spec: TileSpec, t: int) -> list[int]:
    """The group of each part as listed: its `joins` group, or else one group per terrain."""
    sides = _listed(rt, spec, t)
    joins = rt.g.components[t].props.get(spec.joins) if spec.joins else None
    if joins is None:
        return [sides.index(s) for s in sides]
    names = part_names(spec.count, spec.per)
    out = [spec.size + i for i in range(spec.size)]  # a part in no group is alone
    for g, group in enumerate(joins):
        for s in group:
            out[names.index(s)] = g
    return out


def turned(rt: Runtime, t: Any, r: Any = None) -> list[Any]:
    """The sides of tile t facing each direction (n e s w, or e se sw w nw ne; with `parts:` each
    side's parts, n1 n n2 e1 ...) after rotation r (default: the tile's own rotation, its mark)."""
    spec = _spec(rt, t)
    sides = _listed(rt, spec, t)
    _charge(rt, spec.size)
    return [sides[k] for k in _perm(spec.count, _turn(rt, spec, t, r), spec.per)]


def rotations(rt: Runtime, t: Any) -> list[int]:
    """The rotations of tile t that differ (in sides or in how they join), smallest first."""
    spec = _spec(rt, t)
    ways = spec.count * (2 if spec.mirror else 1)
    _charge(rt, spec.size * ways)  # each way compared: what the loop charged, one way at a time
    return list(
        _distinct_ways(spec.count, spec.per, ways, tuple(_listed(rt, spec, t)), tuple(_groups(rt, spec, t)))
    )


@lru_cache(maxsize=4096)
def _distinct_ways(
    n: int, per: int, ways: int, sides: tuple[Any, ...], groups: tuple[int, ...]
) -> tuple[int, ...]:
    """rotations' answer for a tile listing `sides` joined as `groups`: a pure function of them, kept
    (a search asks it of the same few tiles at every option)."""
    size = len(sides)
    seen: set[tuple[Any, ...]] = set()
    out: list[int] = []
    for r in range(ways):
        p = _perm(n, r, per)
        key = tuple((sides[k], tuple(j for j in range(size) if groups[p[j]] == groups[k])) for k in p)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return tuple(out)


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


def _next(rt: Runtime, c: int, n: int, i: int, per: int = 1) -> int | None:
    """The cell next to c across part i (none off the board)."""
    table, copy, at = _at(rt, c)
    names = SIDE_NAMES[n]
    kind = "square" if n == 4 else "hex"
    if table.geometry.kind != kind:
        raise _error(f"a tile of {n} sides lies on a {kind} board, not on '{table.name}'")
    j = _toward(rt, table, copy, names[i // per], at)
    return None if j < 0 else table.cells[copy][j]


def _facing(rt: Runtime, spec: TileSpec, u: int) -> list[Any]:
    """The parts the laid tile u shows, checked to be as many as a tile of `spec` has."""
    theirs = turned(rt, u)
    if len(theirs) != spec.size:
        raise _error(f"{_name(rt, u)} has {len(theirs)} parts and cannot lie next to a tile of {spec.size}")
    return theirs


def fits(rt: Runtime, t: Any, c: Any, r: Any) -> bool:
    """True when cell c holds no tile and tile t, turned r, shows each neighbouring tile the
    terrain that tile shows it (an empty neighbour, or none, matches anything)."""
    spec = _spec(rt, t)
    if tile_on(rt, c) is not None:
        return False
    mine = turned(rt, t, r)
    n, per = spec.count, spec.per
    for k in range(n):
        other = _next(rt, c, n, k * per, per)
        u = None if other is None else tile_on(rt, other)
        if u is None:
            continue
        theirs = _facing(rt, spec, u)
        for i in range(k * per, (k + 1) * per):
            if theirs[_across(n, per, i)] != mine[i]:
                return False
    return True


def side(rt: Runtime, c: Any, d: Any) -> Any:
    """The terrain of the side (or part) facing direction d of the tile on cell c, or none."""
    u = tile_on(rt, c)
    if u is None:
        return None
    spec = _spec(rt, u)
    return turned(rt, u)[_index(spec.count, d, spec.per)]


def _index(n: int, d: Any, per: int = 1) -> int:
    names = part_names(n, per)
    if d not in names:
        if per == 1:
            raise _error(f"'{d}' is not a side of a tile of {n} sides (sides: {' '.join(names)})")
        raise _error(f"'{d}' is not a part of a tile of {n * per} parts (parts: {' '.join(names)})")
    return names.index(d)


def _joined(rt: Runtime, u: int, i: int) -> list[int]:
    """The parts of tile u (as they face, laid) joined inside it to the part facing i."""
    spec = _spec(rt, u)
    p = _perm(spec.count, _turn(rt, spec, u, None), spec.per)
    groups = _groups(rt, spec, u)
    return [j for j in range(spec.size) if groups[p[j]] == groups[p[i]]]


def _walk(rt: Runtime, c: int, i: int) -> list[Pair]:
    """The feature through part i of the tile on cell c: every (cell, part) pair, sorted."""
    u = tile_on(rt, c)
    if u is None:
        return []
    spec = _spec(rt, u)
    n, per = spec.count, spec.per
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
            other = _next(rt, cell, n, j, per)
            v = None if other is None else tile_on(rt, other)
            back = _across(n, per, j)
            if other is not None and v is not None and _facing(rt, spec, v)[back] == terrain:
                todo.append((other, v, back))
    return sorted(seen)


def _as_feature(rt: Runtime, spec: TileSpec, pairs: list[Pair]) -> list[list[Any]]:
    names = part_names(spec.count, spec.per)
    return [[cell, names[i]] for cell, i in pairs]


def feature(rt: Runtime, c: Any, d: Any) -> list[list[Any]]:
    """The feature through side (or part) d of the tile on cell c: its [cell, side] pairs in board
    order ([] when c holds no tile)."""
    u = tile_on(rt, c)
    if u is None:
        return []
    spec = _spec(rt, u)
    return _as_feature(rt, spec, _walk(rt, c, _index(spec.count, d, spec.per)))


def features(rt: Runtime, ref: BoardRef, kind: Any) -> list[list[list[Any]]]:
    """Every feature of terrain `kind` on the board, each as `feature` gives it, in board order
    of their first pair."""
    out: list[list[list[Any]]] = []
    done: set[Pair] = set()
    for c in boards.cells(rt, ref):
        u = tile_on(rt, c)
        if u is None:
            continue
        sides = turned(rt, u)
        for i, terrain in enumerate(sides):
            if terrain == kind and (c, i) not in done:
                pairs = _walk(rt, c, i)
                done.update(pairs)
                out.append(_as_feature(rt, _spec(rt, u), pairs))
    return out


def open_ends(rt: Runtime, f: Any) -> int:
    """How many sides (or parts) of the feature f (a list of [cell, side] pairs) face no tile: 0
    when closed."""
    if not isinstance(f, list):
        raise _error(f"a feature is a list of [cell, side] pairs, got {f!r}")
    _charge(rt, len(f))
    count = 0
    for pair in f:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise _error(f"a feature is a list of [cell, side] pairs, and {pair!r} is not one")
        c, d = pair
        table, _, _ = _at(rt, c)
        u = tile_on(rt, c)
        n = 4 if table.geometry.kind == "square" else 6
        per = 1 if u is None else _spec(rt, u).per
        other = _next(rt, c, n, _index(n, d, per), per)
        count += other is None or tile_on(rt, other) is None
    return count
