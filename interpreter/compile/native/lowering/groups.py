"""Lists of lists in the typed form: `regions(...)` kept whole as a value, and lists made of lists.

Stage: compile (native). A list of lists (type `list[list[T]]`) is one list value in C
(runtime/groups.c): each inner list its length, then its items, list after list. Equal lists of
lists have equal words, so `==` and `+` compare and join words (`gr_eq`, `gr_cat`, charged as
Python charges lists of lists); `count`, `len`, `r[i]`, `first`, `last`, `list`, `reversed` and
`g in r` read the lengths (`gr_*`), and a loop, an aggregate or a comprehension over one walks
where each list starts (emit/groups_c.py `walk`). A list of lists past the room of a list value
(LCAP words, lengths included) stops native code at run time (E_SIZE): Python plays that
decision. `regions(...)` walked by a loop or an aggregate is still grouped in place (spatial.py
`walked`, runtime/regions.c) without this form.
"""

from __future__ import annotations

from tabula.interpreter.base.source import Span
from tabula.interpreter.compile.native.lowering import ir, spatial
from tabula.interpreter.compile.native.lowering.abilities import AbilityLowering
from tabula.interpreter.compile.native.lowering.ir import ANY_LIST, BOOL
from tabula.interpreter.compile.native.lowering.lower import Scope, Unsupported
from tabula.interpreter.dsl import ast

# the list builtins as lowered (lower.py, lists.py) -> their form on a list of lists (None: refused)
_READS = {
    "l_count": "gr_count",
    "l_first": "gr_first",
    "l_last": "gr_last",
    "l_at": "gr_at",
    "l_list": "gr_list",
    "l_reversed": "gr_reversed",
    "l_distinct": None,
    "l_has": None,
}


def nested(ty: str) -> bool:
    """A list of lists (`list[list[comp]]`: what `regions(...)` gives)."""
    return ty.startswith("list[list[")


def _inner(ty: str) -> bool:
    """A list that may be one of a list of lists: of scalars (or of no known items yet)."""
    return ty.startswith("list[") and ir.elem(ty) in (*ir.SCALARS, "any")


def _both(sides: tuple[ir.Expr, ...], span: Span) -> tuple[ir.Expr, ...]:
    """Two lists of lists, or one and `[]` (a list of no known items holding others: refused)."""
    for e in sides:
        if not nested(e.ty) and not (isinstance(e, ir.ListLit) and not e.items):
            raise Unsupported(f"a list of lists with a {e.ty}", span)
    return sides


def options(src: ir.Source, span: Span) -> ir.Source:
    """An action's parameter's values: words (one option is one word: not a list of a list of lists)."""
    if nested(src.ty):
        raise Unsupported(f"an action's parameter among {src.ty}", span)
    return src


class GroupsLowering(AbilityLowering):
    """`regions(...)` as a value, a comprehension of lists and the list builtins of a list of lists
    (the rest: AbilityLowering and Lowering, whose results are read back here)."""

    def _CallGen(self, n: ast.CallGen, scope: Scope) -> ir.Expr:
        if isinstance(n.func, ast.Name) and n.func.id == "regions":  # its groups, kept
            return spatial.walked(self, n, scope)
        return super()._CallGen(n, scope)

    def _Call(self, n: ast.Call, scope: Scope) -> ir.Expr:
        return self.read(super()._Call(n, scope), n.span)

    def _Index(self, n: ast.Index, scope: Scope) -> ir.Expr:
        return self.read(super()._Index(n, scope), n.span)

    def read(self, e: ir.Expr, span: Span) -> ir.Expr:
        """A list builtin given a list of lists: its `gr_*` form (lengths read), or refused."""
        if not (isinstance(e, ir.CallF) and e.name in _READS and e.args and nested(e.args[0].ty)):
            return e
        name = _READS[e.name]
        if name is None:  # (`x in r` of a word: no list of lists holds one, Python says false)
            what = "'in' of a word among" if e.name == "l_has" else f"'{e.name[2:]}' of"
            raise Unsupported(f"{what} a {e.args[0].ty}", span)
        return ir.CallF(name, e.args, e.ty)

    def _Binary(self, n: ast.Binary, scope: Scope) -> ir.Expr:
        """`r + s` of lists of lists: charged their lists (`gr_cat`; l_cat charges the items of s)."""
        out = super()._Binary(n, scope)
        if isinstance(out, ir.CallF) and out.name == "l_cat" and nested(out.ty):
            return ir.CallF("gr_cat", _both(out.args, n.span), out.ty)
        return out

    def _Compare(self, n: ast.Compare, scope: Scope) -> ir.Expr:
        """`r == s`, `r != s` of lists of lists: charged as Python compares them (`gr_eq`)."""
        out = super()._Compare(n, scope)
        if not (isinstance(out, ir.Bin) and out.op in ("==", "!=")):
            return out
        if not (nested(out.left.ty) or nested(out.right.ty)):
            return out
        if any(isinstance(e, ir.ListLit) and not e.items for e in (out.left, out.right)):
            return out  # against `[]`: a test of emptiness, not charged (as in Python)
        test: ir.Expr = ir.CallF("gr_eq", _both((out.left, out.right), n.span), BOOL)
        return ir.Unary("!", test, BOOL) if out.op == "!=" else test

    def list_item(self, item: str) -> bool:
        """A var may hold a list of lists too: at each store of one Python measures the whole state
        (run/budget.py `stored`), so native code stops there (stops.py `kept_stores`) and Python
        plays the decision; native code only ever reads it empty (a state holding one stays in
        Python: the var's words have no room for it, slots.py `encode_var`)."""
        return super().list_item(item) or (item.startswith("list[") and ir.elem(item) in ir.SCALARS)

    def _In(self, n: ast.In, scope: Scope) -> ir.Expr:
        """`g in r`: a list among a list of lists (compared as lists, Python's `in`)."""
        try:
            return self.read(super()._In(n, scope), n.span)
        except Unsupported as u:
            if not u.what.startswith("'in' of a list["):
                raise
        item, among = self.expr(n.item, scope), self.source(n.container, scope)
        if not (nested(among.ty) and ir.comparable(item.ty, ir.elem(among.ty))):
            raise Unsupported(f"'in' of a {item.ty} among {among.ty}", n.span)
        test: ir.Expr = ir.CallF("gr_has", (among, item), BOOL)
        return ir.Unary("!", test, BOOL) if n.negated else test

    def _ListComp(self, n: ast.ListComp, scope: Scope) -> ir.Expr:
        """`[e for v in L where c]` whose items are lists: a list of lists."""
        try:
            return super()._ListComp(n, scope)
        except Unsupported as u:
            if not u.what.startswith("a list of list["):
                raise
        gen = n.gen
        src = self.source(gen.iter, scope)
        inner = {**scope, gen.var: ir.elem(src.ty)}
        cond = self.boolean(gen.cond, inner) if gen.cond is not None else None
        elt = self.expr(gen.elt, inner)
        if not _inner(elt.ty) or elt.ty == ANY_LIST:
            raise Unsupported(f"a list of {elt.ty}", n.span)
        return ir.Picked(gen.var, src, cond, f"list[{elt.ty}]", elt)


__all__ = ["GroupsLowering", "nested", "options"]
