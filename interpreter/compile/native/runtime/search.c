/* search.c: a search tree walked in native code: IS-MCTS and UCT iterations, whole, in a game's library.

   After flow.c in every game's C file, so an iteration calls the same `apply_k`, `tb_deal`,
   `tb_playout`, `tb_score` and `tb_eval` the engine does; compile/native/tree.py drives it. One
   iteration is tools/bots/search.py's `_iterate` step for step: the world dealt from the bot's
   generator (or copied), selection down the tree by UCB1 over the availability counts, one child
   added at random among the untried moves, a random rollout of at most `depth` decisions, the
   evaluation's rewards backed up the path. Children are keyed by the choice id they stand for
   (`key`, from tables tree.py writes: an interned id, or a number with its prefix), so every
   world's options meet the same nodes as the Python tree's ids. An iteration that native code
   cannot finish (a rule's error, the work budget) is undone (its availability counts, its new
   node, the generator) and reported: the bot runs it again on Python. */
#include <stdlib.h>
#include <math.h>
#include <time.h>
enum { VC_NOPARAM, VC_COMP, VC_PLAYER, VC_NUM, VC_RAW, VC_BOOL, VC_SYM, VC_PLACE };
#define PLACE_KA (-((i64)1 << 40))  /* a placement's key: (PLACE_KA - prefix row, its word), tree.py */
enum { R_EVAL, R_SCORE };
#define TB_EXPLORE 0.7
#define TB_MAXTIE 32
typedef struct { i64 parent, ka, kb, player, visits, avail; double total; } TNode;
/* what tree.py passes (its ctypes Structure SearchArgs, field for field) */
typedef struct {
    i64 *world; const i64 *base; const i64 *plan; i64 ngroups; const i64 *naming; i64 nnaming;
    const i64 *rootseg; i64 *wroot;
    u64 *gen; i64 *before; i64 budget; i64 depth; i64 max_iter; double until;
    const i64 *act_cls; const i64 *act_cls2; const i64 *act_full; i64 nact; const i64 *site_cls; i64 nsite;
    const i64 *full; i64 nval; const i64 *comp_name; const i64 *comp_key;
    const i64 *player_val; i64 nnamed; const i64 *sym_val; i64 nsym; i64 v_none, v_true, v_false;
    i64 reward; double scale; i64 cooperative; i64 lowest; i64 ntie; i64 nplayers;
    i64 done;
} SA;
typedef struct {
    TNode *n; i64 count, cap;
    i64 *hash; u64 hmask;            /* open addressing: node index + 1, 0 empty */
    i64 *log, nlog, logcap;          /* the nodes whose availability this iteration raised */
    i64 *path, pathcap;              /* this iteration's nodes */
    i64 *seen, *seen_c, *dup, stamp, nval;
    i64 *seg;                        /* the first state of the segment under way (t_step) */
    i64 *saved;                      /* one-ply greedy's dealt world outside an effect (tb_greedy_world) */
    i64 ka[DEC_CAP], kb[DEC_CAP], child[DEC_CAP], untried[DEC_CAP];
} Tree;

