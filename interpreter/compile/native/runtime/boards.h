/* boards.h: a board as the boards' C reads it (emit/boards_c.py writes each game's BOARDS of these). */
typedef struct { const i64 *cells; const i64 *grid; const i64 *xs; const i64 *ys;
                 i64 n, copies, w, h; const i64 *mo, *mn, *md; i64 ne; const i64 *ea, *eb, *eids;
                 const i64 *no, *nn, *nd;  /* no/nn/nd: each cell's neighbours (start, count, cells) */
                 i64 grows, gbase, gmask, ndirs; const i64 *gdx, *gdy; } BOARD;
/* grows: a board that grows (n: its pool of cells, added in order; boards.c g_words), its index's
   words at GROW + gbase (gmask + 1 slots), its directions' offsets gdx, gdy (ndirs of them) */
