"""The closed registry of builtin functions and aggregates of the DSL.

Each entry has its syntax, a one-line description and an example (the language reference in docs/
is generated from this registry), its arity, and a compile function that returns a closure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from tabula.interpreter.base.types import (
    ANY,
    BOOL,
    COMP,
    INT,
    NONE,
    PLAYER,
    STR,
    ZONE,
    Scope,
    elem,
    list_of,
)
from tabula.interpreter.dsl import ast
from tabula.interpreter.run.budget import MAX_LIST, bounded, each, sized
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime, over_budget

if TYPE_CHECKING:
    from tabula.interpreter.compile.python.exprs import Code, ExprCompiler


def literal(src: str) -> Any:
    from tabula.interpreter.compile.python.exprs import literal as lit

    return lit(src)


def is_literal(src: str) -> bool:
    from tabula.interpreter.compile.python.exprs import is_literal as is_lit

    return is_lit(src)


@dataclass(frozen=True)
class Builtin:
    """A builtin function: `impl` receives the argument values and the runtime."""

    name: str
    syntax: str
    doc: str
    example: str
    arity: tuple[int, int]
    result: str
    impl: Callable[..., Any]
    list_args: tuple[int, ...] = ()  # argument positions that take a list or a zone
    inline: str | None = None  # Python source template used instead of calling impl
    self_charged: bool = False  # impl charges the items of its list arguments itself

    def code(self, c: ExprCompiler, n: ast.Call, scope: Scope) -> Code:
        lo, hi = self.arity
        if not lo <= len(n.args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            return c.error(
                "E105",
                f"'{self.name}' takes {want} argument(s), got {len(n.args)}",
                n.span,
                f"syntax: {self.syntax}",
            )
        compiled = [
            c.list_code(a, scope) if i in self.list_args else c.code(a, scope) for i, a in enumerate(n.args)
        ]
        if self.name in READS_ALL and not self.self_charged:  # each item read is charged
            charge = c.helper(each)
            compiled = [
                (f"{charge}(rt, {src})" if i in self.list_args and not is_literal(src) else src, t)
                for i, (src, t) in enumerate(compiled)
            ]
        result = self.result
        if result == "=arg0":
            result = compiled[0][1] if compiled else ANY
        elif result == "=elem0":
            result = elem(compiled[0][1]) if compiled else ANY
        elif result == "=flat0":
            inner = elem(compiled[0][1])
            if inner == ZONE:
                result = list_of(COMP)
            elif inner == ANY or inner.startswith("list["):
                result = inner
            else:
                return c.error(
                    "T001", f"'flatten' takes a list of lists or zones, found a list of {inner}", n.span
                )
        if self.name in ("holder", "zone_of") and len(compiled) == 1:
            return builtin_attr_code(c, "holder" if self.name == "holder" else "zone", compiled[0][0]), result
        if self.inline is not None:
            srcs = [src for src, _ in compiled]
            if all(is_literal(x) for x in srcs) and self.name in ("has", "is_none", "abs"):
                folded = _fold(self.name, srcs)
                if folded is not None:
                    return folded, result
            return self.inline.format(*srcs), result
        fn = c.helper(self.impl, ("builtin", self.name))
        return f"{fn}(rt{''.join(', ' + src for src, _ in compiled)})", result


def _fold(name: str, srcs: list[str]) -> str | None:
    """A builtin of literal arguments, evaluated at compile time (None when it cannot be)."""
    vals = [literal(x) for x in srcs]
    try:
        if name == "has":
            return repr(vals[1] in vals[0])
        if name == "is_none":
            return repr(vals[0] is None)
        if name == "abs" and isinstance(vals[0], int):
            return repr(abs(vals[0]))
    except TypeError:
        return None
    return None


def _players(rt: Runtime) -> int:
    n: int = rt.st["t"]["n"]
    return n


def _count_equal(rt: Runtime, xs: list[Any], v: Any) -> int:
    """`count(x for x in xs where x == v)`: a C loop, every item charged."""
    if not xs:
        return 0
    b = rt.budget - len(xs)
    rt.budget = b
    if b < 0:
        over_budget()
    return xs.count(v)


def _has_equal(rt: Runtime, xs: list[Any], v: Any) -> bool:
    """`any(x == v for x in xs)`: a C loop, every item charged."""
    if not xs:
        return False
    b = rt.budget - len(xs)
    rt.budget = b
    if b < 0:
        over_budget()
    return v in xs


def _distinct(rt: Runtime, xs: list[Any]) -> list[Any]:
    """The items in order of first appearance: linear for numbers, texts and the like (a dict keeps
    the first of equal keys, as `in` would), pairwise for lists; every item and comparison charged
    (here, not by a call of `each`: these helpers run in the inner loops of windows)."""
    b = rt.budget - len(xs)
    rt.budget = b
    if b < 0:
        over_budget()
    try:
        return list(dict.fromkeys(xs))
    except TypeError:  # lists inside: no hash
        pass
    out: list[Any] = []
    for x in xs:
        each(rt, out)
        if x not in out:
            out.append(x)
    return out


# builtins that read every item of their list argument (charged); the others read one or none
READS_ALL = frozenset(
    {"sum", "any", "all", "distinct", "sorted", "reversed", "has", "count_of", "remove_one", "named"}
)


def _minmax(pick: Callable[..., Any]) -> Callable[..., Any]:
    def impl(rt: Runtime, *args: Any) -> Any:
        if len(args) == 1:
            xs = args[0]
            if isinstance(xs, int):
                xs = rt.st["z"][xs]
            each(rt, xs)
            return pick(xs) if xs else None
        return pick(args)

    return impl


def _zone_list(rt: Runtime, v: Any) -> list[Any]:
    if isinstance(v, int) and not isinstance(v, bool):
        zone: list[Any] = rt.st["z"][v]
        return zone
    return list(v)


def _holder(rt: Runtime, cid: int) -> int | None:
    loc = rt.st["loc"][cid]
    if loc < 0:
        return None
    owner: int | None = rt.g.zone_owner[loc]
    return owner


def _remove_one(rt: Runtime, xs: list[Any], x: Any) -> list[Any]:
    out = list(xs)
    if x in out:
        out.remove(x)
    return out


BUILTINS: dict[str, Builtin] = {}


def _add(b: Builtin) -> None:
    BUILTINS[b.name] = b


_add(
    Builtin(
        "len",
        "len(L)",
        "number of items in a list or zone",
        "len(hand(p)) >= 2",
        (1, 1),
        INT,
        lambda rt, xs: len(xs),
        (0,),
    )
)
_add(
    Builtin(
        "count",
        "count(L)",
        "number of items (also: count(x for x in L where c))",
        "count(market) < 7",
        (1, 1),
        INT,
        lambda rt, xs: len(xs),
        (0,),
    )
)
_add(
    Builtin(
        "sum",
        "sum(L)",
        "sum of numbers (also: sum(e for x in L where c))",
        "sum([1, 2])",
        (1, 1),
        INT,
        lambda rt, xs: sum(xs),
        (0,),
    )
)
_add(
    Builtin(
        "any",
        "any(L)",
        "true if some item is true",
        "any([a, b])",
        (1, 1),
        BOOL,
        lambda rt, xs: any(xs),
        (0,),
    )
)
_add(
    Builtin(
        "all",
        "all(L)",
        "true if every item is true",
        "all([a, b])",
        (1, 1),
        BOOL,
        lambda rt, xs: all(xs),
        (0,),
    )
)
_add(
    Builtin(
        "max",
        "max(L) | max(a, b, ...)",
        "largest value (none for an empty list)",
        "max(vp(p), 3)",
        (1, 9),
        INT,
        _minmax(max),
    )
)
_add(
    Builtin(
        "min",
        "min(L) | min(a, b, ...)",
        "smallest value (none for an empty list)",
        "min(2, money(p))",
        (1, 9),
        INT,
        _minmax(min),
    )
)
_add(
    Builtin(
        "range",
        "range(a, b)",
        f"the numbers a, a+1, ..., b-1 (at most {MAX_LIST} of them)",
        "range(3, 9)",
        (2, 2),
        list_of(INT),
        lambda rt, a, b: bounded(rt, list(range(a, min(b, a + MAX_LIST + 1)))),
    )
)
_add(
    Builtin(
        "distinct",
        "distinct(L)",
        "the list without repeats, first occurrence kept",
        "distinct(card.symbols)",
        (1, 1),
        "=arg0",
        _distinct,
        (0,),
        self_charged=True,
    )
)
_add(
    Builtin(
        "sorted",
        "sorted(L)",
        "the list in increasing order",
        "sorted(scores)",
        (1, 1),
        "=arg0",
        lambda rt, xs: sorted(xs),
        (0,),
    )
)
_add(
    Builtin(
        "reversed",
        "reversed(L)",
        "the list in reverse order",
        "reversed(players)",
        (1, 1),
        "=arg0",
        lambda rt, xs: list(reversed(xs)),
        (0,),
    )
)


def _flatten(rt: Runtime, xs: list[Any]) -> list[Any]:
    """The items of each list or zone of `xs` in turn. The lists and their items are charged, and
    the size limit of a list checked, before the result is built."""
    zones = rt.st["z"]
    parts = [zones[x] if x.__class__ is int else x for x in xs]
    n = 0
    for part in parts:
        if part.__class__ is not list:
            raise GameRuntimeError(f"flatten: expected a list of lists or zones, found {part!r} in it", None)
        n += len(part)
    sized(rt, n, "list")
    each(rt, parts)
    out: list[Any] = []
    for part in parts:
        out += part
    return out


_add(
    Builtin(
        "flatten",
        "flatten(L)",
        "the items of each list or zone of L in turn",
        "flatten([hand(p) for p in players])",
        (1, 1),
        "=flat0",
        _flatten,
        (0,),
        self_charged=True,
    )
)
_add(
    Builtin(
        "top",
        "top(Z)",
        "the first component of a zone (its top, for an ordered zone), or none when it is empty",
        "top(deck(p))",
        (1, 1),
        COMP,
        lambda rt, xs: xs[0] if xs else None,
        (0,),
    )
)
_add(
    Builtin(
        "first",
        "first(L)",
        "the first item of a list, or none",
        "first(hand(p))",
        (1, 1),
        "=elem0",
        lambda rt, xs: xs[0] if xs else None,
        (0,),
    )
)
_add(
    Builtin(
        "last",
        "last(L)",
        "the last item of a list, or none",
        "last(discard(p))",
        (1, 1),
        "=elem0",
        lambda rt, xs: xs[-1] if xs else None,
        (0,),
    )
)
_add(Builtin("abs", "abs(x)", "absolute value", "abs(a - b)", (1, 1), INT, lambda rt, x: abs(x)))
_add(
    Builtin(
        "has",
        "has(L, x)",
        "true if x is in the list (same as x in L)",
        "has(t.shops, red)",
        (2, 2),
        BOOL,
        lambda rt, xs, x: x in xs,
        (0,),
    )
)
_add(
    Builtin(
        "count_of",
        "count_of(L, x)",
        "how many times x occurs in the list",
        "count_of(used, buy_any)",
        (2, 2),
        INT,
        lambda rt, xs, x: list(xs).count(x),
        (0,),
    )
)
_add(
    Builtin(
        "remove_one",
        "remove_one(L, x)",
        "the list without the first occurrence of x",
        "remove_one(symbols, build)",
        (2, 2),
        "=arg0",
        _remove_one,
        (0,),
    )
)
_add(
    Builtin(
        "left_of",
        "left_of(p)",
        "the next player clockwise",
        "left_of(leader)",
        (1, 1),
        PLAYER,
        lambda rt, p: (p + 1) % _players(rt),
    )
)
_add(
    Builtin(
        "right_of",
        "right_of(p)",
        "the previous player clockwise",
        "right_of(leader)",
        (1, 1),
        PLAYER,
        lambda rt, p: (p - 1) % _players(rt),
    )
)
_add(
    Builtin(
        "clockwise_from",
        "clockwise_from(p)",
        "every player, clockwise, starting with p",
        "clockwise_from(start_player)",
        (1, 1),
        list_of(PLAYER),
        lambda rt, p: [(p + i) % _players(rt) for i in range(_players(rt))],
    )
)
_add(
    Builtin(
        "others_from",
        "others_from(p)",
        "each other player in clockwise order, starting left of p",
        "others_from(leader)",
        (1, 1),
        list_of(PLAYER),
        lambda rt, p: [(p + i) % _players(rt) for i in range(1, _players(rt))],
    )
)
_add(
    Builtin(
        "player",
        "player(i)",
        "the player in seat i (0-based)",
        "player(0)",
        (1, 1),
        PLAYER,
        lambda rt, i: i % _players(rt),
    )
)
_add(
    Builtin(
        "zone_of",
        "zone_of(c)",
        "the zone a component lies in",
        "zone_of(card) == hand(p)",
        (1, 1),
        ZONE,
        lambda rt, c: rt.st["loc"][c],
    )
)
_add(
    Builtin(
        "holder",
        "holder(c)",
        "the player whose zone holds the component, or none",
        "holder(card) == p",
        (1, 1),
        PLAYER,
        _holder,
    )
)
_add(
    Builtin(
        "keys",
        "keys(M)",
        "the keys of a constant map",
        "keys(price)",
        (1, 1),
        list_of(STR),
        lambda rt, m: list(m),
    )
)
_add(
    Builtin(
        "named",
        "named(L, 'name')",
        "the components of L with that name",
        "named(display, 'C6')",
        (2, 2),
        list_of(COMP),
        lambda rt, xs, nm: [c for c in xs if rt.g.components[c].name == nm],
        (0,),
    )
)
_add(
    Builtin(
        "is_none",
        "is_none(x)",
        "true if x is none",
        "is_none(builder(p))",
        (1, 1),
        BOOL,
        lambda rt, x: x is None,
    )
)

# Builtins simple enough to be written straight into the generated code.
_INLINE = {
    "len": "len({0})",
    "count": "len({0})",
    "sum": "sum({0})",
    "any": "any({0})",
    "all": "all({0})",
    "abs": "abs({0})",
    "has": "({1} in {0})",
    "is_none": "({0} is None)",
    "top": "next(iter({0}), None)",
    "first": "next(iter({0}), None)",
    "last": "({0} or [None])[-1]",
}
for _name, _template in _INLINE.items():
    BUILTINS[_name] = replace(BUILTINS[_name], inline=_template)

AGGREGATES = {"count", "sum", "max", "min", "any", "all", "list", "sorted", "first", "distinct"}


# The value of each aggregate over an empty list (what a hoisted false condition gives).
_EMPTY = {
    "count": "0",
    "sum": "0",
    "any": "False",
    "all": "True",
    "list": "[]",
    "sorted": "[]",
    "first": "None",
    "distinct": "[]",
}


def aggregate_code(c: ExprCompiler, kind: str, gen: ast.Generator, scope: Scope) -> Code:
    """`kind(elt for var in iter where cond default d)` and list comprehensions, as Python code.

    The loop variable becomes a fresh Python comprehension variable, so it never clashes with the
    game's locals (nor with an inlined function's argument). Conjuncts of `where` that do not use the
    loop variable are tested once, outside the loop; `first`, `any` and `all` stop at the first
    deciding element.
    """
    from tabula.interpreter.compile.python.exprs import mentions, split_and

    if gen.default is not None and kind not in ("max", "min"):
        c.report.error(
            "E116",
            f"'default' only applies to max and min, not to {kind}",
            gen.default.span,
            "remove it: an empty list already gives 0, false, true or an empty list",
        )
    keyed = first_of_each_key(gen) if kind == "list" else None
    if keyed is not None:
        return _first_of_each_code(c, gen, keyed, scope)
    equal = _equal_to(gen, kind)
    if equal is not None:  # count(x for x in L where x == v) is L.count(v); any(x == v ...) is v in L
        it, _ = c.list_code(gen.iter, scope)
        v, _ = c.code(equal, scope)
        from tabula.interpreter.compile.python.exprs import is_cheap, is_simple

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
    cond_src = ""
    try:
        elt, et = c.code(gen.elt, inner)
        if gen.cond is not None:
            cond_src = c.cond_code(gen.cond, inner)
    finally:
        c.leave_loop()
    frame, (elt, cond_src) = settle_reads(frame, it, [elt, cond_src])
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
    """Keep a loop's invariant reads (`_r_...`, ExprCompiler.invariant_read) computed before it
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


