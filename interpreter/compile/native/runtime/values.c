/* values.c: checks, numbers, zones, the generator and list values (the native backend's runtime).

   Needs tabula.h, the game's layout and its tables ZONE_PUBLIC and ZONE_HOLDER (and ZONE_GROW in a
   game with a board that grows: GROWS), and LCAP (the room of a list value). The game's generated code calls these helpers. */
#define MIN2(a, b) ((a) < (b) ? (a) : (b))
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define STORE_P(x, v) ({ i64 s_ = (v); if (s_ != NONE && (s_ < 0 || s_ >= S[T_N])) fail(x, E_STORE); s_; })
#define STORE_C(x, v) ({ i64 s_ = (v); if (s_ != NONE && (s_ < 0 || s_ >= NCOMP)) fail(x, E_STORE); s_; })
typedef struct { i64 n; i64 v[LCAP]; } L;  /* a list value: its length, then its items */
/* A list read, not changed, is passed by value (the generated code's rvalues need no names);
   inlined, the compiler reads the caller's list instead of copying its LCAP words per call. */
#define AI inline __attribute__((always_inline))
static inline i64 N(X *x, i64 v) { if (v == NONE) fail(x, E_KIND); return v; }
static inline i64 CK(X *x, i64 c) { if (c < 0 || c >= NCOMP) fail(x, E_KIND); return c; }
static inline i64 PK(X *x, i64 p) { if (p < 0 || p >= S[T_N]) fail(x, E_ENTRY); return p; }
static inline i64 ZK(X *x, i64 z) { if (z < 0 || z >= NZONES) fail(x, E_ENTRY); return z; }
/* A trigger's argument the emit running it does not pass (lowering/triggers.py): Python fails
   where it reads it, so native code stops there and the decision is replayed on Python. */
static inline i64 absent_arg(X *x) { fail(x, E_KIND); return NONE; }
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
#if GROWS
static void b_grow(X *x, i64 dest);  /* boards.c: cells added round a cell of a board that grows */
#endif
static void move_comp(X *x, i64 c, i64 dest, int top) {
    CK(x, c);
    i64 *a = ZP(x, dest), old = S[LOC + c], n;
    if (old >= 0) zone_remove(x, old, c);
    n = S[ZLEN + dest];
    if (top) { memmove(a + 1, a, (size_t)n * 8); a[0] = c; } else a[n] = c;
    S[ZLEN + dest] = n + 1;
    if (n + 1 > ZONE_MAX[dest]) fail(x, E_WRITE);  /* R016 in Python: replayed */
    S[LOC + c] = dest;
    if (S[RV + c] && old != dest && !ZONE_PUBLIC[dest]) S[RV + c] = 0;
#if GROWS
    if (ZONE_GROW[dest] >= 0) b_grow(x, dest);
#endif
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
static int in_zone(X *x, i64 c, i64 z) {  /* a zone past SHORT_LIST is charged, as a list is */
    if (S[ZLEN + z] > SHORT_LIST) CHARGE(S[ZLEN + z]);
    return c != NONE && S[LOC + CK(x, c)] == z;
}
static void add_option(X *x, i64 ai, i64 arg, i64 arg2) {
    i64 k = S[D_N];
    if (k >= DEC_CAP) fail(x, E_SIZE);
    S[DOPT + DSTRIDE * k] = ai; S[DOPT + DSTRIDE * k + 1] = arg;
    if (DSTRIDE > 2) S[DOPT + DSTRIDE * k + 2] = arg2; else (void)arg2;
    for (i64 j = 3; j < DSTRIDE; j++) S[DOPT + DSTRIDE * k + j] = NONE;  /* the window writes its own */
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
    if (l->n > SHORT_LIST) CHARGE(l->n);  /* a short list is not charged (run/budget.py searched) */
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
static L l_cat(X *x, L a, const L *b) {  /* a + b: both lists' items charged (run/budget.py bounded) */
    if (a.n + b->n > LCAP) fail(x, E_SIZE);
    CHARGE(a.n + b->n);
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
static AI int l_same(X *x, L a, L b) {  /* a == b, not charged (a short literal list, gr_eq) */
    (void)x;
    if (a.n != b.n) return 0;
    for (i64 i = 0; i < a.n; i++) if (a.v[i] != b.v[i]) return 0;
    return 1;
}
static AI int l_eq(X *x, L a, L b) {  /* a == b: the shorter list's items charged (run/budget.py COMPARE) */
    CHARGE(a.n < b.n ? a.n : b.n);
    return l_same(x, a, b);
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
    int r = 0;
    (void)x;  /* at most 16 players: a short list, not charged (run/budget.py searched) */
    while (u) { r |= (i64)(u & 15) - 1 == v; u >>= 4; }
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
#define LIGHT 64  /* a list of at most this many small items is stored unmeasured (run/budget.py) */
static AI void l_weigh(X *x, const L *l) {  /* a list kept in the state: one Python would measure
    the whole state for (more than LIGHT items, or a number past SMALL) stops native code */
    if (l->n > LIGHT) fail(x, E_SIZE);
    for (i64 i = 0; i < l->n; i++)
        if (l->v[i] != NONE && (l->v[i] <= -0x100000000LL || l->v[i] >= 0x100000000LL)) fail(x, E_SIZE);
}
static AI L l_kept(X *x, L l) { l_weigh(x, &l); return l; }  /* (an argument) */
static void lv_set(X *x, i64 at, L l) {
    if (l.n > VCAP) fail(x, E_STORE);
    l_weigh(x, &l);
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
