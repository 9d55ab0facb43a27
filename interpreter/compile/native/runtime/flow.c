/* flow.c: the flow driver and the entry points the bridge calls (tb_*).

   The flow driver is flow.py's stage machine written in C, stage for stage (the same numbering as
   flow.STAGES, the same budget charges: FLOW_STEP a step, 1 an effect pushed), calling the game's
   generated parts: g_has, g_effect, g_value, g_skip, g_fire, g_phase, g_window, g_inner_window, g_action, g_score,
   g_has_eval, g_eval (emit/units.py), and ACTION_CLOSES, HAS_ROUNDS, NPHASES, META. */
static int push_run(X *x, int which, i64 p) {  /* an effect that cannot wait: pushed and run */
    if (!g_has(which)) return 0;
    CHARGE(1);
    g_effect(x, which, p);
    return 1;
}
static int ending_stage(X *x) {  /* FlowDriver._ending_stage: 1 when the game moves to its end */
    if (S[T_ENDING] == 1) { S[T_STAGE] = ST_FINISH; return 1; }
    if (S[T_ENDING] == 2) { S[T_STAGE] = S[T_FINAL_MODE] ? ST_FINAL_NEXT : ST_FINAL_START; return 1; }
    return 0;
}
static void start_turn(X *x, i64 p) {
    S[T_ACTIVE] = p; S[T_TURN] += 1; S[T_PHASE] = 0; S[T_STAGE] = ST_PHASE;
}
static int flow_step(X *x) {  /* flow.py FlowDriver._<stage>: 1 when it pushed an effect */
    i64 n = S[T_N], p;
    switch (S[T_STAGE]) {
    case ST_SETUP:
        S[T_STAGE] = HAS_ROUNDS ? ST_ROUND_START : ST_PRE_TURN;
        return push_run(x, W_SETUP, NONE);
    case ST_ROUND_START:
        if (S[T_ROUND] >= 1) ru_end(x, 1);  /* grants `until round_end` end (grants.c) */
        if (ending_stage(x)) return 0;
        if (g_has(W_COUNT) && S[T_ROUND] >= g_value(x, W_COUNT)) { S[T_STAGE] = ST_FINISH; return 0; }
        S[T_ROUND] += 1; S[T_STAGE] = ST_ROUND_FIRST;
        return push_run(x, W_ON_START, NONE);
    case ST_ROUND_FIRST:
        S[T_NEXT] = g_has(W_FIRST) ? g_value(x, W_FIRST) : 0; S[T_SKIPS] = 0; S[T_STAGE] = ST_PRE_TURN;
        return 0;
    case ST_PRE_TURN:
        if (ending_stage(x)) return 0;
        if (HAS_ROUNDS) {
            if (g_has(W_ENDS) && g_value(x, W_ENDS)) { S[T_STAGE] = ST_ROUND_END; return 0; }
            p = S[T_NEXT];
            if (g_skip(x, p)) {
                S[T_NEXT] = FMOD(x, p + 1, n); S[T_SKIPS] += 1;
                if (S[T_SKIPS] > n) S[T_STAGE] = ST_ROUND_END;
                return 0;
            }
        } else {
            p = g_has(W_PLAYER) ? g_value(x, W_PLAYER) : FMOD(x, S[T_TURN], n);
            if (g_skip(x, p)) {
                S[T_TURN] += 1; S[T_SKIPS] += 1;
                if (S[T_SKIPS] > n) fail(x, E_FLOW);  /* every turn skipped: Python says so */
                return 0;
            }
        }
        S[T_SKIPS] = 0;
        start_turn(x, p);
        return 0;
    case ST_PHASE:
        if (S[T_PHASE] < NPHASES) {
            S[T_PHASE_ID] = S[T_PHASE]; S[T_PHASE] += 1;
            CHARGE(1);
            S[T_FR_PC] = 0;
            return 1;
        }
        S[T_STAGE] = ST_POST_TURN; S[T_PHASE_ID] = NONE;
        return push_run(x, W_TURN_END, S[T_ACTIVE]);
    case ST_POST_TURN:
        ru_end(x, 0);  /* grants `until turn_end` end (grants.c) */
        if (g_fire(x)) return 1;
        if (ending_stage(x)) return 0;
        if (HAS_ROUNDS) S[T_NEXT] = FMOD(x, S[T_ACTIVE] + 1, n);
        S[T_STAGE] = ST_PRE_TURN;
        return 0;
    case ST_ROUND_END:
        S[T_STAGE] = ST_ROUND_START;
        return push_run(x, W_ON_END, NONE);
    case ST_FINAL_START: {
        i64 start = S[T_TRIGGER] != NONE ? S[T_TRIGGER] : S[T_ACTIVE];
        if (start == NONE) start = 0;
        for (i64 i = 1; i < n; i++) S[FINAL + i - 1] = FMOD(x, start + i, n);
        S[T_NFINAL] = n - 1; S[T_FINAL_MODE] = 1; S[T_STAGE] = ST_FINAL_NEXT;
        return 0;
    }
    case ST_FINAL_NEXT:
        while (S[T_NFINAL] > 0) {
            p = S[FINAL];
            memmove(S + FINAL, S + FINAL + 1, (size_t)(S[T_NFINAL] - 1) * 8);
            S[T_NFINAL] -= 1;
            if (!g_skip(x, p)) { start_turn(x, p); return 0; }
        }
        S[T_STAGE] = ST_FINISH;
        return 0;
    case ST_FINISH:
        S[T_STAGE] = ST_OVER;
        return push_run(x, W_FINISH, NONE);
    case ST_OVER:
        S[T_STAGE] = ST_DONE; S[D_K] = 0; S[D_N] = 0;
        return 1;
    default:
        return 1;
    }
}
/* Until a decision is pending or the game is over; first action `ai` of player p with its
   arguments (ai < 0: none), so that an action ending the game unwinds here too. */
