"""The spatial builtins in the typed form: boards as constant tables, placements as one word each.

Stage: compile (native). `call` lowers `cells(B)`, `placements(B, shape, turn, cells)` and
`named(L, 'name')` (None for any other builtin); the C they call is boards_c.py's. A board argument
is `wall` or `wall(p)`: its table is known here, its copy (the player of a per-player board) is a
value. A placement (type `place`) is one word: the orientation's cells as a 5x5 mask, the corner
of its box (x, y, each + 512), the board and the copy (`place_word`); its cells are read back in
board order by `place_cells` (C) and `decode_place` (Python, for a posed choice's options).
"""

from __future__ import annotations

import hashlib
from typing import Any, TypeGuard

from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.compile.native.lowering.ir import BOOL, COMP, COMPS, INT, ZONE
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.run.pieces import orientations

NESTED = "nested_"  # the type of a nested constant list, then its name (a value of no word)
PLACE = "place"  # a placement of a piece: one word (see the module docstring)
PLACES = "list[place]"
BOX = 5  # a piece's orientations fit a 5x5 box (its mask's bits)
SPAN = 1024  # a box's corner is kept as x + 512 and y + 512 (10 bits each)
NONE = -(1 << 63)  # none in a word (slots.NONE; slots.py reads placements through this module)


def board_index(game: CompiledGame) -> list[str]:
    """The boards in the order their C tables are numbered."""
    return sorted(game.boards.tables)


def place_word(mask: int, ox: int, oy: int, board: int, copy: int) -> int:
    return mask | (ox + 512) << 25 | (oy + 512) << 35 | board << 45 | copy << 53


