/* grants.c: the ends of grants given `until` an event (run/support.py reveal_until, end_grants,
   _for_good) in the state's RU words (slots.py; emit/grants_c.py says what each statement adds).
   A game without `reveal ... until` has RU_CAP 0 and ru_end does nothing. */
#if RU_CAP
static void ru_keep(X *x, i64 c) {  /* _for_good, one component: the ends of its grants dropped */
    i64 n = S[RU] - 1, k = 0;
    if (n < 0) return;
    for (i64 i = 0; i < n; i++) {
        i64 *e = S + RU + 1 + 3 * i;
        if (e[1] == c) continue;
        if (k != i) memmove(S + RU + 1 + 3 * k, e, 24);
        k++;
    }
    S[RU] = 1 + k;
}
static void ru_tidy(X *x) { if (S[RU] == 1) S[RU] = 0; }  /* an empty `ru` deleted */
static void ru_add(X *x, i64 ev, i64 c, i64 bits) {  /* reveal_until: an end kept (the key made) */
    i64 n = S[RU] ? S[RU] - 1 : 0;
    if (n >= RU_CAP) fail(x, E_STORE);
    S[RU + 1 + 3 * n] = ev; S[RU + 2 + 3 * n] = c; S[RU + 3 + 3 * n] = bits;
    S[RU] = n + 2;
}
static void ru_end(X *x, i64 ev) {  /* end_grants: every grant given until `ev` ends */
    i64 n = S[RU] - 1, k = 0;
    if (n < 0) return;
    for (i64 i = 0; i < n; i++) {
        i64 *e = S + RU + 1 + 3 * i;
        if (e[0] == ev) {
            i64 *r = &S[RV + e[1]];
            if (e[2] == 1) { if (*r == 1) *r = 0; }
            else if (*r != 1) *r = (*r | e[2]) ^ e[2];
            continue;
        }
        if (k != i) memmove(S + RU + 1 + 3 * k, e, 24);
        k++;
    }
    S[RU] = k ? 1 + k : 0;
}
#else
static inline void ru_end(X *x, i64 ev) { (void)x; (void)ev; }
#endif
