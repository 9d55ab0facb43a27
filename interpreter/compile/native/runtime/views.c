/* views.c: what one player may know of a state, written from its words (Engine.view on the native
   backend: compile/native/views.py makes model/view.py's plain view from what this writes).

   A component is seen by the viewer when it was revealed to everyone (grant 1), shown to the viewer
   (bit viewer + 1 of its grant), lies out of play (location < 0), or lies in a zone instance whose
   visibility lets the viewer see it: `zseen[zone]`, one byte per zone instance, computed once per
   game and viewer by views.py from the zones' visibility words (a game with a `visible_to:`
   expression or a secret zone size does not come here).

   What the view holds of component size, and the vars, are written as one value in marshal's
   format (lists, numbers, texts, None and flags: codes every Python 3 reads alike, in a single
   call): a list of [loc, rv, zones, vars, mark 0, mark 1, ...], where `loc` has -1 for a component
   not seen, `rv` is each grant as the viewer knows it (1 everyone, 2 shown to the viewer, else 0),
   `zones` each zone instance's ids (-1 for one not seen: sizes stay public), `vars` each var's
   value in the game's order (a list of one per seat in play for a per-player var), and each mark's
   values are None where the component is not seen. How a value is written (`mode`, per mark; the
   fourth word of each var's in `vars`): VM_INT a number, VM_BOOL a flag, VM_SYM a symbol's text
   (marshalled once a view, then named by its reference: one text object however many hold it),
   VM_PLAYERS a list of seats (values.c pl_pack), each None for NONE, VM_WORD the word as it is
   (views.py decodes it: a place); VM_LIST added: a list var's items, VM_COMP added: a value naming a
   component not seen reads -1 (a mark or var holding components, as model/view.py `_scrub`).
   tb_view_setup gives the tables once (views.py keeps them alive while the library is); `out` has
   room for the longest view (views.py `room`), `refs` one word per symbol (the caller's, as `out`:
   a thread's own). */
enum { VM_INT = 0, VM_BOOL = 1, VM_SYM = 2, VM_PLAYERS = 3, VM_WORD = 4, VM_LIST = 8, VM_COMP = 16 };
typedef struct {
    const unsigned char *zseen;  /* per seat, NZONES bytes: its zone instances' components seen */
    i64 nmarks; const i64 *mode;  /* per mark its mode */
    i64 nvars; const i64 *vars;   /* per var: its first word, per player (1), words per seat, mode */
    i64 nsym; const i64 *symat; const unsigned char *sym;  /* each symbol's text, marshalled */
} ViewTables;
static ViewTables vw;

void tb_view_setup(const ViewTables *t) { vw = *t; }

static unsigned char *ms_u32(unsigned char *o, u64 u) {
    for (int k = 0; k < 4; k++) *o++ = (unsigned char)(u >> (8 * k));
    return o;
}

static unsigned char *ms_int(unsigned char *o, i64 v) {
    if (v >= INT32_MIN && v <= INT32_MAX) { *o++ = 'i'; return ms_u32(o, (u64)v); }
    u64 u = v < 0 ? (u64)(-(v + 1)) + 1 : (u64)v;  /* a long: its size in 15-bit digits, signed */
    i64 n = 0;
    for (u64 t = u; t; t >>= 15) n++;
    *o++ = 'l';
    o = ms_u32(o, (u64)(v < 0 ? -n : n));
    for (; u; u >>= 15) { *o++ = (unsigned char)(u & 0xff); *o++ = (unsigned char)((u >> 8) & 0x7f); }
    return o;
}

static unsigned char *ms_list(unsigned char *o, i64 n) { *o++ = '['; return ms_u32(o, (u64)n); }

typedef struct { i64 *refs, made; } Refs;  /* per symbol its reference + 1 (0: not written yet) */

