/* names.c: the pending decision's choice ids written as text, as the Python backend names them
   (model/choices.py option_ids; a window's, per run of one action, a column of ids a parameter
   joined by commas: naming.py choice_ids), for the step path's legal ids (bridge.py
   NativeGame._name_ids). Naming them in Python cost more than the step itself. The texts and how
   each column is named are the bridge's (tb_names, once per library); what is not listed here (a
   list, a place, a value whose id is not one of these) stays Python's: tb_ids returns -1. */
enum { NM_PY = -1, NM_COMP = 1, NM_PLAYER, NM_INT, NM_BOOL, NM_SYM };
/* nm_mode: per action DSTRIDE - 1 columns (0: no such parameter), then one per choose site;
   nm_name: per component the number of its name (components sharing a name share it);
   text i is nm_text[nm_off[i] .. nm_off[i + 1]): components' names, their keys, symbols, actions'
   names, in that order. */
static const i64 *nm_mode, *nm_name, *nm_off;
static const char *nm_text;
static i64 nm_nsym, nm_nact;
void tb_names(const i64 *mode, const i64 *name, const i64 *off, const char *text, i64 nsym, i64 nact) {
    nm_mode = mode; nm_name = name; nm_off = off; nm_text = text; nm_nsym = nsym; nm_nact = nact;
}
typedef struct { char *o; i64 n, cap; const i64 *poff; const char *ptext; i64 np; } NmOut;
static int nm_put(NmOut *b, const char *t, i64 n) {
    if (b->n + n + 1 > b->cap) return 0;
    memcpy(b->o + b->n, t, (size_t)n);
    b->n += n;
    return 1;
}
static int nm_text_put(NmOut *b, i64 i) { return nm_put(b, nm_text + nm_off[i], nm_off[i + 1] - nm_off[i]); }
static int nm_int(NmOut *b, i64 v) {  /* str(v) (v is never NONE here: that is "none") */
    char t[24];
    int k = 24;
    u64 u = v < 0 ? (u64)0 - (u64)v : (u64)v;
    do { t[--k] = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) t[--k] = '-';
    return nm_put(b, t + k, 24 - k);
}
/* Whether the component offered in row r, column `col` (a word of the options) shares its name with
   another component of the same column in rows r0..r1: both are then named by their keys. */
static int nm_dup(const i64 *s, i64 r0, i64 r1, i64 col, i64 c) {
    for (i64 j = r0; j < r1; j++) {
        i64 d = s[DOPT + DSTRIDE * j + col];
        if (d != NONE && d != c && d >= 0 && d < NCOMP && nm_name[d] == nm_name[c]) return 1;
    }
    return 0;
}
/* The id of the value in row r, column `col` of rows r0..r1 (model/choices.py value_id). */
static int nm_value(NmOut *b, const i64 *s, i64 mode, i64 r0, i64 r1, i64 r, i64 col) {
    i64 v = s[DOPT + DSTRIDE * r + col];
    if (v == NONE) return nm_put(b, "none", 4);
    switch (mode) {
    case NM_COMP:
        if (v < 0 || v >= NCOMP) return 0;
        return nm_text_put(b, nm_dup(s, r0, r1, col, v) ? NCOMP + v : v);
    case NM_PLAYER:
        if (v >= 0 && v < b->np) return nm_put(b, b->ptext + b->poff[v], b->poff[v + 1] - b->poff[v]);
        return nm_int(b, v);
    case NM_INT: return nm_int(b, v);
    case NM_BOOL: return v ? nm_put(b, "true", 4) : nm_put(b, "false", 5);
    case NM_SYM: return v >= 0 && v < nm_nsym && nm_text_put(b, 2 * NCOMP + v);
    default: return 0;
    }
}
/* The ids of the pending options of `s`, each followed by a NUL, into `out` (`cap` bytes); player
   p's name is ptext[poff[p] .. poff[p + 1]) of np. The bytes written, or -1: Python names them
   (no decision, a column not named here, a value out of range, no room). */
i64 tb_ids(const i64 *s, const i64 *poff, const char *ptext, i64 np, char *out, i64 cap) {
    NmOut b = {out, 0, cap, poff, ptext, np};
    i64 n = s[D_N], w = DSTRIDE - 1;
    if (!nm_mode || s[D_K] == 0 || n <= 0 || n > DEC_CAP) return -1;
    if (s[D_K] == 2 && s[D_SITE] >= 0) {  /* a choice: one column, the value after its site */
        i64 mode = nm_mode[nm_nact * w + s[D_SITE]];
        for (i64 r = 0; r < n; r++) {
            if (!nm_value(&b, s, mode, 0, n, r, 1) || !nm_put(&b, "", 0)) return -1;
            b.o[b.n++] = 0;
        }
        return b.n;
    }
    for (i64 r0 = 0, r1; r0 < n; r0 = r1) {  /* a window: per run of one action */
        i64 ai = s[DOPT + DSTRIDE * r0];
        if (ai < 0 || ai >= nm_nact) return -1;
        for (r1 = r0 + 1; r1 < n && s[DOPT + DSTRIDE * r1] == ai; r1++) {}
        const i64 *mode = nm_mode + ai * w;
        for (i64 c = 0; c < w && mode[c]; c++)
            if (mode[c] == NM_PY) return -1;
        for (i64 r = r0; r < r1; r++) {
            if (!nm_text_put(&b, 2 * NCOMP + nm_nsym + ai)) return -1;
            for (i64 c = 0; c < w && mode[c]; c++)
                if (!nm_put(&b, c ? "," : ":", 1) || !nm_value(&b, s, mode[c], r0, r1, r, 1 + c)) return -1;
            if (!nm_put(&b, "", 0)) return -1;
            b.o[b.n++] = 0;
        }
    }
    return b.n;
}
