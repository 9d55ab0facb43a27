"""The C of boards: each board's cell tables, `cells`, placements and a placement's cells.

Stage: compile (native). Appended to a game's C file after the segments (units.py) when the game
declares boards. Per board (numbered as spatial.board_index numbers them): its cells per copy
(`BC_k`), each cell's coordinates and a grid from coordinates to cells; per component, where it
sits (`CELL_AT`: board * 256 + copy, `CELL_IX`: its index). The work budget is charged as
run/boards.py and run/pieces.py charge it: the cells of `cells(B)`, the cells given to
`placements`, then per orientation tried the board's cells times the piece's, then the piece's
cells per placement found.
"""

from __future__ import annotations

from tabula.interpreter.compile.native.emit import paths_c
from tabula.interpreter.compile.native.emit.paths_c import moves_c
from tabula.interpreter.compile.native.lowering.spatial import BOX, board_index
from tabula.interpreter.model.game import CompiledGame

# The fixed part (after the tables): a placement's cells, and the placements of one shape.
RUNTIME = r"""
typedef struct { const i64 *cells; const i64 *grid; const i64 *xs; const i64 *ys;
                 i64 n, copies, w, h; const i64 *mo, *mn, *md; i64 ne; const i64 *ea, *eb, *eids;
                 const i64 *no, *nn, *nd; } BOARD;
static L place_cells(X *x, i64 w) {  /* the cells a placement word covers, in board order */
    L out; out.n = 0;
    if (w == NONE) fail(x, E_KIND);
    i64 mask = w & ((1LL << 25) - 1), ox = ((w >> 25) & 1023) - 512, oy = ((w >> 35) & 1023) - 512;
    const BOARD *b = &BOARDS[(w >> 45) & 255];
    i64 copy = (w >> 53) & 255, idx[BOX * BOX], k = 0;
    for (i64 bit = 0; bit < BOX * BOX; bit++) {
        if (!((mask >> bit) & 1)) continue;
        i64 gx = ox + bit % BOX, gy = oy + bit / BOX;
        idx[k++] = b->grid[gy * b->w + gx];
    }
    for (i64 i = 1; i < k; i++) for (i64 j = i; j > 0 && idx[j - 1] > idx[j]; j--) {
        i64 t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t;
    }
    for (i64 i = 0; i < k; i++) l_push(x, &out, b->cells[copy * b->n + idx[i]]);
    return out;
}
static L b_cells(X *x, i64 bi, i64 copy) {
    const BOARD *b = &BOARDS[bi];
    if (copy < 0 || copy >= b->copies) fail(x, E_ENTRY);
    CHARGE(b->n);
    L out; out.n = b->n;
    if (b->n > LCAP) fail(x, E_SIZE);
    memcpy(out.v, b->cells + copy * b->n, sizeof(i64) * (size_t)b->n);
    return out;
}
static i64 b_cell(X *x, i64 bi, i64 copy, i64 cx, i64 cy) {  /* run/boards.py cell: none off the board */
    const BOARD *b = &BOARDS[bi];
    if (copy < 0 || copy >= b->copies) fail(x, E_ENTRY);
    CHARGE(1);
    if (cx == NONE || cy == NONE || cx < 0 || cy < 0 || cx >= b->w || cy >= b->h) return NONE;
    i64 i = b->grid[cy * b->w + cx];
    return i < 0 ? NONE : b->cells[copy * b->n + i];
}
static L b_neighbours(X *x, i64 c) {  /* run/boards.py neighbours: R015 for no cell, replayed */
    if (c < 0 || c >= NCOMP || CELL_AT[c] < 0) fail(x, E_KIND);
    const BOARD *b = &BOARDS[CELL_AT[c] >> 8];
    i64 copy = CELL_AT[c] & 255, i = CELL_IX[c], k = b->no[i], m = b->nn[i];
    CHARGE(m);
    L out; out.n = m;
    for (i64 j = 0; j < m; j++) out.v[j] = b->cells[copy * b->n + b->nd[k + j]];
    return out;
}
static L b_frontier(X *x, i64 bi, i64 copy, const i64 *zones) {  /* run/boards.py frontier */
    const BOARD *b = &BOARDS[bi];
    if (copy < 0 || copy >= b->copies || !zones) fail(x, E_ENTRY);  /* R015 in Python */
    const i64 *z = zones + copy * b->n;
    CHARGE(b->n);
    L out; out.n = 0;
    for (i64 i = 0; i < b->n; i++) {
        if (S[ZLEN + z[i]]) continue;
        i64 k = b->no[i], m = b->nn[i], near = 0;
        CHARGE(m);
        for (i64 j = 0; j < m && !near; j++) near = S[ZLEN + z[b->nd[k + j]]] > 0;
        if (near) out.v[out.n++] = b->cells[copy * b->n + i];
    }
    return out;
}
typedef struct { i64 idx[BOX * BOX]; i64 word; } PLACED;
static __thread PLACED PBUF[LCAP];
static __thread char PFREE[MAX_CELLS];
static __thread int p_size;
static int p_cmp(const void *a, const void *b) {
    const i64 *u = ((const PLACED *)a)->idx, *v = ((const PLACED *)b)->idx;
    for (int i = 0; i < p_size; i++) if (u[i] != v[i]) return u[i] < v[i] ? -1 : 1;
    return 0;
}
/* every placement of component c's shape (its orientations: shd from off, cnt of them; turn 0:
   the first alone), covering only the cells of `within` when `has`; sorted by their cells. */
static L b_place(X *x, i64 bi, i64 copy, const i64 *shd, i64 off, i64 cnt, int turn, int has,
                 const L *within) {
    const BOARD *b = &BOARDS[bi];
    if (copy < 0 || copy >= b->copies) fail(x, E_ENTRY);
    if (cnt < 0) fail(x, E_KIND);  /* no shape: Python says so */
    if (!turn) cnt = 1;
    if (has) {
        CHARGE(within->n);
        memset(PFREE, 0, (size_t)b->n);
        for (i64 i = 0; i < within->n; i++) {
            i64 c = within->v[i];
            if (c >= 0 && c < NCOMP && CELL_AT[c] == bi * 256 + copy) PFREE[CELL_IX[c]] = 1;
        }
    } else memset(PFREE, 1, (size_t)b->n);
    i64 k = 0;
    for (i64 o = 0; o < cnt; o++) {
        const i64 *r = shd + off;
        i64 mask = r[0], size = r[1];
        off += 2 + 2 * size;
        CHARGE(b->n * size);
        p_size = (int)size;
        for (i64 a = 0; a < b->n; a++) {
            if (!PFREE[a]) continue;
            i64 ox = b->xs[a] - r[2], oy = b->ys[a] - r[3], idx[BOX * BOX], ok = 1;
            for (i64 j = 0; j < size && ok; j++) {
                i64 gx = ox + r[2 + 2 * j], gy = oy + r[3 + 2 * j];
                i64 at = gx < 0 || gy < 0 || gx >= b->w || gy >= b->h ? -1 : b->grid[gy * b->w + gx];
                if (at < 0 || !PFREE[at]) ok = 0; else idx[j] = at;
            }
            if (!ok) continue;
            if (k >= LCAP) fail(x, E_SIZE);
            PLACED *p = &PBUF[k++];
            for (i64 i = 1; i < size; i++) for (i64 j = i; j > 0 && idx[j - 1] > idx[j]; j--) {
                i64 t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t;
            }
            memcpy(p->idx, idx, sizeof(i64) * (size_t)size);
            p->word = mask | (ox + 512) << 25 | (oy + 512) << 35 | bi << 45 | copy << 53;
        }
    }
    CHARGE(k * p_size);  /* each placement found, its cells (run/pieces.py) */
    qsort(PBUF, (size_t)k, sizeof(PLACED), p_cmp);
    L out; out.n = k;
    for (i64 i = 0; i < k; i++) out.v[i] = PBUF[i].word;
    return out;
}
"""


