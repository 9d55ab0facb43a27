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

from tabula.interpreter.base.source import Report, Span
from tabula.interpreter.base.types import PLAYER, Scope
from tabula.interpreter.compile.python.expressions.analysis import and_chain, conjuncts, names_in, shape
from tabula.interpreter.compile.python.expressions.compiler import ExprCompiler
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import support


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
            parts = [self.action(ai) for ai in indices]
        finally:
            ex.report = saved
        # actions that enumerate the same parameters under the same test (two ways to use one
        # printed symbol, say) share one enumeration, made by the first that gets to it
        loops = [key for _, body, _, key in parts if body]
        shared = {
            key: f"_lg{i}" for i, key in enumerate(dict.fromkeys(k for k in loops if loops.count(k) > 1))
        }
        lines += [f"    {name} = None" for name in shared.values()]
        for guard, body, tail, key in parts:
            indent = "    "
            if guard:
                lines.append(f"    if {guard}:")
                indent += "    "
            if key in shared:
                var = shared[key]
                lines.append(f"{indent}if {var} is None:")
                lines += [f"{indent}    {line}" for line in body]
                lines.append(f"{indent}    {var} = legal")
                lines.append(f"{indent}legal = {var}")
            else:
                lines += [f"{indent}{line}" for line in body]
            lines += [f"{indent}{line}" for line in tail]
        lines.append("    return ids, vals")
        return ex.mod.function("\n".join(lines) + "\n", name)

    def action(self, ai: int) -> tuple[str | None, list[str], list[str], Any]:
        """One action's code as (the test of its parameterless conjuncts or None, the enumeration of
        its legal arguments into `legal`, what adds them, what the enumeration says: its parameters
        and test without their positions): the second and third indented from the guard's."""
        act = self.actions[ai]
        scope = Scope({}, f"action '{act.name}'", {"me": PLAYER})
        if not act.params:
            test = self.ex.cond_code(act.when, scope) if act.when is not None else "True"
            return test, [], [f"ids.append({act.name!r})", f"vals.append([{ai}, []])"], None
        names = {p for p, _, _ in act.params}
        parts = conjuncts(act.when) if act.when is not None else []
        guards = [c for c in parts if not names & names_in(c)]
        rest = [c for c in parts if c not in guards]
        key = (shape(tuple(act.params)), shape(tuple(rest)))
        guard = self.ex.cond_code(and_chain(guards), scope) if guards else None
        if len(act.params) == 1:  # the legal values themselves, in one comprehension
            pname, node, t = act.params[0]
            src, _ = self.ex.list_code(node, scope)
            inner_scope = Scope({}, scope.where, {**scope.py, pname: t})
            test = f" if {self.ex.cond_code(and_chain(rest), inner_scope)}" if rest else ""
            body = [f"legal = [v_{pname} for v_{pname} in {src}{test}]"]
            add = self.ex.helper(support.add_single)
            tail = [f"if legal: {add}(rt, ids, vals, {act.name + ':'!r}, {ai}, legal, {t!r})"]
            return guard, body, tail, key
        body = ["legal = []"]
        inner = ""
        for pname, node, t in act.params:
            src, _ = self.ex.list_code(node, scope)
            body.append(f"{inner}for v_{pname} in {src}:")
            scope = Scope({}, scope.where, {**scope.py, pname: t})
            inner += "    "
        test = self.ex.cond_code(and_chain(rest), scope) if rest else "True"
        args = ", ".join(f"v_{p}" for p, _, _ in act.params)
        body.append(f"{inner}if {test}: legal.append([{args}])")
        return guard, body, self._add(act.name, ai, [t for _, _, t in act.params]), key

    def _add(self, name: str, ai: int, types: list[str]) -> list[str]:
        add = self.ex.helper(support.add_options)
        return [f"if legal: {add}(rt, ids, vals, {name!r}, {ai}, legal, {types!r})"]
