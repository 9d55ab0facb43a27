"""The fixed part of every game's C file: words and errors, checks, zones, the generator, the flow.

Stage: compile (native). The flow driver is flow.py's stage machine written in C, stage for stage
(the same numbering as flow.STAGES, the same budget charges: FLOW_STEP a step, 1 an effect pushed),
calling the game's generated parts (`g_*`, cgen.py). A failure anywhere (a check, the budget)
jumps back to the entry point with an error number; the bridge then replays the decision on the
Python backend, which reports it at its rule (docs/ARCHITECTURE.md, "Native backend").
"""

HEAD = r"""
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
typedef int64_t i64;
typedef uint64_t u64;
#define NONE INT64_MIN
enum { E_ILLEGAL = 1, E_BUDGET = 2, E_SIZE = 3, E_KIND = 4, E_ENTRY = 5, E_DIV = 6, E_FLOW = 8,
       E_WRITE = 9, E_STORE = 10, E_EMPTY = 11, E_LIMIT = 12, E_DEPTH = 13 };
enum { ST_SETUP, ST_ROUND_START, ST_ROUND_FIRST, ST_PRE_TURN, ST_PHASE, ST_POST_TURN, ST_ROUND_END,
       ST_FINAL_START, ST_FINAL_NEXT, ST_FINISH, ST_OVER, ST_DONE };
#define FLOW_STEP 4
#define SMALL (((i64)1) << 62)
/* endjb: where an ending unwinds to; susp: where a choice without an answer stops the segment.
   gen/done/max: a playout's generator, its decisions taken and its limit (gen NULL: stop and ask);
   base: the segment's first state, copied into SNAP only if the segment stops at a choice;
   nosnap: a playout keeps no first state (1: a stop at a choice is E_LIMIT, tb_playout replays;
   2: the words stop at the choice, whose segment cannot be replayed: a rollout's end, evaluated);
   seg: where a stopped segment's first state goes (SNAP, or the search tree's copy);
   ck: a phase started since the segment's first state, and CKBUF holds its words (checkpoint);
   depth: the emits running inside one another (triggers.py: past EMIT_DEPTH, E_DEPTH);
   world: a search's dealt world, which replaces the words where Q_DEAL says (tree_c.py). */
typedef struct {
    i64 *s; jmp_buf jb; jmp_buf endjb; jmp_buf susp;
    u64 *gen; i64 *done; i64 max; i64 budget; const i64 *base; int nosnap; i64 *seg; int ck; int depth;
    const i64 *world;
} X;
#define S (x->s)
static void fail(X *x, int code) { longjmp(x->jb, code); }
#define CHARGE(n) do { S[T_BUDGET] -= (n); if (S[T_BUDGET] < 0) fail(x, E_BUDGET); } while (0)
"""

