/* names.c: the pending decision's choice ids written as text, as the Python backend names them
   (model/choices.py option_ids; a window's, per run of one action, a column of ids a parameter
   joined by commas: naming.py choice_ids), for the step path's legal ids (bridge.py
   NativeGame._name_ids). Naming them in Python cost more than the step itself. The texts and how
   each column is named are the bridge's (`ctx`); what is not listed here (a list, a place, a
   value whose id is not one of these) stays Python's: tb_ids returns -1. */
enum { NM_PY = -1, NM_COMP = 1, NM_PLAYER, NM_INT, NM_BOOL, NM_SYM };
/* What tb_ids reads (bridge.py's, through naming.py `Namer`): the addresses of `mode` (per action
   DSTRIDE - 1 columns, 0: no such parameter, then one per choose site), `name` (per component
   the number of its name: components sharing a name share it), `off` and `text` (text i is
   text[off[i] .. off[i + 1]): components' names, their keys, symbols, actions' names, in that
   order), the symbols' and actions' counts, then the players' names as `poff` and `ptext` and
   their count, where the ids go and its room in bytes; for tb_step, the words a step keeps before
   it (tb_apply's `before`), the table of the options already named (NT_* below), and tb_step's
   arguments (the words' address, the answer, the budget) and the words' T_GEN after it. */
enum { NM_MODE, NM_NAME, NM_OFF, NM_TEXT, NM_NSYM, NM_NACT, NM_POFF, NM_PTEXT, NM_NP, NM_OUT, NM_CAP,
       NM_BEFORE, NM_TAB, NM_S, NM_K, NM_BUDGET, NM_GEN };
typedef struct {
    char *o; i64 n, cap;
    const i64 *mode, *name, *off, *poff; const char *text, *ptext; i64 nsym, nact, np;
} NmOut;
static int nm_put(NmOut *b, const char *t, i64 n) {
    if (b->n + n + 1 > b->cap) return 0;
    memcpy(b->o + b->n, t, (size_t)n);
    b->n += n;
    return 1;
}
static int nm_text_put(NmOut *b, i64 i) { return nm_put(b, b->text + b->off[i], b->off[i + 1] - b->off[i]); }
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
static int nm_dup(const NmOut *b, const i64 *s, i64 r0, i64 r1, i64 col, i64 c) {
    for (i64 j = r0; j < r1; j++) {
        i64 d = s[DOPT + DSTRIDE * j + col];
        if (d != NONE && d != c && d >= 0 && d < NCOMP && b->name[d] == b->name[c]) return 1;
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
        return nm_text_put(b, nm_dup(b, s, r0, r1, col, v) ? NCOMP + v : v);
    case NM_PLAYER:
        if (v >= 0 && v < b->np) return nm_put(b, b->ptext + b->poff[v], b->poff[v + 1] - b->poff[v]);
        return nm_int(b, v);
    case NM_INT: return nm_int(b, v);
    case NM_BOOL: return v ? nm_put(b, "true", 4) : nm_put(b, "false", 5);
    case NM_SYM: return v >= 0 && v < b->nsym && nm_text_put(b, 2 * NCOMP + v);
    default: return 0;
    }
}
/* The ids of the pending options of `s`, each followed by a NUL, into ctx[NM_OUT] (the rest of
   `ctx` as above). The bytes written, or -1: Python names them (no decision, a column not named
   here, a value out of range, no room). */
#define NM_AT(t, k) ((t)(uintptr_t)ctx[k])
i64 tb_ids(const i64 *s, const i64 *ctx) {
    NmOut b = {NM_AT(char *, NM_OUT), 0, ctx[NM_CAP], NM_AT(const i64 *, NM_MODE),
               NM_AT(const i64 *, NM_NAME), NM_AT(const i64 *, NM_OFF), NM_AT(const i64 *, NM_POFF),
               NM_AT(const char *, NM_TEXT), NM_AT(const char *, NM_PTEXT), ctx[NM_NSYM], ctx[NM_NACT],
               ctx[NM_NP]};
    i64 n = s[D_N], w = DSTRIDE - 1;
    if (s[D_K] == 0 || n <= 0 || n > DEC_CAP) return -1;
    if (s[D_K] == 2 && s[D_SITE] >= 0) {  /* a choice: one column, the value after its site */
        i64 mode = b.mode[b.nact * w + s[D_SITE]];
        for (i64 r = 0; r < n; r++) {
            if (!nm_value(&b, s, mode, 0, n, r, 1) || !nm_put(&b, "", 0)) return -1;
            b.o[b.n++] = 0;
        }
        return b.n;
    }
    for (i64 r0 = 0, r1; r0 < n; r0 = r1) {  /* a window: per run of one action */
        i64 ai = s[DOPT + DSTRIDE * r0];
        if (ai < 0 || ai >= b.nact) return -1;
        for (r1 = r0 + 1; r1 < n && s[DOPT + DSTRIDE * r1] == ai; r1++) {}
        const i64 *mode = b.mode + ai * w;
        for (i64 c = 0; c < w && mode[c]; c++)
            if (mode[c] == NM_PY) return -1;
        for (i64 r = r0; r < r1; r++) {
            if (!nm_text_put(&b, 2 * NCOMP + b.nsym + ai)) return -1;
            for (i64 c = 0; c < w && mode[c]; c++)
                if (!nm_put(&b, c ? "," : ":", 1) || !nm_value(&b, s, mode[c], r0, r1, r, 1 + c)) return -1;
            if (!nm_put(&b, "", 0)) return -1;
            b.o[b.n++] = 0;
        }
    }
    return b.n;
}

