/* segments.c: how native code answers, or stops at, a decision inside an effect.

   A decision inside an effect (a `choose`, a window inside a block) takes its answer from the
   segment's queue, or from a playout's generator; past both it is posed and the segment stops, its
   words mid-effect, and answering it replays the segment from its first state (docs/ARCHITECTURE.md,
   "Choices inside effects: segments replayed, not frames"). A phase's start is a checkpoint: the
   segment may start there instead. A search's dealt world replaces the words where the replay
   reaches its decision (Q_DEAL, search.c). Needs values.c. */
/* The words of a state that are read, from `src` into `dst`: all before the zones, each zone's
   items and the pending options. Words past a zone's length (as it was when a loop over it
   started) or past D_N are never read: in a game with many zones this is a tenth of MAIN_WORDS. */
static void copy_read(i64 *dst, const i64 *src) {
    memcpy(dst, src, sizeof(i64) * ZONE);
    for (i64 z = 0; z < NZONES; z++)
        memcpy(dst + ZONE + z * NCOMP, src + ZONE + z * NCOMP, sizeof(i64) * (size_t)src[ZLEN + z]);
    memcpy(dst + DOPT, src + DOPT, sizeof(i64) * DSTRIDE * (size_t)src[D_N]);
}
/* copy_read, then the segment's queue (Q_LEN to the answers queued): the KEEP_WORDS that are read,
   a state but the segment's first one. Copying by these is what keeps a state's words from being
   copied whole: Glory to Rome's 34k main words read as about 4k (docs/ARCHITECTURE.md). */
static void copy_keep(i64 *dst, const i64 *src) {
    copy_read(dst, src);
    memcpy(dst + Q_LEN, src + Q_LEN, sizeof(i64) * (QUEUE - Q_LEN + (size_t)src[Q_LEN]));
}
static __thread i64 CKBUF[MAIN_WORDS];  /* the words at the last phase start (see checkpoint) */
/* A phase starts (its frame alone on the flow's, at its first statement): a state that converts
   to plain data as it is, so the segment under way may start here instead. The answers read so far
   are dropped from the queue (a segment from a phase start runs, as one from setup, without a first
   answer), and where the segment may stop at a choice its words are kept in CKBUF, to become its
   first state only then (an error before restores the words before the apply, SNAP untouched). */
static void checkpoint(X *x) {
    i64 q = S[Q_POS], n = S[Q_LEN] - q;
    if (q > 0) memmove(S + QUEUE, S + QUEUE + q, sizeof(i64) * (size_t)n);
    S[Q_LEN] = n; S[Q_POS] = 0; S[Q_START] = 1;
    if (S[Q_DEAL]) S[Q_DEAL] = q >= S[Q_DEAL] ? 0 : S[Q_DEAL] - q;  /* past it: the words are the world's */
    if (!x->nosnap) { copy_read(CKBUF, S); x->ck = 1; }
}
/* A decision inside an effect without an answer: posed (its options already in DOPT), and the
   segment stops (the state words are then mid-effect; its first state and the queue stand for it). */
static void stop_at(X *x, i64 by, i64 site) {
    if (S[D_N] > DEC_CAP) fail(x, E_SIZE);
    if (x->nosnap == 1) fail(x, E_LIMIT);
    if (x->nosnap) {}  /* 2: a search's rollout ends here, evaluated, not answered (search.c) */
    else if (x->ck) copy_read(x->seg, CKBUF);
    else if (x->base) copy_read(S + SNAP, x->base);
    S[D_K] = 2; S[D_P] = by; S[D_SITE] = site;
    longjmp(x->susp, 1);
}
/* The answer to a decision inside an effect with `n` options: the segment's next from the queue;
   past the queue, a playout draws one (as Engine.random_choice) and keeps it, else `stop_at`. */
static i64 answer(X *x, i64 n) {
    i64 k;
    if (S[Q_DEAL] == S[Q_POS] + 1) {  /* a search's world is dealt at this decision (search.c t_world) */
        if (!x->world) fail(x, E_FLOW);  /* never the true state's words: the world stays the search's */
        copy_read(S, x->world); S[D_K] = 0;
    }
    if (S[Q_POS] < S[Q_LEN]) k = S[QUEUE + S[Q_POS]];
    else {
        if (S[Q_LEN] >= QCAP) fail(x, E_SIZE);
        if (x->gen && x->done[0] < x->max) { k = below(x->gen, n); x->done[0] += 1; }
        else return -1;
        S[QUEUE + S[Q_LEN]] = k; S[Q_LEN] += 1;
    }
    if (k < 0 || k >= n) fail(x, E_ILLEGAL);
    S[Q_POS] += 1; S[T_DECISIONS] += 1; S[T_BUDGET] = x->budget;
    return k;
}
/* A `choose` inside an effect: its answer (`answer`), else the choice posed as (site, value). */
static i64 pick(X *x, i64 site, i64 by, const L *o) {
    i64 k;
    if (o->n == 0) fail(x, E_EMPTY);
    if ((k = answer(x, o->n)) < 0) {
        if (o->n > DEC_CAP) fail(x, E_SIZE);
        S[D_N] = o->n;
        for (i64 i = 0; i < o->n; i++) {
            i64 *opt = S + DOPT + DSTRIDE * i;
            opt[0] = site; opt[1] = o->v[i];
            if (DSTRIDE > 2) opt[2] = NONE;
        }
        stop_at(x, by, site);
    }
    return o->v[k];
}
/* A window inside a block (its options in DOPT, `iw_<site>`): the index of its answer, else the
   window posed, its site kept as -1 - site (bridge.py tells it from a choice's by the sign). */
static i64 pick_action(X *x, i64 site, i64 p) {
    i64 k = answer(x, S[D_N]);
    if (k < 0) stop_at(x, p, -1 - site);
    return k;
}
