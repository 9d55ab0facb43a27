/* batch.c: the legal-action mask and batched steps of the RL adapters, in C (tools/rl/batch.py).

   Pasted after a game's layout (`#define`s of compile/native/slots.py) and its `rl_obs`
   (tools/rl/native_obs.py), then compiled into a small library of its own; the game's rules stay in
   the game's native library, whose `tb_apply` is passed in as a function pointer.

   The mask numbers each option of the pending decision by the stable action index (tools/rl/
   actions.py) from the table T that batch.py writes for one game, player names and number range:
     T[0] = A (actions), T[1 + ai] = where action ai's spec starts, T[1 + A] = choose sites,
     T[2 + A + site] = where that site's spec starts;
     a spec: block offset, parameters, then per parameter its radix and where its value table starts;
     a value table: kind (0 component, 1 any other word, -1 none indexable), the slot of none,
     the first word, how many words follow, then the slot of each (-1: no index). A component
     table holds 2 * NCOMP slots (its bare name, then its key) and then NCOMP name numbers: within
     one column a component reads as its key when another component of its name is offered there,
     as model/choices.py option_ids names it. A choose site's table holds whole indices. */
typedef int (*rl_apply_fn)(i64 *, i64, i64, i64 *);
typedef int (*rl_nocopy_fn)(i64 *, i64, i64);
enum { RL_OK = 0, RL_OVER = 1, RL_FAILED = 3, RL_UNINDEXED = 4, E_ILLEGAL_RL = 1, RL_E_LIMIT = 12 };

static i64 rl_idx[DEC_CAP > 0 ? DEC_CAP : 1];
static i64 rl_first[NCOMP > 0 ? NCOMP : 1];
static unsigned char rl_dup[NCOMP > 0 ? NCOMP : 1];

/* The stable index of each option of the pending decision into rl_idx: their number, or -1 when
   one has no index (batch.py then names them on Python, which says why). */
static i64 rl_legal(const i64 *w, const i64 *T) {
    i64 dk = w[D_K], n = w[D_N], A = T[0];
    if (!dk) return 0;
    int choose = dk == 2 && w[D_SITE] >= 0;
    for (i64 k = 0; k < n;) {
        i64 ai = w[DOPT + DSTRIDE * k], j = k + 1;
        if (choose) j = n;
        else while (j < n && w[DOPT + DSTRIDE * j] == ai) j++;
        const i64 *spec = T + (choose ? T[2 + A + w[D_SITE]] : T[1 + ai]);
        i64 np = spec[1], mult = 1;
        for (i64 r = k; r < j; r++) rl_idx[r] = spec[0];
        for (i64 pj = np - 1; pj >= 0; pj--) {
            const i64 *tb = T + spec[3 + 2 * pj];
            i64 kind = tb[0], none = tb[1], lo = tb[2], count = tb[3];
            const i64 *slots = tb + 4;
            if (kind < 0) return -1;
            if (kind == 0) {  /* a component column: which names two components share */
                const i64 *name = slots + 2 * NCOMP;
                for (i64 r = k; r < j; r++) {
                    i64 x = w[DOPT + DSTRIDE * r + 1 + pj];
                    if (x >= 0 && x < NCOMP) { rl_first[name[x]] = -1; rl_dup[name[x]] = 0; }
                }
                for (i64 r = k; r < j; r++) {
                    i64 x = w[DOPT + DSTRIDE * r + 1 + pj];
                    if (x < 0 || x >= NCOMP) continue;
                    i64 nm = name[x];
                    if (rl_first[nm] < 0) rl_first[nm] = x;
                    else if (rl_first[nm] != x) rl_dup[nm] = 1;
                }
            }
            for (i64 r = k; r < j; r++) {
                i64 x = w[DOPT + DSTRIDE * r + 1 + pj], d;
                if (x == NONE) d = none;
                else if (kind == 0) d = (x >= 0 && x < NCOMP) ? slots[rl_dup[slots[2 * NCOMP + x]] ? NCOMP + x : x] : -1;
                else d = (x >= lo && x - lo < count) ? slots[x - lo] : -1;
                if (d < 0) return -1;
                rl_idx[r] += d * mult;
            }
            mult *= spec[2 + 2 * pj];
        }
        k = j;
    }
    return n;
}

/* One state's observation for seat v (o: RL_OBS_SIZE floats, zeroed here). */
void rl_observe_one(const i64 *w, i64 v, float *o) {
    memset(o, 0, sizeof(float) * RL_OBS_SIZE);
    rl_obs(w, v, o);
}

/* One state's mask (m: `size` bytes, zeroed here): 0, or RL_UNINDEXED. */
int rl_mask_one(const i64 *w, const i64 *T, signed char *m, i64 size) {
    memset(m, 0, (size_t)size);
    i64 n = rl_legal(w, T);
    if (n < 0) return RL_UNINDEXED;
    for (i64 k = 0; k < n; k++) m[rl_idx[k]] = 1;
    return RL_OK;
}

/* Row i after a step or a reset: the player to move, their observation and mask, and a status
   (`clear`: the mask row is zeroed first, else it is zero already). */
