"""The ends of grants given `until` an event, in native words: the state's `ru` (run/support.py
reveal_until, end_grants, _for_good) kept in the `RU` words (slots.py).

Stage: compile (native). `S[RU]` is 0 when the state has no `ru` key, else 1 + the number of its
entries, so that a key holding an empty list (a `reveal` of nothing `until` an event makes one)
converts back as it is; each entry is three words (the event's index in the layout's `until`, the
component, the grant's bits: 1 for everyone). A game without `reveal ... until` has no such words
(RU_CAP 0) and `ru_end` does nothing. More entries than RU_CAP stop native code (E_STORE): Python
plays the decision, and the game goes on there until the entries fit again.
"""

from __future__ import annotations

from tabula.interpreter.compile.native.lowering import ir

GRANTS = r"""
#if RU_CAP
static void ru_keep(X *x, i64 c) {  /* _for_good, one component: the ends of its grants dropped */
    i64 n = S[RU] - 1, k = 0;
    if (n < 0) return;
    for (i64 i = 0; i < n; i++) {
        i64 *e = S + RU + 1 + 3 * i;
        if (e[1] == c) continue;
        if (k != i) memmove(S + RU + 1 + 3 * k, e, 24);
        k++;
    }
    S[RU] = 1 + k;
}
static void ru_tidy(X *x) { if (S[RU] == 1) S[RU] = 0; }  /* an empty `ru` deleted */
static void ru_add(X *x, i64 ev, i64 c, i64 bits) {  /* reveal_until: an end kept (the key made) */
    i64 n = S[RU] ? S[RU] - 1 : 0;
    if (n >= RU_CAP) fail(x, E_STORE);
    S[RU + 1 + 3 * n] = ev; S[RU + 2 + 3 * n] = c; S[RU + 3 + 3 * n] = bits;
    S[RU] = n + 2;
}
static void ru_end(X *x, i64 ev) {  /* end_grants: every grant given until `ev` ends */
    i64 n = S[RU] - 1, k = 0;
    if (n < 0) return;
    for (i64 i = 0; i < n; i++) {
        i64 *e = S + RU + 1 + 3 * i;
        if (e[0] == ev) {
            i64 *r = &S[RV + e[1]];
            if (e[2] == 1) { if (*r == 1) *r = 0; }
            else if (*r != 1) *r = (*r | e[2]) ^ e[2];
            continue;
        }
        if (k != i) memmove(S + RU + 1 + 3 * k, e, 24);
        k++;
    }
    S[RU] = k ? 1 + k : 0;
}
#else
static inline void ru_end(X *x, i64 ev) { (void)x; (void)ev; }
#endif
"""


def ends(s: ir.Reveal, until: list[str], bits: str) -> tuple[str, list[str], str]:
    """What a `reveal`, `conceal` or `reveal ... to` adds in a game with grants' ends (`until` not
    empty; run/support.py reveal, reveal_to, reveal_until): the statement after each component's
    `rv` word is written (`@` the component), the lines after every component, and (`until`) the
    statement that then keeps each component's end; `bits` the grant's (1: to everyone). A `hide
    ... from` leaves the ends as they are."""
    if not until or s.how == "hide":
        return "", [], ""
    if s.until is None:
        return " ru_keep(x, @);", ["ru_tidy(x);"], ""
    add = f"ru_add(x, {until.index(s.until)}, @, {bits});"
    return " ru_keep(x, @);", ["ru_tidy(x);", "if (!S[RU]) S[RU] = 1;"], add


__all__ = ["GRANTS", "ends"]