def _has_generator(node: Any) -> bool:
    from tabula.interpreter.compile.python.exprs import _has_generator as has

    return node is not None and has(node)


def _equal_to(gen: ast.Generator, kind: str) -> ast.Expr | None:
    """E when `gen` only asks which items equal E (E not using the item): `count(x for x in L
    where x == E)` or `any(x == E for x in L)`. None otherwise."""
    from tabula.interpreter.compile.python.exprs import names_in

    if gen.default is not None:
        return None
    if kind == "count" and gen.cond is not None:
        test = gen.cond
    elif kind == "any" and gen.cond is None:
        test = gen.elt
    else:
        return None
    if not (isinstance(test, ast.Compare) and test.op == "=="):
        return None
    for item, other in ((test.left, test.right), (test.right, test.left)):
        if isinstance(item, ast.Name) and item.id == gen.var and gen.var not in names_in(other):
            return other
    return None


def _renamed(node: Any, old: str, new: str) -> Any:
    """`node` with every Name `old` read as `new` (generators that rebind `old` left alone)."""
    if isinstance(node, ast.Name):
        return ast.Name(node.span, new) if node.id == old else node
    if isinstance(node, ast.Generator) and node.var == old:
        return node
    if isinstance(node, tuple):
        return tuple(_renamed(x, old, new) for x in node)
    if not isinstance(node, ast.Node):
        return node
    changes = {
        f.name: _renamed(getattr(node, f.name), old, new)
        for f in fields(node)
        if f.name != "span" and isinstance(getattr(node, f.name), (ast.Node, tuple))
    }
    return replace(node, **changes) if changes else node


