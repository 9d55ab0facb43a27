"""The game's actions: their parameters, conditions, costs, labels and effects -> ActionDefs.

Stage: check + compile (the Python target). An action's condition is its costs (each affordable)
and its `when`, parsed once and used three ways: whole, for the windows' enumeration functions
(windows.py, which need every action's parameters first); split into a guard (the conjuncts that use
no parameter, tested once per window) and the rest; and conjunct by conjunct, for "why not?". Its
cost is paid by `pay` statements run before its effect.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.base.types import ANY, PLAYER, ZONE, Scope, elem
from tabula.interpreter.base.types import a as article
from tabula.interpreter.compile.python.context import GameContext
from tabula.interpreter.compile.python.expressions.analysis import and_chain, conjuncts, names_in
from tabula.interpreter.compile.python.sections.windows import ActionSource
from tabula.interpreter.compile.reader import origin_of
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import parse_expr, parse_template
from tabula.interpreter.load.positions import span_for
from tabula.interpreter.model.game import ActionDef, Closure

Condition = tuple[Span | None, Closure, tuple[Any, Any] | None]
"""One conjunct of an action's condition: where it is written, its test, and for a comparison its
two sides (typed closures, to show both values)."""


class ActionCompiler:
    """Compiles every action of one game (see the module docstring)."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self.read = ctx.read
        self.ex = ctx.ex
        self._whens: dict[str, ast.Expr | None] = {}
        self._costs: dict[str, list[tuple[ast.Expr, ast.Expr]]] = {}

    def sources(self) -> list[ActionSource]:
        """Every action's parameters and whole condition, for the windows' enumeration functions."""
        out = []
        with self.ctx.muted(reading=True):  # reported when the actions themselves are compiled
            for name, adef in (self.read.data.get("actions") or {}).items():
                params = []
                scope = Scope({"me": PLAYER})
                for pname in (adef or {}).get("params") or {}:
                    node = self.read.expr_at(("actions", name, "params", pname))
                    if node is None or not str(pname).isidentifier():
                        continue
                    t = self.ex.code(node, scope)[1]
                    scope.locals[str(pname)] = elem(t)
                    params.append((str(pname), node, elem(t)))
                out.append(ActionSource(str(name), params, self.when(name)))
        self._whens.clear()  # parsed again, so that their diagnostics reach the real report
        self._costs.clear()
        return out

    def compile(self) -> None:
        """Every action's ActionDef, in declaration order (its index is its place in windows)."""
        for i, (name, adef) in enumerate((self.read.data.get("actions") or {}).items()):
            act = self._action(i, name, adef or {})
            self.ctx.g.actions[name] = act
            self.ctx.g.action_list.append(act)

    def _action(self, i: int, name: str, adef: dict[str, Any]) -> ActionDef:
        scope = Scope({"me": PLAYER}, f"action '{name}'")
        params = self._params(name, adef, scope)
        when, guard = self._condition(name, [p for p, _, _ in params], scope)
        label = None
        if adef.get("label"):
            parts = parse_template(
                str(adef["label"]), self.read.origin(("actions", name, "label")), self.read.report
            )
            label = tuple(p if isinstance(p, str) else self.ex.expr(p, scope) for p in parts)
        stmts = (*self._cost_payments(name), *(self.read.block_at(("actions", name, "do")) or ()))
        block = (
            self.ctx.compile_entry(
                ("actions", name, "do"),
                dict(scope.locals),
                f"action '{name}'",
                ["me", *(p for p, _, _ in params)],
                stmts=stmts,
            )
            or 0
        )
        self.ctx.name_block(block, "action", name, ("actions", name))
        act = ActionDef(
            i,
            name,
            params,
            when,
            self.read.span(("actions", name, "when")),
            block,
            label,
            bool(adef.get("closes_window", False)),
            self.read.span(("actions", name)),
            guard,
        )
        act.conditions = self._conditions(name, scope)
        act.param_spans = [self.read.span(("actions", name, "params", p)) for p, _, _ in params]
        return act

    def _params(self, name: str, adef: dict[str, Any], scope: Scope) -> list[tuple[str, Closure, str]]:
        """Each parameter's list of choices (a list or a zone, T001) and element type; each becomes
        a local of `scope` for the parameters after it."""
        params: list[tuple[str, Closure, str]] = []
        for pname in adef.get("params") or {}:
            if not self.read.identifier(str(pname), ("actions", name, "params", pname)):
                continue
            node = self.read.expr_at(("actions", name, "params", pname))
            if node is None:
                continue
            src, t = self.ex.code(node, scope)
            if t != ANY and t != ZONE and not t.startswith("list["):
                self.read.report.error(
                    "T001",
                    f"a parameter lists its choices: expected a list or a zone, found {article(t)}",
                    self.read.span(("actions", name, "params", pname)),
                    f"write e.g. [{pname} for {pname} in ...] or range(1, 4)",
                )
            listed = (
                f"{self.ex.bind('Z')}[{src}]" if t == ZONE else (f"_as_list(rt, {src})" if t == ANY else src)
            )
            params.append((str(pname), self.ex.closure(listed), elem(t)))
            scope.locals[str(pname)] = elem(t)
        return params

    def cost_items(self, name: str) -> list[tuple[ast.Expr, ast.Expr]]:
        """An action's `cost:` as (counter, amount) nodes, each parsed (once) at its own YAML position."""
        if name in self._costs:
            return self._costs[name]
        items: list[tuple[ast.Expr, ast.Expr]] = []
        self._costs[name] = items
        for key in (self.read.data["actions"].get(name) or {}).get("cost") or {}:
            path = ("actions", name, "cost", key)
            key_span = span_for(self.read.src, path, key=True)
            target = parse_expr(str(key), origin_of(key_span), self.read.report)
            amount = self.read.expr_at(path)
            if target is not None and amount is not None:
                items.append((target, amount))
        return items

    def _cost_payments(self, name: str) -> list[ast.Stmt]:
        """`pay` statements for the cost, run before the action's effect."""
        return [ast.Pay(amount.span, amount, target) for target, amount in self.cost_items(name)]

    def when(self, name: str) -> ast.Expr | None:
        """The action's condition: every cost affordable, and its `when` (parsed once)."""
        if name in self._whens:
            return self._whens[name]
        parts: list[ast.Expr] = [
            ast.Compare(amount.span, ">=", target, amount) for target, amount in self.cost_items(name)
        ]
        when = self.read.expr_at(("actions", name, "when"))
        if when is not None:
            parts.append(when)
        result = and_chain(parts) if parts else None
        self._whens[name] = result
        return result

    def _conditions(self, name: str, scope: Scope) -> list[Condition]:
        """Each conjunct of an action's `when`, compiled on its own (for "why not?")."""
        node = self.when(name)
        if node is None:
            return []
        with self.ctx.muted():  # already reported when the whole condition was compiled
            out: list[Condition] = []
            costs = len(self.cost_items(name))
            for i, c in enumerate(conjuncts(node)):
                sides = (
                    (self.ex.expr(c.left, scope), self.ex.expr(c.right, scope))
                    if isinstance(c, ast.Compare)
                    else None
                )
                span = c.span
                if i < costs and isinstance(c, ast.Compare):
                    # a cost: point at "counter: amount" in the action's cost mapping
                    left = c.left.span
                    span = Span(left.file, left.line, left.col, c.span.end_line, c.span.end_col)
                out.append((span, self.ex.cond(c, scope), sides))
            return out

    def _condition(self, name: str, params: list[str], scope: Scope) -> tuple[Closure | None, Closure | None]:
        """(condition, guard): the `and`-conjuncts that use no parameter become a guard, tested once
        per window instead of once per parameter value."""
        node = self.when(name)
        if node is None:
            return None, None
        parts = conjuncts(node)
        guards = [c for c in parts if not params or not set(params) & names_in(c)]
        rest = [c for c in parts if c not in guards]
        if not params or not guards:
            return self.ex.cond(node, scope), None
        when = self.ex.cond(and_chain(rest), scope) if rest else None
        return when, self.ex.cond(and_chain(guards), scope)
