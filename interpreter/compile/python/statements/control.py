"""Control flow that cannot wait for a decision: `if`, `for`, `repeat`, `while` as Python statements.

Stage: compile (the Python target). Each body gets its own block id (rules coverage counts it). A
loop charges the work budget for all its iterations at once, before the first, so no test runs in
each iteration; their resumable forms are in machines.py.
"""

from __future__ import annotations

from tabula.interpreter.base.source import Span
from tabula.interpreter.base.types import INT, Scope, elem
from tabula.interpreter.compile.python.statements.base import PY, StatementCompiler
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import support


class ControlStatements(StatementCompiler):
    """`if`, `for`, `repeat`, `while` (mixed into EffectCompiler)."""

    # -- control flow
    def _If(self, out: Lines, depth: int, n: ast.If, scope: Scope, mode: str) -> None:
        for i, (c, b) in enumerate(n.branches):
            cond = self.ex.cond_code(c, scope)
            out.add(depth, f"{'if' if i == 0 else 'elif'} {cond}:", c.span)
            self.body(out, depth + 1, b, scope, mode)
        if n.otherwise is not None:
            out.add(depth, "else:")
            self.body(out, depth + 1, n.otherwise, scope, mode)

    def _For(self, out: Lines, depth: int, n: ast.For, scope: Scope, mode: str) -> None:
        items, t = self.ex.list_code(n.iter, scope)
        var = self.declare(scope, n.var, elem(t), mode)
        # every element charged at once, before the first: the same work as one unit per iteration
        # (a loop runs over a copy, so its length is known), without a test in each iteration
        players = f"list(range({self.ex.bind('NP')}))"
        if items == players:
            xs, size = f"range({self.ex.bind('NP')})", self.ex.bind("NP")
        elif isinstance(self.mod.data.get(items), list):  # a constant list: never written, not copied
            xs, size = items, str(len(self.mod.data[items]))
        else:
            xs = self.tmp()
            out.add(depth, f"{xs} = list({items})", n.span)
            size = f"len({xs})"
        w = self.weight(n.body)
        self.charge(out, depth, n.span, size if w == 1 else f"{size} * {w}")
        out.add(depth, f"for {var} in {xs}:", n.span)
        if n.cond is not None:
            out.add(depth + 1, f"if not {self.ex.cond_code(n.cond, scope)}: continue", n.cond.span)
        self.body(out, depth + 1, n.body, scope, mode)

    def _Repeat(self, out: Lines, depth: int, n: ast.Repeat, scope: Scope, mode: str) -> None:
        count, t = self.ex.code(n.count, scope)
        self.ex.expect(t, INT, n.count.span)
        k = self.tmp()
        out.add(depth, f"{k} = {self.ex.helper(support.repeat_count)}({count})", n.span)
        w = self.weight(n.body)
        self.charge(out, depth, n.span, f"max({k}, 0) * {w}")  # every iteration charged at once
        out.add(depth, f"for {k} in range({k}):", n.span)
        self.body(out, depth + 1, n.body, scope, mode)

    def _While(self, out: Lines, depth: int, n: ast.While, scope: Scope, mode: str) -> None:
        out.add(depth, f"while {self.ex.cond_code(n.cond, scope)}:", n.span)
        self.charge(out, depth + 1, n.span, str(self.weight(n.body)))
        self.body(out, depth + 1, n.body, scope, mode)

    def declare(self, scope: Scope, name: str, t: str, mode: str) -> str:
        if mode == PY:
            scope.py[name] = t
            scope.known.pop(name, None)
            return f"v_{name}"
        scope.locals[name] = t
        return f"L[{name!r}]"

    def charge(self, out: Lines, depth: int, span: Span, units: str = "1") -> None:
        out.add(depth, f"rt.budget -= {units}")
        out.add(depth, f"if rt.budget < 0: {self.ex.helper(support.over_budget)}(rt)", span)
