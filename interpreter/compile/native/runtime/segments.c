/* segments.c: how native code answers, or stops at, a decision inside an effect.

   A decision inside an effect (a `choose`, a window inside a block) takes its answer from the
   segment's queue, or from a playout's generator; past both it is posed and the segment stops, its
   words mid-effect, and answering it replays the segment from its first state (docs/ARCHITECTURE.md,
   "Choices inside effects: segments replayed, not frames"). A phase's start is a checkpoint: the
   segment may start there instead. A search's dealt world replaces the words where the replay
   reaches its decision (Q_DEAL, search.c). Needs values.c. */
/* The words of a state that are read, from `src` into `dst`: those before the zones but a list
   var's room past its length (LVAR: each instance's length word, ascending; lv_get reads up to
   the length), each zone's items and the pending options. Words past a zone's length (as it was
   when a loop over it started), a list var's or D_N are never read: in a game with many zones
   this is a tenth of MAIN_WORDS (the copies a step makes: checkpoint, stop_at, apply_k). */
static void copy_read(i64 *dst, const i64 *src) {
    i64 from = 0;
#if NLVAR
    for (int i = 0; i < NLVAR; i++) {
        i64 at = LVAR[i], n = src[at];
        if (n < 0 || n > VCAP) n = VCAP;  /* (never: lv_set checks; a bound for any words) */
        memcpy(dst + from, src + from, sizeof(i64) * (size_t)(at + 1 + n - from));
        from = at + 1 + VCAP;
    }
#endif
    memcpy(dst + from, src + from, sizeof(i64) * (size_t)(ZONE - from));
    for (i64 z = 0; z < NZONES; z++)
        memcpy(dst + ZONE + z * NCOMP, src + ZONE + z * NCOMP, sizeof(i64) * (size_t)src[ZLEN + z]);
    memcpy(dst + DOPT, src + DOPT, sizeof(i64) * DSTRIDE * (size_t)src[D_N]);
}
/* The words of a state that are read, past SNAP: copy_read's, then the segment's counters and the
   answers queued (what an error restores, KEEP_WORDS, in a few kB instead of all of it). */
static void copy_keep(i64 *dst, const i64 *src) {
    copy_read(dst, src);
    memcpy(dst + Q_LEN, src + Q_LEN, sizeof(i64) * (QUEUE - Q_LEN + (size_t)src[Q_LEN]));
}
static __thread i64 CKBUF[MAIN_WORDS];  /* the words at the last phase start (see checkpoint) */
/* A phase starts (its frame alone on the flow's, at its first statement): a state that converts
   to plain data as it is, so the segment under way may start here instead. The answers read so far
   are dropped from the queue (a segment from a phase start runs, as one from setup, without a first
   answer), and where the segment may stop at a choice its words are kept in CKBUF, to become its
   first state only then (an error before restores the words before the apply, SNAP untouched).
   A segment started at a window and not stopped yet keeps them in its first state's words
   directly (`snapfree`: the state before it is a window's, which reads no SNAP, and an error
   puts that back), which saves the copy from CKBUF at its first stop. A phase that can never stop
   inside its block (PHASE_STOPS, lowering/stops.py) is no checkpoint where a first state is kept:
   a stop after it (in a hook of the flow) starts from the checkpoint before, whose answers are
   still queued, and reaches the same words; its copy was wasted (docs/ARCHITECTURE.md). */