BODY = r"""
typedef struct { i64 n; i64 v[LCAP]; } L;  /* a list value: its length, then its items */
/* A list read, not changed, is passed by value (the generated code's rvalues need no names);
   inlined, the compiler reads the caller's list instead of copying its LCAP words per call. */
#define AI inline __attribute__((always_inline))
static inline i64 N(X *x, i64 v) { if (v == NONE) fail(x, E_KIND); return v; }
static inline i64 CK(X *x, i64 c) { if (c < 0 || c >= NCOMP) fail(x, E_KIND); return c; }
static inline i64 PK(X *x, i64 p) { if (p < 0 || p >= S[T_N]) fail(x, E_ENTRY); return p; }
static inline i64 ZK(X *x, i64 z) { if (z < 0 || z >= NZONES) fail(x, E_ENTRY); return z; }
static inline i64 KL(X *x, const i64 *t, i64 nt, i64 k) {
    if (k < 0 || k >= nt || t[k] == NONE) fail(x, E_ENTRY);
    return t[k];
}
static inline i64 KLN(X *x, const i64 *t, i64 nt, i64 k) {  /* a mapping that may hold none */
    if (k < 0 || k >= nt || t[k] == NONE + 1) fail(x, E_ENTRY);
    return t[k];
}
static inline i64 ADD(X *x, i64 a, i64 b) {
    i64 r; if (__builtin_add_overflow(a, b, &r) || r >= SMALL || r <= -SMALL) fail(x, E_SIZE); return r;
}
static inline i64 SUB(X *x, i64 a, i64 b) {
    i64 r; if (__builtin_sub_overflow(a, b, &r) || r >= SMALL || r <= -SMALL) fail(x, E_SIZE); return r;
}
static inline i64 MUL(X *x, i64 a, i64 b) {
    i64 r; if (__builtin_mul_overflow(a, b, &r) || r >= SMALL || r <= -SMALL) fail(x, E_SIZE); return r;
}
static inline i64 FDIV(X *x, i64 a, i64 b) {
    if (b == 0) fail(x, E_DIV);
    i64 q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q--; return q;
}
static inline i64 FMOD(X *x, i64 a, i64 b) {
    if (b == 0) fail(x, E_DIV);
    i64 r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; return r;
}
static inline i64 *ZP(X *x, i64 z) { return S + ZONE + ZK(x, z) * NCOMP; }

static void zone_remove(X *x, i64 z, i64 c) {
    i64 *a = ZP(x, z), n = S[ZLEN + z];
    for (i64 i = 0; i < n; i++)
        if (a[i] == c) { memmove(a + i, a + i + 1, (size_t)(n - i - 1) * 8); S[ZLEN + z] = n - 1; return; }
}
static void move_comp(X *x, i64 c, i64 dest, int top) {
    CK(x, c);
    i64 *a = ZP(x, dest), old = S[LOC + c], n;
    if (old >= 0) zone_remove(x, old, c);
    n = S[ZLEN + dest];
    if (top) { memmove(a + 1, a, (size_t)n * 8); a[0] = c; } else a[n] = c;
    S[ZLEN + dest] = n + 1;
    S[LOC + c] = dest;
    if (S[RV + c] && old != dest && !ZONE_PUBLIC[dest]) S[RV + c] = 0;
}
static void move_list(X *x, const i64 *items, i64 n, i64 dest, int top) {
    i64 buf[NCOMP + 1];
    memcpy(buf, items, (size_t)n * 8);
    ZK(x, dest);
    if (top) for (i64 i = n - 1; i >= 0; i--) move_comp(x, buf[i], dest, 1);
    else for (i64 i = 0; i < n; i++) move_comp(x, buf[i], dest, 0);
}
static void move_zone(X *x, i64 src, i64 dest, int top) {
    move_list(x, ZP(x, src), S[ZLEN + src], dest, top);
}
static void draw(X *x, i64 src, i64 dest, i64 n) {
    ZK(x, dest);
    for (i64 k = 0; k < n; k++) {
        if (S[ZLEN + ZK(x, src)] == 0) break;
        move_comp(x, ZP(x, src)[0], dest, 0);
    }
}
static void shuffle(X *x, i64 z) {  /* base/rng.py shuffle, word for word */
    u64 s1 = (u64)S[RNG], s0 = (u64)S[RNG + 1], t;
    i64 *a = ZP(x, z), tmp;
    for (i64 i = S[ZLEN + z] - 1; i > 0; i--) {
        s1 ^= s1 << 23;
        s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26);
        u64 j = (s1 + s0) % (u64)(i + 1);
        t = s1; s1 = s0; s0 = t;
        tmp = a[i]; a[i] = a[j]; a[j] = tmp;
    }
    S[RNG] = (i64)s1; S[RNG + 1] = (i64)s0;
}
static inline i64 KEYK(X *x, i64 k, i64 size) { if (k < 0 || k >= size) fail(x, E_ENTRY); return k; }
static i64 top_of(X *x, i64 z) { ZK(x, z); return S[ZLEN + z] ? ZP(x, z)[0] : NONE; }
static i64 zone_at(X *x, i64 z, i64 i) {  /* z[i]: 0 the top (a negative one: Python's) */
    ZK(x, z); if (i < 0 || i >= S[ZLEN + z]) fail(x, E_ENTRY); return ZP(x, z)[i];
}
static int in_zone(X *x, i64 c, i64 z) { return c != NONE && S[LOC + CK(x, c)] == z; }
static void add_option(X *x, i64 ai, i64 arg, i64 arg2) {
    i64 k = S[D_N];
    if (k >= DEC_CAP) fail(x, E_SIZE);
    S[DOPT + DSTRIDE * k] = ai; S[DOPT + DSTRIDE * k + 1] = arg;
    if (DSTRIDE > 2) S[DOPT + DSTRIDE * k + 2] = arg2; else (void)arg2;
    S[D_N] = k + 1;
}
static inline void l_push(X *x, L *l, i64 v) { if (l->n >= LCAP) fail(x, E_SIZE); l->v[l->n++] = v; }
static void l_add(X *x, L *l, i64 v) {  /* a choice's option: each value once (support.choose) */
    for (i64 i = 0; i < l->n; i++) if (l->v[i] == v) return;
    l_push(x, l, v);
}
static i64 below(u64 *gen, i64 n) {  /* base/rng.py below */
    u64 s1 = gen[0], s0 = gen[1];
    s1 ^= s1 << 23;
    s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26);
    gen[0] = s0; gen[1] = s1;
    return (i64)((s1 + s0) % (u64)n);
}
static L l_slice(X *x, const i64 *d, const i64 *o, const i64 *n, i64 nk, i64 k) {
    L l;
    if (k < 0 || k >= nk) fail(x, E_ENTRY);
    if (n[k] < 0) fail(x, E_KIND);
    l.n = n[k]; memcpy(l.v, d + o[k], (size_t)n[k] * 8);
    return l;
}
static const i64 *l_span(X *x, const i64 *d, const i64 *o, const i64 *n, i64 nk, i64 k) {
    if (k < 0 || k >= nk) fail(x, E_ENTRY);  /* l_slice's checks, the items read in place */
    if (n[k] < 0) fail(x, E_KIND);
    return d + o[k];
}
static int l_span_eq(const i64 *a, i64 na, const i64 *b, i64 nb) {  /* two constant lists equal */
    return na == nb && (na == 0 || memcmp(a, b, (size_t)na * 8) == 0);
}
static i64 seat_bit(X *x, i64 p) {  /* a grant's bit (run/support.py _grant_bits) */
    if (p < 0 || p >= S[T_N]) fail(x, E_ENTRY);  /* NONE too: Python reports R008 */
    return 1LL << (p + 1);
}
static AI i64 l_count(X *x, L l) { (void)x; return l.n; }
static AI i64 l_at(X *x, L l, i64 i) { if (i < 0 || i >= l.n) fail(x, E_ENTRY); return l.v[i]; }
static AI i64 l_atp(X *x, const L *l, i64 i) { if (i < 0 || i >= l->n) fail(x, E_ENTRY); return l->v[i]; }
static int l_has(X *x, const L *l, i64 v) {  /* by address: a list of LCAP words is not copied */
    CHARGE(l->n);
    for (i64 i = 0; i < l->n; i++) if (l->v[i] == v) return 1;
    return 0;
}
static L l_distinct(X *x, L l) {  /* in order of first appearance */
    L out; out.n = 0;
    CHARGE(l.n);
    for (i64 i = 0; i < l.n; i++) {
        int seen = 0;
        for (i64 j = 0; j < out.n && !seen; j++) seen = out.v[j] == l.v[i];
        if (!seen) out.v[out.n++] = l.v[i];
    }
    return out;
}
static AI i64 l_min(X *x, L l) {
    i64 r = NONE;
    CHARGE(l.n);
    for (i64 i = 0; i < l.n; i++) if (r == NONE || N(x, l.v[i]) < r) r = l.v[i];
    return r;
}
static AI i64 l_max(X *x, L l) {
    i64 r = NONE;
    CHARGE(l.n);
    for (i64 i = 0; i < l.n; i++) if (r == NONE || N(x, l.v[i]) > r) r = l.v[i];
    return r;
}
static AI i64 l_first(X *x, L l) { (void)x; return l.n ? l.v[0] : NONE; }
static AI i64 l_last(X *x, L l) { (void)x; return l.n ? l.v[l.n - 1] : NONE; }
static L l_sorted(X *x, L l) {  /* increasing; none among the items fails, as in Python */
    CHARGE(l.n);
    for (i64 i = 0; i < l.n; i++) N(x, l.v[i]);
    for (i64 i = 1; i < l.n; i++) {
        i64 v = l.v[i], j = i - 1;
        while (j >= 0 && l.v[j] > v) { l.v[j + 1] = l.v[j]; j--; }
        l.v[j + 1] = v;
    }
    return l;
}
static L l_cat(X *x, L a, const L *b) {  /* a + b */
    if (a.n + b->n > LCAP) fail(x, E_SIZE);
    CHARGE(b->n);
    memcpy(a.v + a.n, b->v, (size_t)b->n * 8); a.n += b->n;
    return a;
}
static inline i64 holder_of(X *x, i64 c) {  /* the owner of the zone holding c, or none */
    i64 z = S[LOC + CK(x, c)];
    return z < -1 || z >= NZONES ? NONE : ZONE_HOLDER[z + 1];
}
static L l_zones(X *x, L zs) {  /* flatten([Z(q) for q in ...]): the zones' contents in turn */
    L out; out.n = 0;
    for (i64 i = 0; i < zs.n; i++) {
        i64 z = ZK(x, zs.v[i]), n = S[ZLEN + z];
        if (out.n + n > LCAP) fail(x, E_SIZE);
        CHARGE(n);
        memcpy(out.v + out.n, ZP(x, z), (size_t)n * 8); out.n += n;
    }
    return out;
}
static AI int l_eq(X *x, L a, L b) {
    (void)x;
    if (a.n != b.n) return 0;
    for (i64 i = 0; i < a.n; i++) if (a.v[i] != b.v[i]) return 0;
    return 1;
}
/* A list of players in one word (a mark holding such a list): seat + 1 per 4 bits, the first
   seat lowest, 0 ending it; at most PL_MAX seats (slots.py pack_players). */
#define PL_MAX 15
static L pl_unpack(X *x, i64 w) {
    L l; u64 u = (u64)w; l.n = 0; (void)x;
    while (u) { l.v[l.n++] = (i64)(u & 15) - 1; u >>= 4; }
    return l;
}
static int pl_has(X *x, i64 w, i64 v) {  /* l_has of pl_unpack(w), with no list made */
    u64 u = (u64)w;
    i64 n = 0; int r = 0;
    while (u) { r |= (i64)(u & 15) - 1 == v; n += 1; u >>= 4; }
    CHARGE(n);
    return r;
}
static AI i64 pl_pack(X *x, L l) {
    u64 u = 0;
    if (l.n > PL_MAX) fail(x, E_STORE);
    for (i64 i = l.n - 1; i >= 0; i--) {
        if (l.v[i] < 0 || l.v[i] >= S[T_N] || l.v[i] >= PL_MAX) fail(x, E_STORE);
        u = (u << 4) | (u64)(l.v[i] + 1);
    }
    return (i64)u;
}
static void declare(X *x, L w) {  /* declare_winner: sorted seats (support.declare_winner) */
    w = l_sorted(x, w);
    for (i64 i = 0; i < w.n; i++) if (w.v[i] < 0 || w.v[i] >= S[T_N]) fail(x, E_ENTRY);
    S[T_WINNERS] = pl_pack(x, w);
    longjmp(x->endjb, 1);
}
/* A var holding a list: its length word, then room for VCAP items (slots.py Layout.var_width). */
static L lv_get(X *x, i64 at) {
    L l; (void)x;
    l.n = S[at]; memcpy(l.v, S + at + 1, (size_t)l.n * 8);
    return l;
}
static void lv_set(X *x, i64 at, L l) {
    if (l.n > VCAP) fail(x, E_STORE);
    S[at] = l.n; memcpy(S + at + 1, l.v, (size_t)l.n * 8);
}
static i64 counter_write(X *x, i64 at, int op, i64 v, i64 lo, int has_lo, i64 hi, int has_hi) {
    i64 old = S[at], nw;
    if ((op == '+' + 1 || op == '-' + 1) && v < 0) fail(x, E_WRITE);
    nw = op == '=' ? v : (op == '+' || op == '+' + 1) ? ADD(x, old, v) : SUB(x, old, v);
    if ((has_lo && nw < lo) || (has_hi && nw > hi)) fail(x, E_WRITE);
    S[at] = nw;
    return nw;
}
"""

