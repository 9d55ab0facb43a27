/* tabula.h: the words and errors every game's C file starts with (the native backend's runtime).

   A game's translation unit (compile/native/emit/units.py) is this header, the game's layout
   (`#define`s of slots.py: T_*, D_*, Q_*, ZONE, LOC, RV, NCOMP, ...) and constant tables, values.c,
   lists.c, segments.c, the boards' files when the game has boards (boards.h, boards.c, paths.c),
   the game's generated parts (`g_*`, emit/cgen.py), then flow.c and search.c. These files are the
   fixed part, the same for every game; they are pasted into the unit (emit/prelude.py reads them).
   A failure anywhere (a check, the budget) jumps back to the entry point with an error number; the
   bridge then replays the decision on the Python backend, which reports it at its rule
   (docs/ARCHITECTURE.md, "Native backend"). */
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <stdlib.h>
#include <ucontext.h>
#include <sys/mman.h>
typedef int64_t i64;
typedef uint64_t u64;
#define NONE INT64_MIN
enum { E_ILLEGAL = 1, E_BUDGET = 2, E_SIZE = 3, E_KIND = 4, E_ENTRY = 5, E_DIV = 6, E_FLOW = 8,
       E_WRITE = 9, E_STORE = 10, E_EMPTY = 11, E_LIMIT = 12, E_DEPTH = 13 };
enum { ST_SETUP, ST_ROUND_START, ST_ROUND_FIRST, ST_PRE_TURN, ST_PHASE, ST_POST_TURN, ST_ROUND_END,
       ST_FINAL_START, ST_FINAL_NEXT, ST_FINISH, ST_OVER, ST_DONE };
#define FLOW_STEP 4
#define SMALL (((i64)1) << 62)
#define SHORT_LIST 64  /* `x in L` of at most this many items is not charged (run/budget.py) */
/* endjb: where an ending unwinds to; susp: where a choice without an answer stops the segment.
   gen/done/max: a playout's generator, its decisions taken and its limit (gen NULL: stop and ask);
   base: the segment's first state, copied into SNAP only if the segment stops at a choice;
   nosnap: a playout keeps no first state (1: a stop at a choice is E_LIMIT, tb_playout replays;
   2: the words stop at the choice, whose segment cannot be replayed: a rollout's end, evaluated);
   seg: where a stopped segment's first state goes (SNAP, or the search tree's copy);
   ck: a phase started since the segment's first state, and its words are in CKBUF (1) or already
   in `seg` (2: checkpoint); snapfree: `seg` holds nothing read until the segment stops (a segment
   started at a window, not stopped yet), so a phase start is kept there directly (checkpoint);
   depth: the emits running inside one another (triggers.py: past EMIT_DEPTH, E_DEPTH);
   world: a search's dealt world, which replaces the words where Q_DEAL says (tree_c.py);
   co: the coroutine the segment runs in (segments.c, tb_apply), where a stop suspends it, or NULL. */
struct Co;
typedef struct {
    i64 *s; jmp_buf jb; jmp_buf endjb; jmp_buf susp;
    u64 *gen; i64 *done; i64 max; i64 budget; const i64 *base; int nosnap; i64 *seg; int ck; int snapfree;
    int depth;
    const i64 *world; struct Co *co;
    i64 more[6];  /* an action's arguments past the second (slots.py MORE_ARGS), read as it starts */
} X;
#define S (x->s)
static __thread int ft_fresh;  /* set at each entry point: the tile features interned before are dead */
static void fail(X *x, int code) { longjmp(x->jb, code); }
#define CHARGE(n) do { S[T_BUDGET] -= (n); if (S[T_BUDGET] < 0) fail(x, E_BUDGET); } while (0)
