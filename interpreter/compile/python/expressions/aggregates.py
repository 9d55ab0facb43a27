"""Aggregates over generators: `count(x for x in L where c)`, `any(...)`, `[e for x in L]`, ...

Stage: compile. `aggregate_code` writes an aggregate as a Python comprehension, or as `next(...)`
where it can stop at the first deciding element; every element is charged to the work budget (`each`,
run/budget.py). What does not use the loop variable is computed once, before the loop: the
conjuncts of `where` (hoisted), calls and state reads (`ExprBase.enter_loop`, `settle_reads`). Two
idioms have forms of their own: an equality test (`L.count(v)`, `v in L`) and the first item of
each key (one pass instead of a quadratic one).
"""

from __future__ import annotations

import re

from tabula.interpreter.base.types import ANY, BOOL, INT, NONE, Scope, elem, list_of
from tabula.interpreter.compile.python.expressions.analysis import equal_to, first_of_each_key
from tabula.interpreter.compile.python.expressions.base import ExprBase
from tabula.interpreter.compile.python.expressions.fragments import (
    Code,
    is_cheap,
    is_simple,
    mentions,
    split_and,
)
from tabula.interpreter.dsl import ast
from tabula.interpreter.run.budget import each
from tabula.interpreter.run.builtins import (
    _count_equal,
    _distinct,
    _distinct_by,
    _first_of_each,
    _has_equal,
    _max_or,
    _min_or,
    _sorted_by,
)

# The value of each aggregate over an empty list (what a hoisted false condition gives).
_EMPTY = {
    "count": "0",
    "sum": "0",
    "any": "False",
    "all": "True",
    "list": "[]",
    "sorted": "[]",
    "first": "None",
    "last": "None",
    "distinct": "[]",
}


def aggregate_code(c: ExprBase, kind: str, gen: ast.Generator, scope: Scope) -> Code:
    """`kind(elt for var in iter where cond default d)` and list comprehensions, as Python code.

    The loop variable becomes a fresh Python comprehension variable, so it never clashes with the
    game's locals (nor with an inlined function's argument). Conjuncts of `where` that do not use the
    loop variable are tested once, outside the loop; `first`, `any` and `all` stop at the first
    deciding element.
    """
    if gen.default is not None and kind not in ("max", "min"):
        c.report.error(
            "E116",
            f"'default' only applies to max and min, not to {kind}",
            gen.default.span,
            "remove it: an empty list already gives 0, false, true or an empty list",
        )
    if gen.by is not None and kind not in ("distinct", "sorted"):
        c.report.error(
            "E116",
            f"'by' only applies to distinct and sorted, not to {kind}",
            gen.by.span,
            "distinct(c for c in L by c.name) keeps the first item of each key, "
            "sorted(c for c in L by c.rank) orders by the key",
        )
    keyed = first_of_each_key(gen) if kind == "list" else None
    if keyed is not None:
        return _first_of_each_code(c, gen, keyed, scope)
    equal = equal_to(gen, kind)
    if equal is not None:  # count(x for x in L where x == v) is L.count(v); any(x == v ...) is v in L
        it, _ = c.list_code(gen.iter, scope)
        v, _ = c.code(equal, scope)
        # E is only computed for a list with items, as the loop would
        if not is_cheap(it) and is_simple(v):  # E costs nothing: one call charges and counts
            fn = _count_equal if kind == "count" else _has_equal
            return f"{c.helper(fn)}(rt, {it}, {v})", INT if kind == "count" else BOOL
        xs = it if is_cheap(it) else c.mod.fresh("_xs")
        charged = f"{c.helper(each)}(rt, {xs})"
        if kind == "count":
            code, t = f"({charged}.count({v}) if {xs} else 0)", INT
        else:
            code, t = f"(({v} in {charged}) if {xs} else False)", BOOL
        return _bound(code, [] if xs == it else [(xs, it)]), t
    it, itt = c.list_code(gen.iter, scope)
    # every element is charged to the work budget, even of a short list: a function or a loop's body
    # may hold many generators (each charged once, as one call or iteration, they would hide 64
    # times its work); the players are not copied
    if it == f"list(range({c.bind('NP')}))":
        it = f"range({c.bind('NP')})"
    it = f"{c.helper(each)}(rt, {it})"
    inner = scope.child()
    var = c.mod.fresh("v_" + gen.var)
    inner.known[gen.var] = (var, elem(itt))
    frame = c.enter_loop(var)
    cond_src = by_src = ""
    try:
        elt, et = c.code(gen.elt, inner)
        if gen.cond is not None:
            cond_src = c.cond_code(gen.cond, inner)
        if gen.by is not None:
            by_src = c.code(gen.by, inner)[0]
    finally:
        c.leave_loop()
    frame, (elt, cond_src, by_src) = settle_reads(frame, it, [elt, cond_src, by_src])
    # the conjuncts (of `where`, and for `any` of the element too) that do not use the loop's
    # variable, nor a call computed for this loop, are tested once, before it
    local = {var, *(name for name, _ in frame if not name.startswith("_r_"))}
    parts = split_and(cond_src) if cond_src else []
    if kind == "any":  # any(e for x in L where c) holds when (c and e) holds for some x
        parts += [] if elt == "True" else split_and(elt)
        elt = "True"
    fixed = [p for p in parts if not mentions(p, local)] if kind in _EMPTY else []
    rest = [p for p in parts if p not in fixed]
    cond = f" if {' and '.join(rest)}" if rest else ""
    loop = f"for {var} in {it}{cond}"
    if by_src and kind == "distinct":  # the first item of each key, in one pass over (item, key) pairs
        code, t = f"{c.helper(_distinct_by)}(rt, [({elt}, {by_src}) {loop}])", list_of(et)
    elif by_src and kind == "sorted":  # the items in the order of their keys (stable)
        code, t = f"{c.helper(_sorted_by)}(rt, [({elt}, {by_src}) {loop}])", list_of(et)
    else:
        fast = _lookup_filter(kind, elt, et, var, it, rest)
        code, t = fast or _aggregate(c, kind, elt, et, loop, bool(cond), gen, scope)
    hoisted = [h for h in fixed if h != "True"]
    if hoisted:
        code = (
            _EMPTY[kind] if "False" in hoisted else f"({code} if {' and '.join(hoisted)} else {_EMPTY[kind]})"
        )
    return _bound(code, frame), t  # loop-invariant calls computed once, before the loop


