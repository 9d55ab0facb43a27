"""Operators: `not`, `and`, `or`, comparisons, `in`, arithmetic, `if-else`, with constant folding.

Stage: compile. Each operator of literals is folded at compile time (`1 + 2` is `3`, `x and false`
is `False`); `bool(...)` is written only where an operand is not already true or false; `== none`
becomes `is None` (state values are plain data: only none is none). The work an operator can do is
charged where it is unbounded (run/budget.py): a comparison of two lists that may be long, `in` a
long list, `*` and `+` of values the compiler cannot see. `T[i] == v`, a constant column of the
game compared with a literal, becomes a lookup in a column of the answers made once.
"""

from __future__ import annotations

import operator
import re

from tabula.interpreter.base.types import ANY, BOOL, INT, ZONE, Scope, join
from tabula.interpreter.base.types import a as article
from tabula.interpreter.compile.python.expressions.base import ExprBase
from tabula.interpreter.compile.python.expressions.fragments import (
    NO_VALUE,
    Code,
    is_cheap,
    is_literal,
    literal,
)
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import budget

SHORT_LIST = budget.SHORT_LIST  # `x in L` of at most this many items is not charged per item
_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COLUMN_READ = re.compile(r"\(?(_(?:prop|attr)_\w+)\[((?:v_|L\[')?[\w']+\]?)\]\)?")


def _may_be_long_list(src: str, t: str) -> bool:
    """An operand of a comparison that may be a list of more than a few items (budget.COMPARE)."""
    if t != ANY and not t.startswith("list["):
        return False
    v = literal(src)
    return v is NO_VALUE or (isinstance(v, list) and len(v) > budget.LIGHT)


