"""Tiles with sides in the typed form: `tile_on`, `rotations`, `turned`, `fits`, `side` and the
features `feature`, `features`, `open_ends`.

Stage: compile (native). What run/tiles.py computes from a tile's listed sides (split into parts
with `parts:`) is a constant of the tile and its rotation, so it is tabled here (per component,
`TL_*`): its number of parts, its rotations, the parts facing each position after each rotation
(as symbols: a side that is no text of the game is refused) and the group each joins, the names of
its parts, and per cell the zone on it and the cell across each side. The C that reads them
(emit/tiles_c.py) charges the work budget as run/tiles.py does. A feature's [cell, side] pair is
one word (`pair`: the cell << 20 | the side's symbol) and a feature one number (`feat`): its
sorted pairs interned while native code runs (equal lists, one number), read back as a list of
pairs where a rule walks or indexes it; neither is ever kept in the state.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.compile.native.lowering import ir, spatial
from tabula.interpreter.compile.native.lowering.ir import BOOL, COMP, FEAT, INT, PAIR, SYM
from tabula.interpreter.dsl import ast
from tabula.interpreter.load.tiles import SIDE_NAMES, part_names
from tabula.interpreter.run.tiles import _perm

NAMES = ("tile_on", "rotations", "turned", "fits", "side", "feature", "features", "open_ends")
KINDS = 6  # tile shapes: 4 sides of 1, 2 or 3 parts, then 6 sides of 1, 2 or 3 (`_kind`)
PAIRS = "list[pair]"


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
        return ir.CallF("t_side", (comp(low, args[0], scope), symbol(low, args[1], scope)), SYM)
    if name == "feature" and len(args) == 2:
        return ir.CallF("t_feature", (comp(low, args[0], scope), symbol(low, args[1], scope)), FEAT)
    if name == "features" and len(args) == 2:
        bi, copy = spatial.board_ref(low, args[0], scope)
        cells = ir.CallF(f"BCELLS_{bi}", (copy,), ir.COMPS)
        return ir.CallF("t_features", (cells, symbol(low, args[1], scope)), "list[feat]")
    if name == "open_ends" and len(args) == 1:
        f = low.expr(args[0], scope)
        if f.ty not in (FEAT, PAIRS):
            raise ir.Unsupported(f"the open ends of a {f.ty}", args[0].span)
        return ir.CallF("t_open_ends", (pairs(f),), INT)
    raise ir.Unsupported(f"the builtin '{name}' with {len(args)} argument(s)", n.span)


def pairs(e: ir.Expr) -> ir.Expr:
    """A feature (or a list of pairs) as the list of its pairs."""
    return ir.CallF("t_pairs", (e,), PAIRS) if e.ty == FEAT else e


def index(low: Any, obj: ir.Expr, key: ast.Expr, scope: dict[str, str]) -> ir.Expr | None:
    """`pair[0]` (its cell), `pair[1]` (its side), `f[i]` (a feature's pair i); None for others."""
    if obj.ty == PAIR:
        if not (isinstance(key, ast.Number) and key.value in (0, 1)):
            raise ir.Unsupported("a pair indexed by other than 0 or 1", key.span)
        return ir.CallF("PAIR_SIDE" if key.value else "PAIR_CELL", (obj,), SYM if key.value else COMP)
    if obj.ty == FEAT:
        return ir.CallF("l_at", (pairs(obj), low.number(key, scope)), PAIR)
    return None


def comp(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    e: ir.Expr = low.expr(n, scope)
    if e.ty not in (COMP, "none"):
        raise ir.Unsupported(f"a tile or a cell given as {e.ty}", n.span)
    return e


def symbol(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    """A side's name or a terrain: a symbol (a text of the rules is one, lower.py)."""
    e: ir.Expr = low.expr(n, scope)
    if e.ty not in (SYM, "none"):
        raise ir.Unsupported(f"a side given as {e.ty}", n.span)
    return e


def _kind(count: int, per: int) -> int:
    return (0 if count == 4 else 3) + per - 1


def _listed(spec: Any, props: dict[str, Any]) -> list[Any]:
    """run/tiles.py _listed: the tile's sides, each split into its parts with `parts:`."""
    sides: list[Any] = props[spec.prop]
    if spec.parts is None:
        return sides
    return [p for s in sides for p in spec.parts.get(s, [s] * spec.per)]


def _groups(spec: Any, props: dict[str, Any]) -> list[int]:
    """run/tiles.py _groups of one tile's properties."""
    sides = _listed(spec, props)
    joins = props.get(spec.joins) if spec.joins else None
    if joins is None:
        return [sides.index(s) for s in sides]
    names = part_names(spec.count, spec.per)
    out = [spec.size + i for i in range(spec.size)]
    for k, group in enumerate(joins):
        for s in group:
            out[names.index(s)] = k
    return out


def tables(low: Any, span: Any) -> str:
    """The tile tables (made once); the name of the mark holding a laid tile's rotation."""
    g = low.g
    specs = g.boards.tiles
    marks = {s.mark for s in specs.values()}
    if len(marks) != 1:
        raise ir.Unsupported("tiles whose rotations are kept in different marks", span)
    mark: str = next(iter(marks))
    if "TL_N" in low.tables:
        return mark
    ncomp = len(g.components)
    width = max(s.size for s in specs.values())  # the most parts of a tile: a row's words
    room = max(s.count * (2 if s.mirror else 1) for s in specs.values())  # the most rotations
    sizes, tops, kinds, rot_n, rots = [-1] * ncomp, [0] * ncomp, [0] * ncomp, [0] * ncomp, []
    turned, joined, named = [], [], []
    symbols: list[str] = low.symbols
    for c in g.components:
        spec = specs.get(c.type)
        row, grow, names = [-1] * (room * width), [-1] * (room * width), [-1] * width
        if spec is not None:
            sides = _listed(spec, c.props)
            if not all(isinstance(s, str) and s in symbols for s in sides):
                raise ir.Unsupported(f"tile sides of {c.name} that are not texts of the game", span)
            top = spec.count * (2 if spec.mirror else 1)
            sizes[c.id], tops[c.id], kinds[c.id] = spec.size, top, _kind(spec.count, spec.per)
            names[: spec.size] = [symbols.index(s) for s in part_names(spec.count, spec.per)]
            seen: set[tuple[Any, ...]] = set()
            groups = _groups(spec, c.props)
            for r in range(top):
                p = _perm(spec.count, r, spec.per)
                row[r * width : r * width + spec.size] = [symbols.index(sides[k]) for k in p]
                grow[r * width : r * width + spec.size] = [groups[k] for k in p]
                key = tuple(
                    (sides[k], tuple(j for j in range(spec.size) if groups[p[j]] == groups[k])) for k in p
                )
                if key not in seen:
                    seen.add(key)
                    rots.append(r)
                    rot_n[c.id] += 1
        turned += row
        joined += grow
        named += names
    starts = [0]
    for k in rot_n[:-1]:
        starts.append(starts[-1] + k)
    low.tables["TL_N"] = (sizes, INT)
    low.tables["TL_TOP"] = (tops, INT)
    low.tables["TL_K"] = (kinds, INT)
    low.tables["TL_S"] = (turned, INT)
    low.tables["TL_G"] = (joined, INT)
    low.tables["TL_NM"] = (named, INT)
    low.tables["TL_RO"] = (starts, INT)
    low.tables["TL_RN"] = (rot_n, INT)
    low.tables["TL_R"] = (rots, INT)
    low.tables["TL_W"] = ([width, room], INT)
    directions(low)
    cells(low)
    return mark


def directions(low: Any) -> None:
    """Per tile shape and symbol: the index of the part that symbol names (-1: none, R015)."""
    out = [-1] * (KINDS * len(low.symbols))
    for count in SIDE_NAMES:
        for per in (1, 2, 3):
            for i, name in enumerate(part_names(count, per)):
                if name in low.symbols:
                    out[_kind(count, per) * len(low.symbols) + low.symbols.index(name)] = i
    low.tables["TL_DIR"] = (out, INT)


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
