"""Statements that write: `let`, `set`, `gain` and `pay`, and what a writable target is.

Stage: compile (the Python target). A target is a Python local, a frame local, a counter (bounded by
its `min` and `max`), a var or a mark; `writer` finds which, `write` reads the old value, checks the
amount and the bounds and stores the new one. A value stored where it stays in the state is measured
against the state's totals (run/budget.py) when it may be large.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import fields

from tabula.interpreter.base import types as static
from tabula.interpreter.base.source import Span, did_you_mean
from tabula.interpreter.base.types import ANY, COMP, INT, NONE, PLAYER, ZONE, Scope, list_of
from tabula.interpreter.compile.python.expressions.builtins import BUILTINS
from tabula.interpreter.compile.python.expressions.fragments import NO_VALUE, is_literal, literal
from tabula.interpreter.compile.python.statements.base import PY, StatementCompiler
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import CompiledGame, VarLayout
from tabula.interpreter.run import budget, support


class WriteStatements(StatementCompiler):
    """`let`, `set`, `gain`, `pay` (mixed into EffectCompiler)."""

    def _Let(self, out: Lines, depth: int, n: ast.Let, scope: Scope, mode: str) -> None:
        src, t = self.ex.code(n.value, scope)
        t = t if t != NONE else ANY
        if mode == PY:
            scope.py[n.name] = t
            scope.known.pop(n.name, None)
            out.add(depth, f"v_{n.name} = {src}", n.span)
            self.kept_after(out, depth, n.span, f"v_{n.name}", src, t, saved=False)
        else:
            scope.locals[n.name] = t
            out.add(depth, f"L[{n.name!r}] = {self.kept(src, t, True, 'L', repr(n.name))}", n.span)
            self.kept_after(out, depth, n.span, f"L[{n.name!r}]", src, t, saved=True)

    def _Set(self, out: Lines, depth: int, n: ast.Set, scope: Scope, mode: str) -> None:
        if isinstance(n.target, ast.Index):
            self.set_item(out, depth, n, n.target, scope)
            return
        self.write(out, depth, n.span, n.target, n.value, n.op, scope)

    def set_item(self, out: Lines, depth: int, n: ast.Set, target: ast.Index, scope: Scope) -> None:
        """`set xs[i] = v` (or `+=`, `-=`): `set xs = with_item(xs, i, v)`, a new list with that item
        replaced (a list held in the state may be shared: it is never changed in place)."""
        _, t = self.ex.code(target.obj, scope)
        if t == ZONE or not (t == ANY or t.startswith("list[")):
            self.report.error(
                "E110",
                f"only an item of a list can be set, and this is {static.a(t)}",
                target.obj.span,
                "set an item of a list var or local: set grid[i] = 5"
                + (" (a zone changes by `move`)" if t == ZONE else ""),
            )
            return
        self.ex.code(target, scope)  # the position's checks (T013)
        value = n.value if n.op == "=" else ast.Binary(n.value.span, n.op[0], target, n.value)
        func = ast.Name(target.span, "with_item")
        self.write(
            out,
            depth,
            n.span,
            target.obj,
            ast.Call(n.span, func, (target.obj, target.key, value)),
            "=",
            scope,
        )

    def _Gain(self, out: Lines, depth: int, n: ast.Gain, scope: Scope, mode: str) -> None:
        self.counter_write(out, depth, n, scope, "gain")

    def _Pay(self, out: Lines, depth: int, n: ast.Pay, scope: Scope, mode: str) -> None:
        self.counter_write(out, depth, n, scope, "pay")

    def writer(self, target: ast.Expr, scope: Scope) -> tuple[str, str, str, int | None, int | None] | None:
        """(container source, index source, description, min, max) for a writable target; for a
        Python local, (the local's name, "", description, None, None)."""
        g = self.g
        ex = self.ex
        if isinstance(target, ast.Name) and target.id in scope.py and target.id not in scope.known:
            return f"v_{target.id}", "", f"'{target.id}'", None, None
        if isinstance(target, ast.Name) and target.id in scope.locals:
            return "L", repr(target.id), f"'{target.id}'", None, None
        if isinstance(target, ast.Call) and not isinstance(target.func, ast.Name):
            self.report.error("E110", "this cannot be changed", target.span)
            return None
        name = target_name(target)
        if name in g.counters and isinstance(target, (ast.Call, ast.Name)):
            idx = ex.counter_index_code(name, target, scope)
            if idx is None:
                return None
            c = g.counters[name]
            return self.ex.bind("C"), idx, f"counter '{name}'", c.min, c.max
        if name in g.vars:
            if not g.vars[name].per_player:
                return "S['v']", repr(name), f"'{name}'", None, None
            if not isinstance(target, ast.Call) or len(target.args) != 1:
                self.report.error("E105", f"'{name}' is kept per player: write {name}(p)", target.span)
                return None
            return ex.bind("pv_" + name), ex.code(target.args[0], scope)[0], f"'{name}'", None, None
        if isinstance(target, ast.Attr):
            if target.name not in g.marks:
                self.report.error(
                    "E111",
                    f"'{target.name}' is not a mark: only marks can be changed",
                    target.span,
                    did_you_mean(target.name, g.marks) or "declare it under the type's 'marks:'",
                )
                return None
            return (
                ex.bind("m_" + target.name),
                ex.code(target.obj, scope)[0],
                f"mark '{target.name}'",
                None,
                None,
            )
        if name in ("players", "num_players", "active", "round", "turn"):
            self.report.error(
                "E110",
                f"'{name}' is kept by the engine: it can be read, not set",
                target.span,
                "keep your own count in a var or a counter",
            )
            return None
        hint = did_you_mean(name, [*g.counters, *g.vars, *scope.locals, *scope.py]) if name else None
        self.report.error(
            "E110",
            "this cannot be changed: expected a counter, a var, a mark or a local",
            target.span,
            hint or "declare it under 'counters:' or 'vars:'",
        )
        return None

    def write(
        self, out: Lines, depth: int, span: Span, target: ast.Expr, value: ast.Expr, op: str, scope: Scope
    ) -> None:
        """`set` / `gain` / `pay`: read, check the amount and the bounds, write."""
        w = self.writer(target, scope)
        v, t = self.ex.code(value, scope)
        if op != "=":
            self.ex.expect(t, INT, value.span)
        if w is None:
            return
        box, index, what, lo, hi = w
        if index == "":  # a Python local
            cur = box
            slot = box
        else:
            i = self.tmp()
            if not (is_literal(index) or index.isidentifier()):
                out.add(depth, f"{i} = {index}", span)
                index = i
            cur = f"{box}[{index}]"
            slot = cur
        local = index == "" or box == "L"  # functions cannot see locals: nothing to forget
        var = None if local or what.startswith(("counter", "mark")) else self.g.vars[target_name(target)]
        mark = target.name if isinstance(target, ast.Attr) and what.startswith("mark") else None
        if op == "=":
            if what.startswith("counter"):
                self.unbounded(target_name(target))
                v = self.counter_typed(what, v, t, value.span)
            if var is not None:
                v = self.typed(var, v, t, value, scope)
            elif mark is not None:
                v = self.mark_typed(mark, v, t, value, scope)
            saved = index != "" and lo is None and hi is None and not what.startswith("counter")
            out.add(depth, f"{slot} = {self.kept(v, t, saved, box, index)}", span)
            self.kept_after(out, depth, span, slot, v, t, saved)
            if not local:
                self.written(out, depth)
            return
        val, new = self.tmp(), self.tmp()
        out.add(depth, f"{val} = {v}", span)
        sign = "+" if op in ("+=", "gain") else "-"
        out.add(depth, f"{new} = {cur} {sign} {val}", span)
        checks = [f"{val}.__class__ is not int"]
        lit = literal(v)
        if isinstance(lit, int) and not isinstance(lit, bool) and lit >= 0:
            checks = []  # a literal amount: its type and sign are known
        elif op in ("gain", "pay"):
            checks.append(f"{val} < 0")
        if checks:  # an amount that may be large: the sum's digits bounded (budget.SMALL)
            checks.append(f"not -{budget.SMALL} < {new} < {budget.SMALL}")
        if lo is not None:
            checks.append(f"{new} < {lo}")
        if hi is not None:
            checks.append(f"{new} > {hi}")
        if checks:
            fail = self.ex.helper(support.write_failure)
            out.add(
                depth, f"if {' or '.join(checks)}: {fail}({what!r}, {op!r}, {cur}, {val}, {lo}, {hi})", span
            )
        if var is not None:
            new = self.typed(var, new, INT, value, scope)
        elif mark is not None:
            new = self.mark_typed(mark, new, INT, value, scope)
        out.add(depth, f"{slot} = {new}", span)
        if not local:
            self.written(out, depth)

    def typed(self, var: VarLayout, src: str, t: str, value: ast.Expr, scope: Scope) -> str:
        """The source of a value (`src`, of static type `t`) stored in `var`, checked against the
        var's declared type at run time where the static types do not prove it; a type that cannot
        fit is T002 here. Stores that may put a component into an `any` var are noted (the game
        compiler's `_components_in_any`)."""
        if static.may_hold_components(t) and static.ANY in var.type:
            self.any_stores.setdefault(var.name, []).append((t, value.span, self.sources(value, scope)))
        return self._checked_store(src, t, var.type, value.span, (f"'{var.name}'", var.name, "var"))

    def mark_typed(self, mark: str, src: str, t: str, value: ast.Expr, scope: Scope) -> str:
        """The source of a value stored in mark `mark`, as `typed` does for a var. Every store into a
        mark whose type has `any` in it is noted: the game compiler gives such a mark the type
        component when the rules store only components in it (`_components_in_any`)."""
        want = self.g.mark_kinds[mark]
        if static.ANY in want:
            self.mark_stores.setdefault(mark, []).append((t, value.span, self.sources(value, scope)))
        return self._checked_store(src, t, want, value.span, (f"mark '{mark}'", f"mark {mark}", "mark"))

    def _checked_store(self, src: str, t: str, want: str, span: Span, names: tuple[str, str, str]) -> str:
        """`src` (of static type `t`) stored where `want` is declared: T002 when it cannot fit, a
        run-time check (R010, support.store_checked) when only its value can tell. `names`: the
        target in a message, in a run-time message, and what declares its type."""
        label, what, owner = names
        verdict = static.store_verdict(want, t)
        if verdict == static.WRONG:
            self.report.error(
                "T002",
                f"{label} holds {static.a(want)}, but this is {static.a(t)}",
                span,
                f"change the value, or the {owner}'s 'type:'",
            )
        if verdict == static.OK or self._proved(literal(src), want):
            return src
        return f"{self.ex.helper(support.store_checked)}(rt, {src}, {want!r}, {what!r})"

    def counter_typed(self, what: str, src: str, t: str, span: Span) -> str:
        """The source of a value set into a counter (`what`), which holds a number: T002 when its static
        type cannot be one (a text constant), a run-time check (R010) when it is `any`."""
        if t in (INT, ANY):
            return src if t == INT else f"{self.ex.helper(support.number_checked)}({src}, {what!r})"
        self.report.error(
            "T002", f"{what} holds a number, but this is {static.a(t)}", span, "set it to a number"
        )
        return src

    def _proved(self, lit: object, want: str) -> bool:
        """Whether a literal value (or NO_VALUE) is known to fit: none, an empty list, a seat that
        every player count has."""
        if lit is NO_VALUE:
            return False
        if want == PLAYER:
            return lit.__class__ is int and 0 <= lit < self.g.min_players
        return lit is None or lit == []

    def sources(self, value: ast.Expr, scope: Scope) -> frozenset[str] | None:
        """The vars of type `any` a stored value is made of (`value_sources`)."""
        return value_sources(value, self.g, scope, self.ex.functions)

    def kept(self, src: str, t: str, saved: bool, box: str = "", key: str = "") -> str:
        """The source of a value stored where it stays: in the state (`saved`: a var, a mark, a
        local or an argument its frame keeps) or in a Python local or a counter. Wrapped in
        `budget.stored` when it may be a large list, text or map (stored at `box[key]`, whose value
        it replaces; none: a new frame's local): the state is measured against its totals."""
        if not saved or t in (INT, static.BOOL, NONE, COMP, PLAYER, ZONE) or _light_literal(src):
            return src
        if box and t in _MEASURED_AFTER:  # checked once stored (kept_number), without a call
            return src
        return f"{self.ex.helper(budget.stored)}(rt, {src}{f', {box}, {key}' if box else ''})"

    def kept_after(
        self, out: Lines, depth: int, span: Span, slot: str, src: str, t: str, saved: bool
    ) -> None:
        """After a value (`src`, of static type `t`) is stored into `slot`: a number's digits
        bounded, and the state measured when a number, a text or a list of components or players
        is large (`saved`: the slot is part of the state)."""
        if _light_literal(src):
            return
        if t in _MEASURED_AFTER and saved:  # a text, or a list of components or players
            cls = self.ex.inject(str, "str_class") if t == static.STR else "list"
            check = f"{self.ex.helper(budget.measured)}(rt, {slot})"
            out.add(depth, f"if {slot}.__class__ is {cls} and len({slot}) > {budget.LIGHT}: {check}", span)
        if t != INT or (not saved and src.isidentifier()):
            return
        check = self.ex.helper(budget.number_kept if saved else budget.number_stored)
        check = f"{check}(rt, {slot})"
        # a number's static type admits none (`distance` with no path, `first` of nothing): kept
        test = f"{slot} is not None and not -{budget.SMALL} < {slot} < {budget.SMALL}"
        out.add(depth, f"if {test}: {check}", span)

    def counter_write(self, out: Lines, depth: int, n: ast.Gain | ast.Pay, scope: Scope, op: str) -> None:
        if (
            isinstance(n.amount, ast.Neg)
            and isinstance(n.amount.operand, ast.Number)
            and n.amount.operand.value
        ):
            self.report.error(
                "E117",
                f"cannot {op} a negative amount",
                n.amount.span,
                f"write '{'pay' if op == 'gain' else 'gain'} {n.amount.operand.value} ...' instead",
            )
        name = target_name(n.target)
        if name not in self.g.counters:
            self.ex.code(n.amount, scope)  # its own mistakes are reported too
            example = next(iter(self.g.counters), "score")
            self.report.error(
                "E112",
                f"'{op}' needs a counter, e.g. {example}",
                n.target.span,
                did_you_mean(name, self.g.counters) if name else None,
            )
            return
        self.write(out, depth, n.span, n.target, n.amount, op, scope)


_MEASURED_AFTER = (static.STR, list_of(COMP), list_of(PLAYER))
"""Static types whose stores are measured after the value is in its slot, by two inline tests (a
list of components or players holds small numbers only: its size is its length)."""


def _light_literal(src: str) -> bool:
    """A literal value too small to measure against the state's totals (budget.stored)."""
    if not is_literal(src):
        return False
    v = literal(src)
    if isinstance(v, int) and not isinstance(v, bool):
        return -budget.SMALL < v < budget.SMALL
    if isinstance(v, list):
        return len(v) <= budget.LIGHT and budget.plain(v)
    return not isinstance(v, (str, dict)) or len(v) <= budget.LIGHT


_THROUGH = (ast.Binary, ast.Neg, ast.Not, ast.And, ast.Or, ast.Compare, ast.In, ast.CondExpr, ast.Index)


MARK = "."
"""The prefix of a mark's name among the sources of a value (`value_sources`): `.site`."""


def value_sources(
    node: ast.Expr, g: CompiledGame, scope: Scope, functions: Container[str]
) -> frozenset[str] | None:
    """The vars and marks (`.name`) of type `any` a value is made of, when it is made only of them,
    literals, counters, locals of a type that holds no component, operators and builtins that give
    no component (`a + a`, `w * 100`, `x(p)`, `range(0, n)`); None when anything else may give it a
    component.
    Names resolve as the expression compiler resolves them: locals, functions, counters, vars, then
    builtins."""
    if isinstance(node, (ast.Number, ast.String, ast.Bool, ast.NoneLit)):
        return frozenset()
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        builtin = BUILTINS.get(name)
        if builtin is not None and not _named(name, g, scope, functions) and _plain(builtin.result):
            return frozenset()  # a number, a text, a list of numbers... whatever its arguments
        node = node.func  # a per-player var or a counter: its arguments only choose the player
    if isinstance(node, ast.Name):
        local = scope.py.get(node.id, scope.locals.get(node.id))
        if node.id in scope.known or (local is None and node.id in functions):
            return None
        if local is not None:  # a local of a known type holding no component
            return frozenset() if _plain(local) else None
        if node.id in g.counters:
            return frozenset()
        var = g.vars.get(node.id)
        if var is None or static.may_hold_components(var.type):
            return frozenset([node.id]) if var is not None and COMP not in var.type else None
        return frozenset()
    if isinstance(node, ast.Attr) and node.name in g.marks:  # a mark: `.site` among the sources
        kind = g.mark_kinds[node.name]
        if COMP in kind:
            return None
        return frozenset([MARK + node.name]) if static.ANY in kind else frozenset()
    parts = node.items if isinstance(node, ast.ListLit) else None
    if isinstance(node, _THROUGH):
        parts = tuple(
            getattr(node, f.name) for f in fields(node) if isinstance(getattr(node, f.name), ast.Expr)
        )
    if parts is None:
        return None
    found: frozenset[str] = frozenset()
    for part in parts:
        more = value_sources(part, g, scope, functions)
        if more is None:
            return None
        found |= more
    return found


def _named(name: str, g: CompiledGame, scope: Scope, functions: Container[str]) -> bool:
    """Whether a name is found before the builtins: a local, a function, a counter, a var, a zone."""
    return any(
        name in names
        for names in (scope.py, scope.locals, scope.known, functions, g.counters, g.vars, g.zones)
    )


def _plain(t: str) -> bool:
    """A static type that holds no component: numbers, texts, true/false, players, lists of them."""
    return not t.startswith("=") and not static.may_hold_components(t) and ZONE not in t


def target_name(node: ast.Expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id
    return ""