static inline u64 t_hash(i64 parent, i64 ka, i64 kb) {
    u64 h = (u64)parent * 0x9E3779B97F4A7C15ull ^ (u64)ka * 0xC2B2AE3D27D4EB4Full;
    h ^= (u64)kb * 0x165667B19E3779F9ull;
    h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
    return h;
}
static i64 t_find(const Tree *t, i64 parent, i64 ka, i64 kb) {
    u64 i = t_hash(parent, ka, kb) & t->hmask;
    for (;;) {
        i64 e = t->hash[i];
        if (!e) return -1;
        const TNode *n = &t->n[e - 1];
        if (n->parent == parent && n->ka == ka && n->kb == kb) return e - 1;
        i = (i + 1) & t->hmask;
    }
}
static void t_hash_put(Tree *t, i64 idx) {
    const TNode *n = &t->n[idx];
    u64 i = t_hash(n->parent, n->ka, n->kb) & t->hmask;
    while (t->hash[i]) i = (i + 1) & t->hmask;
    t->hash[i] = idx + 1;
}
static void t_hash_drop(Tree *t, i64 idx) {  /* the last node put: no later probe passes its slot */
    const TNode *n = &t->n[idx];
    u64 i = t_hash(n->parent, n->ka, n->kb) & t->hmask;
    while (t->hash[i] != idx + 1) i = (i + 1) & t->hmask;
    t->hash[i] = 0;
}
static int t_grow(void **p, i64 *cap, i64 need, size_t size) {
    if (need <= *cap) return 0;
    i64 c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q) return E_SIZE;
    *p = q; *cap = c;
    return 0;
}
static int t_new(Tree *t, i64 parent, i64 ka, i64 kb, i64 player) {  /* -1: no memory */
    if (t->count + 1 > t->cap) {
        i64 cap = t->cap, hcap = 2 * (t->hmask + 1);
        if (t_grow((void **)&t->n, &cap, t->count + 1, sizeof(TNode))) return -1;
        t->cap = cap;
        while ((i64)hcap < 2 * cap) hcap *= 2;
        i64 *h = calloc((size_t)hcap, 8);
        if (!h) return -1;
        free(t->hash); t->hash = h; t->hmask = (u64)hcap - 1;
        for (i64 i = 0; i < t->count; i++) t_hash_put(t, i);
    }
    i64 idx = t->count++;
    TNode *n = &t->n[idx];
    n->parent = parent; n->ka = ka; n->kb = kb; n->player = player;
    n->visits = 0; n->avail = 1; n->total = 0.0;
    t_hash_put(t, idx);
    return idx;
}
void tb_tree_free(void *tree) {
    Tree *t = tree;
    if (!t) return;
    free(t->n); free(t->hash); free(t->log); free(t->path);
    free(t->seen); free(t->seen_c); free(t->dup); free(t->seg); free(t->saved); free(t);
}
void *tb_tree_new(i64 nval) {
    Tree *t = calloc(1, sizeof(Tree));
    if (!t) return 0;
    t->hash = calloc(128, 8); t->hmask = 127;
    t->nval = nval;
    t->seen = calloc((size_t)(nval + 1), 8); t->seen_c = calloc((size_t)(nval + 1), 8);
    t->dup = calloc((size_t)(nval + 1), 8);
    t->seg = malloc(sizeof(i64) * KEEP_WORDS);
    if (!t->hash || !t->seen || !t->seen_c || !t->dup || !t->seg || t_new(t, -1, -1, 0, -1)) {
        tb_tree_free(t);
        return 0;
    }
    t->n[0].avail = 0;
    return t;
}
i64 tb_tree_size(void *tree) { return ((Tree *)tree)->count; }
/* node k's parent, key (two words), player and visits, then availability, into `out` (6 words a
   node) and its total reward into `totals` */
void tb_tree_export(void *tree, i64 *out, double *totals) {
    Tree *t = tree;
    for (i64 k = 0; k < t->count; k++) {
        const TNode *n = &t->n[k];
        i64 *o = out + 6 * k;
        o[0] = n->parent; o[1] = n->ka; o[2] = n->kb; o[3] = n->player; o[4] = n->visits; o[5] = n->avail;
        totals[k] = n->total;
    }
}

/* The value id of one option's value (Naming's table: a component by its name, or by its unique
   key where another of that name is offered), or -1 for a number (its id is the number itself). */