static void checkpoint(X *x) {
    if (!x->nosnap && !PHASE_STOPS[S[T_PHASE] - 1]) return;
    i64 q = S[Q_POS], n = S[Q_LEN] - q;
    if (q > 0) memmove(S + QUEUE, S + QUEUE + q, sizeof(i64) * (size_t)n);
    S[Q_LEN] = n; S[Q_POS] = 0; S[Q_START] = 1;
    if (S[Q_DEAL]) S[Q_DEAL] = q >= S[Q_DEAL] ? 0 : S[Q_DEAL] - q;  /* past it: the words are the world's */
    if (x->nosnap) return;
    if (x->snapfree) { copy_read(x->seg, S); x->ck = 2; }
    else { copy_read(CKBUF, S); x->ck = 1; }
}
/* Segments resumed, not replayed (docs/ARCHITECTURE.md, "A decision inside an effect resumed").
   tb_apply runs its segment in a coroutine, on a stack of its own (ucontext): where the segment
   stops at a decision inside an effect the coroutine is suspended there, the C frames of the
   effect under way kept, and the state's word T_CO holds its ticket (unique in the process). The
   next tb_apply on the same words with that ticket in them resumes it with the answer queued, as
   the replay from SNAP would reach it; anything else (a clone or copy of the words, a state from
   plain data, another thread, the oldest past CO_MAX) finds no coroutine and replays as before,
   SNAP and the queue being kept the same way. A stack is CO_STACK bytes mapped (pages touched
   only as used: the probes keep a run within STACK_ROOM plus a frame, as on a thread's 8 MB) with
   a guard page below; it is freed when its segment ends or fails, when its words are written by
   another entry point or dropped (tb_release), or reused. */
#define CO_STACK ((size_t)8 << 20)
#define CO_GUARD ((size_t)4096)
#define CO_MAX 64   /* suspended segments kept per thread (the oldest dropped past it) */
#define CO_SPARE 4  /* stacks kept for the next segment */
enum { CO_RUN, CO_SUSP, CO_DONE };
#if defined(__x86_64__) && !defined(TB_UCONTEXT)
#define CO_ASM 1
/* x86-64: a switch pushes what the calling convention keeps (rbp, rbx, r12-r15, the SSE and x87
   control words) on the stack it leaves, keeps that stack pointer in *from and takes `to`'s, where
   the same was pushed: no system call (glibc's swapcontext saves the signal mask with one). */
__attribute__((naked, noinline)) static void co_swap(__attribute__((unused)) void **from,
                                                   __attribute__((unused)) void *to) {
    __asm__("pushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n\t"
            "subq $8, %rsp\n\tstmxcsr (%rsp)\n\tfnstcw 4(%rsp)\n\t"
            "movq %rsp, (%rdi)\n\tmovq %rsi, %rsp\n\t"
            "ldmxcsr (%rsp)\n\tfldcw 4(%rsp)\n\taddq $8, %rsp\n\t"
            "popq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\tpopq %rbp\n\tret");
}
#endif
typedef struct Co {
#ifdef CO_ASM
    void *sp, *back;         /* the segment's stack pointer, and the caller's it suspends or ends to */
#else
    ucontext_t ctx, back;    /* the segment's context, and the caller's it suspends or ends to */
#endif
    char *stack; i64 *s; i64 ticket; X *x;
    i64 k, budget; i64 *before; int code, state;
    i64 q[QUEUE - Q_LEN + QCAP];  /* the segment's counters and queue as they were when resumed */
} Co;
static __thread Co *co_live[CO_MAX];  /* suspended, oldest first */
static __thread int co_n;
static __thread Co *co_spare[CO_SPARE];
static __thread int co_nspare;
static i64 co_tickets;  /* the last ticket given, and the last generation (T_GEN) */
static i64 new_ticket(void) { return __atomic_add_fetch(&co_tickets, 1, __ATOMIC_RELAXED); }
static void co_unlive(Co *c) {
    for (int i = 0; i < co_n; i++)
        if (co_live[i] == c) {
            memmove(co_live + i, co_live + i + 1, sizeof(Co *) * (size_t)(co_n - i - 1));
            co_n -= 1;
            return;
        }
}
static void co_free(Co *c) {  /* a coroutine that is not running: its stack kept or unmapped */
    co_unlive(c);
    if (co_nspare < CO_SPARE) { co_spare[co_nspare++] = c; return; }
    munmap(c->stack - CO_GUARD, CO_STACK + CO_GUARD);
    free(c);
}
/* The suspended coroutine of the words `s` as they stand (its ticket in them), or NULL. */
static Co *co_find(const i64 *s) {
    i64 t = s[T_CO];
    if (!t) return 0;
    for (int i = 0; i < co_n; i++)
        if (co_live[i]->s == s && co_live[i]->ticket == t) return co_live[i];
    return 0;
}
/* The words `s` are written by something else than their coroutine: it can never resume. */
static void co_drop(const i64 *s) {
    for (int i = co_n - 1; i >= 0; i--)
        if (co_live[i]->s == s) co_free(co_live[i]);
}
static Co *co_new(void) {  /* a coroutine with a stack, or NULL (no memory: run on the caller's) */
    if (co_nspare) return co_spare[--co_nspare];
    Co *c = malloc(sizeof(Co));
    if (!c) return 0;
    char *m = mmap(0, CO_STACK + CO_GUARD, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED || mprotect(m, CO_GUARD, PROT_NONE) != 0) {
        if (m != MAP_FAILED) munmap(m, CO_STACK + CO_GUARD);
        free(c);
        return 0;
    }
    c->stack = m + CO_GUARD;
    return c;
}
/* The segment stops here, suspended: back to tb_apply's caller until its words are answered.
   (The context switches are in functions of their own, nothing of theirs used after a switch.) */
