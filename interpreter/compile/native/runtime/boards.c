/* boards.c: a placement's cells, a board's cells and the placements of one shape, and boards that
   grow.

   After the game's board tables (emit/boards_c.py: BOARDS, CELL_AT, CELL_IX, MAX_CELLS, BOX,
   MARK_GX, MARK_GY). The work budget is charged as run/boards.py and run/pieces.py charge it: the
   cells of `cells(B)`, the cells given to `placements`, then per orientation tried the board's
   cells times the piece's, then the piece's cells per placement found.

   A board that grows (run/boards.py) is a pool of cells whose first ones are on the board, each
   with its coordinates in the marks x and y (NONE until it is added; cells are added in order and
   never taken away). Its GROW words index them by coordinates: the cells indexed so far, then
   slots of two words (key + 1, the cell's index), open addressing. The index is derived from the
   marks and read on from the count (g_words), so a state from the bridge (zeros: nothing indexed)
   builds it on its first use. A move into a cell's zone adds the cells round it that the board
   lacks (b_grow, called by values.c's move_comp: ZONE_GROW), in the board's direction order;
   past the pool (R003) or onto a cell not added yet (R015) native code stops and Python replays
   the decision, which reports it. */
#define G_OFF (((i64)1) << 30)
static inline i64 g_key(i64 gx, i64 gy) { return ((gx + G_OFF) << 32 | (gy + G_OFF)) + 1; }
static inline u64 g_slot(i64 key, i64 mask) { return ((u64)key * 0x9E3779B97F4A7C15ULL >> 29) & (u64)mask; }
static i64 g_find(const i64 *h, i64 mask, i64 key) {  /* the cell index at key, or -1 */
    for (u64 s = g_slot(key, mask);; s = (s + 1) & (u64)mask) {
        if (h[1 + 2 * s] == key) return h[2 + 2 * s];
        if (!h[1 + 2 * s]) return -1;
    }
}
static void g_put(i64 *h, i64 mask, i64 key, i64 i) {
    u64 s = g_slot(key, mask);
    while (h[1 + 2 * s]) s = (s + 1) & (u64)mask;
    h[1 + 2 * s] = key; h[2 + 2 * s] = i;
}
static i64 *g_words(X *x, const BOARD *b) {  /* the board's index, read on from where it stopped */
    i64 *h = S + GROW + b->gbase, n = h[0];
    while (n < b->n && S[MARK_GX + b->cells[n]] != NONE) {
        g_put(h, b->gmask, g_key(S[MARK_GX + b->cells[n]], S[MARK_GY + b->cells[n]]), n);
        n++;
    }
    h[0] = n;
    return h;
}
static i64 g_at(X *x, const BOARD *b, i64 gx, i64 gy) {  /* the cell index at (x, y), or -1 */
    return g_find(g_words(x, b), b->gmask, g_key(gx, gy));
}
static void g_xy(X *x, const BOARD *b, i64 i, i64 *gx, i64 *gy) {  /* R015: a cell not added yet */
    *gx = S[MARK_GX + b->cells[i]]; *gy = S[MARK_GY + b->cells[i]];
    if (*gx == NONE || *gy == NONE) fail(x, E_KIND);
}
/* the indices of cell i's neighbours in the board's direction order: a fixed board's table, or
   (a board that grows) the cells added so far next to it, written in buf */