static int t_val(const SA *a, i64 cls, i64 v, int usekey, i64 *s) {
    switch (cls) {
    case VC_COMP:
        if (v == NONE) { *s = a->v_none; return 0; }
        if (v < 0 || v >= NCOMP) return E_KIND;
        *s = usekey ? a->comp_key[v] : a->comp_name[v];
        return 0;
    case VC_PLAYER:
        if (v == NONE) { *s = a->v_none; return 0; }
        *s = v >= 0 && v < a->nnamed ? a->player_val[v] : -1;
        return 0;
    case VC_NUM:
        *s = v == NONE ? a->v_none : -1;
        return 0;
    case VC_RAW:
        *s = -1;
        return 0;
    case VC_PLACE:
        *s = v == NONE ? a->v_none : -1;
        return 0;
    case VC_BOOL:
        *s = v == NONE ? a->v_none : v ? a->v_true : a->v_false;
        return 0;
    case VC_SYM:
        if (v == NONE) { *s = a->v_none; return 0; }
        if (v < 0 || v >= a->nsym) return E_KIND;
        *s = a->sym_val[v];
        return 0;
    default:
        return E_KIND;
    }
}
/* The key of one option: its id's interned number, or (-1 - prefix row, the number) for an id
   that is a number. `usekey`: a component read by its unique key (another of its name offered). */
static int t_key(const SA *a, i64 row, i64 cls, i64 v, int usekey, i64 *ka, i64 *kb) {
    i64 s;
    int code = t_val(a, cls, v, usekey, &s);
    if (code) return code;
    if (s < 0) { *ka = cls == VC_PLACE ? PLACE_KA - row : -1 - row; *kb = v; return 0; }
    *ka = a->full[row * a->nval + s]; *kb = 0;
    return 0;
}
/* Which components of a column of options (`col` words into each) need their unique key: those of
   a name another component of the column has (model/choices.py option_ids); the stamp marks them. */
static void t_dups(Tree *t, const SA *a, const i64 *w, i64 k, i64 j, i64 col) {
    t->stamp += 1;
    for (i64 i = k; i < j; i++) {
        i64 v = w[DOPT + DSTRIDE * i + col], nm;
        if (v == NONE || v < 0 || v >= NCOMP) continue;
        nm = a->comp_name[v];
        if (t->seen[nm] != t->stamp) { t->seen[nm] = t->stamp; t->seen_c[nm] = v; }
        else if (t->seen_c[nm] != v) t->dup[nm] = t->stamp;
    }
}
/* The keys of the pending options (model/choices.py option_ids: per run of one action, or the
   whole list of a choice; a component by its name unless another of that name is offered). */
