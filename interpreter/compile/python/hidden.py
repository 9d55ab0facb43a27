"""Which vars and marks may hold components, so that views can hide the ones a player may not see.

Stage: compile (after every body is compiled). A component is a plain number in the state, and a
view (model/view.py) hides components by the declared type of the var or mark holding them. So a
var or a mark of type `any` (or a list of `any`) that a rule may give a component - a value that is
one, or whose type the checker does not know, unless it is made only of other such vars and marks
that are given none - must say what it holds:

- a mark whose stores are all components (or all lists of components), besides none, takes that
  type here (`CompiledGame.mark_kinds`): views hide what it names, saves hold it to component ids;
- any other such var or mark is T011 at its declaration, unless it declares a component type or
  `visibility: public` (every player may know what it holds).
"""

from __future__ import annotations

from tabula.interpreter.base import types as static
from tabula.interpreter.base.source import Span
from tabula.interpreter.base.types import COMP
from tabula.interpreter.compile.python.context import GameContext
from tabula.interpreter.compile.python.statements.writes import MARK
from tabula.interpreter.load.positions import span_for

Stores = dict[str, list[tuple[str, Span, frozenset[str] | None]]]


def components_in_any(ctx: GameContext) -> None:
    """Marks given only components take a component type; T011 at every other var or mark of type
    `any` that a rule may give a component (see the module docstring)."""
    read = ctx.read
    if read.report.has_errors:
        return  # a value that failed to compile has no type: every store of one would look unknown
    g = ctx.g
    stores: Stores = dict(ctx.sc.any_stores)
    stores.update({MARK + mark: found for mark, found in ctx.sc.mark_stores.items()})
    holders = _holders(stores)
    declared = read.data.get("vars") or {}
    public = {name for name, vdef in declared.items() if (vdef or {}).get("visibility") == "public"}
    public |= {MARK + mark for mark in g.public_marks}
    for name, (t, where) in holders.items():
        if name in public or (name.startswith(MARK) and _typed_by_its_stores(ctx, name[1:])):
            continue
        what, path = _declaration(ctx, name)
        read.report.error(
            "T011",
            f"{what} has no component type, but a rule may store {static.a(t)} in it "
            f"({where.file}:{where.line}:{where.col}): views would show every player the components it holds",
            span_for(read.src, path, key=True),
            f"declare {_HOW[what.split()[0]]} so views hide the components a player may not see, or "
            "'visibility: public' if every player may know what it holds",
        )


_HOW = {
    "var": "'type: component' or 'type: components'",
    "mark": "it {initial: none, type: component} (or type: components)",
}


def _holders(stores: Stores) -> dict[str, tuple[str, Span]]:
    """Each var or mark that may hold a component -> the first store that says so: a store whose
    value is one or of an unknown make, then (to a fixed point) one made of such a var or mark."""
    first: dict[str, tuple[str, Span]] = {}
    for name, found in stores.items():
        for t, span, sources in found:
            if static.may_hold_components(t) and (COMP in t or sources is None):
                first.setdefault(name, (t, span))
                break
    grew = True
    while grew:  # a value made of a var or mark that may hold components may hold them too
        grew = False
        for name, found in stores.items():
            hit = next(
                ((t, s) for t, s, src in found if name not in first and src and src & first.keys()), None
            )
            if hit is not None:
                first[name] = hit
                grew = True
    return first


def _typed_by_its_stores(ctx: GameContext, mark: str) -> bool:
    """Give `mark` the type component (components) when every store into it is one (a list of
    them) or none, and its default is none (or an empty list); whether it did."""
    g = ctx.g
    kinds = {t for t, _, _ in ctx.sc.mark_stores.get(mark, [])} - {static.NONE}
    default = g.marks[mark]
    if kinds == {COMP} and default is None:
        g.mark_kinds[mark] = COMP
    elif kinds == {static.list_of(COMP)} and (default is None or default == []):
        g.mark_kinds[mark] = static.list_of(COMP)
    else:
        return False
    return True


def _declaration(ctx: GameContext, name: str) -> tuple[str, tuple[str, ...]]:
    """A var's or a mark's name in a message, and the path of its declaration."""
    if name.startswith(MARK):
        mark = name[1:]
        return f"mark '{mark}'", ("components", ctx.g.mark_types[mark][0], "marks", mark)
    return f"var '{name}'", ("vars", name)