static void rl_row(i64 **S, i64 i, const i64 *T, float *obs, signed char *mask, i64 msize, i64 *player,
                   i64 *status, int clear) {
    const i64 *w = S[i];
    signed char *m = mask + i * msize;
    if (clear) memset(m, 0, (size_t)msize);
    if (w[D_K] == 0) {
        player[i] = -1;
        status[i] = RL_OVER;
        return;
    }
    player[i] = w[D_P];
    rl_observe_one(w, w[D_P], obs + i * RL_OBS_SIZE);
    i64 n = rl_legal(w, T);
    if (n < 0) { status[i] = RL_UNINDEXED; return; }
    for (i64 k = 0; k < n; k++) m[rl_idx[k]] = 1;
    status[i] = RL_OK;
}

/* Every row of the batch (states NULL are left to Python). */
void rl_observe(i64 **S, i64 n, const i64 *T, float *obs, signed char *mask, i64 msize, i64 *player,
                i64 *status) {
    for (i64 i = 0; i < n; i++)
        if (S[i]) rl_row(S, i, T, obs, mask, msize, player, status, 1);
}

/* The words a state's game is in, compactly (what lies past a zone's or the options' length is
   never read): the words before the zones, each zone's components, the options, the queue. */
static i64 rl_saved[KEEP_WORDS];
static void rl_save(const i64 *w) {
    i64 at = ZONE;
    memcpy(rl_saved, w, sizeof(i64) * ZONE);
    for (i64 z = 0; z < NZONES; z++) {
        memcpy(rl_saved + at, w + ZONE + z * NCOMP, sizeof(i64) * (size_t)w[ZLEN + z]);
        at += w[ZLEN + z];
    }
    memcpy(rl_saved + at, w + DOPT, sizeof(i64) * (size_t)(w[D_N] * DSTRIDE));
    at += w[D_N] * DSTRIDE;
    memcpy(rl_saved + at, w + Q_LEN, sizeof(i64) * (size_t)(QUEUE - Q_LEN + w[Q_LEN]));
}
static void rl_load(i64 *w) {
    memcpy(w, rl_saved, sizeof(i64) * ZONE);
    i64 at = ZONE;
    for (i64 z = 0; z < NZONES; z++) {
        memcpy(w + ZONE + z * NCOMP, rl_saved + at, sizeof(i64) * (size_t)w[ZLEN + z]);
        at += w[ZLEN + z];
    }
    memcpy(w + DOPT, rl_saved + at, sizeof(i64) * (size_t)(w[D_N] * DSTRIDE));
    at += w[D_N] * DSTRIDE;
    memcpy(w + Q_LEN, rl_saved + at, sizeof(i64) * (size_t)(QUEUE - Q_LEN));
    memcpy(w + QUEUE, rl_saved + at + QUEUE - Q_LEN, sizeof(i64) * (size_t)w[Q_LEN]);
}
/* Answer option k without tb_apply's copy of the whole state (`before`, KEEP_WORDS): the compact
   copy above is kept instead, and put back, with `before` written from it, only on an error (a
   failing segment leaves SNAP, the first state of a segment stopped at a choice, as it was). At a
   window, `nocopy` (the game's tb_apply_nocopy) does not copy the state into SNAP either; it is
   used while few windows lead to a choice (E_LIMIT: the window answered again through tb_apply). */
static i64 rl_windows, rl_limits;
static int rl_apply(i64 *w, i64 k, rl_apply_fn f, rl_nocopy_fn nocopy, i64 budget, i64 *before) {
    rl_save(w);
    int c;
    if (nocopy && w[D_K] == 1 && rl_limits * 4 <= rl_windows + 16) {
        rl_windows++;
        c = nocopy(w, k, budget);
        if (!c) return 0;
        rl_load(w);
        if (c == RL_E_LIMIT) rl_limits++;
        else {
            memcpy(before, w, sizeof(i64) * KEEP_WORDS);
            return c;
        }
    }
    c = f(w, k, budget, 0);
    if (c) {
        rl_load(w);
        memcpy(before, w, sizeof(i64) * KEEP_WORDS);
    }
    return c;
}

/* Apply act[i] (a legal index: the caller checked the mask) to every state from `from` on, then
   write its row; its mask row held the options of the state before (only they are cleared).
   Returns n, or the first state where native code stopped (status RL_FAILED, code[i] the error,
   chosen[i] the option): `before` then holds that state as it was, and Python replays the
   decision (the engine's own fallback), then calls again from the next state. */
i64 rl_step(i64 **S, i64 n, i64 from, const i64 *act, i64 *chosen, const i64 *T, void *apply, void *nocopy,
            i64 budget, i64 *before, float *obs, signed char *mask, i64 msize, i64 *player, i64 *status, i64 *code) {
    rl_apply_fn f = (rl_apply_fn)apply;
    for (i64 i = from; i < n; i++) {
        if (!S[i]) continue;
        signed char *m = mask + i * msize;
        i64 opts = rl_legal(S[i], T), k = -1;
        for (i64 j = 0; j < opts; j++) {
            if (rl_idx[j] == act[i]) k = j;
            m[rl_idx[j]] = 0;
        }
        chosen[i] = k;
        int c = k < 0 ? E_ILLEGAL_RL : rl_apply(S[i], k, f, (rl_nocopy_fn)nocopy, budget, before);
        if (c) {
            status[i] = RL_FAILED;
            code[i] = c;
            return i;
        }
        rl_row(S, i, T, obs, mask, msize, player, status, opts < 0);
    }
    return n;
}