static int t_keys(Tree *t, const SA *a, const i64 *w) {
    i64 n = w[D_N], dk = w[D_K], k = 0, i, j, id, row, cls, v, nm;
    int code;
    while (k < n) {
        id = w[DOPT + DSTRIDE * k]; j = k;
        if (dk == 2 && w[D_SITE] >= 0) {  /* a choice (a window inside a block: its site < 0) */
            if (id < 0 || id >= a->nsite) return E_KIND;
            row = 0; cls = a->site_cls[id]; j = n;
        } else {
            if (id < 0 || id >= a->nact) return E_KIND;
            row = 1 + id; cls = a->act_cls[id];
            while (j < n && w[DOPT + DSTRIDE * j] == id) j++;
        }
        if (cls == VC_NOPARAM) {
            for (i = k; i < j; i++) { t->ka[i] = a->act_full[id]; t->kb[i] = 0; }
            k = j;
            continue;
        }
        if (cls == VC_COMP) t_dups(t, a, w, k, j, 1);
        for (i = k; i < j; i++) {
            v = w[DOPT + DSTRIDE * i + 1];
            if (cls == VC_COMP && v != NONE && (v < 0 || v >= NCOMP)) return E_KIND;
            int usekey = cls == VC_COMP && v != NONE && t->dup[a->comp_name[v]] == t->stamp;
            if ((code = t_key(a, row, cls, v, usekey, &t->ka[i], &t->kb[i])) != 0) return code;
        }
        cls = dk == 2 && w[D_SITE] >= 0 ? -1 : a->act_cls2[id];
        if (cls >= 0) {  /* a second parameter: its value id + 1 (Naming.id_of joins it with a comma),
                            a number itself (NONE: none) */
            if (cls == VC_COMP) t_dups(t, a, w, k, j, 2);
            for (i = k; i < j; i++) {
                v = w[DOPT + DSTRIDE * i + 2];
                if (t->ka[i] < 0) return E_KIND;  /* the first value a number: Naming refuses it */
                if (cls == VC_NUM) { t->kb[i] = v; continue; }
                if (cls == VC_COMP && v != NONE && (v < 0 || v >= NCOMP)) return E_KIND;
                int usekey = cls == VC_COMP && v != NONE && t->dup[a->comp_name[v]] == t->stamp;
                if ((code = t_val(a, cls, v, usekey, &nm)) != 0) return code;
                if (nm < 0) return E_KIND;  /* Naming refuses numbers there */
                t->kb[i] = 1 + nm;
            }
        }
        k = j;
    }
    return 0;
}
static double t_keep(double v) { volatile double x = v; return x; }  /* no fused multiply-add */
static double t_ucb(const TNode *c) {  /* search.py Node.ucb with the availability as parent visits */
    double mean = c->total / (double)c->visits;
    double pv = (double)(c->avail > 1 ? c->avail : 1);
    double explore = t_keep(TB_EXPLORE * sqrt(log(pv) / (double)c->visits));
    return mean + explore;
}
/* evaluation.py Evaluation.rewards: exact once the game is over, else tanh of the margin */
static int t_rewards(const SA *a, i64 *w, double *r) {
    i64 n = a->nplayers, out[TB_MAXTIE + 1], keys[MAXP][TB_MAXTIE + 1], ev[MAXP];
    double vals[MAXP], sign = a->lowest ? -1.0 : 1.0;
    int term = w[D_K] == 0, code;
    if (term && !a->cooperative) {
        i64 best = -1, nwin = 0;
        for (i64 p = 0; p < n; p++) {
            if ((code = tb_score(w, p, out)) != 0) return code;
            keys[p][0] = a->lowest ? -out[0] : out[0];
            for (i64 k = 1; k <= a->ntie; k++) keys[p][k] = out[k];
        }
        for (i64 p = 0; p < n; p++) {
            int cmp = 0;
            if (best >= 0)
                for (i64 k = 0; k <= a->ntie && !cmp; k++)
                    cmp = keys[p][k] > keys[best][k] ? 1 : keys[p][k] < keys[best][k] ? -1 : 0;
            if (best < 0 || cmp > 0) { best = p; nwin = 1; }
            else if (cmp == 0) nwin += 1;
        }
        for (i64 p = 0; p < n; p++) {
            int same = 1;
            for (i64 k = 0; k <= a->ntie && same; k++) same = keys[p][k] == keys[best][k];
            r[p] = same ? 1.0 / (double)nwin : 0.0;
        }
        return 0;
    }
    if (term || a->reward == R_SCORE) {
        for (i64 p = 0; p < n; p++) {
            if ((code = tb_score(w, p, out)) != 0) return code;
            vals[p] = sign * (double)out[0];
        }
    } else {
        if ((code = tb_eval(w, n, ev)) != 0) return code;
        for (i64 p = 0; p < n; p++) vals[p] = (double)ev[p];
    }
    for (i64 p = 0; p < n; p++) {
        double margin = vals[p];
        if (!a->cooperative) {
            double other = 0.0;
            int any = 0;
            for (i64 q = 0; q < n; q++)
                if (q != p && (!any || vals[q] > other)) { other = vals[q]; any = 1; }
            margin = vals[p] - other;
        }
        r[p] = 0.5 + t_keep(0.5 * tanh(margin / a->scale));
    }
    return 0;
}
static void t_copy_main(i64 *dst, const i64 *src) { copy_read(dst, src); }
static void t_copy(i64 *dst, const i64 *src) { copy_keep(dst, src); }
/* apply_k without SNAP: a window's answer keeps the segment's first state in `seg` by t_copy_main
   (`keep`: only where the segment may stop at a choice), and a choice's answer replays the segment
   from it, the answers queued (apply_k copies all MAIN_WORDS into SNAP and back). */