class OperatorCompiler(ExprBase):
    """Operators and their folding (part of `ExprCompiler`, exprs.py)."""

    def _Neg(self, n: ast.Neg, scope: Scope) -> Code:
        src, t = self.code(n.operand, scope)
        self.expect(t, INT, n.operand.span)
        v = literal(src)
        if isinstance(v, int) and not isinstance(v, bool):
            return f"({-v})" if -v < 0 else repr(-v), INT
        return f"(-{src})", INT

    def _Not(self, n: ast.Not, scope: Scope) -> Code:
        src = self.cond_code(n.operand, scope)
        v = literal(src)
        if v is not NO_VALUE:
            return repr(not v), BOOL
        return f"(not {src})", BOOL

    def _And(self, n: ast.And, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        self.warn_cond(at, n.left)
        b, bt = self.code(n.right, scope)
        self.warn_cond(bt, n.right)
        va, vb = literal(a), literal(b)
        if va is not NO_VALUE:
            return ("False", BOOL) if not va else self._as_bool(b, bt)
        if vb is not NO_VALUE and vb:
            return self._as_bool(a, at)
        if at == BOOL and bt == BOOL:
            return f"({a} and {b})", BOOL
        return f"bool({a} and {b})", BOOL

    def _Or(self, n: ast.Or, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        self.warn_cond(at, n.left)
        b, bt = self.code(n.right, scope)
        self.warn_cond(bt, n.right)
        va, vb = literal(a), literal(b)
        if va is not NO_VALUE:
            return ("True", BOOL) if va else self._as_bool(b, bt)
        if vb is not NO_VALUE and not vb:
            return self._as_bool(a, at)
        if at == BOOL and bt == BOOL:
            return f"({a} or {b})", BOOL
        return f"bool({a} or {b})", BOOL

    def _as_bool(self, src: str, t: str) -> Code:
        v = literal(src)
        if v is not NO_VALUE:
            return repr(bool(v)), BOOL
        return (src, BOOL) if t == BOOL else (f"bool({src})", BOOL)

    def _Compare(self, n: ast.Compare, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        b, bt = self.code(n.right, scope)
        if n.op not in ("==", "!="):
            for t, node in ((at, n.left), (bt, n.right)):
                if t not in (INT, ANY):
                    self.report.error(
                        "T004", f"'{n.op}' compares numbers, but this is {article(t)}", node.span
                    )
        va, vb = literal(a), literal(b)
        if va is not NO_VALUE and vb is not NO_VALUE:
            try:
                return repr(bool(_COMPARE[n.op](va, vb))), BOOL
            except TypeError:
                pass
        if n.op in ("==", "!=") and "None" in (a, b):  # state values are plain data: only none is none
            other = b if a == "None" else a
            return f"({other} {'is' if n.op == '==' else 'is not'} None)", BOOL
        if n.op in ("==", "!="):
            derived = self._derived_test(a, b, n.op) or self._derived_test(b, a, n.op)
            if derived is not None:
                return derived, BOOL
        if self._charged_compare(a, at, b, bt):  # each item compared is charged (budget.COMPARE)
            charged = f"{self.helper(budget.COMPARE[n.op])}(rt, {a}, {b})"
            for x in (b, a):  # a cheap operand that is no list: compared at once
                if is_cheap(x):
                    return f"({a} {n.op} {b} if {x}.__class__ is not list else {charged})", BOOL
            return charged, BOOL
        return f"({a} {n.op} {b})", BOOL

    def _derived_test(self, read: str, other: str, op: str) -> str | None:
        """`T[i] == v` where T is a constant column of the game (a property, a component's type) and
        v a literal: a lookup in a column of the answers, made once (a single lookup filters as a
        C loop, aggregates._lookup_filter)."""
        m = _COLUMN_READ.fullmatch(read)
        value = literal(other)
        if m is None or value is NO_VALUE or isinstance(value, (list, dict)):
            return None
        column = self.mod.data.get(m.group(1))
        if not isinstance(column, list) or any(isinstance(x, (list, dict)) for x in column):
            return None
        key = (m.group(1), op, repr(value))
        name = self._derived.get(key)
        if name is None:
            answers = [(x == value) == (op == "==") for x in column]
            name = self._derived[key] = self.inject(answers, f"{m.group(1).strip('_')}_is")
        return f"{name}[{m.group(2)}]"

    def _charged_compare(self, a: str, at: str, b: str, bt: str) -> bool:
        """Whether a comparison may read two long lists: both operands may be lists, and one is
        known to be one or the comparison is not inside a generator (there, between values of
        unknown type, it is left plain: an element compared reads at most the items of the two)."""
        if not (_may_be_long_list(a, at) and _may_be_long_list(b, bt)):
            return False
        return not self._loops or at.startswith("list[") or bt.startswith("list[")

    def _In(self, n: ast.In, scope: Scope) -> Code:
        x, _ = self.code(n.item, scope)
        c, ct = self.code(n.container, scope)
        op = "!=" if n.negated else "=="
        if ct == ZONE:
            return f"({self.bind('LOC')}[{x}] {op} {c})", BOOL
        if ct != ANY and not ct.startswith("list["):
            return self.error(
                "T001", f"'in' needs a list or a zone on its right, found {article(ct)}", n.container.span
            )
        vx, vc = literal(x), literal(c)
        if vx is not NO_VALUE and isinstance(vc, list):
            return repr((vx not in vc) if n.negated else (vx in vc)), BOOL
        container = c if ct != ANY else f"_as_list(rt, {c})"
        op = "not in" if n.negated else "in"
        if is_literal(c):
            return f"({x} {op} {container})", BOOL
        known = self.mod.data.get(c) if c.isidentifier() else None
        if isinstance(known, list) and len(known) <= SHORT_LIST:
            # a constant of the game (a table's column, say): its size is known now
            return f"({x} {op} {c})", BOOL
        # a short list is read like one operand, so only a long one is charged (native code alike)
        if is_cheap(container):
            charged = f"{self.helper(budget.each)}(rt, {container})"
            short = f"len({container}) <= {SHORT_LIST}"
            test = f"(({x} {op} {container}) if {short} else ({x} {op} {charged}))"
            # an empty list (a card active for nobody, say) answers without a call
            return f"({n.negated} if not {container} else {test})", BOOL
        return f"({x} {op} {self.helper(budget.searched)}(rt, {container}))", BOOL

    def _Binary(self, n: ast.Binary, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        b, bt = self.code(n.right, scope)
        if n.op == "+" and (at.startswith("list[") or bt.startswith("list[")):
            bounded = self.helper(budget.bounded)
            if at.startswith("list[") and bt.startswith("list["):
                return f"{bounded}(rt, {a} + {b})", join(at, bt)  # two lists: no copies needed
            return f"{bounded}(rt, list({a}) + list({b}))", join(at, bt)
        for t, node in ((at, n.left), (bt, n.right)):
            if t not in (INT, ANY):
                self.report.error("T005", f"'{n.op}' needs numbers, but this is {article(t)}", node.span)
        result = INT if INT in (at, bt) and n.op != "*" else (ANY if ANY in (at, bt) else INT)
        # a number added to a value of unknown type: the value must be a number too (a text or a
        # list plus a number fails), so the sum is one; not a product (a text or a list times a
        # number repeats it)
        if n.op in ("-", "//") or (n.op == "%" and at == INT):
            result = INT  # only numbers subtract or divide: whatever the operands, a result is a number
        va, vb = literal(a), literal(b)
        if (
            isinstance(va, int)
            and isinstance(vb, int)
            and not isinstance(va, bool)
            and not isinstance(vb, bool)
        ):
            try:
                v = _ARITH[n.op](va, vb)
                if abs(v) < 2**62:
                    return (f"({v})" if v < 0 else repr(v)), INT
            except ZeroDivisionError:
                pass
        if n.op == "*":  # sizes bounded, big operands charged (run/budget.py)
            return f"{self.helper(budget.times)}(rt, {a}, {b})", result
        if n.op == "+" and ANY in (at, bt):  # numbers, or texts or lists the compiler cannot see
            return f"{self.helper(budget.plus)}(rt, {a}, {b})", result
        # a difference is plain, whatever the operands: it at most doubles the larger, so within one
        # expression (nested at most MAX_DSL_DEPTH deep) a number grows by a few digits, and every
        # number kept in the state has its digits bounded where it is stored (effects.py `kept`)
        return f"({a} {n.op} {b})", result

    def _CondExpr(self, n: ast.CondExpr, scope: Scope) -> Code:
        c = self.cond_code(n.test, scope)
        a, at = self.code(n.then, scope)
        b, bt = self.code(n.otherwise, scope)
        v = literal(c)
        if v is not NO_VALUE:
            return (a, join(at, bt)) if v else (b, join(at, bt))
        return f"({a} if {c} else {b})", join(at, bt)