def _lookup_filter(kind: str, elt: str, et: str, var: str, it: str, rest: list[str]) -> Code | None:
    """`any(x.m for x in L)` whose only test is a mark or a column of its item (`where s.in_town`):
    `any(map(T.__getitem__, L))`, the same truth test in a C loop, without the generator object
    that `next(...)` needs (a count or a list stays a comprehension: `filter` with a bound lookup
    takes longer than the comprehension's own subscript)."""
    if kind != "any" or elt != "True" or len(rest) != 1:
        return None
    m = re.fullmatch(rf"\(?((?:m_|_)\w+)\[{var}\]\)?", rest[0])  # a mark, or a column of the game
    return None if m is None else (f"any(map({m.group(1)}.__getitem__, {it}))", BOOL)


def settle_reads(
    frame: list[tuple[str, str]], source: str, texts: list[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """Keep a loop's invariant reads (`_r_...`, ExprBase.invariant_read) computed before it
    when the loop computes calls there anyway, or goes over a zone (often long); else write each
    back in place of its name: for a few items, reading it each time is cheaper than the lambda
    that would compute it once."""
    reads = [(name, src) for name, src in frame if name.startswith("_r_")]
    if not reads or len(reads) < len(frame) or "Z[" in source:
        return frame, texts
    for name, src in reads:
        word = re.compile(rf"\b{name}\b")
        texts = [word.sub(lambda _m, s=src: s, t) for t in texts]  # type: ignore[misc]
    return [], texts


def _bound(code: str, bindings: list[tuple[str, str]]) -> str:
    """`code` with each (name, source) of `bindings` computed once, first (a lambda's arguments)."""
    if not bindings:
        return code
    names = ", ".join(name for name, _ in bindings)
    values = ", ".join(src for _, src in bindings)
    return f"(lambda {names}: {code})({values})"


def _first_of_each_code(c: ExprBase, gen: ast.Generator, key: ast.Expr, scope: Scope) -> Code:
    """The first item of each key K of a list (`first_of_each_key`): the keys in one comprehension,
    then one pass (`_first_of_each`)."""
    it, itt = c.list_code(gen.iter, scope)
    xs = it if is_cheap(it) else c.mod.fresh("_xs")
    inner = scope.child()
    var = c.mod.fresh("v_" + gen.var)
    inner.known[gen.var] = (var, elem(itt))
    frame = c.enter_loop(var)
    try:
        key_src, _ = c.code(key, inner)
    finally:
        c.leave_loop()
    frame, (key_src,) = settle_reads(frame, xs, [key_src])
    keys = _bound(f"[{key_src} for {var} in {xs}]", frame)  # calls not using the item: once
    code = f"{c.helper(_first_of_each)}(rt, {c.helper(each)}(rt, {xs}), {keys})"
    return _bound(code, [] if xs == it else [(xs, it)]), list_of(elem(itt))


def _aggregate(
    c: ExprBase, kind: str, elt: str, et: str, loop: str, filtered: bool, gen: ast.Generator, scope: Scope
) -> Code:
    """The aggregate `kind` of the elements `elt` over the comprehension clause `loop` (`filtered`:
    it ends with a condition)."""
    if kind == "count":
        return f"len([0 {loop}])", INT
    if kind == "sum":
        return f"sum([{elt} {loop}])", INT
    if kind == "any":
        test = loop if elt == "True" else loop + (f" and {elt}" if filtered else f" if {elt}")
        return f"next((True {test}), False)", BOOL
    if kind == "all":
        test = loop + (f" and not {elt}" if filtered else f" if not {elt}")
        return f"(not next((True {test}), False))", BOOL
    if kind == "list":
        return f"[{elt} {loop}]", list_of(et)
    if kind == "sorted":
        return f"sorted([{elt} {loop}])", list_of(et)
    if kind == "distinct":
        return f"{c.helper(_distinct)}(rt, [{elt} {loop}])", list_of(et)
    if kind == "first":
        return f"next(({elt} {loop}), None)", et
    if kind == "last":
        return f"([{elt} {loop}] or [None])[-1]", et
    default = c.code(gen.default, scope)[0] if gen.default is not None else "None"
    pick = c.helper(_max_or if kind == "max" else _min_or)
    return f"{pick}([{elt} {loop}], {default})", et if et != NONE else ANY
