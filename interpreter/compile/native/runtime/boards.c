/* boards.c: a placement's cells, a board's cells and the placements of one shape.

   After the game's board tables (emit/boards_c.py: BOARDS, CELL_AT, CELL_IX, MAX_CELLS, BOX). The
   work budget is charged as run/boards.py and run/pieces.py charge it: the cells of `cells(B)`,
   the cells given to `placements`, then per orientation tried the board's cells times the piece's,
   then the piece's cells per placement found. */
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