static void run(X *x, i64 ai, i64 p, i64 arg, i64 arg2) {
    volatile int idle = 0;
    volatile i64 act = ai;
    if (setjmp(x->endjb)) {  /* the game ends now (an end check, end_game, declare_winner): Runtime._end */
        S[T_FR_PC] = -1; S[D_K] = 0; S[D_N] = 0;
        if (S[T_WINNERS] != NONE) S[T_STAGE] = ST_OVER;
        else if (S[T_STAGE] != ST_FINISH && S[T_STAGE] != ST_OVER) S[T_STAGE] = ST_FINISH;
        idle = 0; act = -1; x->depth = 0;
    }
    if (act >= 0) { act = -1; g_action(x, ai, p, arg, arg2); }
    for (;;) {
        if (S[T_FR_PC] >= 0) {
            if (S[T_FR_PC] == 0) checkpoint(x);
            if (g_phase(x, S[T_PHASE] - 1, S[T_ACTIVE])) return;
            S[T_FR_PC] = -1;
        }
        if (S[T_STAGE] == ST_DONE) return;
        CHARGE(FLOW_STEP);
        if (flow_step(x)) idle = 0;
        else if (++idle >= 10000) fail(x, E_FLOW);
        if (S[T_STAGE] == ST_DONE) return;
    }
}

int tb_words(void) { return STATE_WORDS; }
/* A copy of state `src` into `dst` (the bridge's clones, the words a window's options are computed
   again in): the words that are read (copy_keep), and the segment's first state when a choice
   inside an effect is pending and `snap` is set; the rest of `dst` is left as it was (never read). */
void tb_copy(i64 *dst, const i64 *src, i64 snap) {
    if (co_n) co_drop(dst);
    copy_keep(dst, src);
    if (snap && src[D_K] == 2) copy_read(dst + SNAP, src + SNAP);
}
/* A clone's packed words (tb_pack) are run-length coded, since most words a state reads are 0 or
   NONE (marks and per-seat words laid out for every component and seat): a block is a header word h
   and, for h > 0, h words as they are, for h < 0, one word repeated -h times. The segment's first
   state (SNAP) is written as its difference (xor) from the main words before the zones, which it
   mostly equals. Never longer than the words plus one: a block of words as they are is followed by
   a run of at least PK_RUN words, coded in 2. */