static const i64 *b_near(X *x, const BOARD *b, i64 i, i64 *m, i64 *buf) {
    if (!b->grows) { *m = b->nn[i]; return b->nd + b->no[i]; }
    i64 gx, gy, k = 0;
    g_xy(x, b, i, &gx, &gy);
    for (i64 d = 0; d < b->ndirs; d++) {
        i64 j = g_at(x, b, gx + b->gdx[d], gy + b->gdy[d]);
        if (j >= 0) buf[k++] = j;
    }
    *m = k;
    return buf;
}
static i64 b_toward(X *x, i64 c, i64 d) {  /* the cell next to c (of a board that grows) in direction d, or -1 */
    const BOARD *b = &BOARDS[CELL_AT[c] >> 8];
    i64 gx, gy, j;
    g_xy(x, b, CELL_IX[c], &gx, &gy);
    j = g_at(x, b, gx + b->gdx[d], gy + b->gdy[d]);
    return j < 0 ? -1 : b->cells[j];
}
static int g_cmp(const void *a, const void *b) {
    i64 u = *(const i64 *)a, v = *(const i64 *)b;
    return u < v ? -1 : u > v;
}
/* the indices of a board that grows' cells in board order (y, then x), written in out: their count */
static i64 g_order(X *x, const BOARD *b, i64 *out) {
    i64 n = g_words(x, b)[0];
    for (i64 i = 0; i < n; i++) {
        i64 c = b->cells[i];  /* coordinates within +-2^20 (a pool of at most 20,000 cells) */
        out[i] = (S[MARK_GY + c] + (1 << 20)) << 42 | (S[MARK_GX + c] + (1 << 20)) << 21 | i;
    }
    qsort(out, (size_t)n, sizeof(i64), g_cmp);
    for (i64 i = 0; i < n; i++) out[i] &= (1 << 21) - 1;
    return n;
}
#if GROWS
static void b_grow(X *x, i64 dest) {  /* run/boards.py grow: something was moved onto a cell */
    const BOARD *b = &BOARDS[ZONE_GROW[dest] >> 20];
    i64 i = ZONE_GROW[dest] & ((1 << 20) - 1), gx, gy;
    g_xy(x, b, i, &gx, &gy);
    i64 *h = g_words(x, b);
    for (i64 d = 0; d < b->ndirs; d++) {
        i64 nx = gx + b->gdx[d], ny = gy + b->gdy[d], key = g_key(nx, ny);
        if (g_find(h, b->gmask, key) >= 0) continue;
        i64 n = h[0];
        if (n == b->n) fail(x, E_WRITE);  /* R003 in Python: replayed */
        S[MARK_GX + b->cells[n]] = nx; S[MARK_GY + b->cells[n]] = ny;
        g_put(h, b->gmask, key, n);
        h[0] = n + 1;
    }
}
#endif
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
    L out;
    if (b->grows) {  /* the cells it has so far, in board order */
        i64 idx[MAX_CELLS];
        out.n = g_order(x, b, idx);
        CHARGE(out.n);
        if (out.n > LCAP) fail(x, E_SIZE);
        for (i64 i = 0; i < out.n; i++) out.v[i] = b->cells[idx[i]];
        return out;
    }
    CHARGE(b->n);
    out.n = b->n;
    if (b->n > LCAP) fail(x, E_SIZE);
    memcpy(out.v, b->cells + copy * b->n, sizeof(i64) * (size_t)b->n);
    return out;
}
static i64 b_cell(X *x, i64 bi, i64 copy, i64 cx, i64 cy) {  /* run/boards.py cell: none off the board */
    const BOARD *b = &BOARDS[bi];
    if (copy < 0 || copy >= b->copies) fail(x, E_ENTRY);
    CHARGE(1);
    if (b->grows) {
        if (cx == NONE || cy == NONE || cx <= -G_OFF || cy <= -G_OFF || cx >= G_OFF || cy >= G_OFF) return NONE;
        i64 i = g_at(x, b, cx, cy);
        return i < 0 ? NONE : b->cells[i];
    }
    if (cx == NONE || cy == NONE || cx < 0 || cy < 0 || cx >= b->w || cy >= b->h) return NONE;
    i64 i = b->grid[cy * b->w + cx];
    return i < 0 ? NONE : b->cells[copy * b->n + i];
}
static L b_neighbours(X *x, i64 c) {  /* run/boards.py neighbours: R015 for no cell, replayed */
    if (c < 0 || c >= NCOMP || CELL_AT[c] < 0) fail(x, E_KIND);
    const BOARD *b = &BOARDS[CELL_AT[c] >> 8];
    i64 copy = CELL_AT[c] & 255, m, buf[8];
    const i64 *near = b_near(x, b, CELL_IX[c], &m, buf);
    CHARGE(m);
    L out; out.n = m;
    for (i64 j = 0; j < m; j++) out.v[j] = b->cells[copy * b->n + near[j]];
    return out;
}
/* in_direction and line_from (run/boards.py): a direction is a symbol, ds[board * nsym + symbol]
   its index on that board (-1: none, R015 replayed), nx[cell * 8 + d] the cell next to it that
   way (-1: off the board; -2: a board that grows, b_toward reads its index) */
