"""The spatial builtins as the compiler sees them: their entries, boards as arguments, the zone on
a cell, and the region generators.

Stage: compile. `SPATIAL` lists the entries builtins.py registers (their implementations are in
run/boards.py and run/pieces.py). A board argument is written `wall` (a global board) or `wall(p)`
(a per-player board) and compiled to the pair (board, copy) the run-time functions take.
`region(x for x in SEEDS where C)` and `regions(x for x in CELLS where C by K)` compile to calls
with the condition and the key as Python lambdas.
"""

from __future__ import annotations

from typing import NamedTuple

from tabula.interpreter.base.types import ANY, BOOL, COMP, INT, PLAYER, STR, ZONE, Scope, elem, list_of
from tabula.interpreter.compile.python.expressions.base import ExprBase
from tabula.interpreter.compile.python.expressions.fragments import Code
from tabula.interpreter.dsl import ast
from tabula.interpreter.run.boards import region, regions, zone_on

GENERATORS = ("region", "regions")


class Entry(NamedTuple):
    """A spatial builtin: as builtins.Builtin takes it, plus the position of its board argument."""

    name: str
    syntax: str
    doc: str
    example: str
    arity: tuple[int, int]
    result: str
    list_args: tuple[int, ...] = ()
    board_arg: int = -1
    dir_arg: int = -1


DIRECTIONS = frozenset({"n", "e", "s", "w", "ne", "se", "sw", "nw"})