#define PK_RUN 3
typedef struct { i64 *out, n, lit, v, c; } PackW;  /* out[lit]: the open literal block's header */
static void pk_flush(PackW *w) {
    if (w->c >= PK_RUN) {
        w->out[w->n++] = -w->c; w->out[w->n++] = w->v; w->lit = -1;
    } else {
        for (i64 i = 0; i < w->c; i++) {
            if (w->lit < 0) { w->lit = w->n++; w->out[w->lit] = 0; }
            w->out[w->lit]++; w->out[w->n++] = w->v;
        }
    }
    w->c = 0;
}
static inline void pk_put_(PackW *w, const i64 *src, i64 len, const i64 *x, int xo) {
    i64 i = 0;
    while (i < len) {
        i64 v = xo ? src[i] ^ x[i] : src[i];
        if (w->c && v == w->v) {  /* the run goes on: scanned in a tight loop (most words are runs) */
            i64 j = i + 1;
            if (xo) while (j < len && (src[j] ^ x[j]) == v) j++;
            else while (j < len && src[j] == v) j++;
            w->c += j - i; i = j;
            continue;
        }
        if (w->c) pk_flush(w);
        w->v = v; w->c = 1; i++;
    }
}
static void pk_put(PackW *w, const i64 *src, i64 len, const i64 *x) {  /* x: xor'ed with, or 0 */
    if (x) pk_put_(w, src, len, x, 1); else pk_put_(w, src, len, 0, 0);
}
typedef struct { const i64 *in; i64 n, lit, run, v; } PackR;  /* words left in the block read */
static void pk_get(PackR *r, i64 *dst, i64 len, const i64 *x) {
    while (len > 0) {
        if (r->lit == 0 && r->run == 0) {
            i64 h = r->in[r->n++];
            if (h > 0) r->lit = h; else { r->run = -h; r->v = r->in[r->n++]; }
        }
        i64 k = r->lit ? r->lit : r->run;
        if (k > len) k = len;
        if (r->lit) { memcpy(dst, r->in + r->n, sizeof(i64) * (size_t)k); r->n += k; r->lit -= k; }
        else { for (i64 i = 0; i < k; i++) dst[i] = r->v; r->run -= k; }
        if (x) for (i64 i = 0; i < k; i++) dst[i] ^= x[i];
        if (x) x += k;
        dst += k; len -= k;
    }
}
/* The words copy_read reads, into the packed stream (their lengths are in the words before the
   zones, written first); `x`: the words the ones before the zones are written as a xor of, or 0. */
static void pack_read(PackW *w, const i64 *src, const i64 *x) {
    pk_put(w, src, ZONE, x);
    for (i64 z = 0; z < NZONES; z++) pk_put(w, src + ZONE + z * NCOMP, src[ZLEN + z], 0);
    pk_put(w, src + DOPT, DSTRIDE * src[D_N], 0);
}
static void unpack_read(PackR *r, i64 *dst, const i64 *x) {  /* pack_read's words back in place */
    pk_get(r, dst, ZONE, x);
    for (i64 z = 0; z < NZONES; z++) pk_get(r, dst + ZONE + z * NCOMP, dst[ZLEN + z], 0);
    pk_get(r, dst + DOPT, DSTRIDE * dst[D_N], 0);
}
/* A clone kept compact (NativeState's packed form): the words tb_copy copies (copy_keep, and the
   segment's first state at a pending choice), run-length coded into `dst` (room for STATE_WORDS);
   the number of words written. A state's words are sparse (zones and options have room for every
   component) and mostly 0 or NONE, so a clone kept this way touches a page or two where a copy
   touches tens (a kept clone's fresh pages were most of its cost). */