static i64 b_dir(X *x, i64 c, i64 s, const i64 *ds, i64 nsym) {
    if (c < 0 || c >= NCOMP || CELL_AT[c] < 0) fail(x, E_KIND);  /* no cell: R015 in Python */
    if (s < 0 || s >= nsym || ds[(CELL_AT[c] >> 8) * nsym + s] < 0) fail(x, E_KIND);
    return ds[(CELL_AT[c] >> 8) * nsym + s];
}
static i64 b_next(X *x, i64 c, i64 d, const i64 *nx) {
    i64 j = nx[c * 8 + d];
    return j == -2 ? b_toward(x, c, d) : j;
}
static i64 b_indir(X *x, i64 c, i64 s, i64 n, const i64 *ds, i64 nsym, const i64 *nx) {
    i64 d = b_dir(x, c, s, ds, nsym);
    b_next(x, c, d, nx);  /* the direction checked even for 0 steps (a cell not added yet: R015) */
    if (n == NONE || n < 0) fail(x, E_KIND);
    CHARGE(n);
    for (i64 i = 0; i < n; i++) if ((c = b_next(x, c, d, nx)) < 0) return NONE;
    return c;
}
static L b_line(X *x, i64 c, i64 s, const i64 *ds, i64 nsym, const i64 *nx) {
    i64 d = b_dir(x, c, s, ds, nsym);
    L out; out.n = 0;
    for (c = b_next(x, c, d, nx); c >= 0; c = b_next(x, c, d, nx)) l_push(x, &out, c);
    CHARGE(out.n + 1);
    return out;
}
/* bounding_box's charge and checks (run/boards.py): each item a cell (R015 in Python) */
static void b_box_cells(X *x, const L *cs) {
    CHARGE(cs->n);
    for (i64 i = 0; i < cs->n; i++) {
        i64 c = cs->v[i];
        if (c < 0 || c >= NCOMP || CELL_AT[c] < 0) fail(x, E_KIND);
    }
}
/* `bounding_box(cells) == none` (lowering/spatial.py `compared`): whether there are no cells */
static int b_none(X *x, L cs) { b_box_cells(x, &cs); return cs.n == 0; }
/* bounding_box (run/boards.py): [min x, min y, max x, max y]; no cells is none in Python, which
   no list value holds: replayed (E_KIND), unless only compared with none (b_none) */
static L b_box(X *x, L cs) {
    L out; out.n = 4;
    b_box_cells(x, &cs);
    if (!cs.n) fail(x, E_KIND);
    for (i64 i = 0; i < cs.n; i++) {
        i64 c = cs.v[i], gx, gy;
        const BOARD *b = &BOARDS[CELL_AT[c] >> 8];
        if (b->grows) g_xy(x, b, CELL_IX[c], &gx, &gy);
        else { gx = b->xs[CELL_IX[c]]; gy = b->ys[CELL_IX[c]]; }
        if (!i || gx < out.v[0]) out.v[0] = gx;
        if (!i || gy < out.v[1]) out.v[1] = gy;
        if (!i || gx > out.v[2]) out.v[2] = gx;
        if (!i || gy > out.v[3]) out.v[3] = gy;
    }
    return out;
}
static L b_frontier(X *x, i64 bi, i64 copy, const i64 *zones) {  /* run/boards.py frontier */
    const BOARD *b = &BOARDS[bi];
    if (copy < 0 || copy >= b->copies || !zones) fail(x, E_ENTRY);  /* R015 in Python */
    const i64 *z = zones + copy * b->n;
    L out; out.n = 0;
    if (b->grows) {  /* its empty cells next to one holding something, or its first cell */
        i64 idx[MAX_CELLS], n = g_order(x, b, idx), any = 0, m, buf[8];
        CHARGE(n);
        for (i64 i = 0; i < n && !any; i++) any = S[ZLEN + z[idx[i]]] > 0;
        if (!any) { out.n = 1; out.v[0] = b->cells[0]; return out; }
        for (i64 i = 0; i < n; i++) {
            if (S[ZLEN + z[idx[i]]]) continue;
            const i64 *near = b_near(x, b, idx[i], &m, buf);
            CHARGE(m);
            for (i64 j = 0; j < m; j++) if (S[ZLEN + z[near[j]]]) { l_push(x, &out, b->cells[idx[i]]); break; }
        }
        return out;
    }
    CHARGE(b->n);
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
