/* regions.c: `regions(v for v in L where C by K)` as run/boards.py groups them: the passing cells'
   keys (the last of a cell given twice), then from each cell in increasing id not yet grouped, a
   walk through neighbours of its key (1 + neighbours charged a cell taken), its group sorted by id.
   Uses paths.c's cell_board and boards.c's b_near (a board that grows: the cells added so far). */
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
            i64 m, buf[8];
            const i64 *near = b_near(x, b, ix, &m, buf);
            CHARGE(1 + m);
            for (i64 j = 0; j < m; j++) {
                i64 nb = b->cells[copy * b->n + near[j]];
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