i64 tb_pack(i64 *dst, const i64 *src) {
    PackW w = {dst, 0, -1, 0, 0};
    pack_read(&w, src, 0);
    pk_put(&w, src + Q_LEN, QUEUE - Q_LEN + src[Q_LEN], 0);
    if (src[D_K] == 2) pack_read(&w, src + SNAP, src);
    if (w.c) pk_flush(&w);
    return w.n;
}
void tb_unpack(i64 *dst, const i64 *src) {  /* tb_pack's words back into a state's words `dst` */
    if (co_n) co_drop(dst);
    PackR r = {src, 0, 0, 0, 0};
    unpack_read(&r, dst, 0);
    pk_get(&r, dst + Q_LEN, QUEUE - Q_LEN, 0);
    pk_get(&r, dst + QUEUE, dst[Q_LEN], 0);
    if (dst[D_K] == 2) unpack_read(&r, dst + SNAP, dst);
}
const char *tb_meta(void) { return META; }
static void init_x(X *x, i64 *s, i64 budget, u64 *gen, i64 *done, i64 max) {
    x->s = s; x->budget = budget; x->gen = gen; x->done = done; x->max = max; x->base = 0; x->nosnap = 0;
    x->seg = s + SNAP; x->ck = 0; x->snapfree = 0; x->depth = 0; x->world = 0; x->co = 0; ft_fresh = 1;
}
int tb_start(i64 *s, i64 budget) {  /* a segment from the state before setup */
    X xx, *x = &xx;
    int code;
    init_x(x, s, budget, 0, 0, 0);
    if (co_n) co_drop(s);
    S[T_CO] = 0; S[T_GEN] = new_ticket();
    copy_read(S + SNAP, S);
    S[Q_LEN] = 0; S[Q_POS] = 0; S[Q_START] = 1; S[Q_DEAL] = 0;
    if ((code = setjmp(x->jb)) != 0) return code;
    if (setjmp(x->susp)) return 0;
    S[T_BUDGET] = budget;
    run(x, -1, NONE, NONE, NONE);
    S[Q_LEN] = 0; S[Q_POS] = 0; S[Q_START] = 0;
    return 0;
}
/* Answer k to the pending decision. A window's answer starts a segment (its state is the
   segment's first, kept in SNAP when a choice stops it); a choice's answer is queued and the
   segment replayed from SNAP with the queue. `before`: the state kept (KEEP_WORDS), or NULL. */
/* The window's first queued answer taken: its action, player and arguments, the decision closed
   (apply_k, and the search tree's steps: search.c t_step). */
static void first_answer(X *x, i64 *ai, i64 *p, i64 *arg, i64 *arg2) {
    i64 k0 = S[QUEUE];
    S[Q_POS] = 1;
    *ai = S[DOPT + DSTRIDE * k0]; *arg = S[DOPT + DSTRIDE * k0 + 1];
    *arg2 = DSTRIDE > 2 ? S[DOPT + DSTRIDE * k0 + 2] : NONE;
    for (i64 j = 3; j < DSTRIDE; j++) x->more[j - 3] = S[DOPT + DSTRIDE * k0 + j];  /* a_<i> reads them */
    *p = S[D_P];
    S[D_K] = 0; S[D_N] = 0; S[T_DECISIONS] += 1;
    if (ACTION_CLOSES[*ai]) S[T_FR_PC] = 2;
    CHARGE(1);
}
/* `co`: the coroutine this runs in (tb_apply), where a stop at a choice suspends, or NULL. */
static int apply_k(i64 *s, i64 k, i64 budget, i64 *before, u64 *gen, i64 *done, i64 max, int nosnap,
                   Co *co) {
    X xx, *x = &xx;
    int code;
    i64 ai = -1, arg = NONE, arg2 = NONE, p = NONE;
    init_x(x, s, budget, gen, done, max);
    x->nosnap = nosnap;
    if (co) { x->co = co; co->x = x; }
    else if (co_n) co_drop(s);  /* the words change: a coroutine suspended on them never resumes */
    S[T_CO] = 0;
    if (before) copy_keep(before, s);
    S[T_GEN] = new_ticket();  /* the words change: a packed copy of them (bridge.py) is old */
    if ((code = setjmp(x->jb)) != 0) return code;
    if (S[D_K] == 0 || k < 0 || k >= S[D_N]) return E_ILLEGAL;
    if (S[D_K] == 1) {
        if (before) x->base = before;
        else if (!nosnap) copy_read(S + SNAP, S);
        S[Q_LEN] = 0; S[Q_START] = 0; S[Q_DEAL] = 0;
        x->snapfree = !nosnap;  /* SNAP is not read at a window: a phase start is kept in it */
    }
    if (S[Q_LEN] >= QCAP) return E_SIZE;
    S[QUEUE + S[Q_LEN]] = k; S[Q_LEN] += 1;
    if (S[D_K] == 2) { copy_read(S, S + SNAP); S[T_GEN] = new_ticket(); }  /* not SNAP's */
    S[Q_POS] = 0;
    if (setjmp(x->susp)) return 0;
    S[T_BUDGET] = budget;
    if (!S[Q_START]) first_answer(x, &ai, &p, &arg, &arg2);
    run(x, ai, p, arg, arg2);
    S[Q_LEN] = 0; S[Q_POS] = 0; S[Q_START] = 0; S[Q_DEAL] = 0;
    return 0;
}
static __thread Co *co_cur;  /* the coroutine co_main starts in, co_switch resumes */
static void co_main(void) {
    Co *c = co_cur;
    c->code = apply_k(c->s, c->k, c->budget, c->before, 0, 0, 0, 0, c);
    c->state = CO_DONE;
#ifdef CO_ASM
    co_swap(&c->sp, c->back);  /* never resumed: its stack is freed or reused */
    __builtin_unreachable();
#endif
}  /* ... and back to tb_apply's caller (ucontext: uc_link) */
#ifdef CO_ASM
__attribute__((noinline)) static void co_switch(void) { co_swap(&co_cur->back, co_cur->sp); }
/* co_cur's stack made as co_swap leaves one, so that switching to it enters co_main: its return
   address at a 16-byte boundary (the ABI's alignment at a call), six registers, the control words
   (the defaults: 0x1F80, 0x37F). */