#define T_CUT 2  /* t_step's `keep` in a rollout: stopped at a choice, the words are only evaluated */
static int t_step(i64 *seg, const SA *a, i64 k, u64 *gen, i64 *done, i64 max, int keep) {
    X xx, *x = &xx;
    int code;
    i64 ai = -1, arg = NONE, arg2 = NONE, p = NONE;
    init_x(x, a->world, a->budget, gen, done, max);
    x->nosnap = keep == T_CUT ? 2 : !keep; x->seg = seg; x->world = a->rootseg ? a->wroot : 0;
    if ((code = setjmp(x->jb)) != 0) return code;
    if (S[D_K] == 0 || k < 0 || k >= S[D_N]) return E_ILLEGAL;
    if (S[D_K] == 1) {
        if (keep == 1) t_copy_main(seg, S);
        S[Q_LEN] = 0; S[Q_START] = 0; S[Q_DEAL] = 0;
    }
    if (S[Q_LEN] >= QCAP) return E_SIZE;
    S[QUEUE + S[Q_LEN]] = k; S[Q_LEN] += 1;
    if (S[D_K] == 2) t_copy_main(S, seg);
    S[Q_POS] = 0;
    if (setjmp(x->susp)) return 0;
    S[T_BUDGET] = a->budget;
    if (!S[Q_START]) first_answer(x, &ai, &p, &arg, &arg2);
    run(x, ai, p, arg, arg2);  /* as apply_k: the action runs inside run(), whose end point it may reach */
    S[Q_LEN] = 0; S[Q_POS] = 0; S[Q_START] = 0; S[Q_DEAL] = 0;
    return 0;
}
/* The iteration's world: copied, then dealt. At a decision inside an effect (`rootseg`: the true
   segment's first state) the dealt words are kept apart (`wroot`): a step replays the true segment
   up to the decision, where they replace the words (segments.c `answer`, Q_DEAL), so that the
   effect under way goes on, in the dealt world, from where it stands. */
static void t_world(Tree *t, const SA *a, u64 *gen) {
    i64 *w = a->rootseg ? a->wroot : a->world;
    t_copy(w, a->base);
    if (a->plan) tb_deal(w, gen, a->plan, a->ngroups, a->naming, a->nnaming);
    if (a->rootseg) { t_copy(a->world, w); copy_read(t->seg, a->rootseg); }
}
/* The rollout: tb_playout's random answers (t_step: a choice the tree stopped at is answered from
   `seg`), for at most `depth` decisions. Where the limit falls inside a segment the words stop at
   that choice as they stand (T_CUT): the rewards read them, nothing answers it, so its segment's
   first state is not needed (tb_playout replays the segment to keep it). An error is only
   reported (the iteration is undone). */