SPATIAL = [
    Entry(
        "cell",
        "cell(B, x, y)",
        "the cell of board B at (x, y), or none off the board or its mask; "
        "B is a board (`wall`) or a player's board (`wall(p)`)",
        "cell(wall, 2, 0)",
        (3, 3),
        COMP,
        board_arg=0,
    ),
    Entry(
        "cells",
        "cells(B)",
        "every cell (or space) of board B, row by row",
        "count(cells(wall))",
        (1, 1),
        list_of(COMP),
        board_arg=0,
    ),
    Entry(
        "neighbours",
        "neighbours(c)",
        "the cells next to c: 4 on a square board (8 with diagonal: "
        "true), 6 on a hex board, the spaces joined to it by an edge on a graph",
        "count(neighbours(c))",
        (1, 1),
        list_of(COMP),
    ),
    Entry(
        "in_direction",
        "in_direction(c, d) | in_direction(c, d, n)",
        "the cell n steps (default 1) "
        "from c in direction d (n e s w, ne se sw nw; hex: e ne nw w sw se), or none off the board",
        "in_direction(c, e, 2)",
        (2, 3),
        COMP,
        dir_arg=1,
    ),
    Entry(
        "line_from",
        "line_from(c, d)",
        "the cells from c (not included) in direction d to the edge of the board",
        "count(line_from(c, s))",
        (2, 2),
        list_of(COMP),
        dir_arg=1,
    ),
    Entry(
        "bounding_box",
        "bounding_box(L)",
        "[min x, min y, max x, max y] of the cells of L, or none for no cells",
        "bounding_box(cells(wall))",
        (1, 1),
        list_of(INT),
        list_args=(0,),
    ),
    Entry(
        "shortest_path",
        "shortest_path(a, b) | shortest_path(a, b, L) | shortest_path(a, b, L, 'prop')",
        "the cells of a shortest path from a to b (both included), [] if none; through the cells or "
        "edges of L only when given, each edge counting its property prop",
        "shortest_path(a1, e5)",
        (2, 4),
        list_of(COMP),
    ),
    Entry(
        "path_exists",
        "path_exists(a, b) | path_exists(a, b, L)",
        "true if b can be reached from a (through the cells or edges of L only when given)",
        "path_exists(a, b, mine)",
        (2, 3),
        BOOL,
    ),
    Entry(
        "distance",
        "distance(a, b) | distance(a, b, L)",
        "the number of steps of a shortest path from a to b (through the cells or edges of L), or none",
        "distance(a1, c3)",
        (2, 3),
        INT,
    ),
    Entry(
        "longest_path",
        "longest_path(E) | longest_path(E, 'prop')",
        "the length of the longest "
        "trail through the edges E, each used once (the number of edges, or the sum of their "
        "property prop): a longest road",
        "longest_path(routes(p), 'length')",
        (1, 2),
        INT,
        list_args=(0,),
    ),
    Entry(
        "placements",
        "placements(B, shape) | placements(B, shape, turn) | placements(B, shape, turn, cells)",
        "every distinct way to lay "
        "a piece of that shape ([x, y] offsets) on board B, turned and mirrored unless turn is false, "
        "covering only the given cells when a list of them is given: "
        "each the list of cells it covers, in board order; two ways covering the same cells are one",
        "placements(wall, [[0, 0], [1, 0]])",
        (2, 4),
        list_of(list_of(COMP)),
        board_arg=0,
    ),
    Entry(
        "frontier",
        "frontier(B)",
        "the empty cells of board B next to a cell holding something (in the zones of holds:), in "
        "board order: where the next tile may go, computed by the engine",
        "frontier(table)",
        (1, 1),
        list_of(COMP),
        board_arg=0,
    ),
    Entry(
        "rotations",
        "rotations(t)",
        "the rotations of tile t that differ, smallest first: 0 as listed, r turned r steps "
        "clockwise, 4..7 (hex 6..11) mirrored then turned when its type says mirror: true",
        "rotations(t)",
        (1, 1),
        list_of(INT),
    ),
    Entry(
        "turned",
        "turned(t) | turned(t, r)",
        "the sides of tile t facing n e s w (hex: e se sw w nw ne) after rotation r (default: its "
        "own rotation, its mark turn)",
        "turned(t, 1)",
        (1, 2),
        list_of(ANY),
    ),
    Entry(
        "tile_on",
        "tile_on(c)",
        "the tile on cell c (the first tile in the zone on it), or none",
        "tile_on(c)",
        (1, 1),
        COMP,
    ),
    Entry(
        "fits",
        "fits(t, c, r)",
        "true if cell c holds no tile and tile t turned r shows every neighbouring tile the terrain "
        "that tile shows it (an empty neighbour matches anything)",
        "fits(t, c, 1)",
        (3, 3),
        BOOL,
    ),
    Entry(
        "side",
        "side(c, d)",
        "the terrain that the tile on cell c shows in direction d, or none (no tile)",
        "side(c, n)",
        (2, 2),
        ANY,
        dir_arg=1,
    ),
    Entry(
        "feature",
        "feature(c, d)",
        "the feature through side d of the tile on cell c: the [cell, side] pairs joined to it, "
        "inside tiles and across facing sides of the same terrain, in board order",
        "feature(c, e)",
        (2, 2),
        list_of(list_of(ANY)),
        dir_arg=1,
    ),
    Entry(
        "features",
        "features(B, kind)",
        "every feature of terrain kind on board B, each as feature gives it",
        "features(table, 'road')",
        (2, 2),
        list_of(list_of(list_of(ANY))),
        board_arg=0,
    ),
    Entry(
        "open_ends",
        "open_ends(F)",
        "how many sides of the feature F face no tile (an empty cell or the board's edge): 0 when closed",
        "open_ends(feature(c, e))",
        (1, 1),
        INT,
        list_args=(0,),
    ),
    Entry(
        "region",
        "region(x for x in L where C)",
        "the cells reached from the seeds L that satisfy "
        "C, through neighbours that satisfy it (a flood fill), in board order",
        "region(x for x in [c] where x.colour == c.colour)",
        (1, 1),
        list_of(COMP),
    ),
    Entry(
        "regions",
        "regions(x for x in L where C by K)",
        "the connected groups of the cells of L that "
        "satisfy C, two neighbours in one group when their keys K are equal",
        "regions(x for x in cells(wall) where x.colour != none by x.colour)",
        (1, 1),
        list_of(list_of(COMP)),
    ),
]


def board_ref_code(c: ExprBase, node: ast.Expr, scope: Scope) -> Code:
    """`wall` or `wall(p)` as the pair (board, copy) (T014 for anything else)."""
    tables = c.g.boards.tables
    if isinstance(node, ast.Name) and node.id in tables and not scope_has(scope, node.id):
        if tables[node.id].per_player:
            return c.error("T014", f"board '{node.id}' is per player", node.span, f"write {node.id}(p)")
        return repr((node.id, 0)), ANY
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in tables:
        name = node.func.id
        if not tables[name].per_player or len(node.args) != 1:
            return c.error("T014", f"board '{name}' is global: write {name}", node.span)
        p, pt = c.code(node.args[0], scope)
        c.expect(pt, PLAYER, node.args[0].span)
        return f"({name!r}, {p})", ANY
    hint = ", ".join(sorted(tables)) or "this game declares no boards"
    return c.error(
        "T014", "a board is needed here: its name, or name(p) for a player's board", node.span, hint
    )