__attribute__((noinline)) static void co_make(void) {
    void **a = (void **)(((uintptr_t)(co_cur->stack + CO_STACK) & ~(uintptr_t)15) - 16);
    a[0] = (void *)(uintptr_t)co_main;
    for (int i = 1; i <= 6; i++) a[-i] = 0;
    uint32_t cw[2] = {0x1F80, 0x037F};
    memcpy(a - 7, cw, sizeof cw);
    co_cur->sp = a - 7;
}
#else
__attribute__((noinline)) static void co_switch(void) { swapcontext(&co_cur->back, &co_cur->ctx); }
__attribute__((noinline)) static void co_make(void) {  /* co_cur's context: co_main on its stack */
    getcontext(&co_cur->ctx);
    co_cur->ctx.uc_stack.ss_sp = co_cur->stack; co_cur->ctx.uc_stack.ss_size = CO_STACK;
    co_cur->ctx.uc_link = &co_cur->back;
    makecontext(&co_cur->ctx, co_main, 0);
}
#endif
static int co_back(Co *c) {  /* after a coroutine ran: suspended at a choice (0), or ended */
    if (c->state == CO_SUSP) return 0;
    int code = c->code;
    co_free(c);
    return code;
}
/* A resumed segment failed: the words as they stood at its decision, by the replay of its segment
   from SNAP (which the failed run did not write) with the counters and answers `q` (saved when it
   was resumed), then kept in `before`, as apply_k leaves them on an error. */
static void co_undo(i64 *s, const i64 *q, i64 budget, i64 *before) {
    i64 n = q[0];
    memcpy(s + Q_LEN, q, sizeof(i64) * (size_t)(QUEUE - Q_LEN + n));
    if (n > 0) {  /* the last answer given again (checked against D_N: any one passes) */
        s[Q_LEN] = n - 1; s[D_K] = 2; s[D_N] = s[QUEUE + n - 1] + 1;
        apply_k(s, s[QUEUE + n - 1], budget, 0, 0, 0, 0, 0, 0);
    } else {  /* a segment from a phase's start (Q_START), stopped before any answer */
        copy_read(s, s + SNAP);
        s[Q_LEN] = 0; s[Q_POS] = 0;
        tb_start(s, budget);
    }
    if (before) copy_keep(before, s);
}
/* Answer k to the pending decision (apply_k): the segment suspended on these words resumed with
   the answer, else a segment run in a new coroutine (segments.c), where a stop suspends it. */
