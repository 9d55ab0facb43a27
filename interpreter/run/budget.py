"""The work budget and the size limits of values, as the generated code meets them (stage: run).

Every decision point starts with `Runtime.budget` = the game's work budget (STEP_BUDGET unless
game.yaml sets `limits: work_budget`). Generated loops, frames, the flow and DSL function calls
charge one unit each (compile/python: effects.py, machines.py, functions.py; runtime.py, flow.py);
the helpers here charge what a single expression can do: each element a comprehension or an
aggregate goes through (`each`), each item of a list or character of a text built (`bounded`,
`plus`, `times`), each 64-bit word of a product of big numbers (`times`). Running out is error R002
(the work budget), located at the rule's line by the runtime. Sizes are bounded too, before anything
is built: a list at most MAX_LIST_ITEMS items, a text MAX_TEXT_CHARS characters, a number
MAX_NUMBER_DIGITS digits (R003). Every check is a few comparisons on values the generated code
already has, so the cost stays within a few per cent of the game's run time.

Where a value is kept (effects.py `kept`): a number stored into a var, a mark, a local or a counter
has its digits bounded (an addition of two numbers the compiler knows to be numbers is not checked
where it is computed: it adds at most one digit, so only a loop that keeps the sum can grow it), and
a value stored into the state that is larger than LIGHT items, characters or LIGHT_BITS bits has the
whole state measured (`state_totals`): the game's values together hold at most MAX_STATE_ITEMS list
items, MAX_STATE_CHARS characters and MAX_STATE_DIGITS digits, every copy of a shared value counted
as a save writes it (R003). Smaller values are not measured: each adds at most LIGHT to the totals.

A comparison (`==`, `!=`, `<`, ...) whose operands may both be lists (static type a list or unknown)
is charged the items of the shorter list, and the items of the lists nested in either (`COMPARE`);
numbers, texts, players and components are compared as plain Python, and an operand that is cheap to
read twice is tested for being a list inline. Inside a generator, a comparison between two values of
unknown type is left plain (a test per element would cost a bundled game about 3 %): each element
compared reads at most the items of the two lists, and a list repeated (`[xs] * n`) is charged the
items of the lists it copies. Not charged per element: the builtins that read one item or none
(`len`, `first`, `top`, ...); `x in L` where L has at most 64 items (compile/python/operators.py
SHORT_LIST: a C loop of bounded work, like comparing two short lists; a longer L is charged every
item). Every generator's elements are charged, even over the players or a short list: one function
or loop body may hold many generators, and charged only as one call or iteration they would hide up
to 64 times their work each.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.limits import (
    MAX_LIST_ITEMS,
    MAX_NUMBER_BITS,
    MAX_NUMBER_DIGITS,
    MAX_STATE_CHARS,
    MAX_STATE_DIGITS,
    MAX_STATE_ITEMS,
    MAX_TEXT_CHARS,
)
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime, over_budget

MAX_LIST = MAX_LIST_ITEMS
SMALL = 0x100000000  # numbers strictly between -SMALL and SMALL are never checked
LIGHT = 64  # a stored list of at most this many plain items, or a text of at most this many
# characters, is not measured against the state's totals
LIGHT_BITS = 1024  # ... nor a number of at most this many bits
BITS_PER_DIGIT = 3.3219280948873626


def too_big(what: str) -> GameRuntimeError:
    return GameRuntimeError(what, None, "R003")


def each(rt: Runtime, xs: Any) -> Any:
    """A comprehension's or an aggregate's source, its elements charged to the work budget."""
    b = rt.budget - len(xs)
    rt.budget = b
    if b < 0:
        over_budget()
    return xs


SHORT_LIST = 64
"""`x in L` for a list of at most this many items is not charged per item: bounded work, like
comparing two short lists. A longer one is charged its length (native code charges alike)."""


def searched(rt: Runtime, xs: Any) -> Any:
    """The list `x in xs` searches: its items charged when it holds more than SHORT_LIST."""
    n = len(xs)
    if n > SHORT_LIST:
        b = rt.budget - n
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


def number(rt: Runtime | None, v: int) -> int:
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
        if a.__class__ is list and b > 0 and list in map(type, a):  # copies of lists: charged too
            nested = _measure([a], None)[0]
            c = rt.budget - nested * b
            rt.budget = c
            if c < 0:
                over_budget()
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


# ---------------------------------------------------------------- values stored into the state
def stored(rt: Runtime, x: Any, box: Any = None, key: Any = None) -> Any:
    """A value about to be stored into the state (a var, a mark, a local its frame keeps) at
    `box[key]` (box None: a new frame's local): a number at most MAX_NUMBER_DIGITS digits; a value
    larger than LIGHT items, characters or LIGHT_BITS bits has the whole state measured
    (`state_totals`), so that the state never holds more than its totals."""
    c = x.__class__
    if c is int:
        if -SMALL < x < SMALL:
            return x
        if number(rt, x).bit_length() <= LIGHT_BITS:
            return x
    elif c is list:
        if len(x) <= LIGHT and plain(x):
            return x
    elif c is str:
        if len(x) <= LIGHT:
            return x
    elif c is not dict:
        return x
    old = None if box is None else box.get(key) if box.__class__ is dict else box[key]
    state_totals(rt, x, old)
    return x


def measured(rt: Runtime, x: Any) -> None:
    """A long text or list just stored into the state (it is in its slot already): the state
    measured."""
    state_totals(rt, x, x)


def number_kept(rt: Runtime, x: Any) -> None:
    """A large number just stored into the state (it is in its slot already): its digits bounded,
    and the state measured when it has more than LIGHT_BITS bits."""
    if number(rt, x).bit_length() > LIGHT_BITS:
        state_totals(rt, x, x)


def number_stored(rt: Runtime, x: Any) -> Any:
    """A number about to be kept in a local that is not saved, or a counter: its digits bounded."""
    if x.__class__ is int and not -SMALL < x < SMALL:
        number(rt, x)
    return x


def plain(xs: list[Any]) -> bool:
    """Every item a small number, a short text, a truth value or none."""
    for y in xs:
        c = y.__class__
        if c is int:
            if not -SMALL < y < SMALL:
                return False
        elif c is str:
            if len(y) > LIGHT:
                return False
        elif c is not bool and y is not None:
            return False
    return True


def state_totals(rt: Runtime, new: Any, old: Any = None) -> None:
    """Measure the game's values in the state (vars, marks, the locals of every frame) with `new`
    stored in place of `old`, every copy of a shared value counted (as a save writes it): at most
    MAX_STATE_ITEMS list items, MAX_STATE_CHARS characters and MAX_STATE_DIGITS digits of large
    numbers in all (R003). The items measured are charged to the work budget."""
    st = rt.st
    roots: list[Any] = [list(st["v"].values()), list(st["m"].values()), [new]]
    roots += [list(fr[2].values()) for fr in st["stk"]]
    items, chars, bits = _measure(roots, old)
    b = rt.budget - items
    rt.budget = b
    if b < 0:
        over_budget()
    for total, cap, what in zip((items, chars, bits), _CAPS, _TOTALS, strict=True):
        if total > cap:
            raise too_big(f"the state would hold more than {what} in its values: the size limit of a state")


_CAPS = (MAX_STATE_ITEMS, MAX_STATE_CHARS, int(MAX_STATE_DIGITS * BITS_PER_DIGIT))
_TOTALS = (
    f"{MAX_STATE_ITEMS} list items",
    f"{MAX_STATE_CHARS} characters of text",
    f"{MAX_STATE_DIGITS} digits of large numbers",
)
_GONE = object()


def _measure(stack: list[list[Any]], skip: Any) -> tuple[int, int, int]:
    """List items, characters and bits of large numbers in the lists of `stack` and all they hold
    (maps: their values), but for one occurrence of `skip` (the value a store replaces: any object
    identical to it measures the same); stops soon after one total passes its cap."""
    max_items, max_chars, max_bits = _CAPS
    items = chars = bits = 0
    while stack and items <= max_items and chars <= max_chars and bits <= max_bits:
        for y in stack.pop():
            if y is skip:
                skip = _GONE
                continue
            c = y.__class__
            if c is int:
                if not -SMALL < y < SMALL:
                    bits += y.bit_length()
            elif c is list:
                items += len(y)
                if items > max_items:
                    break
                if y and y[0].__class__ is int:  # small numbers only: nothing more to count
                    try:
                        if min(y) > -SMALL and max(y) < SMALL:
                            continue
                    except TypeError:  # not numbers only
                        pass
                stack.append(y)
            elif c is str:
                chars += len(y)
            elif c is dict:
                items += len(y)
                stack.append(list(y.values()))
    return items, chars, bits


# ---------------------------------------------------------------- comparisons of lists
def _charge_compare(rt: Runtime, a: list[Any], b: Any) -> None:
    """Two lists compared: charged the items of the shorter (nested lists measured, as far as the
    budget goes) before they are compared."""
    n = len(a) if len(a) <= len(b) else len(b)
    if list in map(type, a) or list in map(type, b):
        stack = [a, b]
        while stack and n <= rt.budget:
            for y in stack.pop():
                if y.__class__ is list:
                    n += len(y)
                    stack.append(y)
    c = rt.budget - n
    rt.budget = c
    if c < 0:
        over_budget()


def eq(rt: Runtime, a: Any, b: Any) -> bool:
    """`a == b` where both may be lists."""
    if a.__class__ is list and b.__class__ is list:
        _charge_compare(rt, a, b)
    return bool(a == b)


def ne(rt: Runtime, a: Any, b: Any) -> bool:
    """`a != b` where both may be lists."""
    if a.__class__ is list and b.__class__ is list:
        _charge_compare(rt, a, b)
    return bool(a != b)


def lt(rt: Runtime, a: Any, b: Any) -> bool:
    if a.__class__ is list and b.__class__ is list:
        _charge_compare(rt, a, b)
    return bool(a < b)


def le(rt: Runtime, a: Any, b: Any) -> bool:
    if a.__class__ is list and b.__class__ is list:
        _charge_compare(rt, a, b)
    return bool(a <= b)


def gt(rt: Runtime, a: Any, b: Any) -> bool:
    if a.__class__ is list and b.__class__ is list:
        _charge_compare(rt, a, b)
    return bool(a > b)


def ge(rt: Runtime, a: Any, b: Any) -> bool:
    if a.__class__ is list and b.__class__ is list:
        _charge_compare(rt, a, b)
    return bool(a >= b)


COMPARE = {"==": eq, "!=": ne, "<": lt, "<=": le, ">": gt, ">=": ge}
"""The helper for each comparison whose operands may both be lists (compile/python/operators.py
`_Compare`)."""
