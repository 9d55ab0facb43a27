"""The C of tiles with sides: `tile_on`, `rotations`, `turned`, `fits` and `side`.

Stage: compile (native). Appended after the boards' C (units.py) when the game's rules use a tile
builtin (lowering/tiles.py made the `TL_*` tables). Each charges the work budget as run/tiles.py
does; what Python reports as R015 (no tile, no cell, a rotation or a side out of range, a tile on
a board of another shape) stops native code and Python runs the decision again.
"""

from __future__ import annotations

from tabula.interpreter.compile.native.lowering.tiles import ROOM
from tabula.interpreter.compile.native.slots import Layout
from tabula.interpreter.model.game import CompiledGame

RUNTIME = r"""
static i64 t_spec(X *x, i64 t) {  /* the tile's number of sides (R015: no tile) */
    if (t < 0 || t >= NCOMP || TL_N[t] < 0) fail(x, E_KIND);
    return TL_N[t];
}
static const i64 *t_row(X *x, i64 t, i64 r) {  /* its sides facing each way after rotation r */
    i64 n = t_spec(x, t);
    CHARGE(n);
    if (r == NONE || r < 0 || r >= TL_TOP[t]) fail(x, E_KIND);
    return TL_S + t * TL_ROOM * 6 + r * 6;
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
static i64 t_next(X *x, i64 c, i64 n, i64 i) {  /* the cell across side i, or -1 */
    if (TL_CK[c] != n) fail(x, E_KIND);
    i64 j = TL_X[c * 6 + i];
    return j <= -2 ? b_toward(x, c, -2 - j) : j;  /* a board that grows: its cells so far */
}
static int t_fits(X *x, i64 t, i64 c, i64 r) {
    i64 n = t_spec(x, t);
    if (t_tile_on(x, c) != NONE) return 0;
    const i64 *mine = t_row(x, t, r);
    for (i64 i = 0; i < n; i++) {
        i64 other = t_next(x, c, n, i), u = other < 0 ? NONE : t_tile_on(x, other);
        if (u != NONE && t_row(x, u, S[TL_MARK + u])[(i + n / 2) % n] != mine[i]) return 0;
    }
    return 1;
}
static i64 t_side(X *x, i64 c, i64 d) {  /* d: lowering/tiles.py _side_code */
    i64 u = t_tile_on(x, c);
    if (u == NONE) return NONE;
    const i64 *row = t_row(x, u, S[TL_MARK + u]);
    i64 k = d < 0 ? 255 : TL_N[u] == 4 ? (d & 255) : ((d >> 8) & 255);
    if (k == 255) fail(x, E_KIND);
    return row[k];
}
static i64 t_dir(X *x, i64 s) {
    (void)x;
    return s < 0 || s >= (i64)(sizeof(TL_DIR) / sizeof(TL_DIR[0])) ? -1 : TL_DIR[s];
}
"""


def tiles_c(game: CompiledGame, lay: Layout, tables: dict[str, tuple[list[int], str]]) -> list[str]:
    """The tile runtime, when the rules use a tile builtin (nothing otherwise)."""
    if "TL_N" not in tables:
        return []
    mark = next(iter(game.boards.tiles.values())).mark
    out = [f"#define TL_ROOM {ROOM}", f"#define TL_MARK {lay.mark_base[mark]}"]
    if "TL_DIR" not in tables:
        out.append("static const i64 TL_DIR[1] = {-1};")
    return [*out, RUNTIME]