int tb_apply(i64 *s, i64 k, i64 budget, i64 *before) {
    Co *c = co_find(s);
    if (c) {  /* no copy of the words before: an error puts them back by a replay (co_undo) */
        int code;
        if (s[D_K] != 2 || k < 0 || k >= s[D_N]) {
            if (before) copy_keep(before, s);
            return E_ILLEGAL;
        }
        if (s[Q_LEN] >= QCAP) { co_free(c); if (before) copy_keep(before, s); return E_SIZE; }
        memcpy(c->q, s + Q_LEN, sizeof(i64) * (size_t)(QUEUE - Q_LEN + s[Q_LEN]));
        s[QUEUE + s[Q_LEN]] = k; s[Q_LEN] += 1;
        s[T_CO] = 0; s[T_GEN] = new_ticket(); co_unlive(c); c->state = CO_RUN;
        c->x->budget = budget; s[T_BUDGET] = budget;
        co_cur = c;
        co_switch();
        if (c->state == CO_SUSP) return 0;
        if ((code = c->code) != 0) co_undo(s, c->q, budget, before);
        co_free(c);
        return code;
    }
    if (co_n) co_drop(s);
    if (!(c = co_new())) return apply_k(s, k, budget, before, 0, 0, 0, 0, 0);
    c->s = s; c->k = k; c->budget = budget; c->before = before; c->state = CO_RUN;
    co_cur = c;
    co_make();
    co_switch();
    return co_back(c);
}
/* The words `s` are dropped (NativeState.__del__): the segment suspended on them, if any, freed. */
void tb_release(i64 *s) { if (co_n) co_drop(s); }
/* Whether a segment is suspended on the words `s` as they stand (NULL: how many in this thread). */
int tb_suspended(const i64 *s) { return s ? co_find(s) != 0 : co_n; }
/* Answer k to a pending window without copying the state first (the RL batch, tools/rl/batch.c, keeps
   its own smaller copy): a segment that stops at a choice returns E_LIMIT with the words mid-segment
   and no first state kept, and the caller puts its copy back and calls tb_apply. */
int tb_apply_nocopy(i64 *s, i64 k, i64 budget) { return apply_k(s, k, budget, 0, 0, 0, 0, 1, 0); }
int tb_reoffer(i64 *s) {  /* the pending window's options computed again (Engine.reoffer) */
    X xx, *x = &xx;
    int code;
    x->s = s; ft_fresh = 1;
    if ((code = setjmp(x->jb)) != 0) return code;
    if (S[D_K] != 1) return 0;
    S[T_BUDGET] = INT64_MAX; S[T_GEN] = new_ticket();
    g_window(x, S[T_PHASE] - 1, S[D_P]);
    return 0;
}
/* A pending window inside a block (D_K 2, D_SITE -1 - site): its options computed again from the
   words (g_inner_window: `iw_<site>`, as pick_action's loop computed them; an action's condition
   reads the state and `me` alone, and the words of a state stopped there are those it was computed
   on but the decision's D_K, D_P, D_SITE). E_FLOW: no such window pending, or no option now. */
int tb_reoffer_inner(i64 *s) {
    X xx, *x = &xx;
    int code;
    memset(x, 0, sizeof xx);
    x->s = s; ft_fresh = 1;
    if ((code = setjmp(x->jb)) != 0) return code;
    if (S[D_K] != 2 || S[D_SITE] >= 0) return E_FLOW;
    S[T_BUDGET] = INT64_MAX; S[T_GEN] = new_ticket();
    return g_inner_window(x, -1 - S[D_SITE], S[D_P]) ? 0 : E_FLOW;
}
int tb_score(i64 *s, i64 p, i64 *out) {  /* score, then each tiebreak */
    X xx, *x = &xx;
    int code;
    x->s = s; ft_fresh = 1;
    if ((code = setjmp(x->jb)) != 0) return code;
    S[T_BUDGET] = INT64_MAX;
    g_score(x, p, out);
    return 0;
}
/* One determinisation for a search bot (compile/native/deal.py; run/determinize.py draws the
   same): `out` holds a copy of the decision's base words; `plan` lists `ngroups` groups of hidden
   components of one back, each as its size k, its k components sorted, then k (component, word of
   its place) pairs in state order, then 0, or 1 when `bots: deal:` conditions constrain a place:
   the k places in the order they are dealt (the most constrained first), then per place (state
   order) 1 if a condition covers it, and k words: whether the i-th sorted component fits it. Each
   group is shuffled with `gen` (rng.shuffle) and dealt into its places (determinize's
   _deal_fitting: each place the first free component that fits it, else the first free one, in
   the shuffled order), `loc` and `rv` following; the `nnaming` (word, component) pairs that name a
   dealt component are renamed; the generator words are drawn last (next_u64 | 1, twice). */
