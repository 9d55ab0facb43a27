"""Calls of the DSL's own functions (compiled on first use, inlined, remembered), values and rules.

Stage: compile. A DSL function becomes `F_<name>(rt, *params)` in the generated module, compiled
the first time a call needs it (so definitions may come in any order). A call of it is then one of:

- **inlined**: a small, non-recursive function is written into its caller with its arguments
  substituted (an argument used more than once, or inside a loop, must be cheap to evaluate twice);
- **remembered**: a function that loops (analysis.py `mark_expensive`) is called through
  `FM_<name>`, which keeps its result in `rt.memo` until the state is next written (generated
  writes clear it: see effects.py), so one evaluation never repeats another;
- a plain call, computed once before the innermost loop it does not depend on (exprbase.py).

`value(name, ...)`, `rule(name, ...)` and `option(name)` are calls of the game's named values and
rules (modifiers.py) and reads of its rules options.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import Report, did_you_mean
from tabula.interpreter.base.types import ANY, BOOL, COMP, INT, PLAYER, STR, Scope, type_of_value
from tabula.interpreter.compile.python.expressions.analysis import FunctionSlot
from tabula.interpreter.compile.python.expressions.base import ExprBase
from tabula.interpreter.compile.python.expressions.fragments import Code, is_cheap, is_simple
from tabula.interpreter.compile.python.expressions.lowering import lower, lowered, remembering, returning
from tabula.interpreter.compile.python.expressions.precharge import precharge
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import budget
from tabula.interpreter.run.builtins import _MISS_FN, _broken
from tabula.interpreter.run.runtime import over_budget

INLINE_NODES = 32  # a DSL function of at most this many nodes may be inlined
INLINE_CHARS = 700  # ... when its substituted source stays this short


class FunctionCompiler(ExprBase):
    """The calls of DSL functions, named values and rules (part of `ExprCompiler`, exprs.py)."""

    def _call_function(self, slot: FunctionSlot, args: list[str]) -> Code:
        """A call of a DSL function with its arguments' sources: remembered, inlined or plain."""
        if slot.state == "new":
            self.compile_function(slot)
        call = "".join(", " + a for a in args)
        if self.memo_mode and self.memoizable(slot):
            self.memo_function(slot)
            return self.invariant(f"FM_{slot.name}(rt{call})", slot.type)
        inlined = self._inline(slot, args)
        if inlined is not None:
            return inlined
        return self.invariant(f"F_{slot.name}(rt{call})", slot.type)

    def memoizable(self, slot: FunctionSlot) -> bool:
        """Worth remembering: it loops, and none of its parameters is a list."""
        if not slot.expensive or slot.body is None or slot.recursive:
            return False
        return not any(slot.param_types.get(p, ANY).startswith("list[") for p in slot.params)

    def memo_function(self, slot: FunctionSlot) -> None:
        """Define `FM_<name>`: `F_<name>` remembered in `rt.memo` until the state is next written."""
        if slot.name in self._memo_ids or slot.body is None:
            return
        key = self._memo_ids[slot.name] = len(self._memo_ids)
        self.ns[f"FM_{slot.name}"] = lambda rt, *a: _broken(rt)
        scope = Scope({}, f"function '{slot.name}'", {p: slot.param_types.get(p, ANY) for p in slot.params})
        saved, loops = self.report, self._loops
        self.report, self._loops = Report(), []
        try:
            src, _ = self.code(slot.body, scope)
        finally:
            self.report, self._loops = saved, loops
        params = "".join(f", v_{p}" for p in slot.params)
        hashable = all(slot.param_types.get(p, ANY) in (INT, STR, PLAYER, COMP, BOOL) for p in slot.params)
        miss = self.helper(_MISS_FN)
        # the state parts the body reads are bound after the lookup (#bind, module.py): a
        # remembered result needs none of them
        lines = [
            f"def FM_{slot.name}(rt{params}):",
            "    M = rt.memo",
            f"    K = ({key}{params},)",
        ]
        over = self.helper(over_budget)
        if hashable:
            lines.append(f"    r = M.get(K, {miss})")
        else:
            lines += [
                "    try:",
                f"        r = M.get(K, {miss})",
                "    except TypeError:",
                "        #bind",
                "        S = rt.st",
                "        rt.budget -= 1",  # a call: one unit, as below
                f"        if rt.budget < 0: {over}()",
                f"        return {src}",
            ]
        reads, body, extra = precharge(src, self.helper(budget.each))
        lines += [
            f"    if r is {miss}:",
            "        #bind",
            "        S = rt.st",
            "        _w = rt.budget",
            *(f"        {line}" for line in reads),
            # a call computed (not remembered): one unit of work, and its loops' sources read above
            f"        rt.budget -= 1{' + ' + extra if extra else ''}",
            f"        if rt.budget < 0: {over}()",
            # lowered, each path stores its value and the work it cost, and returns the value
            *("        " + line for line in lower(body, remembering) or remembering(body)),
            # remembered: the work of computing it charged again (the budget counts every call as
            # evaluated, as native code does; the memory saves time, not work)
            "    rt.budget -= r[1]",
            f"    if rt.budget < 0: {over}()",
            "    return r[0]",
        ]
        self.mod.define("\n".join(lines) + "\n")

    def _inline(self, slot: FunctionSlot, args: list[str]) -> Code | None:
        """The body of a small function with its arguments substituted, or None to call it."""
        if (
            slot.body is None
            or slot.recursive
            or slot.size > INLINE_NODES
            or slot.name in self._inlining
            or len(self._inlining) > 3
        ):
            return None
        for pname, src in zip(slot.params, args, strict=True):
            if slot.param_uses.get(pname, 0) > 1 and not is_cheap(src):
                return None
        known = {
            p: (src if is_simple(src) else f"({src})", slot.param_types.get(p, ANY))
            for p, src in zip(slot.params, args, strict=True)
        }
        saved = self.report
        self.report = Report()  # the body was checked when the function itself was compiled
        self._inlining.append(slot.name)
        try:
            src, _ = self.code(slot.body, Scope({}, f"function '{slot.name}'", {}, known))
        finally:
            self._inlining.pop()
            failed = self.report.has_errors
            self.report = saved
        if failed or len(src) > INLINE_CHARS:
            return None
        return (src if is_simple(src) or src.startswith("(") else f"({src})"), slot.type

    def compile_function(self, slot: FunctionSlot) -> None:
        """Define `F_<name>(rt, params...)` in the namespace (recursion works through the namespace)."""
        slot.state = "compiling"
        self.ns[f"F_{slot.name}"] = lambda rt, *a: _broken(rt)
        if slot.body is not None:
            scope = Scope(
                {}, f"function '{slot.name}'", {p: slot.param_types.get(p, ANY) for p in slot.params}
            )
            loops, memo, self._loops, self.memo_mode = self._loops, self.memo_mode, [], False
            report = self.report
            if self.loud is not None and not self._inlining:  # compiled once, first by a muted pass
                self.report = self.loud
            try:
                src, t = self.code(slot.body, scope)  # the unremembered version: for scenarios, tools
            finally:
                self._loops, self.memo_mode, self.report = loops, memo, report
            params = "".join(f", v_{p}" for p in slot.params)
            over = self.helper(over_budget)
            reads, body, extra = precharge(src, self.helper(budget.each))
            text = (
                f"def F_{slot.name}(rt{params}):\n    S = rt.st\n"
                + "".join(f"    {line}\n" for line in reads)
                # a call: one unit of work, and its loops' sources read above
                + f"    rt.budget -= 1{' + ' + extra if extra else ''}\n    if rt.budget < 0: {over}()\n"
                + "".join(f"    {line}\n" for line in lowered(body, returning))
            )
            self.mod.define(text)
            slot.type = t
        slot.state = "done"

    def _named_lookup(self, kind: str, n: ast.Call, scope: Scope) -> Code:
        """`value(name, ...)`, `rule(name, ...)` or `option(name)` (`kind`)."""
        if not n.args or not isinstance(n.args[0], (ast.Name, ast.String)):
            return self.error("E105", f"{kind}() needs a name first, e.g. {kind}(hand_size, p)", n.span)
        first = n.args[0]
        key = first.id if isinstance(first, ast.Name) else first.value
        if kind == "option":
            if key not in self.g.options:
                return self.error(
                    "E107", f"unknown rules option '{key}'", first.span, did_you_mean(key, self.g.options)
                )
            return self.bind("o_" + key), type_of_value(self.g.options[key])
        table: dict[str, Any] = self.g.values if kind == "value" else self.g.rules
        if key not in table:
            return self.error("E107", f"unknown {kind} '{key}'", first.span, did_you_mean(key, table))
        args = [self.code(a, scope)[0] for a in n.args[1:]]
        if len(args) != len(table[key].params):
            return self.error("E105", f"{kind} '{key}' takes {len(table[key].params)} argument(s)", n.span)
        fname = ("V_" if kind == "value" else "R_") + key
        call = "".join(", " + a for a in args)
        guarded = self.rule_guards.get(fname) if kind == "rule" else None
        if guarded is not None:
            # the rule's guard in place of the call (code compiled after the rule): false when no
            # component's mark is set, with no call; a generator tests it once, before its loop
            test, active, fast = guarded
            form = "(({t}) or False) and {a}(rt{c})" if fast == "False" else "(not ({t})) or {a}(rt{c})"
            return f"({form.format(t=test, a=active, c=call)})", BOOL
        return self.invariant(f"{fname}(rt{call})", INT if kind == "value" else BOOL)
