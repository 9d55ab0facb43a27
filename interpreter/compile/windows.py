"""One generated enumeration function per window: every legal (action, arguments) and its choice id.

Stage: compile. A window offers its actions in order; for each, the `and`-conjuncts of its condition
that use no parameter are tested once, then its parameters are enumerated as nested Python loops (a
later parameter's list may use an earlier one) and the rest of the condition tested per combination.
The ids are built per parameter column (support.add_options), so identical components get keys.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabula.interpreter.compile import support
from tabula.interpreter.compile.exprs import ExprCompiler, and_chain, conjuncts, names_in
from tabula.interpreter.compile.scope import PLAYER, Scope
from tabula.interpreter.dsl import ast
from tabula.interpreter.source import Report, Span


@dataclass
class ActionSource:
    """What a window needs of an action: its name, parameters (name, list expression, element type)
    and its whole condition (costs included)."""

    name: str
    params: list[tuple[str, ast.Expr, str]]
    when: ast.Expr | None


class WindowCompiler:
    def __init__(self, ex: ExprCompiler, actions: list[ActionSource]) -> None:
        self.ex = ex
        self.actions = actions
        self._made: dict[tuple[int, ...], Callable[..., Any]] = {}

    def __call__(self, indices: list[int], span: Span) -> Callable[..., Any]:
        key = tuple(indices)
        if key not in self._made:
            self._made[key] = self.build(indices)
        return self._made[key]

    def build(self, indices: list[int]) -> Callable[..., Any]:
        ex = self.ex
        name = ex.mod.fresh("window")
        lines = [
            f"def {name}(rt, v_me):",
            "    S = rt.st",
            "    ids = []",
            "    vals = []",
        ]
        saved = ex.report
        ex.report = Report()  # every action was checked when it was compiled on its own
        try:
            for ai in indices:
                lines += self.action(ai)
        finally:
            ex.report = saved
        lines.append("    return ids, vals")
        return ex.mod.function("\n".join(lines) + "\n", name)

    def action(self, ai: int) -> list[str]:
        act = self.actions[ai]
        scope = Scope({}, f"action '{act.name}'", {"me": PLAYER})
        if not act.params:
            test = self.ex.cond_code(act.when, scope) if act.when is not None else "True"
            return [
                f"    if {test}:",
                f"        ids.append({act.name!r})",
                f"        vals.append([{ai}, []])",
            ]
        names = {p for p, _, _ in act.params}
        parts = conjuncts(act.when) if act.when is not None else []
        guards = [c for c in parts if not names & names_in(c)]
        rest = [c for c in parts if c not in guards]
        lines: list[str] = []
        indent = "    "
        if guards:
            lines.append(f"    if {self.ex.cond_code(and_chain(guards), scope)}:")
            indent += "    "
        lines.append(f"{indent}legal = []")
        inner = indent
        for pname, node, t in act.params:
            src, _ = self.ex.list_code(node, scope)
            lines.append(f"{inner}for v_{pname} in {src}:")
            scope = Scope({}, scope.where, {**scope.py, pname: t})
            inner += "    "
        test = self.ex.cond_code(and_chain(rest), scope) if rest else "True"
        args = ", ".join(f"v_{p}" for p, _, _ in act.params)
        lines.append(f"{inner}if {test}: legal.append([{args}])")
        add = self.ex.helper(support.add_options)
        types = [t for _, _, t in act.params]
        lines.append(f"{indent}if legal: {add}(rt, ids, vals, {act.name!r}, {ai}, legal, {types!r})")
        return lines
