"""The work budget and the size limits of values, as the generated code meets them (stage: run).

Every decision point starts with `Runtime.budget` = STEP_BUDGET units of work. Generated loops,
frames, the flow and DSL function calls charge one unit each (effects.py, machines.py, exprs.py,
runtime.py, flow.py); the helpers here charge what a single expression can do: each element a
comprehension or an aggregate goes through (`each`), each item of a list or character of a text
built (`bounded`, `plus`, `times`), each 64-bit word of a product of big numbers (`times`). Running
out is error R002 (the work budget), located at the rule's line by the runtime. Sizes are bounded
too, before anything is built: a list at most MAX_LIST_ITEMS items, a text MAX_TEXT_CHARS
characters, a number MAX_NUMBER_DIGITS digits (R003). Every check is a few comparisons on values
the generated code already has, so the cost stays within a few per cent of the game's run time.

What is not charged per element: `==`, `!=` and ordering between two lists, and the builtins that
read one item or none (`len`, `first`, `top`, ...): a comparison reads at most MAX_LIST items, and
runs inside a charged statement, loop or call (so a loop comparing two lists of 100,000 items
a million times is still slow: the one kind of work left outside the budget). An addition of two
numbers the compiler knows to be numbers (or a subtraction) is not checked either (it adds at most one
digit, so it takes thousands of them in a loop to pass the limit).
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.limits import MAX_LIST_ITEMS, MAX_NUMBER_BITS, MAX_NUMBER_DIGITS, MAX_TEXT_CHARS
from tabula.interpreter.runtime import GameRuntimeError, Runtime, over_budget

MAX_LIST = MAX_LIST_ITEMS


def too_big(what: str) -> GameRuntimeError:
    return GameRuntimeError(what, None, "R003")


def each(rt: Runtime, xs: Any) -> Any:
    """A comprehension's or an aggregate's source, its elements charged to the work budget."""
    b = rt.budget - len(xs)
    rt.budget = b
    if b < 0:
        over_budget()
    return xs


def bounded(rt: Runtime, items: list[Any]) -> list[Any]:
    """A list just built (concatenation, range): at most MAX_LIST items, each charged."""
    n = len(items)
    if n > MAX_LIST:
        raise too_big(f"a list of more than {MAX_LIST} items ({n}): the size limit of a list")
    b = rt.budget - n
    rt.budget = b
    if b < 0:
        over_budget()
    return items


def sized(rt: Runtime, n: int, kind: str) -> None:
    """Before building a list or text of `n` items: the size limit, then the charge."""
    limit = MAX_LIST if kind == "list" else MAX_TEXT_CHARS
    if n > limit:
        what = "items" if kind == "list" else "characters"
        raise too_big(f"a {kind} of more than {limit} {what} ({n}): the size limit of a {kind}")
    b = rt.budget - n
    rt.budget = b
    if b < 0:
        over_budget()


def number(rt: Runtime, v: int) -> int:
    """A number just computed from big operands: at most MAX_NUMBER_DIGITS digits."""
    if v.bit_length() > MAX_NUMBER_BITS:
        raise too_big(f"a number of more than {MAX_NUMBER_DIGITS} digits: the size limit of a number")
    return v


def times(rt: Runtime, a: Any, b: Any) -> Any:
    """`a * b`: numbers (big operands charged, the product's size bounded before it is computed),
    or a list or a text repeated (its size bounded and charged before it is built)."""
    if a.__class__ is int and b.__class__ is int:
        if -0x100000000 < a < 0x100000000 and -0x100000000 < b < 0x100000000:
            return a * b  # the usual case: small numbers, nothing to charge
        bits = a.bit_length() + b.bit_length()
        if bits > MAX_NUMBER_BITS + 1:
            raise too_big(f"a number of more than {MAX_NUMBER_DIGITS} digits: the size limit of a number")
        words = bits >> 6
        c = rt.budget - words * words // 8  # schoolbook cost (Karatsuba is cheaper, never dearer)
        rt.budget = c
        if c < 0:
            over_budget()
        return number(rt, a * b)
    if isinstance(a, int) and isinstance(b, (list, str)):
        a, b = b, a
    if isinstance(a, (list, str)) and isinstance(b, int):
        sized(rt, len(a) * max(b, 0), "list" if isinstance(a, list) else "text")
    return a * b


def plus(rt: Runtime, a: Any, b: Any) -> Any:
    """`a + b` where the compiler could not tell numbers from lists or texts."""
    if a.__class__ is int and b.__class__ is int:
        r = a + b
        if -0x100000000 < r < 0x100000000:
            return r
        return number(rt, r)
    if isinstance(a, str) and isinstance(b, str):
        sized(rt, len(a) + len(b), "text")
    elif isinstance(a, list) and isinstance(b, list):
        sized(rt, len(a) + len(b), "list")
    return a + b


def minus(rt: Runtime, a: Any, b: Any) -> Any:
    """`a - b` where the compiler could not tell that both are numbers (`x - (0 - x)` doubles)."""
    r = a - b
    if r.__class__ is int and not -0x100000000 < r < 0x100000000:
        return number(rt, r)
    return r