# `regions(v for v in L where C by K)` as run/boards.py regions groups: the passing cells' keys
# (the last of a cell given twice), then from each cell in increasing id not yet grouped, a walk
# through neighbours of its key (1 + neighbours charged a cell taken), its group sorted by id.
REGIONS = r"""
static __thread i64 RG_KEY[NCOMP + 1], RG_MARK[NCOMP + 1], RG_DONE[NCOMP + 1], RG_TODO[NCOMP + 1];
static __thread i64 rg_stamp;
static int rg_cmp(const void *a, const void *b) {
    i64 u = *(const i64 *)a, v = *(const i64 *)b;
    return u < v ? -1 : u > v;
}
static void b_regions(X *x, const L *cs, const L *ks, L *out, L *ends) {
    i64 stamp = ++rg_stamp, starts[NCOMP + 1], ns = 0;
    out->n = 0; ends->n = 0;
    for (i64 i = 0; i < cs->n; i++) {
        i64 c = cs->v[i];
        if (c < 0 || c >= NCOMP) fail(x, E_KIND);  /* no cell: Python says so (R015) */
        if (RG_MARK[c] != stamp) { RG_MARK[c] = stamp; starts[ns++] = c; }
        RG_KEY[c] = ks->v[i];
    }
    qsort(starts, (size_t)ns, sizeof(i64), rg_cmp);
    for (i64 s = 0; s < ns; s++) {
        i64 c0 = starts[s], k = RG_KEY[c0], head = 0, tail = 0, from = out->n;
        if (RG_DONE[c0] == stamp) continue;
        RG_DONE[c0] = stamp; RG_TODO[tail++] = c0;
        while (head < tail) {
            i64 c = RG_TODO[head++], copy, ix;
            const BOARD *b = cell_board(x, c, &copy, &ix);
            i64 o = b->no[ix], m = b->nn[ix];
            CHARGE(1 + m);
            for (i64 j = 0; j < m; j++) {
                i64 nb = b->cells[copy * b->n + b->nd[o + j]];
                if (RG_MARK[nb] == stamp && RG_DONE[nb] != stamp && RG_KEY[nb] == k) {
                    RG_DONE[nb] = stamp; RG_TODO[tail++] = nb;
                }
            }
        }
        for (i64 j = 0; j < tail; j++) l_push(x, out, RG_TODO[j]);
        qsort(out->v + from, (size_t)tail, sizeof(i64), rg_cmp);
        l_push(x, ends, out->n);
    }
}
static L rg_item(const L *a, const L *e, i64 i) {  /* group i of b_regions */
    L out; i64 from = i ? e->v[i - 1] : 0;
    out.n = e->v[i] - from;
    memcpy(out.v, a->v + from, (size_t)out.n * 8);
    return out;
}
"""