void tb_deal(i64 *out, u64 *gen, const i64 *plan, i64 ngroups, const i64 *naming, i64 nnaming) {
    i64 pi[NCOMP], dealt[NCOMP], sorted_at[NCOMP], got[NCOMP], loc[NCOMP], rv[NCOMP], tmp;
    char used[NCOMP];
    u64 s1 = gen[0], s0 = gen[1], t, w[2];
    const i64 *p = plan;
    for (i64 g = 0; g < ngroups; g++) {
        i64 k = *p++;
        for (i64 j = 0; j < k; j++) { dealt[j] = p[j]; sorted_at[j] = j; }
        for (i64 i = k - 1; i > 0; i--) {
            s1 ^= s1 << 23;
            s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26);
            u64 j = (s1 + s0) % (u64)(i + 1);
            t = s1; s1 = s0; s0 = t;
            tmp = dealt[i]; dealt[i] = dealt[j]; dealt[j] = tmp;
            tmp = sorted_at[i]; sorted_at[i] = sorted_at[j]; sorted_at[j] = tmp;
        }
        p += k;
        const i64 *pairs = p;
        p += 2 * k;
        if (*p++ == 0) {
            for (i64 j = 0; j < k; j++) got[j] = dealt[j];
        } else {  /* _deal_fitting */
            const i64 *order = p, *rows = p + k;
            p += k + k * (k + 1);
            for (i64 i = 0; i < k; i++) used[i] = 0;
            for (i64 r = 0; r < k; r++) {
                i64 j = order[r], pick = -1;
                const i64 *row = rows + j * (k + 1);
                if (row[0])
                    for (i64 i = 0; i < k && pick < 0; i++)
                        if (!used[i] && row[1 + sorted_at[i]]) pick = i;
                for (i64 i = 0; i < k && pick < 0; i++)
                    if (!used[i]) pick = i;
                used[pick] = 1;
                got[j] = dealt[pick];
            }
        }
        for (i64 j = 0; j < k; j++) {  /* every old place read before any is written */
            i64 c = pairs[2 * j];
            loc[j] = out[LOC + c]; rv[j] = out[RV + c]; pi[c] = got[j];
        }
        for (i64 j = 0; j < k; j++) {
            out[pairs[2 * j + 1]] = got[j];
            out[LOC + got[j]] = loc[j]; out[RV + got[j]] = rv[j];
        }
    }
    for (i64 j = 0; j < nnaming; j++) out[naming[2 * j]] = pi[naming[2 * j + 1]];
    for (int j = 0; j < 2; j++) {
        s1 ^= s1 << 23;
        s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26);
        t = s1; s1 = s0; s0 = t;
        w[j] = (s1 + s0) | 1;
    }
    out[RNG] = (i64)w[0]; out[RNG + 1] = (i64)w[1];
    gen[0] = s1; gen[1] = s0;
}
int tb_has_eval(void) { return g_has_eval(); }  /* the bots' evaluation is native code */
int tb_eval(i64 *s, i64 n, i64 *out) {  /* the bots' evaluation (`bots: evaluate:`) of each player */
    X xx, *x = &xx;
    int code;
    x->s = s; ft_fresh = 1;
    if ((code = setjmp(x->jb)) != 0) return code;
    S[T_BUDGET] = INT64_MAX;
    for (i64 p = 0; p < n; p++) out[p] = g_eval(x, p);
    return 0;
}
/* Uniform random choices (rng.below with the bot's generator `gen`) until the game ends or
   `max_decisions` were taken (a choice inside an effect included); `done[0]` counts them. No state
   is copied per decision: `before` keeps the playout's first state, and on an error (or the limit
   reached inside a segment, which then needs its first state) the playout is replayed up to the
   segment that stopped. On an error the state and `gen` are as they were before that segment's
   first choice, so the caller can replay it on Python. */