def first_of_each_key(gen: ast.Generator) -> ast.Expr | None:
    """The key K when `gen` is `c for c in L where first(d for d in L where K(d) == K(c)) == c`:
    the first item of each key, in order (one choice among identical cards). The generic form is
    quadratic; it compiles to one pass (`_first_of_each`). None for any other generator."""
    cond, c = gen.cond, gen.var
    if not (isinstance(gen.elt, ast.Name) and gen.elt.id == c and gen.default is None):
        return None
    if not (isinstance(cond, ast.Compare) and cond.op == "=="):
        return None
    found, other = (cond.left, cond.right) if isinstance(cond.left, ast.CallGen) else (cond.right, cond.left)
    if not (isinstance(other, ast.Name) and other.id == c and isinstance(found, ast.CallGen)):
        return None
    inner = found.gen
    d = inner.var
    if not (isinstance(found.func, ast.Name) and found.func.id == "first" and d != c):
        return None
    if not (inner.iter == gen.iter and isinstance(inner.elt, ast.Name) and inner.elt.id == d):
        return None
    test = inner.cond
    if inner.default is not None or not (isinstance(test, ast.Compare) and test.op == "=="):
        return None
    from tabula.interpreter.compile.python.exprs import names_in

    for key_d, key_c in ((test.left, test.right), (test.right, test.left)):
        if c in names_in(key_d) or d in names_in(key_c):
            continue
        if _renamed(key_c, c, d) == key_d:
            return key_c
    return None


