"""The base of the expression compiler: its state, its namespace, its entry points and dispatch.

Stage: compile. `ExprBase` holds what every part of the expression compiler shares: the game, the
report, the DSL's functions, the generated module and its namespace (`inject`, `helper`, `bind`),
the entry points that turn an expression into a generated function (`expr`, `cond`,
`function`), the dispatch from an AST node to the method that compiles its kind (`code`: `_Name`
for `ast.Name`, ...), and the generators being compiled, with the loop-invariant calls and reads
hoisted before each (`enter_loop`, `invariant`). The methods for each kind of node are in
functions.py, names.py and operators.py; exprs.py puts them together as `ExprCompiler`. The
builtins and aggregates (builtins.py, aggregates.py) take an `ExprBase`: all they call is here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.source import Report, Span, span_text
from tabula.interpreter.base.types import ANY, BOOL, COMP, INT, NONE, PLAYER, ZONE, Scope, list_of
from tabula.interpreter.base.types import a as article
from tabula.interpreter.compile.python.expressions.analysis import (
    FunctionSlot,
    mark_expensive,
    mark_recursion,
    name_uses,
    node_count,
)
from tabula.interpreter.compile.python.expressions.fragments import Code, is_literal, is_simple
from tabula.interpreter.compile.python.expressions.lowering import lowered, returning
from tabula.interpreter.compile.python.module import GenModule
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import Closure, CompiledGame
from tabula.interpreter.run.builtins import _as_list, _broken

Typed = tuple[Closure, str]
BROKEN: Code = ("_broken(rt)", ANY)  # the code of an expression with an error (never run)
PROLOGUE = "    L = rt.loc\n    S = rt.st\n"


class ExprBase:
    """The shared part of `ExprCompiler` (exprs.py): what resolving a DSL expression against one
    game's names and generating Python code for it needs, whatever the kind of node."""

    def __init__(
        self, game: CompiledGame, report: Report, functions: dict[str, FunctionSlot], module: GenModule
    ) -> None:
        self.g = game
        self.report = report
        # the report a muted pass (context.muted) set aside: a function compiled during it reports there
        self.loud: Report | None = None
        self.functions = functions
        self.mod = module
        self.ns = module.ns
        self.props: dict[str, set[str]] = {}  # property name -> component types having it
        for c in game.components:
            for k in c.props:
                self.props.setdefault(k, set()).add(c.type)
        # two helpers the generated code names as they are: `_broken(rt)` stands for an expression
        # with an error (never run), `_as_list(rt, x)` reads a value of unknown type as a list
        self.ns["_broken"] = _broken
        self.mod.helpers["_broken"] = (_broken.__module__, "_broken")
        self.ns["_as_list"] = _as_list
        self.mod.helpers["_as_list"] = (_as_list.__module__, "_as_list")
        self.used: set[str] = set()  # every name the game's code mentions (for unused-definition warnings)
        self._cache: dict[str, Closure] = {}
        self._loops: list[tuple[str, list[tuple[str, str]]]] = []  # generators being compiled
        # DSL functions (functions.py): the ones being inlined; calls of expensive functions are
        # remembered in `rt.memo` until the state is next written (generated writes clear it: see
        # effects.py), so one evaluation never repeats another
        self._inlining: list[str] = []
        self.memo_mode = True
        self._memo_ids: dict[str, int] = {}
        # rule function -> (its guard: marks' test not reading the arguments, the function run when it
        # holds, the answer when it does not) for rules compiled so far (modifiers.py)
        self.rule_guards: dict[str, tuple[str, str, str]] = {}
        self._counter_tables: dict[str, str] = {}  # counter -> the table of its keys' offsets (names.py)
        self._columns: dict[str, str] = {}  # property -> its column (names.py)
        # (column, op, value) -> the column of its answers (operators.py)
        self._derived: dict[tuple[str, str, str], str] = {}
        mark_recursion(functions)
        mark_expensive(functions)
        for slot in functions.values():
            if slot.body is not None:
                slot.size = node_count(slot.body)
                slot.param_uses = name_uses(slot.body)

    # ------------------------------------------------------------ namespace
    def inject(self, value: Any, hint: str) -> str:
        """A namespace name for data the generated code needs (constants, columns, tables)."""
        return self.mod.inject(value, hint)

    def helper(self, fn: Callable[..., Any], ref: tuple[str, str] | None = None) -> str:
        """A namespace name for a support function."""
        return self.mod.helper(fn, ref)

    def bind(self, name: str) -> str:
        """A Python local for a part of the state that stays the same object while one generated
        function runs (writes change its items, never replace it): `C` the counters, `Z` the zones,
        `LOC` the locations, `m_<mark>` a mark's values, `pv_<var>` a per-player var's values,
        `o_<option>` a rules option, `NP` the number of players. Each function binds the ones its
        code uses on entry (module.py), which saves a dictionary lookup at every use."""
        if name not in self.mod.bindings:
            sources = {"C": "rt.st['c']", "Z": "rt.st['z']", "LOC": "rt.st['loc']", "NP": "rt.st['t']['n']"}
            if name in sources:
                src = sources[name]
            elif name.startswith("m_"):
                src = f"rt.st['m'][{name[2:]!r}]"
            elif name.startswith("pv_"):
                src = f"rt.st['v'][{name[3:]!r}]"
            elif name.startswith("o_"):
                src = f"rt.st['o'][{name[2:]!r}]"
            else:
                raise ValueError(name)
            self.mod.bindings[name] = src
        return name

    def closure(self, src: str) -> Closure:
        """Turn generated source into a function of the runtime: `f(rt)`."""
        if src in self._cache:
            return self._cache[src]
        name = self.mod.fresh("e")
        f: Closure = self.mod.function(f"def {name}(rt):\n{PROLOGUE}    return {src}\n", name)
        self._cache[src] = f
        return f

    def function(
        self, node: ast.Expr, params: list[tuple[str, str]], cond: bool = False
    ) -> Callable[..., Any]:
        """A generated `f(rt, *params)` for an expression whose names include `params` as Python
        locals. Diagnostics go to the report as usual."""
        scope = Scope({}, "", dict(params))
        src = self.cond_code(node, scope) if cond else self.code(node, scope)[0]
        return self.function_of(src, [p for p, _ in params])

    def function_of(self, src: str, params: list[str]) -> Callable[..., Any]:
        args = "".join(f", v_{name}" for name in params)
        name = self.mod.fresh("g")
        body = "".join(f"    {line}\n" for line in lowered(src, returning))
        return self.mod.function(f"def {name}(rt{args}):\n{PROLOGUE}{body}", name)

    # ------------------------------------------------------------ errors
    def error(self, code: str, msg: str, span: Span | None, hint: str | None = None) -> Code:
        self.report.error(code, msg, span, hint)
        return BROKEN

    # ------------------------------------------------------------ public entry points (closures)
    def expr(self, node: ast.Expr, scope: Scope) -> Typed:
        src, t = self.code(node, scope)
        return self.closure(src), t

    def cond(self, node: ast.Expr, scope: Scope) -> Closure:
        return self.closure(self.cond_code(node, scope))

    # ------------------------------------------------------------ code
    def code(self, node: ast.Expr, scope: Scope) -> Code:
        if isinstance(node, ast.Name):
            self.used.add(node.id)
        elif isinstance(node, (ast.Call, ast.CallGen)) and isinstance(node.func, ast.Name):
            self.used.add(node.func.id)
            if node.func.id in ("value", "rule") and isinstance(node, ast.Call) and node.args:
                first = node.args[0]
                self.used.add(first.id if isinstance(first, ast.Name) else getattr(first, "value", ""))
        method = getattr(self, "_" + type(node).__name__)
        result: Code = method(node, scope)
        return result

    def cond_code(self, node: ast.Expr, scope: Scope) -> str:
        src, t = self.code(node, scope)
        self.warn_cond(t, node)
        return src

    def warn_cond(self, t: str, node: ast.Expr) -> None:
        """T010 for a condition of a type other than true/false. A list is not one: its truth is
        "not empty" (`max(values) if values else 0`, a typed `let:` name included)."""
        if t not in (BOOL, ANY) and not t.startswith("list["):
            self.report.warning(
                "T010",
                f"this condition is {article(t)}, not true/false",
                node.span,
                "compare it with something, e.g. '... > 0'",
            )

    def list_code(self, node: ast.Expr, scope: Scope) -> Code:
        src, t = self.code(node, scope)
        if t == ZONE:
            return f"{self.bind('Z')}[{src}]", list_of(COMP)
        if t == ANY:
            if is_simple(src) and not is_literal(src):
                return f"({self.bind('Z')}[{src}] if {src}.__class__ is int else {src})", ANY
            return f"_as_list(rt, {src})", ANY
        if not t.startswith("list["):
            return self.error("T001", f"expected a list or a zone, found {article(t)}", node.span)
        return src, t

    def expect(self, got: str, want: str, span: Span | None) -> None:
        if got in (ANY, want) or (want == PLAYER and got == INT) or got == NONE:
            return
        self.report.error(
            "T002", f"expected {article(want)}, found {article(got)}", span, self._from_constant(span)
        )

    def _from_constant(self, span: Span | None) -> str | None:
        """A hint naming the constant a wrong value comes from (`bonus["b"]`), if the span is one."""
        name = re.match(r"[A-Za-z_]\w*", span_text(span)) if span is not None else None
        if name is None or name.group() not in self.g.constants:
            return None
        return f"the value comes from the constant '{name.group()}': change it under 'constants:'"

    # ------------------------------------------------------------ loops: invariant calls
    def enter_loop(self, var: str) -> list[tuple[str, str]]:
        """Start compiling a generator whose loop variable is `var`; calls inside it that do not use
        `var` are collected in the returned list (name, source), to be computed before the loop."""
        frame: list[tuple[str, str]] = []
        self._loops.append((var, frame))
        return frame

    def leave_loop(self) -> None:
        self._loops.pop()

    def invariant(self, src: str, t: str) -> Code:
        """A call's source, or a name for it computed once before the innermost loop it does not
        depend on."""
        return self._hoisted(src, "_k"), t

    def invariant_read(self, src: str) -> str:
        """A read of the state that cannot fail (a counter at an index of numbers and players, a
        per-player var of a player) inside a generator it does not depend on: a name for it
        (`_r_...`), computed once before the loop where the loop is worth it
        (aggregates.settle_reads), else written back in place."""
        return self._hoisted(src, "_r")

    def _hoisted(self, src: str, prefix: str) -> str:
        """`src`, or the name (new, or the one already given to the same source) under which the
        innermost loop computes it before it starts, when it does not use that loop's variable."""
        if not self._loops:
            return src
        var, frame = self._loops[-1]
        if var in src:
            return src
        for name, known in frame:
            if known == src:
                return name
        name = self.mod.fresh(prefix)
        frame.append((name, src))
        return name
