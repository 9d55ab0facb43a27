"""The closed registry of the DSL's builtin functions, and the code of a call of one.

Stage: compile. Each entry has its syntax, a one-line description and an example (the language
reference in docs/ is generated from this registry: `doc_entries`), its arity, its result type, the
positions of its list arguments and, for the simplest, the Python it is written as (`inline`).
Any other call is a call of its implementation, `IMPLS[name]` in run/builtins.py, which the
generated module names after the builtin (`_h_max_4`). The generators that aggregates take
(`count(x for x in L where c)`, ...) are compiled by aggregates.py.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from tabula.interpreter.base.types import (
    ANY,
    BOOL,
    COMP,
    INT,
    PLAYER,
    STR,
    ZONE,
    Scope,
    elem,
    list_of,
)
from tabula.interpreter.compile.python.expressions.base import ExprBase
from tabula.interpreter.compile.python.expressions.fragments import Code, is_literal, literal
from tabula.interpreter.compile.python.expressions.spatial import (
    GENERATORS,
    SPATIAL,
    board_ref_code,
    direction_code,
    fixed_board,
)
from tabula.interpreter.dsl import ast
from tabula.interpreter.run.budget import MAX_LIST, each
from tabula.interpreter.run.builtins import IMPLS

# builtins that read every item of their list argument (charged); the others read one or none
READS_ALL = frozenset(
    {
        *("sum", "any", "all", "distinct", "sorted", "reversed", "has", "count_of", "remove_one", "named"),
        *("with_item", "list"),
    }
)
# the builtins that take a generator: `count(x for x in L where c)` (aggregates.py)
AGGREGATES = {"count", "sum", "max", "min", "any", "all", "list", "sorted", "first", "last", "distinct"}


@dataclass(frozen=True)
class Builtin:
    """A builtin function: how it is written, documented, checked and compiled (its implementation,
    called where it is not written inline, is `IMPLS[name]`)."""

    name: str
    syntax: str
    doc: str
    example: str
    _: KW_ONLY
    arity: tuple[int, int]
    # the static type of the result, or "=arg0" (the first argument's type), "=elem0" (the type of
    # its items), "=flat0" (the type of its items, lists of something or zones: `flatten`)
    result: str
    list_args: tuple[int, ...] = ()  # argument positions that take a list or a zone
    inline: str | None = None  # Python source template used instead of calling the implementation
    self_charged: bool = False  # the implementation charges the items of its list arguments itself
    board_arg: int = -1  # the position of a board argument (`wall`, `wall(p)`: spatial.py)
    dir_arg: int = -1  # the position of a direction (`e`, `nw`: spatial.py)

    def code(self, c: ExprBase, n: ast.Call, scope: Scope) -> Code:
        lo, hi = self.arity
        if not lo <= len(n.args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            return c.error(
                "E105",
                f"'{self.name}' takes {want} argument(s), got {len(n.args)}",
                n.span,
                f"syntax: {self.syntax}",
            )
        if self.name in GENERATORS:
            syntax = self.syntax
            return c.error("E106", f"'{self.name}' takes a generator: {syntax}", n.span)
        compiled = [
            board_ref_code(c, a, scope)
            if i == self.board_arg
            else direction_code(c, a, scope)
            if i == self.dir_arg
            else c.list_code(a, scope)
            if i in self.list_args
            else c.code(a, scope)
            for i, a in enumerate(n.args)
        ]
        if self.name == "placements" and n.args:
            fixed_board(c, n.args[0])
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
        fn = c.helper(IMPLS[self.name], ("builtin", self.name))
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


BUILTINS: dict[str, Builtin] = {}


def _add(b: Builtin) -> None:
    BUILTINS[b.name] = b


_add(
    Builtin(
        "len",
        "len(L)",
        "number of items in a list or zone",
        "len(hand(p)) >= 2",
        arity=(1, 1),
        result=INT,
        list_args=(0,),
        inline="len({0})",
    )
)
_add(
    Builtin(
        "count",
        "count(L)",
        "number of items (also: count(x for x in L where c))",
        "count(market) < 7",
        arity=(1, 1),
        result=INT,
        list_args=(0,),
        inline="len({0})",
    )
)
_add(
    Builtin(
        "sum",
        "sum(L)",
        "sum of numbers (also: sum(e for x in L where c))",
        "sum([1, 2])",
        arity=(1, 1),
        result=INT,
        list_args=(0,),
        inline="sum({0})",
    )
)
_add(
    Builtin(
        "any",
        "any(L)",
        "true if some item is true",
        "any([a, b])",
        arity=(1, 1),
        result=BOOL,
        list_args=(0,),
        inline="any({0})",
    )
)
_add(
    Builtin(
        "all",
        "all(L)",
        "true if every item is true",
        "all([a, b])",
        arity=(1, 1),
        result=BOOL,
        list_args=(0,),
        inline="all({0})",
    )
)
_add(
    Builtin(
        "max",
        "max(L) | max(a, b, ...)",
        "largest value (none for an empty list)",
        "max(vp(p), 3)",
        arity=(1, 9),
        result=INT,
    )
)
_add(
    Builtin(
        "min",
        "min(L) | min(a, b, ...)",
        "smallest value (none for an empty list)",
        "min(2, money(p))",
        arity=(1, 9),
        result=INT,
    )
)
_add(
    Builtin(
        "range",
        "range(a, b)",
        f"the numbers a, a+1, ..., b-1 (at most {MAX_LIST} of them)",
        "range(3, 9)",
        arity=(2, 2),
        result=list_of(INT),
    )
)
_add(
    Builtin(
        "distinct",
        "distinct(L)",
        "the list without repeats, first occurrence kept; `distinct(x for x in L by K)`: the first "
        "item of each key K (one choice among identical cards: `distinct(c for c in hand(me) by c.name)`)",
        "distinct(card.symbols)",
        arity=(1, 1),
        result="=arg0",
        list_args=(0,),
        self_charged=True,
    )
)
_add(
    Builtin(
        "sorted",
        "sorted(L)",
        "the list in increasing order",
        "sorted(scores)",
        arity=(1, 1),
        result="=arg0",
        list_args=(0,),
    )
)
_add(
    Builtin(
        "reversed",
        "reversed(L)",
        "the list in reverse order",
        "reversed(players)",
        arity=(1, 1),
        result="=arg0",
        list_args=(0,),
    )
)
_add(
    Builtin(
        "flatten",
        "flatten(L)",
        "the items of each list or zone of L in turn",
        "flatten([hand(p) for p in players])",
        arity=(1, 1),
        result="=flat0",
        list_args=(0,),
        self_charged=True,
    )
)
_add(
    Builtin(
        "top",
        "top(Z)",
        "the first component of a zone (its top, for an ordered zone), or none when it is empty",
        "top(deck(p))",
        arity=(1, 1),
        result=COMP,
        list_args=(0,),
        inline="next(iter({0}), None)",
    )
)
_add(
    Builtin(
        "first",
        "first(L)",
        "the first item of a list or of a generator (it stops there), or none",
        "first(hand(p))",
        arity=(1, 1),
        result="=elem0",
        list_args=(0,),
        inline="next(iter({0}), None)",
    )
)
_add(
    Builtin(
        "last",
        "last(L)",
        "the last item of a list or of a generator, or none",
        "last(c for c in discard(p) where c.points > 1)",
        arity=(1, 1),
        result="=elem0",
        list_args=(0,),
        inline="({0} or [None])[-1]",
    )
)
_add(Builtin("abs", "abs(x)", "absolute value", "abs(a - b)", arity=(1, 1), result=INT, inline="abs({0})"))
_add(
    Builtin(
        "plural",
        "plural(n, word) or plural(n, word, plural_word)",
        "the count and its noun, for display text: 1 box, 2 boxes (or the plural given)",
        "plural(tricks(p), 'trick')",
        arity=(2, 3),
        result=STR,
    )
)
_add(
    Builtin(
        "article",
        "article(word)",
        "the word with its indefinite article, for display text: an apple, a pear, an hour",
        "article(c.name)",
        arity=(1, 1),
        result=STR,
    )
)
_add(
    Builtin(
        "has",
        "has(L, x)",
        "true if x is in the list (same as x in L)",
        "has(t.shops, red)",
        arity=(2, 2),
        result=BOOL,
        list_args=(0,),
        inline="({1} in {0})",
    )
)
_add(
    Builtin(
        "count_of",
        "count_of(L, x)",
        "how many times x occurs in the list",
        "count_of(used, buy_any)",
        arity=(2, 2),
        result=INT,
        list_args=(0,),
    )
)
_add(
    Builtin(
        "remove_one",
        "remove_one(L, x)",
        "the list without the first occurrence of x",
        "remove_one(symbols, build)",
        arity=(2, 2),
        result="=arg0",
        list_args=(0,),
    )
)
_add(
    Builtin(
        "list",
        "list(L)",
        "a new list of the items of a list, a zone (its components, top first) or an enum (its symbols); "
        "`list(e for x in L)` builds one from a generator",
        "list(hand(me))",
        arity=(1, 1),
        result="=arg0",
        list_args=(0,),
    )
)
_add(
    Builtin(
        "with_item",
        "with_item(L, i, x)",
        "a copy of the list with the item at position i (from 0; -1 the last) replaced by x; "
        "`set L[i] = x` is `set L = with_item(L, i, x)`",
        "with_item(grid, 4, me)",
        arity=(3, 3),
        result="=arg0",
        list_args=(0,),
    )
)
_add(
    Builtin(
        "left_of", "left_of(p)", "the next player clockwise", "left_of(leader)", arity=(1, 1), result=PLAYER
    )
)
_add(
    Builtin(
        "right_of",
        "right_of(p)",
        "the previous player clockwise",
        "right_of(leader)",
        arity=(1, 1),
        result=PLAYER,
    )
)
_add(
    Builtin(
        "clockwise_from",
        "clockwise_from(p)",
        "every player, clockwise, starting with p",
        "clockwise_from(start_player)",
        arity=(1, 1),
        result=list_of(PLAYER),
    )
)
_add(
    Builtin(
        "others_from",
        "others_from(p)",
        "each other player in clockwise order, starting left of p",
        "others_from(leader)",
        arity=(1, 1),
        result=list_of(PLAYER),
    )
)
_add(
    Builtin("player", "player(i)", "the player in seat i (0-based)", "player(0)", arity=(1, 1), result=PLAYER)
)
_add(
    Builtin(
        "zone_of",
        "zone_of(c)",
        "the zone a component lies in",
        "zone_of(card) == hand(p)",
        arity=(1, 1),
        result=ZONE,
    )
)
_add(
    Builtin(
        "holder",
        "holder(c)",
        "the player whose zone holds the component, or none",
        "holder(card) == p",
        arity=(1, 1),
        result=PLAYER,
    )
)
_add(
    Builtin("keys", "keys(M)", "the keys of a constant map", "keys(price)", arity=(1, 1), result=list_of(STR))
)
_add(
    Builtin(
        "named",
        "named(L, 'name')",
        "the components of L with that name",
        "named(display, 'C6')",
        arity=(2, 2),
        result=list_of(COMP),
        list_args=(0,),
    )
)
_add(
    Builtin(
        "is_none",
        "is_none(x)",
        "true if x is none",
        "is_none(builder(p))",
        arity=(1, 1),
        result=BOOL,
        inline="({0} is None)",
    )
)


for _e in SPATIAL:
    _add(
        Builtin(
            *_e[:4],
            arity=_e.arity,
            result=_e.result,
            list_args=_e.list_args,
            board_arg=_e.board_arg,
            dir_arg=_e.dir_arg,
        )
    )


def builtin_attr_code(c: ExprBase, name: str, obj: str) -> str:
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
