/* paths.c: paths on boards: `path_exists(a, b [, L])`, `distance(a, b [, L])`,
   `shortest_path(a, b [, L [, 'prop']])` and `longest_path(E [, 'prop'])`.

   After boards.c. Each walks as run/boards.py walks, step for step, so that the work budget is
   charged the same units in the same order: the shortest path search pops (distance, cell id,
   push number) in Python's heap order and charges 1 + the moves of each cell it expands; the
   longest trail tries the edges in the order Python's adjacency lists hold them, one unit per edge
   tried. Reads each board's moves (mo, mn, md: the incident edges of a graph's space, else the
   neighbour cells), a graph's edge ends and edge ids per copy, and per component the edge it is
   (EDGE_AT, EDGE_IX; emit/paths_c.py writes them). */
static __thread char PALLOW[NCOMP + 1];
static __thread i64 PBEST[NCOMP + 1];
typedef struct { i64 d, c, tick; } HN;
static __thread HN PHEAP[4 * NCOMP + 16];
static int h_less(const HN *a, const HN *b) {
    return a->d != b->d ? a->d < b->d : a->c != b->c ? a->c < b->c : a->tick < b->tick;
}
static void h_push(X *x, i64 *n, HN v) {
    if (*n >= 4 * NCOMP + 16) fail(x, E_SIZE);
    i64 i = (*n)++;
    while (i > 0) { i64 p = (i - 1) / 2; if (!h_less(&v, &PHEAP[p])) break; PHEAP[i] = PHEAP[p]; i = p; }
    PHEAP[i] = v;
}
static HN h_pop(i64 *n) {
    HN top = PHEAP[0], last = PHEAP[--(*n)];
    i64 i = 0;
    for (;;) {
        i64 l = 2 * i + 1, r = l + 1, m = i;
        const HN *best = &last;
        if (l < *n && h_less(&PHEAP[l], best)) { m = l; best = &PHEAP[l]; }
        if (r < *n && h_less(&PHEAP[r], best)) { m = r; }
        if (m == i) break;
        PHEAP[i] = PHEAP[m]; i = m;
    }
    if (*n > 0) PHEAP[i] = last;
    return top;
}
static const BOARD *cell_board(X *x, i64 c, i64 *copy, i64 *ix) {  /* R015 in Python: replayed */
    if (c < 0 || c >= NCOMP || CELL_AT[c] < 0) fail(x, E_KIND);
    *copy = CELL_AT[c] & 255; *ix = CELL_IX[c];
    return &BOARDS[CELL_AT[c] >> 8];
}
/* run/boards.py shortest_path: the length of a shortest path from a to b (its steps, or the sum
   of its edges' weight[e] when weight is given), -1 when there is none; PCAME[c] the cell each
   cell reached was last reached from (path_exists, distance, shortest_path) */