__attribute__((noinline)) static void co_suspend(X *x) {
    Co *c = x->co;
    if (co_n == CO_MAX) co_free(co_live[0]);  /* the oldest: its state replays when stepped */
    c->ticket = new_ticket();
    S[T_CO] = c->ticket;
    c->state = CO_SUSP;
    co_live[co_n++] = c;
#ifdef CO_ASM
    co_swap(&c->sp, c->back);
#else
    swapcontext(&c->ctx, &c->back);
#endif
}
/* A decision inside an effect without an answer: posed (its options already in DOPT), and the
   segment stops (the state words are then mid-effect; its first state and the queue stand for it).
   In a coroutine it is suspended instead, and returns once answered, the decision's words put back
   as they were before it was posed (`dn`: D_N then), as the replay leaves them. */
static void stop_at(X *x, i64 by, i64 site, i64 dn) {
    if (S[D_N] > DEC_CAP) fail(x, E_SIZE);
    if (x->nosnap == 1) fail(x, E_LIMIT);
    if (x->nosnap || x->ck == 2) {}  /* 2: a search's rollout ends here, evaluated, not answered */
    else if (x->ck) copy_read(x->seg, CKBUF);
    else if (x->base) copy_read(x->seg, x->base);
    if (x->co) {
        i64 dk = S[D_K], dp = S[D_P], ds = S[D_SITE];
        /* the segment's first state is kept (read by a replay after an error): later stops keep it */
        x->ck = 0; x->base = 0; x->snapfree = 0;
        S[D_K] = 2; S[D_P] = by; S[D_SITE] = site;
        co_suspend(x);
        S[D_K] = dk; S[D_N] = dn; S[D_P] = dp; S[D_SITE] = ds;
        return;
    }
    S[D_K] = 2; S[D_P] = by; S[D_SITE] = site;
    longjmp(x->susp, 1);
}
/* The answer to a decision inside an effect with `n` options: the segment's next from the queue;
   past the queue, a playout draws one (as Engine.random_choice) and keeps it, else `stop_at`. */
static i64 answer(X *x, i64 n) {
    i64 k;
    if (S[Q_DEAL] == S[Q_POS] + 1) {  /* a search's world is dealt at this decision (search.c t_world) */
        if (!x->world) fail(x, E_FLOW);  /* never the true state's words: the world stays the search's */
        copy_read(S, x->world); S[D_K] = 0; S[T_GEN] = new_ticket();
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
    while ((k = answer(x, o->n)) < 0) {  /* again once a suspended segment is answered */
        i64 dn = S[D_N];
        if (o->n > DEC_CAP) fail(x, E_SIZE);
        S[D_N] = o->n;
        for (i64 i = 0; i < o->n; i++) {
            i64 *opt = S + DOPT + DSTRIDE * i;
            opt[0] = site; opt[1] = o->v[i];
            for (i64 j = 2; j < DSTRIDE; j++) opt[j] = NONE;
        }
        stop_at(x, by, site, dn);
    }
    return o->v[k];
}
/* A window inside a block (its options in DOPT, `iw_<site>`): the index of its answer, else the
   window posed, its site kept as -1 - site (bridge.py tells it from a choice's by the sign). */
static i64 pick_action(X *x, i64 site, i64 p) {
    i64 k;
    while ((k = answer(x, S[D_N])) < 0) stop_at(x, p, -1 - site, S[D_N]);
    return k;
}
