"""Tiles with sides in the typed form: `tile_on`, `rotations`, `turned`, `fits` and `side`.

Stage: compile (native). What run/tiles.py computes from a tile's listed sides is a constant of
the tile and its rotation, so it is tabled here (per component, `TL_*`): its number of sides, its
rotations, the sides facing each direction after each rotation (as symbols: a side that is no text
of the game is refused), and per cell the zone on it and the cell across each side. The C that
reads them (emit/tiles_c.py) charges the work budget as run/tiles.py does. Features (`feature`,
`features`, `open_ends`: lists of [cell, side] pairs) are not held: N001 names them.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.compile.native.lowering.ir import BOOL, COMP, INT, SYM
from tabula.interpreter.dsl import ast
from tabula.interpreter.load.tiles import SIDE_NAMES
from tabula.interpreter.run.tiles import _perm

NAMES = ("tile_on", "rotations", "turned", "fits", "side")
ROOM = 12  # the most rotations a tile has (6 sides, mirrored): a tile's rows in TL_S


def call(low: Any, n: ast.Call, scope: dict[str, str]) -> ir.Expr | None:
    """A tile builtin lowered (None for any other call)."""
    assert isinstance(n.func, ast.Name)
    name, args = n.func.id, n.args
    if name not in NAMES or name in low.defs or not low.g.boards.tiles:
        return None
    mark = tables(low, n.span)
    if name == "tile_on" and len(args) == 1:
        return ir.CallF("t_tile_on", (comp(low, args[0], scope),), COMP)
    if name == "rotations" and len(args) == 1:
        return ir.CallF("t_rotations", (comp(low, args[0], scope),), "list[int]")
    if name == "turned" and len(args) in (1, 2):
        t = comp(low, args[0], scope)
        r = low.number(args[1], scope) if len(args) == 2 else ir.Slot(f"MARK_{mark}", t, INT)
        return ir.CallF("t_turned", (t, r), "list[sym]")
    if name == "fits" and len(args) == 3:
        t, c = comp(low, args[0], scope), comp(low, args[1], scope)
        return ir.CallF("t_fits", (t, c, low.number(args[2], scope)), BOOL)
    if name == "side" and len(args) == 2:
        return ir.CallF("t_side", (comp(low, args[0], scope), direction(low, args[1], scope)), SYM)
    raise ir.Unsupported(f"the builtin '{name}' with {len(args)} argument(s)", n.span)


def comp(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    e: ir.Expr = low.expr(n, scope)
    if e.ty not in (COMP, "none"):
        raise ir.Unsupported(f"a tile or a cell given as {e.ty}", n.span)
    return e


def direction(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    """A side's direction as its index among the tile's side names (square, then hex: 4 + i);
    a text that names no side is -1 (native code stops, Python reports R015)."""
    if isinstance(n, ast.String):
        return ir.Lit(_side_code(n.value), INT)
    e: ir.Expr = low.expr(n, scope)
    if e.ty != SYM:
        raise ir.Unsupported(f"a side given as {e.ty}", n.span)
    low.tables["TL_DIR"] = ([_side_code(s) for s in low.symbols], INT)
    return ir.CallF("t_dir", (e,), INT)


def _side_code(s: Any) -> int:
    """n e s w as 0-3 (their index on a square tile) and e se sw w nw ne as 16 + 0-5 (on a hex
    tile), both where a name is both (e, w): 0-3 | (16 + i) << 8."""
    sq = SIDE_NAMES[4].index(s) if s in SIDE_NAMES[4] else 255
    hx = SIDE_NAMES[6].index(s) if s in SIDE_NAMES[6] else 255
    return -1 if sq == hx == 255 else sq | hx << 8


def tables(low: Any, span: Any) -> str:
    """The tile tables (made once); the name of the mark holding a laid tile's rotation."""
    g = low.g
    specs = g.boards.tiles
    marks = {s.mark for s in specs.values()}
    if len(marks) != 1:
        raise ir.Unsupported("tiles whose rotations are kept in different marks", span)
    if any(s.per != 1 for s in specs.values()):
        raise ir.Unsupported("tile sides split into parts (`parts:`)", span)
    mark: str = next(iter(marks))
    if "TL_N" in low.tables:
        return mark
    ncomp = len(g.components)
    sides_n, tops, rot_n, rots, turned = [-1] * ncomp, [0] * ncomp, [0] * ncomp, [], []
    symbols: list[str] = low.symbols
    for c in g.components:
        spec = specs.get(c.type)
        row = [-1] * (ROOM * 6)
        if spec is not None:
            sides = c.props[spec.prop]
            if not all(isinstance(s, str) and s in symbols for s in sides):
                raise ir.Unsupported(f"tile sides of {c.name} that are not texts of the game", span)
            top = spec.count * (2 if spec.mirror else 1)
            sides_n[c.id], tops[c.id] = spec.count, top
            seen: set[tuple[Any, ...]] = set()
            groups = _groups(spec, c.props)
            for r in range(top):
                p = _perm(spec.count, r)
                row[r * 6 : r * 6 + spec.count] = [symbols.index(sides[k]) for k in p]
                key = tuple(
                    (sides[k], tuple(j for j in range(spec.count) if groups[p[j]] == groups[k])) for k in p
                )
                if key not in seen:
                    seen.add(key)
                    rots.append(r)
                    rot_n[c.id] += 1
        turned += row
    starts = [0]
    for k in rot_n[:-1]:
        starts.append(starts[-1] + k)
    low.tables["TL_N"] = (sides_n, INT)
    low.tables["TL_TOP"] = (tops, INT)
    low.tables["TL_S"] = (turned, INT)
    low.tables["TL_RO"] = (starts, INT)
    low.tables["TL_RN"] = (rot_n, INT)
    low.tables["TL_R"] = (rots, INT)
    cells(low)
    return mark


def _groups(spec: Any, props: dict[str, Any]) -> list[int]:
    """run/tiles.py _groups of one tile's properties."""
    sides = props[spec.prop]
    joins = props.get(spec.joins) if spec.joins else None
    if joins is None:
        return [sides.index(s) for s in sides]
    names = SIDE_NAMES[spec.count]
    out = [spec.count + i for i in range(spec.count)]
    for k, group in enumerate(joins):
        for s in group:
            out[names.index(s)] = k
    return out


def cells(low: Any) -> None:
    """Per component: the zone on it when it is a cell of a board that holds (-1: no cell, -2: a
    cell of a board that holds nothing), its board's sides (4 square, 6 hex, 0 other) and the cell
    across each side (-1: off the board)."""
    g = low.g
    ncomp = len(g.components)
    zone, kind, across = [-1] * ncomp, [0] * ncomp, [-1] * (ncomp * 6)
    for t in g.boards.tables.values():
        geo = t.geometry
        n = {"square": 4, "hex": 6}.get(geo.kind, 0)
        for copy, ids in enumerate(t.cells):
            for i, c in enumerate(ids):
                zone[c] = t.cell_zones[copy][i] if t.cell_zones else -2
                kind[c] = n
                for d, name in enumerate(SIDE_NAMES.get(n, ())):
                    if geo.grows:  # -2 - the direction: its index is read while playing (b_toward)
                        across[c * 6 + d] = -2 - list(geo.offsets).index(name)
                        continue
                    j = geo.step[name][i]
                    across[c * 6 + d] = -1 if j < 0 else ids[j]
    low.tables["TL_CZ"] = (zone, INT)
    low.tables["TL_CK"] = (kind, INT)
    low.tables["TL_X"] = (across, INT)
