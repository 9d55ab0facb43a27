"""The C of a list of lists (lowering/groups.py): `regions(...)` packed into one list value, and a
walk over a list of lists (where each list starts, then each list read out of it).

Stage: compile (native). The C helpers are runtime/groups.c, pasted into the unit only when the
game's code calls one of them (`used`): the C of a game without lists of lists does not change.
"""

from __future__ import annotations

import re
from typing import Any

from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.compile.native.lowering.groups import nested

_CALLED = re.compile(r"\bgr_\w+\(")


def used(c: str) -> bool:
    """The generated C calls a helper of runtime/groups.c."""
    return _CALLED.search(c) is not None


def packed(gen: Any, src: ir.Source, env: dict[str, str]) -> str:
    """`regions(...)` kept whole: its groups (cgen.py `groups`, charged as Python's regions charges
    them) pushed one after the other; the walk over them is not charged again (Python makes the
    list of groups once)."""
    a, n, out, i = gen.fresh("a"), gen.fresh("n"), gen.fresh("l"), gen.fresh("i")
    setup, item, n = gen.groups(src, env, a, n)
    lines = [*setup, f"L {out}; {out}.n = 0;"]
    each = f"{{ L g_ = {item.format(i=i)}; gr_push(x, &{out}, &g_); }}"
    lines.append(f"for (i64 {i} = 0; {i} < {n}; {i}++) {each}")
    return "({ " + " ".join(lines) + f" {out}; }})"


def walk(gen: Any, src: ir.Source, env: dict[str, str], a: str, n: str) -> tuple[list[str], str, str]:
    """cgen.py `loop` over a list of lists: the value copied (a loop's body may set the local it
    came from), where each list starts (`gr_starts`), and the item: the list starting there."""
    assert src.expr is not None
    at = gen.fresh("at")
    lines = [f"L {a} = {gen.lval(src.expr, env)}, {at}; gr_starts(x, &{a}, &{at}); i64 {n} = {at}.n;"]
    return lines, f"gr_item(&{a}, {at}.v[{{i}}])", n


__all__ = ["nested", "packed", "used", "walk"]