def _array(name: str, words: list[int]) -> str:
    return f"static const i64 {name}[{max(len(words), 1)}] = {{{', '.join(map(str, words)) or '0'}}};"


def boards_c(game: CompiledGame, tables: dict[str, tuple[list[int], str]]) -> list[str]:
    """The C of the game's boards (nothing for a game without boards)."""
    names = board_index(game)
    if not names:
        return []
    ncomp = len(game.components)
    at, ix = [-1] * ncomp, [-1] * ncomp
    out = ["#include <stdlib.h>", f"#define BOX {BOX}"]
    rows = []
    most = 1
    moves, fields = moves_c(game)
    for k, name in enumerate(names):
        t = game.boards.tables[name]
        coords = t.geometry.coords
        n = len(coords)
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
        rows.append(f"{{BC_{k}, BG_{k}, BX_{k}, BY_{k}, {size}, {fields[k]}, {near_fields}}}")
    out += [_array("CELL_AT", at), _array("CELL_IX", ix), f"#define MAX_CELLS {most}", *moves]
    out += [RUNTIME.split("static L place_cells")[0]]
    out.append(f"static const BOARD BOARDS[{len(names)}] = {{{', '.join(rows)}}};")
    out.append("static L place_cells" + RUNTIME.split("static L place_cells", 1)[1])
    out.append(paths_c.RUNTIME)
    out.append(REGIONS)
    out.append(
        "static AI int BPATH(X *x, i64 a, i64 b, i64 has, L w) { return b_path(x, a, b, (int)has, &w); }"
    )
    out.append("static AI i64 BLONG_(X *x, L e) { return b_longest(x, e, 0); }")
    for table in sorted(tables):
        if table.startswith("PW_"):
            out.append(f"static AI i64 BLONG_{table[3:]}(X *x, L e) {{ return b_longest(x, e, {table}); }}")
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


def place_room(game: CompiledGame, tables: dict[str, tuple[list[int], str]]) -> int:
    """The most placements one call can give: orientations times cells (the list's room), at most
    4096 (more stop native code, E_SIZE)."""
    most = max((max(v, 0) for k, (vs, _) in tables.items() if k.startswith("SHN_") for v in vs), default=0)
    cells = max((len(t.geometry.coords) for t in game.boards.tables.values()), default=0)
    return min(most * cells, 4096)