int tb_playout(i64 *s, u64 *gen, i64 budget, i64 max_decisions, i64 *before, i64 *done) {
    u64 g0 = gen[0], g1 = gen[1];
    i64 segs = 0, k;
    int code = 0;
    copy_keep(before, s);
    done[0] = 0;
    while (done[0] < max_decisions && s[D_K] != 0) {
        k = below(gen, s[D_N]);
        done[0] += 1;
        if ((code = apply_k(s, k, budget, 0, gen, done, max_decisions, 1, 0)) != 0) break;
        segs += 1;
    }
    if (code == 0) return 0;
    copy_keep(s, before);
    gen[0] = g0; gen[1] = g1; done[0] = 0;
    for (i64 j = 0; j < segs; j++) {  /* as before: these segments went through */
        k = below(gen, s[D_N]);
        done[0] += 1;
        apply_k(s, k, budget, 0, gen, done, max_decisions, 1, 0);
    }
    if (code != E_LIMIT) return code;
    k = below(gen, s[D_N]);  /* the last segment again, stopping at its choice */
    done[0] += 1;
    return apply_k(s, k, budget, 0, gen, done, max_decisions, 0, 0);
}
/* rng.seed_state: a game's generator words from its seed (splitmix64), into w[0], w[1]. */
static void seed_words(u64 seed, u64 *w) {
    u64 x = seed, z;
    for (int j = 0; j < 2; j++) {
        x += 0x9E3779B97F4A7C15ULL;
        z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        w[j] = z ^ (z >> 31);
    }
    if (w[0] == 0 && w[1] == 0) { w[0] = 1; w[1] = 2; }
}
/* One game of tb_playouts in the words `s`: 0 or the error that stopped it. */
static int playout_new(i64 *s, const i64 *init, u64 seed, u64 *gen, i64 budget, i64 max, i64 *done) {
    X xx, *x = &xx;
    u64 w[2];
    int code;
    copy_keep(s, init);
    seed_words(seed, w);
    s[RNG] = (i64)w[0]; s[RNG + 1] = (i64)w[1];
    done[0] = 0;
    init_x(x, s, budget, gen, done, max);
    x->nosnap = 1;
    S[Q_LEN] = 0; S[Q_POS] = 0; S[Q_START] = 1; S[Q_DEAL] = 0;
    if ((code = setjmp(x->jb)) != 0) return code;
    if (setjmp(x->susp)) return E_LIMIT;  /* stopped at a choice (never: nosnap 1 fails first) */
    S[T_BUDGET] = budget;
    run(x, -1, NONE, NONE, NONE);
    S[Q_LEN] = 0; S[Q_POS] = 0; S[Q_START] = 0;
    while (done[0] < max && s[D_K] != 0) {
        i64 k = below(gen, s[D_N]);
        done[0] += 1;
        if ((code = apply_k(s, k, budget, 0, gen, done, max, 1, 0)) != 0) return code;
    }
    return 0;
}
/* Whole random games in one call (Engine.playouts), played one after the other in the words `s`:
   game i is `init` (a new game's words before setup) with the generator words of seeds[i], set up
   and played to its end or `max_decisions` with the bot generator gens[2i], gens[2i + 1], as
   tb_start then tb_playout play it (a choice inside the setup is the playout's first decision,
   answered inline from that generator, where tb_start stops and tb_playout replays the segment:
   the same draws and the same budget). done[i]: its decisions; codes[i]: 0, or the error that
   stopped it (E_LIMIT: the limit reached inside a segment), the caller then plays that game again
   on its own. No first state is kept (nosnap): a game is started again rather than replayed. */
void tb_playouts(i64 *s, const i64 *init, i64 n, const u64 *seeds, u64 *gens, i64 budget,
                 i64 max_decisions, i64 *done, i64 *codes) {
    for (i64 i = 0; i < n; i++)
        codes[i] = playout_new(s, init, seeds[i], gens + 2 * i, budget, max_decisions, done + i);
}