def _first_of_each(rt: Runtime, xs: list[Any], keys: list[Any]) -> list[Any]:
    """[x for x in xs where first(y for y in xs where key(y) == key(x)) == x], given each x's key:
    one pass when the keys can be hashed (equal keys hash equally, so the first of each key is what
    `first` finds), pairwise otherwise."""
    try:
        if len(set(keys)) == len(keys):  # the usual case: no two items share a key
            return list(xs)
        # the last write is the first item; keys has one key per item (zip without strict=: a
        # keyword makes the call slow, and this runs in windows' inner loops)
        firsts = dict(zip(reversed(keys), reversed(xs)))  # noqa: B905
        return [x for k, x in zip(keys, xs) if firsts[k] == x]  # noqa: B905
    except TypeError:  # a list among the keys: compare pairwise, as written
        each(rt, keys)
        pairs = list(zip(keys, xs, strict=True))
        return [x for k, x in pairs if next(y for j, y in pairs if j == k) == x]


def _first_of_each_code(c: ExprCompiler, gen: ast.Generator, key: ast.Expr, scope: Scope) -> Code:
    from tabula.interpreter.compile.python.exprs import is_cheap

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
    c: ExprCompiler, kind: str, elt: str, et: str, loop: str, filtered: bool, gen: ast.Generator, scope: Scope
) -> Code:
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
    default = c.code(gen.default, scope)[0] if gen.default is not None else "None"
    pick = c.helper(_max_or if kind == "max" else _min_or)
    return f"{pick}([{elt} {loop}], {default})", et if et != NONE else ANY


