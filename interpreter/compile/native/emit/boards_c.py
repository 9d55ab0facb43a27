"""The C of boards: each board's cell tables, `cells`, placements and a placement's cells.

Stage: compile (native). Appended to a game's C file after the segments (units.py) when the game
declares boards. Per board (numbered as spatial.board_index numbers them): its cells per copy
(`BC_k`), each cell's coordinates and a grid from coordinates to cells; per component, where it
sits (`CELL_AT`: board * 256 + copy, `CELL_IX`: its index); a board that grows has its pool of
cells, the offsets of its directions and where its index lies in the state (slots.py `GROW`), and
`ZONE_GROW` (units.py writes it) names the cell each zone instance is on. Written here: those tables and the
calls naming them; the fixed C (a placement's cells, `cells`, the placements of one shape, charged
to the work budget as run/boards.py and run/pieces.py charge it) is runtime/boards.h and boards.c,
then runtime/paths.c (paths_c.py).
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.compile.native.emit import prelude
from tabula.interpreter.compile.native.emit.paths_c import moves_c
from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.compile.native.lowering.spatial import BOX, board_index
from tabula.interpreter.compile.native.slots import Layout, grown_slots, grown_words
from tabula.interpreter.model.boards import BoardTable
from tabula.interpreter.model.game import CompiledGame


def _array(name: str, words: list[int]) -> str:
    return f"static const i64 {name}[{max(len(words), 1)}] = {{{', '.join(map(str, words)) or '0'}}};"


def _grown(t: BoardTable, k: int, out: list[str], gbase: dict[str, int]) -> str:
    """The BOARD fields of a board that grows (zeros for another): whether it grows, where its
    index starts in the GROW words, its slots' mask, its directions and their offsets."""
    if not t.geometry.grows:
        return "0, 0, 0, 0, 0, 0"
    offsets = list(t.geometry.offsets.values())
    out.append(_array(f"BDX_{k}", [dx for dx, _ in offsets]))
    out.append(_array(f"BDY_{k}", [dy for _, dy in offsets]))
    mask = grown_slots(len(t.cells[0])) - 1
    return f"1, {gbase[t.name]}, {mask}, {len(offsets)}, BDX_{k}, BDY_{k}"


def zone_grow(game: CompiledGame) -> list[int]:
    """Per zone instance: the board (times 2^20) and index of the cell of a board that grows it is
    on, or -1 (values.c's move_comp calls boards.c's b_grow for a move into such a zone)."""
    names = board_index(game)
    out = [-1] * len(game.zone_layouts)
    for zone, (board, i) in game.boards.growing.items():
        out[zone] = names.index(board) << 20 | i
    return out


def boards_c(game: CompiledGame, tables: dict[str, tuple[list[int], str]], lay: Layout) -> list[str]:
    """The C of the game's boards (nothing for a game without boards)."""
    names = board_index(game)
    if not names:
        return []
    gbase: dict[str, int] = {}  # each board that grows: where its index starts in the GROW words
    start = 0
    for name, words in grown_words(game).items():
        gbase[name], start = start, start + words
    ncomp = len(game.components)
    at, ix = [-1] * ncomp, [-1] * ncomp
    out = ["#include <stdlib.h>", f"#define BOX {BOX}"]
    rows = []
    most = 1
    moves, fields = moves_c(game)
    for k, name in enumerate(names):
        t = game.boards.tables[name]
        coords = t.geometry.coords
        n = len(t.cells[0]) if t.geometry.grows else len(coords)
        most = max(most, n)
        w = max((x for x, _ in coords), default=0) + 1
        h = max((y for _, y in coords), default=0) + 1
        grid = [-1] * (w * h)
        for i, (x, y) in enumerate(coords):
            grid[y * w + x] = i
        for copy, ids in enumerate(t.cells):
            for i, c in enumerate(ids):
                at[c], ix[c] = k * 256 + copy, i
        out.append(_array(f"BC_{k}", [c for ids in t.cells for c in ids]))
        out.append(_array(f"BG_{k}", grid))
        out.append(_array(f"BX_{k}", [x for x, _ in coords]))
        out.append(_array(f"BY_{k}", [y for _, y in coords]))
        if t.cell_zones:
            out.append(_array(f"BZ_{k}", [z for zs in t.cell_zones for z in zs]))
        near = t.geometry.neighbours
        starts = [0]
        for m in near:
            starts.append(starts[-1] + len(m))
        out.append(_array(f"BNO_{k}", starts[:-1]))
        out.append(_array(f"BNN_{k}", [len(m) for m in near]))
        out.append(_array(f"BND_{k}", [j for m in near for j in m]))
        near_fields = f"BNO_{k}, BNN_{k}, BND_{k}"
        size = f"{n}, {len(t.cells)}, {w}, {h}"
        grown = _grown(t, k, out, gbase)
        rows.append(f"{{BC_{k}, BG_{k}, BX_{k}, BY_{k}, {size}, {fields[k]}, {near_fields}, {grown}}}")
    out += [_array("CELL_AT", at), _array("CELL_IX", ix), f"#define MAX_CELLS {most}", *moves]
    marks = lay.mark_base if gbase else {}
    out += [f"#define MARK_GX {marks.get('x', 0)}", f"#define MARK_GY {marks.get('y', 0)}"]
    out.append(prelude.BOARDS_H)
    out.append(f"static const BOARD BOARDS[{len(names)}] = {{{', '.join(rows)}}};")
    out += [prelude.BOARDS, prelude.PATHS, prelude.REGIONS]
    ends = "X *x, i64 a, i64 b, i64 has, L w"
    out.append(f"static AI int BPATH({ends}) {{ return b_path(x, a, b, (int)has, &w, 0) >= 0; }}")
    dist = "i64 d = b_path(x, a, b, (int)has, &w, 0); return d < 0 ? NONE : d;"
    out.append(f"static AI i64 BDIST({ends}) {{ {dist} }}")
    out.append("static AI i64 BLONG_(X *x, L e) { return b_longest(x, e, 0); }")
    route = "static AI L BROUTE_{}(" + ends + ") {{ return b_route(x, a, b, (int)has, &w, {}); }}"
    out.append(route.format("", 0))
    if "DIR_S" in tables:  # in_direction, line_from: spatial.steps
        dirs = f"DIR_S, {len(tables['DIR_S'][0]) // len(names)}, DIR_NX"
        indir = f"return b_indir(x, c, s, n, {dirs});"
        out.append(f"static AI i64 BINDIR(X *x, i64 c, i64 s, i64 n) {{ {indir} }}")
        out.append(f"static AI L BLINE(X *x, i64 c, i64 s) {{ return b_line(x, c, s, {dirs}); }}")
    for table in sorted(tables):
        if table.startswith("PW_"):
            out.append(f"static AI i64 BLONG_{table[3:]}(X *x, L e) {{ return b_longest(x, e, {table}); }}")
            out.append(route.format(table[3:], table))
    for k in range(len(names)):
        out.append(f"static AI L BCELLS_{k}(X *x, i64 copy) {{ return b_cells(x, {k}, copy); }}")
        zones = f"BZ_{k}" if game.boards.tables[names[k]].cell_zones else "0"
        out.append(f"static AI L BFRONT_{k}(X *x, i64 copy) {{ return b_frontier(x, {k}, copy, {zones}); }}")
        out.append(
            f"static AI i64 BCELL_{k}(X *x, i64 copy, i64 cx, i64 cy) {{"
            f" return b_cell(x, {k}, copy, cx, cy); }}"
        )
        for table in sorted(tables):
            if table.startswith("SHD_"):
                s = table[4:]
                out.append(
                    f"static AI L BPLACE_{k}_{s}(X *x, i64 copy, i64 c, i64 turn, i64 has, L within) {{"
                    f" CK(x, c); return b_place(x, {k}, copy, SHD_{s}, SHO_{s}[c], SHN_{s}[c], (int)turn,"
                    f" (int)has, &within); }}"
                )
    return out


