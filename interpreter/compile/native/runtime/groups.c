/* groups.c: a list of lists (`regions(...)` kept whole, `[g for g in r where ...]`: lowering/groups.py)
   in one list value: each list its length, then its items, list after list. Equal lists of lists
   have equal words (gr_eq compares them, gr_cat joins them, charged as Python). A list of lists past
   LCAP words stops native code (E_SIZE) and Python plays the decision. Pasted into a game's unit
   only when its rules make one (units.py). */
static void gr_push(X *x, L *out, const L *g) {  /* one list more */
    if (out->n + 1 + g->n > LCAP) fail(x, E_SIZE);
    out->v[out->n] = g->n;
    memcpy(out->v + out->n + 1, g->v, (size_t)g->n * 8);
    out->n += 1 + g->n;
}
static void gr_starts(X *x, const L *r, L *at) {  /* where each list starts (its length's word) */
    at->n = 0;
    for (i64 i = 0; i < r->n; i += 1 + r->v[i]) l_push(x, at, i);
}
static L gr_item(const L *r, i64 at) {  /* the list starting at word `at` */
    L out;
    out.n = r->v[at];
    memcpy(out.v, r->v + at + 1, (size_t)out.n * 8);
    return out;
}
static i64 gr_count(X *x, L r) {
    (void)x;
    i64 k = 0;
    for (i64 i = 0; i < r.n; i += 1 + r.v[i]) k++;
    return k;
}
static L gr_at(X *x, L r, i64 k) {  /* out of range, negative too, stops as l_at does (E_ENTRY) */
    for (i64 i = 0; i < r.n && k >= 0; i += 1 + r.v[i])
        if (k-- == 0) return gr_item(&r, i);
    fail(x, E_ENTRY);
    return r;
}
static L gr_first(X *x, L r) {  /* none for no list, which no list value holds: E_KIND, Python replays */
    if (!r.n) fail(x, E_KIND);
    return gr_item(&r, 0);
}
static L gr_last(X *x, L r) {
    i64 last = -1;
    for (i64 i = 0; i < r.n; i += 1 + r.v[i]) last = i;
    if (last < 0) fail(x, E_KIND);
    return gr_item(&r, last);
}
static int gr_has(X *x, L r, L g) {  /* `g in r`: its lists charged past SHORT_LIST (run/budget.py) */
    i64 k = gr_count(x, r);
    if (k > SHORT_LIST) CHARGE(k);
    for (i64 i = 0; i < r.n; i += 1 + r.v[i])
        if (r.v[i] == g.n && !memcmp(r.v + i + 1, g.v, (size_t)g.n * 8)) return 1;
    return 0;
}
static L gr_list(X *x, L r) {  /* `list(r)`: a copy, each list charged as Python's builtin */
    CHARGE(gr_count(x, r));
    return r;
}
static L gr_reversed(X *x, L r) {  /* `reversed(r)`: its lists in the other order, each charged */
    L at, out;
    gr_starts(x, &r, &at);
    CHARGE(at.n);
    out.n = 0;
    for (i64 j = at.n - 1; j >= 0; j--) {
        i64 i = at.v[j];
        memcpy(out.v + out.n, r.v + i, (size_t)(1 + r.v[i]) * 8);
        out.n += 1 + r.v[i];
    }
    return out;
}
static L gr_cat(X *x, L a, L b) {  /* `a + b`: the lists of both charged (run/budget.py bounded) */
    CHARGE(gr_count(x, a) + gr_count(x, b));
    if (a.n + b.n > LCAP) fail(x, E_SIZE);
    memcpy(a.v + a.n, b.v, (size_t)b.n * 8);
    a.n += b.n;
    return a;
}
static int gr_eq(X *x, L a, L b) {  /* `a == b`: charged as run/budget.py compares lists, the lists
    of the shorter and the items of every list in either */
    i64 ga = gr_count(x, a), gb = gr_count(x, b);
    CHARGE((ga < gb ? ga : gb) + (a.n - ga) + (b.n - gb));
    return l_same(x, a, b);
}
