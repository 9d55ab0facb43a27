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
enum { RL_OK = 0, RL_OVER = 1, RL_FAILED = 3, RL_UNINDEXED = 4 };

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

/* Row i after a step or a reset: the player to move, their observation and mask, and a status. */
static void rl_row(i64 **S, i64 i, const i64 *T, float *obs, signed char *mask, i64 msize, i64 *player,
                   i64 *status) {
    const i64 *w = S[i];
    float *o = obs + i * RL_OBS_SIZE;
    if (w[D_K] == 0) {
        player[i] = -1;
        status[i] = RL_OVER;
        return;
    }
    player[i] = w[D_P];
    rl_observe_one(w, w[D_P], o);
    status[i] = rl_mask_one(w, T, mask + i * msize, msize);
}

/* Every row of the batch (states NULL are left to Python). */
void rl_observe(i64 **S, i64 n, const i64 *T, float *obs, signed char *mask, i64 msize, i64 *player,
                i64 *status) {
    for (i64 i = 0; i < n; i++)
        if (S[i]) rl_row(S, i, T, obs, mask, msize, player, status);
}

/* Which option each action stands for (chosen[i]; -1 for a state that is NULL). Returns -1, or
   the first state whose action is not legal or whose options have no index (nothing applied). */
i64 rl_choose(i64 **S, i64 n, const i64 *T, const i64 *act, i64 *chosen) {
    for (i64 i = 0; i < n; i++) {
        chosen[i] = -1;
        if (!S[i]) continue;
        i64 m = rl_legal(S[i], T);
        for (i64 k = 0; k < m; k++)
            if (rl_idx[k] == act[i]) { chosen[i] = k; break; }
        if (chosen[i] < 0) return i;
    }
    return -1;
}

/* Apply chosen[i] to every state from `from` on, then write its row. Returns n, or the first
   state where native code stopped (status RL_FAILED, code[i] its error): `before` then holds that
   state as it was, and Python replays the decision (Engine's own fallback), then calls again. */
i64 rl_step(i64 **S, i64 n, i64 from, const i64 *chosen, const i64 *T, void *apply, i64 budget,
            i64 *before, float *obs, signed char *mask, i64 msize, i64 *player, i64 *status, i64 *code) {
    rl_apply_fn f = (rl_apply_fn)apply;
    for (i64 i = from; i < n; i++) {
        if (!S[i]) continue;
        int c = f(S[i], chosen[i], budget, before);
        if (c) {
            status[i] = RL_FAILED;
            code[i] = c;
            return i;
        }
        rl_row(S, i, T, obs, mask, msize, player, status);
    }
    return n;
}