def decode_place(game: CompiledGame, w: int) -> list[int]:
    """The cells a placement word covers, in board order (component ids)."""
    mask, ox, oy = w & ((1 << 25) - 1), (w >> 25 & 1023) - 512, (w >> 35 & 1023) - 512
    table = game.boards.tables[board_index(game)[w >> 45 & 255]]
    geo, copy = table.geometry, w >> 53 & 255
    idx = sorted(geo.index(ox + b % BOX, oy + b // BOX) for b in range(BOX * BOX) if mask >> b & 1)
    return [table.cells[copy][i] for i in idx]


class Unheld(Exception):
    """Raised as lower.Unsupported by the caller (this module does not import lower.py)."""

    def __init__(self, what: str, span: Any, hint: str | None = None) -> None:
        super().__init__(what)
        self.what, self.span, self.hint = what, span, hint


PATHS = {"path_exists": 3, "distance": 3, "shortest_path": 4}  # their most arguments


def call(low: Any, n: ast.Call, scope: dict[str, str]) -> ir.Expr | None:
    """The spatial builtins of boards lowered (`low` is the Lowering), else None (tiles.py lowers
    the tiles'); what a loop walks (`regions`) is `walked`."""
    assert isinstance(n.func, ast.Name)
    name, args = n.func.id, n.args
    if name == "cells" and len(args) == 1:
        bi, copy = board_ref(low, args[0], scope)
        return ir.CallF(f"BCELLS_{bi}", (copy,), COMPS)
    if name == "cell" and len(args) == 3:
        bi, copy = board_ref(low, args[0], scope)
        return ir.CallF(f"BCELL_{bi}", (copy, low.number(args[1], scope), low.number(args[2], scope)), COMP)
    if name == "neighbours" and len(args) == 1:
        c = low.expr(args[0], scope)
        if c.ty not in (COMP, "none"):
            raise Unheld(f"the neighbours of a {c.ty}", args[0].span)
        return ir.CallF("b_neighbours", (c,), COMPS)
    if name == "frontier" and len(args) == 1:
        bi, copy = board_ref(low, args[0], scope)
        return ir.CallF(f"BFRONT_{bi}", (copy,), COMPS)
    if name == "placements" and 2 <= len(args) <= 4:
        return placements(low, n, scope)
    if name == "named" and len(args) == 2:
        return named(low, args[0], args[1], scope)
    if name in PATHS and 2 <= len(args) <= PATHS[name]:
        ends = [comp_arg(low, a, scope) for a in args[:2]]
        within = cells_arg(low, args[2], scope) if len(args) >= 3 else ir.ListLit((), COMPS)
        has = ir.Lit(int(len(args) >= 3), INT)
        if name == "shortest_path":  # its cells, [] when there is none
            prop = weight(low, args[3]) if len(args) == 4 else ""
            return ir.CallF("BROUTE_" + prop, (*ends, has, within), COMPS)
        if name == "distance":  # the steps of a shortest path, or none
            return ir.CallF("BDIST", (*ends, has, within), INT)
        return ir.CallF("BPATH", (*ends, has, within), BOOL)
    if name in ("in_direction", "line_from") and len(args) in ((2, 3) if name == "in_direction" else (2,)):
        c = low.expr(args[0], scope)
        if c.ty not in (COMP, "none"):
            raise Unheld(f"{name} of a {c.ty}", args[0].span)
        d = direction(low, args[1], scope)
        if name == "line_from":
            return ir.CallF("BLINE", (c, d), COMPS)
        steps = low.expr(args[2], scope) if len(args) == 3 else ir.Lit(1, INT)
        if steps.ty not in (INT, "none"):
            raise Unheld(f"a number of steps given as {steps.ty}", args[2].span)
        return ir.CallF("BINDIR", (c, d, steps), COMP)
    if name == "bounding_box" and len(args) == 1:
        return ir.CallF("b_box", (cells_arg(low, args[0], scope),), "list[int]")
    if name == "longest_path" and len(args) in (1, 2):
        edges = cells_arg(low, args[0], scope)
        prop = weight(low, args[1]) if len(args) == 2 else ""
        return ir.CallF("BLONG_" + prop, (edges,), INT)
    return None


DIRECTIONS = ("n", "e", "s", "w", "ne", "se", "sw", "nw")  # compile/python/expressions/spatial.py's


def direction(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    """A direction (a symbol): a bare word `e`, `nw` unless a name of the game or a local, as
    direction_code reads it, or any text; and the tables that read it on each board (`steps`)."""
    g = low.g
    word = isinstance(n, ast.Name) and n.id in DIRECTIONS and n.id not in scope
    if word and isinstance(n, ast.Name) and not (n.id in g.constants or n.id in g.vars or n.id in low.defs):
        d: ir.Expr = low.expr(ast.String(value=n.id, span=n.span), scope)
    else:
        d = low.expr(n, scope)
    if d.ty not in (ir.SYM, "none"):
        raise Unheld(f"a direction given as {d.ty}", n.span)
    steps(low)
    return d


def steps(low: Any) -> None:
    """`DIR_S`: per board and symbol, the index of the direction that symbol names on it (-1: none,
    Python's R015); `DIR_NX`: per component and direction, the cell next to it that way (-1: off
    the board; -2 on a board that grows: read while playing, boards.c b_toward)."""
    g, symbols = low.g, low.symbols
    out = [-1] * (len(board_index(g)) * len(symbols))
    nexts = [-1] * (8 * len(g.components))
    for k, name in enumerate(board_index(g)):
        t = g.boards.tables[name]
        geo = t.geometry
        dirs = list(geo.offsets) if geo.grows else list(geo.step)
        for d, word in enumerate(dirs):
            if word in symbols:
                out[k * len(symbols) + symbols.index(word)] = d
            for ids in t.cells:
                for i, c in enumerate(ids):
                    j = -2 if geo.grows else geo.step[word][i]
                    nexts[8 * c + d] = j if j < 0 else ids[j]
    low.tables["DIR_S"] = (out, INT)
    low.tables["DIR_NX"] = (nexts, INT)


def compared(op: str, a: ir.Expr, b: ir.Expr, span: Any, boxes: set[str]) -> ir.Expr:
    """`a == b` or `a != b` (or an order). A list against none: a box (`bounding_box`) is none only
    for no cells, which b_none tells (its cells checked and charged as b_box does, which would stop
    native code there); a local a `let` gave a box (`boxes`) is never none in native code (b_box
    stopped it at the `let`, and Python replays the decision); no word of another list holds
    none, so it is refused (C would not compile it)."""
    lst = a if a.ty.startswith("list[") else b if b.ty.startswith("list[") else None
    if lst is None or "none" not in (a.ty, b.ty):
        return ir.Bin(op, a, b, BOOL)
    if isinstance(lst, ir.Local) and lst.name in boxes and op in ("==", "!="):
        return ir.Lit(int(op == "!="), BOOL)
    if not is_box(lst):
        raise ir.Unsupported(f"a {lst.ty} compared with none", span)
    if op not in ("==", "!="):  # (an order: b_box is made, and stops native code for no cells)
        return ir.Bin(op, ir.CallF("l_count", (lst,), INT), ir.Lit(-1, INT), BOOL)
    return ir.Bin(op, ir.CallF("b_none", lst.args, BOOL), ir.Lit(1, BOOL), BOOL)


def is_box(e: ir.Expr) -> TypeGuard[ir.CallF]:
    """`bounding_box(L)` as lowered (b_box: it stops native code for no cells)."""
    return isinstance(e, ir.CallF) and e.name == "b_box"


def comp_arg(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    """A path's end: a cell (a component)."""
    e: ir.Expr = low.expr(n, scope)
    if e.ty != COMP:
        raise Unheld(f"a path from or to a {e.ty}", n.span)
    return e


def weight(low: Any, n: ast.Expr) -> str:
    """`'length'`: the property each edge of a path counts (`PW_length`, per component)."""
    if not isinstance(n, ast.String):
        raise Unheld("a length other than a property's name", n.span)
    low.tables["PW_" + n.value] = ([_length(c.props.get(n.value)) for c in low.g.components], INT)
    return n.value


def _length(v: Any) -> int:
    """An edge's length as a path counts it (none: Python's error, replayed there)."""
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else NONE


GROUPS = "list[list[comp]]"  # what `regions(...)` gives: walked by a loop, never kept


def is_regions(n: ast.Expr) -> TypeGuard[ast.CallGen]:
    """`regions(x for x in L where C by K)` as written."""
    return isinstance(n, ast.CallGen) and isinstance(n.func, ast.Name) and n.func.id == "regions"


def walked(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Source:
    """What a loop or an aggregate walks: `regions(x for x in L where C by K)` (its groups, each a
    list of cells: cgen.loop computes them with boards_c.py's `b_regions`), else `low.source`."""
    if not is_regions(n):
        return low.source(n, scope)  # type: ignore[no-any-return]
    gen = n.gen
    src = low.source(gen.iter, scope)
    if ir.elem(src.ty) != COMP:
        raise ir.Unsupported(f"regions of a {src.ty}", gen.iter.span)
    inner = {**scope, gen.var: COMP}
    cond = low.boolean(gen.cond, inner) if gen.cond is not None else None
    key = low.expr(gen.by, inner) if gen.by is not None else None
    if key is not None and key.ty not in ir.SCALARS:
        raise ir.Unsupported(f"regions grouped by a {key.ty}", n.span)
    return ir.Source("regions", ir.Picked(gen.var, src, cond, COMPS, None, key), "", GROUPS)


def region(low: Any, n: ast.CallGen, scope: dict[str, str]) -> ir.Expr:
    """`region(x for x in SEEDS where C)`: the flood fill the C walks, testing C as it goes
    (boards_c.flood), the seeds a list of cells."""
    gen = n.gen
    src = low.source(gen.iter, scope)
    if ir.elem(src.ty) not in (COMP, "any"):
        raise ir.Unsupported(f"a region from a {src.ty}", gen.iter.span)
    cond = low.boolean(gen.cond, {**scope, gen.var: COMP}) if gen.cond is not None else None
    return ir.Region(gen.var, src, cond)


def cell_zone(low: Any, zone: str, cell: ir.Expr) -> ir.Expr | None:
    """`on_wall(c)`: the zone on cell `c` of the board whose `holds:` zone is `zone` (None when
    it is no board's), from a table over the components; a component that is no cell of that
    board is none there, and stops native code (Python's R015)."""
    table = next((t for t in low.g.boards.tables.values() if t.zone == zone), None)
    if table is None:
        return None
    words = [NONE] * len(low.g.components)
    for copy, ids in enumerate(table.cells):
        for i, c in enumerate(ids):
            words[c] = table.cell_zones[copy][i]
    low.tables["CZ_" + zone] = (words, INT)
    return ir.Bin("+", ir.Table("CZ_" + zone, cell, INT), ir.Lit(0, INT), ZONE)


def cells_arg(low: Any, n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    """A list of cells or edges (a source walked into a list value)."""
    e: ir.Expr = low.expr(n, scope)
    if e.ty not in (COMPS, ir.ANY_LIST):
        raise Unheld(f"a list of cells or edges given as {e.ty}", n.span)
    return e


def board_ref(low: Any, n: ast.Expr, scope: dict[str, str]) -> tuple[int, ir.Expr]:
    """`wall` or `wall(p)`: the board's number and the copy (the checker made sure it is one)."""
    boards = board_index(low.g)
    if isinstance(n, ast.Name) and n.id in boards and n.id not in scope:
        return boards.index(n.id), ir.Lit(0, INT)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in boards and len(n.args) == 1:
        return boards.index(n.func.id), low.player(n.args[0], scope)
    raise Unheld("a board given other than by its name", n.span)


def named(low: Any, src_n: ast.Expr, name_n: ast.Expr, scope: dict[str, str]) -> ir.Expr:
    """`named(L, 'name')`, `named(L, x.name_prop)`: the components of L with that name (each item
    read is charged). A name is compared as its number among the symbols and the components'
    names (`P__name`); a name of neither is no component's."""
    src = low.source(src_n, scope)
    if ir.elem(src.ty) != COMP:
        raise Unheld(f"named of a {src.ty}", src_n.span)
    symbols: list[str] = low.symbols
    extra = sorted({c.name for c in low.g.components} - set(symbols))
    numbers = {s: i for i, s in enumerate([*symbols, *extra])}
    low.tables["P__name"] = ([numbers[c.name] for c in low.g.components], INT)
    if isinstance(name_n, ast.String):
        key: ir.Expr = ir.Lit(numbers.get(name_n.value, -1), INT)
    else:
        key = low.expr(name_n, scope)
        if key.ty != ir.SYM:
            raise Unheld(f"a name given as {key.ty}", name_n.span)
    test = ir.Bin("==", ir.Table("P__name", ir.Local("_n", COMP), INT), key, BOOL)
    return ir.Picked("_n", src, test, COMPS)


def placements(low: Any, n: ast.Call, scope: dict[str, str]) -> ir.Expr:
    """`placements(B, x.prop [, turn [, cells]])`: the shapes of the property `prop` of every
    component, turned and mirrored at build time as run/pieces.py turns them."""
    args = n.args
    bi, copy = board_ref(low, args[0], scope)
    table = low.g.boards.tables[board_index(low.g)[bi]]
    geo = table.geometry
    if geo.kind == "graph" or geo.grows:  # on a board that grows, Python's R015
        raise Unheld(f"placements on a {'graph' if geo.kind == 'graph' else 'growing'} board", n.span)
    if max((max(x, y) for x, y in geo.coords), default=0) >= 500:
        raise Unheld("placements on a board wider than 500 cells", n.span)
    shape = args[1]
    fixed = constant_shape(low, shape, scope)
    if fixed is not None:  # one shape: every component's entry is it
        digest = hashlib.sha1(repr(fixed).encode()).hexdigest()[:10]
        name = shape_tables(low, "k" + digest, geo.kind, shape.span, fixed)
        obj: ir.Expr = ir.Lit(0, COMP)
    elif isinstance(shape, ast.Attr):
        obj = low.expr(shape.obj, scope)
        if obj.ty != COMP:
            raise Unheld(f"a shape of a {obj.ty}", shape.span)
        name = shape_tables(low, shape.name, geo.kind, shape.span)
    else:
        raise Unheld("a piece's shape other than a component's property or a constant", shape.span)
    turn = low.boolean(args[2], scope) if len(args) > 2 else ir.Lit(1, BOOL)
    within = low.expr(args[3], scope) if len(args) > 3 else ir.ListLit((), COMPS)
    if within.ty not in (COMPS, ir.ANY_LIST):
        raise Unheld(f"placements within a {within.ty}", args[3].span)
    has = ir.Lit(int(len(args) > 3), INT)
    return ir.CallF(f"BPLACE_{bi}_{name}", (copy, obj, turn, has, within), PLACES)


def constant_shape(low: Any, n: ast.Expr, scope: dict[str, str]) -> list[Any] | None:
    """The shape a constant gives (`[[0, 0], [1, 0]]`, or the name of a constant), else None."""
    if isinstance(n, ast.Name) and n.id not in scope and isinstance(low.g.constants.get(n.id), list):
        return list(low.g.constants[n.id])
    if isinstance(n, ast.Name) and str(scope.get(n.id, "")).startswith(NESTED):  # a function's parameter
        return list(low.g.constants[scope[n.id][len(NESTED) :]])
    if not isinstance(n, ast.ListLit):
        return None
    out: list[Any] = []
    for p in n.items:
        if not (isinstance(p, ast.ListLit) and all(isinstance(v, ast.Number) for v in p.items)):
            return None
        out.append([v.value for v in p.items if isinstance(v, ast.Number)])
    return out


def shape_tables(low: Any, prop: str, kind: str, span: Any, fixed: list[Any] | None = None) -> str:
    """The orientations of every component's shape `prop` (or of the one shape `fixed`) on a
    `kind` board, as one flat table of records (mask, cells, then dx, dy per cell) with each
    component's offset and count (-1: none)."""
    name = f"{prop}_{kind}"
    if "SHD_" + name in low.tables:
        return name
    data: list[int] = []
    offs: list[int] = []
    counts: list[int] = []
    for c in low.g.components:
        raw = fixed if fixed is not None else c.props.get(prop)
        if fixed is not None and data:  # one record for every component
            offs.append(0)
            counts.append(counts[0])
            continue
        offs.append(len(data))
        if raw is None:
            counts.append(-1)
            continue
        ok = (
            isinstance(raw, list)
            and raw
            and all(isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in raw)
        )
        if not ok:
            raise Unheld(f"a shape '{prop}' that is not a list of [x, y] offsets", span)
        shapes = orientations(tuple((p[0], p[1]) for p in raw), kind, True)
        counts.append(len(shapes))
        for s in shapes:
            if any(x >= BOX or y >= BOX for x, y in s):
                raise Unheld(f"a piece larger than {BOX}x{BOX} cells", span)
            mask = sum(1 << (y * BOX + x) for x, y in s)
            data += [mask, len(s), *(v for xy in s for v in xy)]
    low.tables["SHD_" + name] = (data, INT)
    low.tables["SHO_" + name] = (offs, INT)
    low.tables["SHN_" + name] = (counts, INT)
    return name


def place_source(e: ir.Expr) -> ir.Source:
    """What `for c in pl` walks for a placement: the cells it covers, in board order."""
    return ir.Source("list", ir.CallF("place_cells", (e,), COMPS), "", COMPS)


__all__ = ["PLACE", "PLACES", "call", "decode_place", "place_source"]
