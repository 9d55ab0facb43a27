"""The C of tiles with sides: `tile_on`, `rotations`, `turned`, `fits`, `side`, and the features
`feature`, `features` and `open_ends`.

Stage: compile (native). Appended after the boards' C (units.py) when the game's rules use a tile
builtin (lowering/tiles.py made the `TL_*` tables). Each charges the work budget as run/tiles.py
does; what Python reports as R015 (no tile, no cell, a rotation or a side out of range, a tile on
a board of another shape) stops native code and Python runs the decision again. A feature is the
number of its sorted pairs in a thread's table of interned lists (FT_*), emptied at the first
feature after an entry point (flow.c sets `ft_fresh`); a full table stops native code (E_SIZE).
"""

from __future__ import annotations

from tabula.interpreter.compile.native.slots import Layout
from tabula.interpreter.model.game import CompiledGame

RUNTIME = r"""
static i64 t_spec(X *x, i64 t) {  /* the tile's number of parts (R015: no tile) */
    if (t < 0 || t >= NCOMP || TL_N[t] < 0) fail(x, E_KIND);
    return TL_N[t];
}
static const i64 *t_row(X *x, i64 t, i64 r) {  /* its parts facing each place after rotation r */
    i64 n = t_spec(x, t);
    CHARGE(n);
    if (r == NONE || r < 0 || r >= TL_TOP[t]) fail(x, E_KIND);
    return TL_S + (t * TL_ROOM + r) * TL_WIDTH;
}
static L t_turned(X *x, i64 t, i64 r) {
    const i64 *row = t_row(x, t, r);
    L out; out.n = TL_N[t];
    for (i64 i = 0; i < out.n; i++) out.v[i] = row[i];
    return out;
}
static L t_rotations(X *x, i64 t) {
    i64 n = t_spec(x, t);
    CHARGE(n * TL_TOP[t]);
    L out; out.n = TL_RN[t];
    for (i64 i = 0; i < out.n; i++) out.v[i] = TL_R[TL_RO[t] + i];
    return out;
}
static i64 t_tile_on(X *x, i64 c) {  /* the first tile in the cell's zone, or none */
    if (c < 0 || c >= NCOMP || TL_CZ[c] < 0) fail(x, E_KIND);
    i64 z = TL_CZ[c], n = S[ZLEN + z];
    const i64 *a = ZP(x, z);
    CHARGE(1 + n);
    for (i64 i = 0; i < n; i++) if (TL_N[a[i]] >= 0) return a[i];
    return NONE;
}
static i64 t_next(X *x, i64 c, i64 n, i64 side) {  /* the cell across that side, or -1 */
    if (TL_CK[c] != n) fail(x, E_KIND);
    i64 j = TL_X[c * 6 + side];
    return j <= -2 ? b_toward(x, c, -2 - j) : j;  /* a board that grows: its cells so far */
}
static i64 t_sides(i64 t) { return TL_K[t] < 3 ? 4 : 6; }
static i64 t_per(i64 t) { return TL_K[t] % 3 + 1; }
static i64 t_across(i64 n, i64 per, i64 i) {  /* the part of the tile beyond that part i faces */
    return (i / per + n / 2) % n * per + per - 1 - i % per;
}
static int t_fits(X *x, i64 t, i64 c, i64 r) {
    i64 size = t_spec(x, t), n = t_sides(t), per = t_per(t);
    if (t_tile_on(x, c) != NONE) return 0;
    const i64 *mine = t_row(x, t, r);
    for (i64 k = 0; k < n; k++) {
        i64 other = t_next(x, c, n, k), u = other < 0 ? NONE : t_tile_on(x, other);
        if (u == NONE) continue;
        const i64 *theirs = t_row(x, u, S[TL_MARK + u]);
        if (TL_N[u] != size) fail(x, E_KIND);
        for (i64 i = k * per; i < (k + 1) * per; i++)
            if (theirs[t_across(n, per, i)] != mine[i]) return 0;
    }
    return 1;
}
static i64 t_dir(X *x, i64 kind, i64 d) {  /* the part symbol d names on a tile of that kind */
    i64 i = d < 0 || d >= TL_NSYM ? -1 : TL_DIR[kind * TL_NSYM + d];
    if (i < 0) fail(x, E_KIND);
    return i;
}
static i64 t_side(X *x, i64 c, i64 d) {
    i64 u = t_tile_on(x, c);
    if (u == NONE) return NONE;
    const i64 *row = t_row(x, u, S[TL_MARK + u]);
    return row[t_dir(x, TL_K[u], d)];
}
/* Features: a pair is cell << 20 | its side's symbol; a feature is a number, its sorted pairs
   interned in FT_W (equal lists, one number: gen << 32 | index) until the next entry point. */
static inline i64 PAIR_CELL(X *x, i64 w) { (void)x; return w >> 20; }
static inline i64 PAIR_SIDE(X *x, i64 w) { (void)x; return w & 0xFFFFF; }
#define FT_WORDS (1 << 18)
#define FT_MAX (1 << 13)
#define FT_HASH (1 << 14)
static __thread i64 FT_W[FT_WORDS], FT_AT[FT_MAX], FT_LEN[FT_MAX], FT_HS[FT_HASH];
static __thread i64 ft_gen, ft_n, ft_used, ft_stamp, ft_done;
static __thread i64 FT_SEEN[NCOMP * TL_WIDTH], FT_DONE[NCOMP * TL_WIDTH], FT_OUT[NCOMP * TL_WIDTH];
static __thread i64 FT_Q[3 * NCOMP * TL_WIDTH + 3];
static void ft_begin(void) {
    if (ft_fresh || ft_gen == 0) { ft_fresh = 0; ft_gen++; ft_n = 0; ft_used = 0; }
}
static i64 ft_intern(X *x, const i64 *w, i64 n) {  /* the number of the list w (n pairs) */
    u64 h = 1469598103934665603ULL;
    for (i64 i = 0; i < n; i++) h = (h ^ (u64)w[i]) * 1099511628211ULL;
    for (u64 k = h & (FT_HASH - 1);; k = (k + 1) & (FT_HASH - 1)) {
        i64 e = FT_HS[k];
        if (e >> 32 != ft_gen) break;  /* a free slot (of no feature since the entry point) */
        i64 j = e & 0xFFFFFFFF;
        if (FT_LEN[j] == n && !memcmp(FT_W + FT_AT[j], w, (size_t)n * 8)) return e;
    }
    if (ft_n >= FT_MAX / 2 || ft_used + n > FT_WORDS) {  /* full: dropped, and Python runs it */
        ft_fresh = 1;
        fail(x, E_SIZE);
    }
    memcpy(FT_W + ft_used, w, (size_t)n * 8);
    FT_AT[ft_n] = ft_used; FT_LEN[ft_n] = n; ft_used += n;
    i64 e = ft_gen << 32 | ft_n++;
    u64 k = h & (FT_HASH - 1);
    while (FT_HS[k] >> 32 == ft_gen) k = (k + 1) & (FT_HASH - 1);
    FT_HS[k] = e;
    return e;
}
static L t_pairs(X *x, i64 f) {  /* a feature's pairs */
    i64 j = f & 0xFFFFFFFF;
    if (f >> 32 != ft_gen || ft_fresh || j >= ft_n || FT_LEN[j] > LCAP) fail(x, E_SIZE);
    L out; out.n = FT_LEN[j];
    memcpy(out.v, FT_W + FT_AT[j], (size_t)out.n * 8);
    return out;
}
static int ft_cmp(const void *a, const void *b) {
    i64 u = *(const i64 *)a, v = *(const i64 *)b;
    return u < v ? -1 : u > v;
}
/* run/tiles.py _walk: the parts joined to part i of the tile on cell c (none: 0 of them), sorted
   as cell * TL_WIDTH + part in FT_OUT; their count. */
static i64 t_walk(X *x, i64 c, i64 i) {
    i64 u = t_tile_on(x, c), head = 0, tail = 0, found = 0, stamp = ++ft_stamp;
    if (u == NONE) return 0;
    i64 size = TL_N[u], n = t_sides(u), per = t_per(u), terrain = t_row(x, u, S[TL_MARK + u])[i];
    FT_Q[tail++] = c; FT_Q[tail++] = u; FT_Q[tail++] = i;
    while (head < tail) {
        i64 cell = FT_Q[head++], tile = FT_Q[head++], k = FT_Q[head++], r = S[TL_MARK + tile];
        if (FT_SEEN[cell * TL_WIDTH + k] == stamp) continue;
        if (r == NONE || r < 0 || r >= TL_TOP[tile]) fail(x, E_KIND);
        const i64 *g = TL_G + (tile * TL_ROOM + r) * TL_WIDTH;
        for (i64 j = 0; j < TL_N[tile]; j++) {
            if (g[j] != g[k]) continue;
            CHARGE(1);
            if (FT_SEEN[cell * TL_WIDTH + j] == stamp) continue;
            FT_SEEN[cell * TL_WIDTH + j] = stamp;
            FT_OUT[found++] = cell * TL_WIDTH + j;
            i64 other = t_next(x, cell, n, j / per), v = other < 0 ? NONE : t_tile_on(x, other);
            i64 back = t_across(n, per, j);
            if (v == NONE) continue;
            const i64 *theirs = t_row(x, v, S[TL_MARK + v]);
            if (TL_N[v] != size) fail(x, E_KIND);
            if (theirs[back] == terrain) { FT_Q[tail++] = other; FT_Q[tail++] = v; FT_Q[tail++] = back; }
        }
    }
    qsort(FT_OUT, (size_t)found, sizeof(i64), ft_cmp);
    return found;
}
static i64 ft_made(X *x, i64 u, i64 found) {  /* FT_OUT's pairs, named as tile u names its parts */
    for (i64 k = 0; k < found; k++) {
        i64 cell = FT_OUT[k] / TL_WIDTH, j = FT_OUT[k] % TL_WIDTH;
        FT_OUT[k] = cell << 20 | TL_NM[u * TL_WIDTH + j];
    }
    return ft_intern(x, FT_OUT, found);
}
static i64 t_feature(X *x, i64 c, i64 d) {
    ft_begin();
    i64 u = t_tile_on(x, c);
    if (u == NONE) return ft_intern(x, FT_OUT, 0);
    i64 i = t_dir(x, TL_K[u], d);
    return ft_made(x, u, t_walk(x, c, i));
}
static L t_features(X *x, L cells, i64 kind) {
    i64 done = ++ft_done;
    L out; out.n = 0;
    ft_begin();
    for (i64 ci = 0; ci < cells.n; ci++) {
        i64 c = cells.v[ci], u = t_tile_on(x, c);
        if (u == NONE) continue;
        const i64 *row = t_row(x, u, S[TL_MARK + u]);
        for (i64 i = 0; i < TL_N[u]; i++) {
            if (row[i] != kind || FT_DONE[c * TL_WIDTH + i] == done) continue;
            i64 found = t_walk(x, c, i);
            for (i64 k = 0; k < found; k++) FT_DONE[FT_OUT[k]] = done;
            l_push(x, &out, ft_made(x, u, found));
        }
    }
    return out;
}
static i64 t_open_ends(X *x, L f) {  /* the pairs facing no tile */
    i64 count = 0;
    CHARGE(f.n);
    for (i64 k = 0; k < f.n; k++) {
        i64 c = PAIR_CELL(x, f.v[k]), d = PAIR_SIDE(x, f.v[k]), u = t_tile_on(x, c);
        i64 n = TL_CK[c] == 4 ? 4 : 6, per = u == NONE ? 1 : t_per(u);
        i64 other = t_next(x, c, n, t_dir(x, (n == 4 ? 0 : 3) + per - 1, d) / per);
        count += other < 0 || t_tile_on(x, other) == NONE;
    }
    return count;
}
"""


def tiles_c(game: CompiledGame, lay: Layout, tables: dict[str, tuple[list[int], str]]) -> list[str]:
    """The tile runtime, when the rules use a tile builtin (nothing otherwise)."""
    if "TL_N" not in tables:
        return []
    mark = next(iter(game.boards.tiles.values())).mark
    (width, room), _ = tables["TL_W"]
    return [
        f"#define TL_WIDTH {width}",
        f"#define TL_ROOM {room}",
        f"#define TL_MARK {lay.mark_base[mark]}",
        f"#define TL_NSYM {len(lay.symbols)}",
        RUNTIME,
    ]
