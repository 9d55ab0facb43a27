"""The run-time half of the DSL's expressions: what generated code calls besides the budget helpers.

Stage: run. The compiler (compile/python: builtins.py, aggregates.py, exprbase.py, functions.py)
writes calls of these functions into a game's generated module, by name, as a linker links a
runtime library (compile/ imports run/, never the other way):

- `IMPLS`, the implementation of each builtin function by its DSL name, for a call the compiler
  does not write inline (`max(a, b)`, `left_of(p)`, ...); `impl(rt, *args)`;
- the helpers of the aggregates' fast forms (`_count_equal`, `_first_of_each`, `_max_or`, ...);
- the names every generated module holds (`_broken`, `_as_list`) and the marker of a missing
  remembered result (`_MISS_FN`).

A helper that reads a whole list charges its items to the work budget (budget.py), as the loop it
replaces would, unless the generated call charges them first (compile/python/builtins.py
`READS_ALL`). The names keep their leading underscore: a generated module names its helpers after
them (`_h__distinct_3`), so renaming one would change the text of every generated module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabula.interpreter.run import boards, tiles
from tabula.interpreter.run.budget import MAX_LIST, bounded, each, sized
from tabula.interpreter.run.english import counted, with_article
from tabula.interpreter.run.pieces import placements
from tabula.interpreter.run.pyerrors import typed
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime, over_budget

# ---------------------------------------------------------------- every generated module


def _MISS_FN() -> None:
    """A marker object: no remembered result (see compile/python/functions.py, memo_function)."""


def _broken(rt: Runtime) -> Any:
    raise GameRuntimeError("this expression has an error and cannot run", None, "R014")


def _as_list(rt: Runtime, v: Any) -> Any:
    """A list from a value of unknown static type: ints are zone instances."""
    return rt.st["z"][v] if isinstance(v, int) and not isinstance(v, bool) else v


# ---------------------------------------------------------------- the aggregates' fast forms


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


def _sorted_by(rt: Runtime, pairs: list[tuple[Any, Any]]) -> list[Any]:
    """`sorted(e for x in L by K)`: of (item, key) pairs, the items in the order of their keys, items
    of equal keys in their order in L (a stable sort)."""
    return [x for x, _ in sorted(pairs, key=lambda pair: pair[1])]


def _distinct_by(rt: Runtime, pairs: list[tuple[Any, Any]]) -> list[Any]:
    """`distinct(e for x in L by K)`: of (item, key) pairs, the first item of each key, in order
    (one pass when the keys can be hashed; a list among the keys is compared pairwise, charged)."""
    try:
        firsts: dict[Any, Any] = {}
        for x, k in pairs:
            firsts.setdefault(k, x)
        return list(firsts.values())
    except TypeError:
        keys: list[Any] = []
        out: list[Any] = []
        for x, k in pairs:
            each(rt, keys)
            if k not in keys:
                keys.append(k)
                out.append(x)
        return out


def _min_or(xs: list[Any], default: Any) -> Any:
    """`min(... default d)`: `min(xs, default=d)` without a call with a keyword (a slow one)."""
    return min(xs) if xs else default


def _max_or(xs: list[Any], default: Any) -> Any:
    """`max(... default d)`: `max(xs, default=d)` without a call with a keyword (a slow one)."""
    return max(xs) if xs else default


# ---------------------------------------------------------------- builtin functions


def _players(rt: Runtime) -> int:
    n: int = rt.st["t"]["n"]
    return n


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


def _with_item(rt: Runtime, xs: list[Any], i: int, x: Any) -> list[Any]:
    out = list(xs)
    out[i] = x
    return out


def _flatten(rt: Runtime, xs: list[Any]) -> list[Any]:
    """The items of each list or zone of `xs` in turn. The lists and their items are charged, and
    the size limit of a list checked, before the result is built."""
    zones = rt.st["z"]
    parts = [zones[x] if x.__class__ is int and 0 <= x < len(zones) else x for x in xs]
    n = 0
    for part in parts:
        if part.__class__ is not list:
            raise GameRuntimeError(
                f"flatten needs a list of lists or zones, and {typed(part)} in it is neither", None, "R004"
            )
        n += len(part)
    sized(rt, n, "list")
    each(rt, parts)
    out: list[Any] = []
    for part in parts:
        out += part
    return out


# The implementation of each builtin (compile/python/builtins.py declares its syntax, types and
# inline form): a list argument arrives charged where the builtin reads all of it (builtins.READS_ALL),
# unless the implementation charges it itself (`_distinct`, `_flatten`).
# the spatial builtins (run/boards.py, run/pieces.py), each named as the DSL names it
SPATIAL: tuple[Callable[..., Any], ...] = (
    *(boards.cell, boards.cells, boards.neighbours, boards.in_direction, boards.line_from),
    *(boards.bounding_box, boards.shortest_path, boards.path_exists, boards.distance),
    *(boards.longest_path, placements),
    *(tiles.rotations, tiles.turned, tiles.tile_on, tiles.fits, tiles.side, tiles.feature),
    *(tiles.features, tiles.open_ends, boards.frontier),
)
IMPLS: dict[str, Callable[..., Any]] = {
    "len": lambda rt, xs: len(xs),
    "count": lambda rt, xs: len(xs),
    "sum": lambda rt, xs: sum(xs),
    "any": lambda rt, xs: any(xs),
    "all": lambda rt, xs: all(xs),
    "max": _minmax(max),
    "min": _minmax(min),
    "range": lambda rt, a, b: bounded(rt, list(range(a, min(b, a + MAX_LIST + 1)))),
    "distinct": _distinct,  # also the aggregate's helper: one object, one name in a generated module
    "sorted": lambda rt, xs: sorted(xs),
    "reversed": lambda rt, xs: list(reversed(xs)),
    "flatten": _flatten,
    "top": lambda rt, xs: xs[0] if xs else None,
    "first": lambda rt, xs: xs[0] if xs else None,
    "last": lambda rt, xs: xs[-1] if xs else None,
    "abs": lambda rt, x: abs(x),
    "has": lambda rt, xs, x: x in xs,
    "count_of": lambda rt, xs, x: list(xs).count(x),
    "remove_one": _remove_one,
    "with_item": _with_item,
    "list": lambda rt, xs: list(xs),
    "left_of": lambda rt, p: (p + 1) % _players(rt),
    "right_of": lambda rt, p: (p - 1) % _players(rt),
    "clockwise_from": lambda rt, p: [(p + i) % _players(rt) for i in range(_players(rt))],
    "others_from": lambda rt, p: [(p + i) % _players(rt) for i in range(1, _players(rt))],
    "player": lambda rt, i: i % _players(rt),
    "zone_of": lambda rt, c: rt.st["loc"][c],
    "holder": _holder,
    "keys": lambda rt, m: list(m),
    "named": lambda rt, xs, nm: [c for c in xs if rt.g.components[c].name == nm],
    "is_none": lambda rt, x: x is None,
    "plural": lambda rt, n, word, plural=None: counted(n, word, plural),
    "article": lambda rt, word: with_article(word),
    **{f.__name__: f for f in SPATIAL},
}