/* One value of mode `mode` (VM_LIST aside); `seen`: the components the viewer sees. */
static unsigned char *ms_value(unsigned char *o, i64 v, i64 mode, const unsigned char *seen, Refs *r) {
    i64 kind = mode & 7;
    if (kind == VM_WORD) return ms_int(o, v);
    if (v == NONE) { *o++ = 'N'; return o; }
    if ((mode & VM_COMP) && v >= 0 && v < NCOMP && !seen[v]) v = -1;
    if (kind == VM_BOOL) { *o++ = v ? 'T' : 'F'; return o; }
    if (kind == VM_SYM && v >= 0 && v < vw.nsym) {
        if (r->refs[v]) { *o++ = 'r'; return ms_u32(o, (u64)(r->refs[v] - 1)); }
        r->refs[v] = ++r->made;  /* FLAG_REF on its first byte: kept as the next reference */
        memcpy(o, vw.sym + vw.symat[v], (size_t)(vw.symat[v + 1] - vw.symat[v]));
        *o |= 0x80;
        return o + (vw.symat[v + 1] - vw.symat[v]);
    }
    if (kind != VM_PLAYERS) return ms_int(o, v);
    i64 n = 0;
    for (u64 t = (u64)v; t; t >>= 4) n++;
    o = ms_list(o, n);
    for (u64 t = (u64)v; t; t >>= 4) o = ms_int(o, (i64)(t & 15) - 1);
    return o;
}

i64 tb_view(const i64 *s, i64 p, unsigned char *out, i64 *refs) {
    unsigned char seen[NCOMP + 1], *o = out;
    Refs r = {refs, 0};
    memset(refs, 0, sizeof(i64) * (size_t)vw.nsym);
    const unsigned char *zseen = vw.zseen + p * NZONES;
    o = ms_list(o, 4 + vw.nmarks);
    o = ms_list(o, NCOMP);
    for (i64 c = 0; c < NCOMP; c++) {
        i64 grant = s[RV + c], loc = s[LOC + c];
        seen[c] = grant == 1 || (grant && p < 62 && ((grant >> (p + 1)) & 1)) || loc < 0 ||
                  (loc < NZONES && zseen[loc]);
        o = ms_int(o, seen[c] ? loc : -1);
    }
    o = ms_list(o, NCOMP);
    for (i64 c = 0; c < NCOMP; c++) {
        i64 grant = s[RV + c];
        o = ms_int(o, grant == 1 ? 1 : (grant && p < 62 && ((grant >> (p + 1)) & 1)) ? 2 : 0);
    }
    o = ms_list(o, NZONES);
    for (i64 z = 0; z < NZONES; z++) {
        const i64 *ids = s + ZONE + z * NCOMP;
        i64 len = s[ZLEN + z] < 0 ? 0 : s[ZLEN + z] > NCOMP ? NCOMP : s[ZLEN + z];
        o = ms_list(o, len);
        for (i64 k = 0; k < len; k++) {
            i64 c = ids[k];
            o = ms_int(o, c >= 0 && c < NCOMP && !seen[c] ? -1 : c);
        }
    }
    o = ms_list(o, vw.nvars);
    for (i64 k = 0; k < vw.nvars; k++) {
        const i64 *var = vw.vars + 4 * k;
        i64 seats = !var[1] ? 1 : s[T_N] < 0 ? 0 : s[T_N] > MAXP ? MAXP : s[T_N], mode = var[3];
        if (var[1]) o = ms_list(o, seats);
        for (i64 j = 0; j < seats; j++) {
            const i64 *at = s + var[0] + j * var[2];
            if (!(mode & VM_LIST)) { o = ms_value(o, *at, mode, seen, &r); continue; }
            i64 len = at[0] < 0 ? 0 : at[0] > VCAP ? VCAP : at[0];
            o = ms_list(o, len);
            for (i64 i = 1; i <= len; i++) o = ms_value(o, at[i], mode, seen, &r);
        }
    }
    for (i64 m = 0; m < vw.nmarks; m++) {
        const i64 *vals = s + MARK + m * NCOMP;
        o = ms_list(o, NCOMP);
        for (i64 c = 0; c < NCOMP; c++) {
            if (seen[c]) o = ms_value(o, vals[c], vw.mode[m], seen, &r);
            else *o++ = 'N';
        }
    }
    return o - out;
}