/* The options named by tb_step, keyed by their words (bridge.py keeps each one's ids by its entry
   number): `tab` (naming.py `Namer`, one a players' names) is NT_HEAD words, then NT_SLOTS words
   of open addressing (an entry's number + 1, 0: empty), NT_ENTRIES words where each entry's key
   starts in the arena, and NT_ARENA words of keys. A key is the decision's kind, site (-1 but at a
   choice), player, count and options' words: the same options, kind, site and player have the
   same ids. Full, the table starts again empty (its entries are named again as they come). */
enum { NT_USED, NT_ARENA_USED, NT_BYTES, NT_HEAD };
#define NT_SLOTS 8192
#define NT_ENTRIES 4096
#define NT_ARENA (1 << 18)
#define NT_WORDS (NT_HEAD + NT_SLOTS + NT_ENTRIES + NT_ARENA)
static i64 nt_key(const i64 *s, i64 *key) {  /* the pending decision's key words; their count */
    i64 n = s[D_N];
    key[0] = s[D_K]; key[1] = s[D_K] == 2 ? s[D_SITE] : -1; key[2] = s[D_P]; key[3] = n;
    return 4 + DSTRIDE * n;
}
static u64 nt_hash(const i64 *key, const i64 *opts, i64 n) {
    u64 h = 0x9E3779B97F4A7C15u;
    for (i64 i = 0; i < 4; i++) h = (h ^ (u64)key[i]) * 0xFF51AFD7ED558CCDu;
    for (i64 i = 0; i < n; i++) h = (h ^ (u64)opts[i]) * 0xFF51AFD7ED558CCDu;
    return h ^ (h >> 29);
}
/* The entry of the pending options (found, or added: *added), -1 when they are not named in C. */
static i64 nt_entry(const i64 *s, const i64 *ctx, i64 *tab, int *added) {
    i64 key[4], len = nt_key(s, key), nopt = len - 4;
    i64 *slots = tab + NT_HEAD, *start = slots + NT_SLOTS, *arena = start + NT_ENTRIES;
    const i64 *opts = s + DOPT;
    u64 i = nt_hash(key, opts, nopt) & (NT_SLOTS - 1);
    for (; slots[i]; i = (i + 1) & (NT_SLOTS - 1)) {
        const i64 *k = arena + start[slots[i] - 1];
        if (!memcmp(k, key, sizeof key) && !memcmp(k + 4, opts, sizeof(i64) * (size_t)nopt)) return slots[i] - 1;
    }
    i64 bytes = tb_ids(s, ctx);
    if (bytes <= 0) return -1;
    if (tab[NT_USED] >= NT_ENTRIES || tab[NT_ARENA_USED] + len > NT_ARENA) {
        if (len > NT_ARENA) return -1;
        memset(slots, 0, sizeof(i64) * NT_SLOTS);
        tab[NT_USED] = tab[NT_ARENA_USED] = 0;
        i = nt_hash(key, opts, nopt) & (NT_SLOTS - 1);
    }
    i64 e = tab[NT_USED]++;
    start[e] = tab[NT_ARENA_USED];
    memcpy(arena + start[e], key, sizeof key);
    memcpy(arena + start[e] + 4, opts, sizeof(i64) * (size_t)nopt);
    tab[NT_ARENA_USED] += len;
    slots[i] = e + 1;
    tab[NT_BYTES] = bytes;
    *added = 1;
    return e;
}
/* One step of the step path in one call: answer ctx[NM_K] on the words at ctx[NM_S] (tb_apply,
   with ctx[NM_BUDGET] and ctx[NM_BEFORE]; one argument: the bridge writes them into `ctx`, which
   ctypes converts quicker than four), then the next decision's options looked up in ctx[NM_TAB]
   and the words' generation written in ctx[NM_GEN]. Returns -code when the answer failed; 0 when the
   game is over or the options are not named here (Python names them); 2e + 1 when they are entry
   e, named before; 2e + 2 when they were named now as entry e (their ids in ctx[NM_OUT], the
   table's NT_BYTES bytes). */
i64 tb_step(i64 *ctx) {
    i64 *s = NM_AT(i64 *, NM_S);
    int code = tb_apply(s, ctx[NM_K], ctx[NM_BUDGET], NM_AT(i64 *, NM_BEFORE)), added = 0;
    if (code) return -(i64)code;
    ctx[NM_GEN] = s[T_GEN];
    if (s[D_K] == 0 || s[D_N] <= 0 || s[D_N] > DEC_CAP) return 0;
    i64 e = nt_entry(s, ctx, NM_AT(i64 *, NM_TAB), &added);
    return e < 0 ? 0 : 2 * e + 1 + added;
}
/* The words of tb_step's table (the bridge maps them). */
i64 tb_step_words(void) { return NT_WORDS; }
