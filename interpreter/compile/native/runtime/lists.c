/* lists.c: list builtins the lowering names (lowering/lists.py: with_item, list, reversed;
   lowering/simultaneous.py: a simultaneous step's seats). Needs values.c. */
static AI i64 ABS(X *x, i64 v) { return N(x, v) < 0 ? SUB(x, 0, v) : v; }  /* abs(n) */
static L l_with(X *x, L l, i64 i, i64 v) {  /* with_item(L, i, v) */
    CHARGE(l.n);
    if (i < 0 || i >= l.n) fail(x, E_ENTRY);
    l.v[i] = v;
    return l;
}
static AI L l_list(X *x, L l) { CHARGE(l.n); return l; }  /* list(L): a copy, each item read */
static AI L l_copy(X *x, L l) { (void)x; return l; }  /* list(L) of a literal: not charged */
static L l_turned(X *x, L l) {  /* reversed(L) of a literal: not charged */
    (void)x;
    for (i64 i = 0, j = l.n - 1; i < j; i++, j--) { i64 t = l.v[i]; l.v[i] = l.v[j]; l.v[j] = t; }
    return l;
}
static AI L l_reversed(X *x, L l) { CHARGE(l.n); return l_turned(x, l); }
static L l_seats(X *x, L l) {  /* sim_open: every item a seat of the game, none twice */
    for (i64 i = 0; i < l.n; i++) {
        if (l.v[i] < 0 || l.v[i] >= S[T_N]) fail(x, E_ENTRY);
        for (i64 j = 0; j < i; j++) if (l.v[j] == l.v[i]) fail(x, E_ENTRY);
    }
    return l;
}
