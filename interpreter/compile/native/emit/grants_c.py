"""The ends of grants given `until` an event, in native words: the state's `ru` (run/support.py
reveal_until, end_grants, _for_good) kept in the `RU` words (slots.py): what each statement adds here, the
fixed C (ru_keep, ru_add, ru_end) in runtime/grants.c.

Stage: compile (native). `S[RU]` is 0 when the state has no `ru` key, else 1 + the number of its
entries, so that a key holding an empty list (a `reveal` of nothing `until` an event makes one)
converts back as it is; each entry is three words (the event's index in the layout's `until`, the
component, the grant's bits: 1 for everyone). A game without `reveal ... until` has no such words
(RU_CAP 0) and `ru_end` does nothing. More entries than RU_CAP stop native code (E_STORE): Python
plays the decision, and the game goes on there until the entries fit again.
"""

from __future__ import annotations

from tabula.interpreter.compile.native.lowering import ir


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


__all__ = ["ends"]