FLOW = r"""
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
        if (S[T_ROUND] >= 1) ru_end(x, 1);  /* grants `until round_end` end (grants_c.py) */
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
        ru_end(x, 0);  /* grants `until turn_end` end (grants_c.py) */
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
const char *tb_meta(void) { return META; }
static void init_x(X *x, i64 *s, i64 budget, u64 *gen, i64 *done, i64 max) {
    x->s = s; x->budget = budget; x->gen = gen; x->done = done; x->max = max; x->base = 0; x->nosnap = 0;
    x->seg = s + SNAP; x->ck = 0; x->depth = 0; x->world = 0;
}
int tb_start(i64 *s, i64 budget) {  /* a segment from the state before setup */
    X xx, *x = &xx;
    int code;
    init_x(x, s, budget, 0, 0, 0);
    memcpy(S + SNAP, S, sizeof(i64) * MAIN_WORDS);
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
   (apply_k, and the search tree's steps: tree_c.py t_step). */
static void first_answer(X *x, i64 *ai, i64 *p, i64 *arg, i64 *arg2) {
    i64 k0 = S[QUEUE];
    S[Q_POS] = 1;
    *ai = S[DOPT + DSTRIDE * k0]; *arg = S[DOPT + DSTRIDE * k0 + 1];
    *arg2 = DSTRIDE > 2 ? S[DOPT + DSTRIDE * k0 + 2] : NONE;
    *p = S[D_P];
    S[D_K] = 0; S[D_N] = 0; S[T_DECISIONS] += 1;
    if (ACTION_CLOSES[*ai]) S[T_FR_PC] = 2;
    CHARGE(1);
}
static int apply_k(i64 *s, i64 k, i64 budget, i64 *before, u64 *gen, i64 *done, i64 max, int nosnap) {
    X xx, *x = &xx;
    int code;
    i64 ai = -1, arg = NONE, arg2 = NONE, p = NONE;
    init_x(x, s, budget, gen, done, max);
    x->nosnap = nosnap;
    if (before) memcpy(before, s, sizeof(i64) * KEEP_WORDS);
    if ((code = setjmp(x->jb)) != 0) return code;
    if (S[D_K] == 0 || k < 0 || k >= S[D_N]) return E_ILLEGAL;
    if (S[D_K] == 1) {
        if (before) x->base = before;
        else if (!nosnap) memcpy(S + SNAP, S, sizeof(i64) * MAIN_WORDS);
        S[Q_LEN] = 0; S[Q_START] = 0; S[Q_DEAL] = 0;
    }
    if (S[Q_LEN] >= QCAP) return E_SIZE;
    S[QUEUE + S[Q_LEN]] = k; S[Q_LEN] += 1;
    if (S[D_K] == 2) memcpy(S, S + SNAP, sizeof(i64) * MAIN_WORDS);
    S[Q_POS] = 0;
    if (setjmp(x->susp)) return 0;
    S[T_BUDGET] = budget;
    if (!S[Q_START]) first_answer(x, &ai, &p, &arg, &arg2);
    run(x, ai, p, arg, arg2);
    S[Q_LEN] = 0; S[Q_POS] = 0; S[Q_START] = 0; S[Q_DEAL] = 0;
    return 0;
}
int tb_apply(i64 *s, i64 k, i64 budget, i64 *before) { return apply_k(s, k, budget, before, 0, 0, 0, 0); }
int tb_reoffer(i64 *s) {  /* the pending window's options computed again (Engine.reoffer) */
    X xx, *x = &xx;
    int code;
    x->s = s;
    if ((code = setjmp(x->jb)) != 0) return code;
    if (S[D_K] != 1) return 0;
    S[T_BUDGET] = INT64_MAX;
    g_window(x, S[T_PHASE] - 1, S[D_P]);
    return 0;
}
int tb_score(i64 *s, i64 p, i64 *out) {  /* score, then each tiebreak */
    X xx, *x = &xx;
    int code;
    x->s = s;
    if ((code = setjmp(x->jb)) != 0) return code;
    S[T_BUDGET] = INT64_MAX;
    g_score(x, p, out);
    return 0;
}
/* One determinisation for a search bot (compile/native/deal.py; run/determinize.py draws the
   same): `out` holds a copy of the decision's base words; `plan` lists `ngroups` groups of hidden
   components of one back, each as its size k, its k components sorted, then k (component, word of
   its place) pairs in state order. Each group is shuffled with `gen` (rng.shuffle) and dealt into
   its places, `loc` and `rv` following; the `nnaming` (word, component) pairs that name a dealt
   component are renamed; the generator words are drawn last (next_u64 | 1, twice). */
void tb_deal(i64 *out, u64 *gen, const i64 *plan, i64 ngroups, const i64 *naming, i64 nnaming) {
    i64 pi[NCOMP], dealt[NCOMP], loc[NCOMP], rv[NCOMP], tmp;
    u64 s1 = gen[0], s0 = gen[1], t, w[2];
    const i64 *p = plan;
    for (i64 g = 0; g < ngroups; g++) {
        i64 k = *p++;
        for (i64 j = 0; j < k; j++) dealt[j] = p[j];
        for (i64 i = k - 1; i > 0; i--) {
            s1 ^= s1 << 23;
            s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26);
            u64 j = (s1 + s0) % (u64)(i + 1);
            t = s1; s1 = s0; s0 = t;
            tmp = dealt[i]; dealt[i] = dealt[j]; dealt[j] = tmp;
        }
        p += k;
        for (i64 j = 0; j < k; j++) {  /* every old place read before any is written */
            i64 c = p[2 * j];
            loc[j] = out[LOC + c]; rv[j] = out[RV + c]; pi[c] = dealt[j];
        }
        for (i64 j = 0; j < k; j++) {
            out[p[2 * j + 1]] = dealt[j];
            out[LOC + dealt[j]] = loc[j]; out[RV + dealt[j]] = rv[j];
        }
        p += 2 * k;
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
    x->s = s;
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
    memcpy(before, s, sizeof(i64) * KEEP_WORDS);
    done[0] = 0;
    while (done[0] < max_decisions && s[D_K] != 0) {
        k = below(gen, s[D_N]);
        done[0] += 1;
        if ((code = apply_k(s, k, budget, 0, gen, done, max_decisions, 1)) != 0) break;
        segs += 1;
    }
    if (code == 0) return 0;
    memcpy(s, before, sizeof(i64) * KEEP_WORDS);
    gen[0] = g0; gen[1] = g1; done[0] = 0;
    for (i64 j = 0; j < segs; j++) {  /* as before: these segments went through */
        k = below(gen, s[D_N]);
        done[0] += 1;
        apply_k(s, k, budget, 0, gen, done, max_decisions, 1);
    }
    if (code != E_LIMIT) return code;
    k = below(gen, s[D_N]);  /* the last segment again, stopping at its choice */
    done[0] += 1;
    return apply_k(s, k, budget, 0, gen, done, max_decisions, 0);
}
"""