def _min_or(xs: list[Any], default: Any) -> Any:
    """`min(... default d)`: `min(xs, default=d)` without a call with a keyword (a slow one)."""
    return min(xs) if xs else default


def _max_or(xs: list[Any], default: Any) -> Any:
    """`max(... default d)`: `max(xs, default=d)` without a call with a keyword (a slow one)."""
    return max(xs) if xs else default


def builtin_attr_code(c: ExprCompiler, name: str, obj: str) -> str:
    comps = c.g.components
    if name in ("name", "key", "type"):
        column = [getattr(comp, name) for comp in comps]
        return f"{c.inject(column, 'attr_' + name)}[{obj}]"  # one column per compile: see ExprCompiler
    if name == "id":
        return obj
    if name == "zone":
        return f"{c.bind('LOC')}[{obj}]"
    # the owner of each zone instance, and none for -1 (out of play: the list's last item)
    owners = c.inject([*c.g.zone_owner, None], "owners")
    return f"{owners}[{c.bind('LOC')}[{obj}]]"


def doc_entries() -> list[tuple[str, str, str]]:
    """(syntax, description, example) for the language reference."""
    return [(b.syntax, b.doc, b.example) for b in sorted(BUILTINS.values(), key=lambda b: b.name)]


_ = (ANY, NONE, _zone_list)