def fixed_board(c: ExprBase, node: ast.Expr) -> None:
    """`placements` on a board that grows could never run (run/pieces.py: R015 at every call):
    C010 at the board."""
    name = node.id if isinstance(node, ast.Name) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
    table = c.g.boards.tables.get(name or "")
    if table is not None and table.geometry.grows:
        c.error(
            "C010",
            f"pieces are placed on boards of a fixed size, and '{name}' grows",
            node.span,
            "give the board a size (size: [w, h]) or lay one cell at a time (frontier)",
        )


def direction_code(c: ExprBase, node: ast.Expr, scope: Scope) -> Code:
    """A direction: a bare word `e`, `nw` (unless a name of the game or a local), or any text."""
    if isinstance(node, ast.Name) and node.id in DIRECTIONS and not scope_has(scope, node.id):
        g = c.g
        if node.id not in g.constants and node.id not in g.vars and node.id not in c.functions:
            return repr(node.id), STR
    return c.code(node, scope)


def scope_has(scope: Scope, name: str) -> bool:
    return name in scope.locals or name in scope.py or name in scope.known


def cell_zone_code(c: ExprBase, zone: str, n: ast.Call, scope: Scope) -> Code | None:
    """`on_wall(c)`, or `on_wall(c3)` / `on_quilt(p, c3)` by the cell's name: the zone on a cell
    (None when `zone` is no board's zone)."""
    board = next((t for t in c.g.boards.tables.values() if t.zone == zone), None)
    if board is None:
        return None
    names = board.geometry.names
    last = n.args[-1] if n.args else None
    by_name = isinstance(last, ast.Name) and last.id in names and not scope_has(scope, last.id)
    want = 2 if by_name and board.per_player else 1
    if len(n.args) != want or (want == 2 and not by_name):
        form = f"{zone}(c), or {zone}(p, NAME) by a cell's name" if board.per_player else f"{zone}(c)"
        return c.error("E105", f"zone '{zone}' takes a cell of board '{board.name}': {form}", n.span)
    if by_name:
        assert isinstance(last, ast.Name)
        base = c.g.zones[f"{zone}({last.id})"].base
        if not board.per_player:
            return repr(base), ZONE
        p, pt = c.code(n.args[0], scope)
        c.expect(pt, PLAYER, n.args[0].span)
        return f"({base} + ({p}))", ZONE
    cell, _ = c.code(n.args[0], scope)
    return f"{c.helper(zone_on)}(rt, {cell}, {board.name!r})", ZONE


def generator_code(c: ExprBase, kind: str, gen: ast.Generator, scope: Scope) -> Code:
    """`region(x for x in L where C)` and `regions(x for x in L where C by K)`."""
    if not (isinstance(gen.elt, ast.Name) and gen.elt.id == gen.var):
        return c.error(
            "E116",
            f"{kind} keeps cells, not values computed from them",
            gen.elt.span,
            f"write {kind}({gen.var} for {gen.var} in ... where ...)",
        )
    if gen.default is not None or (gen.by is not None and kind == "region"):
        extra = gen.default if gen.default is not None else gen.by
        assert extra is not None
        return c.error(
            "E116",
            f"{kind} takes no '{'default' if gen.default is not None else 'by'}'",
            extra.span,
            "regions(x for x in L where C by K) groups by a key",
        )
    it, itt = c.list_code(gen.iter, scope)
    inner = scope.child()
    var = c.mod.fresh("v_" + gen.var)
    inner.known[gen.var] = (var, elem(itt))
    frame = c.enter_loop(var)
    try:
        cond = c.cond_code(gen.cond, inner) if gen.cond is not None else "True"
        key = c.code(gen.by, inner)[0] if gen.by is not None else "None"
    finally:
        c.leave_loop()
    if kind == "region":
        code, t = f"{c.helper(region)}(rt, {it}, lambda {var}: {cond})", list_of(COMP)
    else:
        code = f"{c.helper(regions)}(rt, {it}, lambda {var}: {cond}, lambda {var}: {key})"
        t = list_of(list_of(COMP))
    if frame:  # what the loop reads that does not change in it: computed once, first
        names = ", ".join(name for name, _ in frame)
        code = f"(lambda {names}: {code})({', '.join(src for _, src in frame)})"
    return code, t
