/* recompute.c: the pending window's options computed again (Engine.recompute_decision, the
   bridge's recompute.py) and looked up among the options tb_step named (names.c), in one call.

   A window's options read the state and write only the work left (T_BUDGET), the words'
   generation (T_GEN), the decision's words and its options (tb_reoffer, tb_reoffer_inner: the
   actions' conditions change nothing), so they are computed on the state's own words, those few
   words kept first and put back after, instead of on a copy of every word that is read (a copy
   cost as much as the window). A game with a board that grows (GROWS) indexes its cells as it
   reads them (boards.c g_words): its window is computed on a copy, as before. The decision
   computed is written into the words at ctx[NM_INTO] (the bridge's scratch words): its D_* words
   and options, T_GEN 0. Needs names.c. */
enum { NM_INTO = NM_GEN + 1 };  /* tb_recompute's: where the decision is written (after names.c's) */
#define RC_CHOICE 1000  /* returned negated: a choice inside an effect (Python replays it) */
static int rc_window(i64 *s) {  /* the pending window computed again on `s`: 0, or an error code */
    if (s[D_K] == 1) return tb_reoffer(s);
    return tb_reoffer_inner(s);
}
static void rc_decision(i64 *dst, const i64 *src) {  /* the decision's words of `src` into `dst` */
    dst[D_K] = src[D_K]; dst[D_P] = src[D_P]; dst[D_N] = src[D_N]; dst[D_SITE] = src[D_SITE];
    dst[T_GEN] = 0;
}
/* The window pending on the words at ctx[NM_S] computed again (they are left as they were), into
   the words at ctx[NM_INTO], then looked up in tb_step's table at ctx[NM_TAB] (0: not looked up).
   Returns -code when native code stopped (or -RC_CHOICE: a choice is pending), else as tb_step:
   0 when there is no decision or its options are not named here, 2e + 1 for entry e named
   before, 2e + 2 for entry e named now (its ids in ctx[NM_OUT]). */
i64 tb_recompute(i64 *ctx) {
    i64 *s = NM_AT(i64 *, NM_S), *out = NM_AT(i64 *, NM_INTO), *tab = NM_AT(i64 *, NM_TAB);
    int code, added = 0;
    if (s[D_K] == 0) { out[D_K] = 0; return 0; }
    if (s[D_K] == 2 && s[D_SITE] >= 0) return -RC_CHOICE;
#if GROWS
    tb_copy(out, s, 0);
    code = rc_window(out);
    out[T_GEN] = 0;
#else
    i64 budget = s[T_BUDGET], gen = s[T_GEN], k = s[D_K], p = s[D_P], n = s[D_N], site = s[D_SITE];
    i64 n0 = DSTRIDE * n, n1;
    memcpy(out + DOPT, s + DOPT, sizeof(i64) * (size_t)n0);  /* the options, kept in `out` */
    code = rc_window(s);
    n1 = DSTRIDE * s[D_N];
    for (i64 i = 0, m = n0 > n1 ? n0 : n1; i < m; i++) {  /* the options swapped back */
        i64 t = out[DOPT + i]; out[DOPT + i] = s[DOPT + i]; s[DOPT + i] = t;
    }
    rc_decision(out, s);
    s[D_K] = k; s[D_P] = p; s[D_N] = n; s[D_SITE] = site; s[T_BUDGET] = budget; s[T_GEN] = gen;
#endif
    if (code) return -(i64)code;
    if (!tab || out[D_N] <= 0 || out[D_N] > DEC_CAP) return 0;
    i64 e = nt_entry(out, ctx, tab, &added);
    return e < 0 ? 0 : 2 * e + 1 + added;
}
/* A generation for words the bridge wrote (from_plain): their pending ids, named once, are kept
   with it (NativeState.named) as a step's are, where words of generation 0 were named at each ask. */
i64 tb_ticket(void) { return new_ticket(); }