def flood(gen: Any, e: ir.Region, env: dict[str, str]) -> str:
    """`region(v for v in SEEDS where C)` as run/boards.py walks it (`gen` is the CGen): the seeds
    passing C (each one, a seed given twice walked twice, uncharged), then breadth first, 1 + its
    neighbours charged a cell taken, each neighbour not seen yet tested; the cells seen, by id."""
    setup, item, m = gen.loop(e.src, env, False)
    seen, todo, out, i, v, w, c, k = (gen.fresh(s) for s in ("sn", "td", "l", "i", "v", "w", "c", "k"))
    cp, ix, b, near, nn, buf, j = (gen.fresh(s) for s in ("cp", "ix", "b", "nr", "nn", "buf", "j"))

    def test(var: str) -> str:
        return str(gen.expr(e.cond, {**env, e.var: var})) if e.cond is not None else "1"

    lines = [*setup, f"unsigned char {seen}[NCOMP + 1]; memset({seen}, 0, sizeof {seen});"]
    lines.append(f"L {todo}; {todo}.n = 0;")
    lines.append(
        f"for (i64 {i} = 0; {i} < {m}; {i}++) {{ i64 {v} = {item.format(i=i)}; (void){v};"
        f" if ({test(v)}) l_push(x, &{todo}, {v}); }}"
    )
    lines.append(f"for (i64 {i} = 0; {i} < {todo}.n; {i}++) {seen}[CK(x, {todo}.v[{i}])] = 1;")
    lines.append(
        f"for (i64 {k} = 0; {k} < {todo}.n; {k}++) {{ i64 {c} = {todo}.v[{k}], {cp}, {ix}, {nn}, {buf}[8];"
        f" const BOARD *{b} = cell_board(x, {c}, &{cp}, &{ix});"
        f" const i64 *{near} = b_near(x, {b}, {ix}, &{nn}, {buf}); CHARGE(1 + {nn});"
        f" for (i64 {j} = 0; {j} < {nn}; {j}++) {{ i64 {w} = {b}->cells[{cp} * {b}->n + {near}[{j}]];"
        f" if (!{seen}[{w}] && ({test(w)})) {{ {seen}[{w}] = 1; l_push(x, &{todo}, {w}); }} }} }}"
    )
    lines.append(f"L {out}; {out}.n = 0; for (i64 {c} = 0; {c} < NCOMP; {c}++)")
    lines.append(f"if ({seen}[{c}]) l_push(x, &{out}, {c});  /* sorted(seen) */")
    return "({ " + " ".join(lines) + f" {out}; }})"


def place_room(game: CompiledGame, tables: dict[str, tuple[list[int], str]]) -> int:
    """The most placements one call can give: orientations times cells (the list's room), at most
    4096 (more stop native code, E_SIZE)."""
    most = max((max(v, 0) for k, (vs, _) in tables.items() if k.startswith("SHN_") for v in vs), default=0)
    cells = max((len(t.geometry.coords) for t in game.boards.tables.values()), default=0)
    return min(most * cells, 4096)