static int t_playout(Tree *t, const SA *a, i64 *done) {
    i64 *s = a->world, k;
    int code;
    done[0] = 0;
    while (done[0] < a->depth && s[D_K] != 0) {
        k = below(a->gen, s[D_N]);
        done[0] += 1;
        if ((code = t_step(t->seg, a, k, a->gen, done, a->depth, T_CUT)) != 0) return code;
    }
    return 0;
}
static int t_iterate(Tree *t, const SA *a) {
    i64 *w = a->world, node = 0, npath = 0, created = -1, done = 0, n, nu, k, c;
    u64 g0 = a->gen[0], g1 = a->gen[1];
    int code = 0;
    double r[MAXP];
    t_world(t, a, a->gen);
    t->nlog = 0;
    if ((code = t_grow((void **)&t->path, &t->pathcap, npath + 1, 8)) != 0) goto undo;
    t->path[npath++] = 0;
    while (w[D_K] != 0) {
        n = w[D_N]; nu = 0;
        if ((code = t_keys(t, a, w)) != 0) goto undo;
        if ((code = t_grow((void **)&t->log, &t->logcap, t->nlog + n, 8)) != 0) goto undo;
        for (k = 0; k < n; k++) {
            c = t_find(t, node, t->ka[k], t->kb[k]);
            t->child[k] = c;
            if (c < 0) t->untried[nu++] = k;
        }
        for (k = 0; k < n; k++)
            if (t->child[k] >= 0) { t->n[t->child[k]].avail += 1; t->log[t->nlog++] = t->child[k]; }
        if (nu) {  /* expansion: an untried move at random, at its first place among the options */
            i64 pick = t->untried[below(a->gen, nu)];
            for (k = 0; t->ka[k] != t->ka[pick] || t->kb[k] != t->kb[pick]; k++) {}
            if ((created = t_new(t, node, t->ka[k], t->kb[k], w[D_P])) < 0) { code = E_SIZE; goto undo; }
            node = created;
        } else {  /* selection: the first best UCB */
            double best = 0.0, u;
            i64 at = -1;
            for (i64 j = 0; j < n; j++) {
                u = t_ucb(&t->n[t->child[j]]);
                if (at < 0 || u > best) { best = u; at = j; }
            }
            k = at; node = t->child[at];
        }
        if ((code = t_grow((void **)&t->path, &t->pathcap, npath + 1, 8)) != 0) goto undo;
        if ((code = t_step(t->seg, a, k, 0, 0, 0, 1)) != 0) goto undo;
        t->path[npath++] = node;
        if (created >= 0) break;
    }
    if ((code = t_playout(t, a, &done)) != 0) goto undo;
    if ((code = t_rewards(a, w, r)) != 0) goto undo;
    for (i64 j = 0; j < npath; j++) {
        TNode *x = &t->n[t->path[j]];
        x->visits += 1;
        if (x->player >= 0) x->total += r[x->player];
    }
    return 0;
undo:
    for (i64 j = 0; j < t->nlog; j++) t->n[t->log[j]].avail -= 1;
    if (created >= 0) { t_hash_drop(t, created); t->count -= 1; }
    a->gen[0] = g0; a->gen[1] = g1;
    return code;
}
static double t_now(void) {  /* time.perf_counter's clock */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
/* Iterations until `max_iter` were run or, after one, the clock passed `until` (0: no clock);
   `done` counts them. Nonzero: the error that stopped the iteration after them (undone). */
int tb_search(void *tree, SA *a) {
    int code;
    a->done = 0;
    while (a->done < a->max_iter) {
        if ((code = t_iterate(tree, a)) != 0) return code;
        a->done += 1;
        if (a->until > 0 && t_now() >= a->until) break;
    }
    return 0;
}

/* One-ply greedy's children (tools/bots/native_greedy.py): the world dealt once from `a->gen` as an
   iteration's is (t_world), then each option applied to it afresh. At a decision inside an effect
   the dealt words stay in `wroot` and each child replays the true segment from its first state; else
   the dealt world is kept in `saved`. Nonzero: no memory. */
int tb_greedy_world(void *tree, SA *a) {
    Tree *t = tree;
    t_world(t, a, a->gen);
    if (a->rootseg) return 0;
    if (!t->saved && !(t->saved = malloc(sizeof(i64) * KEEP_WORDS))) return E_SIZE;
    t_copy(t->saved, a->world);
    return 0;
}
/* The dealt world with option `k` applied, in `a->world`. With `seat` >= 0 it goes on as greedy's
   tie-break does (simple.py `_continued`): random answers drawn from `draws` until `seat` decides
   again after another player has, or the game ends, or `limit` were drawn; `made` counts the
   decisions taken (the option included). Nonzero: the error that stopped it (the bot then plays the
   decision on Python, which reports it or goes on exactly as it does). */
int tb_greedy_child(void *tree, SA *a, i64 k, i64 seat, i64 limit, u64 *draws, i64 *made) {
    Tree *t = tree;
    i64 *w = a->world, j, who;
    int code, others = 0;
    if (a->rootseg) { t_copy(w, a->wroot); copy_read(t->seg, a->rootseg); }
    else t_copy(w, t->saved);
    *made = 1;
    if ((code = t_step(t->seg, a, k, 0, 0, 0, 1)) != 0) return code;
    while (seat >= 0 && w[D_K] != 0 && *made <= limit) {
        who = w[D_P];
        if (who == seat && others) break;
        others |= who != seat;
        j = below(draws, w[D_N]);
        *made += 1;
        if ((code = t_step(t->seg, a, j, 0, 0, 0, 1)) != 0) return code;
    }
    return 0;
}