static __thread i64 PCAME[NCOMP + 1];
static i64 b_path(X *x, i64 a, i64 b, int has, const L *within, const i64 *weight) {
    i64 copy, ix;
    cell_board(x, a, &copy, &ix); cell_board(x, b, &copy, &ix);  /* R015 in Python: replayed */
    int cells = 0, edges = 0;
    if (has) {
        CHARGE(within->n);
        memset(PALLOW, 0, NCOMP);
        for (i64 i = 0; i < within->n; i++) {
            i64 c = within->v[i];
            if (c < 0 || c >= NCOMP) continue;
            if (EDGE_AT[c] >= 0) { edges = 1; PALLOW[c] = 1; }
        }
        if (!edges) {
            cells = 1;
            for (i64 i = 0; i < within->n; i++) {
                i64 c = within->v[i];
                if (c >= 0 && c < NCOMP && CELL_AT[c] >= 0) PALLOW[c] = 1;
            }
            if (!PALLOW[a] || !PALLOW[b]) return -1;
        }
    }
    for (i64 i = 0; i < NCOMP; i++) PBEST[i] = -1;
    i64 n = 0, tick = 0;
    PBEST[a] = 0;
    h_push(x, &n, (HN){0, a, 0});
    while (n > 0) {
        HN top = h_pop(&n);
        if (top.c == b) break;
        if (top.d > PBEST[top.c]) continue;
        const BOARD *t = cell_board(x, top.c, &copy, &ix);
        i64 k = 0, m = 0, moves = 0, buf[8];
        const i64 *md = t->grows ? b_near(x, t, ix, &m, buf) : t->md;  /* grown: the cells added */
        if (!t->grows) { k = t->mo[ix]; m = t->mn[ix]; }
        for (i64 j = 0; j < m; j++) {  /* the moves counted first, as Python lists them */
            i64 e = md[k + j];
            if (t->ne && edges && !PALLOW[t->eids[copy * t->ne + e]]) continue;
            moves++;
        }
        CHARGE(1 + moves);
        for (i64 j = 0; j < m; j++) {
            i64 e = md[k + j], nx, cost = 1;
            if (t->ne) {
                i64 eid = t->eids[copy * t->ne + e];
                if (edges && !PALLOW[eid]) continue;
                nx = t->cells[copy * t->n + (t->ea[e] == ix ? t->eb[e] : t->ea[e])];
                if (weight && (cost = weight[eid]) == NONE) fail(x, E_KIND);  /* R015 in Python */
            } else nx = t->cells[copy * t->n + e];
            if (cells && !PALLOW[nx]) continue;
            if (PBEST[nx] < 0 || top.d + cost < PBEST[nx]) {
                PBEST[nx] = top.d + cost; PCAME[nx] = top.c;
                h_push(x, &n, (HN){top.d + cost, nx, ++tick});
            }
        }
    }
    return PBEST[b];
}
static L b_route(X *x, i64 a, i64 b, int has, const L *within, const i64 *weight) {
    L out; out.n = 0;
    if (b_path(x, a, b, has, within, weight) < 0) return out;  /* no path: [] */
    for (i64 c = b; c != a; c = PCAME[c]) l_push(x, &out, c);
    l_push(x, &out, a);
    return l_turned(x, out);
}
/* run/boards.py longest_path: the adjacency in the edges' order, one unit an edge tried */
static __thread i64 LP_OFF[MAX_CELLS + 1], LP_FILL[MAX_CELLS + 1], LP_TO[2 * LCAP], LP_E[2 * LCAP];
static __thread i64 LP_LEN[2 * LCAP];
static __thread char LP_USED[NCOMP + 1];
static i64 lp_walk(X *x, i64 at) {
    i64 best = 0;
    for (i64 k = LP_OFF[at]; k < LP_OFF[at + 1]; k++) {
        i64 e = LP_E[k];
        if (LP_USED[e]) continue;
        CHARGE(1);
        LP_USED[e] = 1;
        i64 v = LP_LEN[k] + lp_walk(x, LP_TO[k]);
        if (v > best) best = v;
        LP_USED[e] = 0;
    }
    return best;
}
static i64 b_longest(X *x, L edges, const i64 *weight) {
    CHARGE(edges.n);
    i64 most = 0;
    for (i64 i = 0; i < edges.n; i++) {  /* R015 and a missing length in Python: replayed */
        i64 e = edges.v[i];
        if (e < 0 || e >= NCOMP || EDGE_AT[e] < 0) fail(x, E_KIND);
        if (weight && weight[e] == NONE) fail(x, E_KIND);
        const BOARD *t = &BOARDS[EDGE_AT[e] >> 8];
        if (t->n > most) most = t->n;
    }
    memset(LP_OFF, 0, sizeof(i64) * (size_t)(most + 1));
    for (i64 i = 0; i < edges.n; i++) {
        const BOARD *t = &BOARDS[EDGE_AT[edges.v[i]] >> 8];
        i64 ei = EDGE_IX[edges.v[i]];
        LP_OFF[t->ea[ei] + 1]++; LP_OFF[t->eb[ei] + 1]++;
    }
    for (i64 s = 0; s < most; s++) { LP_OFF[s + 1] += LP_OFF[s]; LP_FILL[s] = LP_OFF[s]; }
    for (i64 i = 0; i < edges.n; i++) {
        i64 e = edges.v[i], ei = EDGE_IX[e], len = weight ? weight[e] : 1;
        const BOARD *t = &BOARDS[EDGE_AT[e] >> 8];
        i64 a = t->ea[ei], b = t->eb[ei], k = LP_FILL[a]++;
        LP_TO[k] = b; LP_E[k] = e; LP_LEN[k] = len;
        k = LP_FILL[b]++;
        LP_TO[k] = a; LP_E[k] = e; LP_LEN[k] = len;
    }
    memset(LP_USED, 0, NCOMP);
    i64 best = 0;
    for (i64 s = 0; s < most; s++) {
        if (LP_OFF[s] == LP_OFF[s + 1]) continue;
        i64 v = lp_walk(x, s);
        if (v > best) best = v;
    }
    return best;
}
