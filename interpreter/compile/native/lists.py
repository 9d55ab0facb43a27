"""Lists as values in the typed form: `list(L)`, `reversed(L)`, `list(e for v in L)`, and a
`none` given where a definition declares its parameter's type.

Stage: compile (native). A list value is an `L` (prelude.py: a length and LCAP words); `list(L)`
copies one and `reversed(L)` turns one round, each charging the work budget one unit per item as
Python's builtins do (compile/python builtins.READS_ALL: a list literal is not charged). A `none`
passed for a parameter declared `player`, `component` or `symbol` takes that type in the callee, so
that `t == none`, `[t]` and `alive(t)` are typed there as they would be for a seat.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.compile.native import ir
from tabula.interpreter.compile.native.abilities import AbilityLowering
from tabula.interpreter.compile.native.ir import COMP, INT, PLAYER, SYM
from tabula.interpreter.compile.native.lower import MISSING, Scope, Unsupported
from tabula.interpreter.compile.native.slots import NONE
from tabula.interpreter.dsl import ast

_SPAN = 4096  # the most words a number-keyed mapping's table spans
_DECLARED = {"player": PLAYER, "comp": COMP, "str": SYM}  # base.types names -> typed-form types

C_LISTS = r"""
static AI L l_list(X *x, L l) { CHARGE(l.n); return l; }  /* list(L): a copy, each item read */
static AI L l_copy(X *x, L l) { (void)x; return l; }  /* list(L) of a literal: not charged */
static L l_turned(X *x, L l) {  /* reversed(L) of a literal: not charged */
    (void)x;
    for (i64 i = 0, j = l.n - 1; i < j; i++, j--) { i64 t = l.v[i]; l.v[i] = l.v[j]; l.v[j] = t; }
    return l;
}
static AI L l_reversed(X *x, L l) { CHARGE(l.n); return l_turned(x, l); }
"""


class ListLowering(AbilityLowering):
    """`list`, `reversed` and list comprehensions written `list(... for ...)` (the rest: Lowering);
    `param_types` holds each function's and procedure's declared parameter types (support.py)."""

    param_types: dict[str, list[str]]

    def _Call(self, n: ast.Call, scope: Scope) -> ir.Expr:
        assert isinstance(n.func, ast.Name)
        name = n.func.id
        if name in ("list", "reversed") and len(n.args) == 1 and name not in self.defs:
            src = self.source(n.args[0], scope)
            literal = isinstance(n.args[0], ast.ListLit) and all(_constant(x) for x in n.args[0].items)
            fn = {"list": ("l_list", "l_copy"), "reversed": ("l_reversed", "l_turned")}[name][literal]
            return ir.CallF(fn, (src,), src.ty)
        return super()._Call(n, scope)

    def _CallGen(self, n: ast.CallGen, scope: Scope) -> ir.Expr:
        assert isinstance(n.func, ast.Name)
        if n.func.id == "list" and n.gen.by is None and n.gen.default is None:
            return self._ListComp(ast.ListComp(n.span, n.gen), scope)  # the same list, charged alike
        out: ir.Expr = super()._CallGen(n, scope)  # type: ignore[misc]
        return out

    def typed_args(self, name: str, args: list[ir.Expr]) -> list[ir.Expr]:
        """`args` with each `none` given the type its parameter declares (if it declares one of a
        word's types); other arguments as they are."""
        declared = getattr(self, "param_types", {}).get(name, [])
        out = list(args)
        for i, (a, t) in enumerate(zip(args, declared, strict=False)):
            if a.ty == "none" and t in _DECLARED:
                out[i] = ir.NoneV(_DECLARED[t])
        return out

    def mapping_table(self, name: str, mapping: dict[Any, Any], key: ir.Expr, span: Span) -> ir.Expr:
        """A constant mapping keyed by numbers (`hand_size[num_players]`), read at a number: a table
        from its least key to its greatest (a key between them it does not have fails, as a key
        missing in Python does); keyed by symbols, Lowering's."""
        keys = list(mapping)
        if not keys or not all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
            return super().mapping_table(name, mapping, key, span)
        if key.ty not in (INT, PLAYER):
            raise Unsupported(f"a mapping keyed by numbers read at a {key.ty}", span)
        lo, hi = min(keys), max(keys)
        if hi - lo >= _SPAN:
            raise Unsupported(f"a mapping keyed by numbers more than {_SPAN} apart", span)
        at = key if lo == 0 else ir.Bin("-", key, ir.Lit(lo, INT), INT)
        domain = range(lo, hi + 1)
        vals = list(mapping.values())
        if all(isinstance(v, int) and not isinstance(v, bool) and -(1 << 62) < v < 1 << 62 for v in vals):
            self.tables["K_" + name] = ([mapping.get(k, NONE) for k in domain], INT)
            return ir.Table("K_" + name, at, INT)
        if all(v is None or (isinstance(v, str) and v in self.symbols) for v in vals):
            words = [self._word(mapping[k], SYM) if k in mapping else MISSING for k in domain]
            self.tables["KN_" + name] = (words, SYM)
            return ir.Table("KN_" + name, at, SYM)
        if all(isinstance(v, list) for v in vals):
            return self.list_table(name, [mapping.get(k) for k in domain], at, span)
        raise Unsupported("a mapping to other than numbers, symbols or lists", span)

    def call_function(self, name: str, args: list[ir.Expr], span: Span) -> ir.Expr:
        return super().call_function(name, self.typed_args(name, args), span)


def _constant(n: ast.Expr) -> bool:
    """A literal Python folds (no item read at run time): numbers, texts, booleans, none."""
    return isinstance(n, (ast.Number, ast.String, ast.Bool, ast.NoneLit))


__all__ = ["C_LISTS", "ListLowering", "Unsupported"]
