"""Check and compile DSL expressions into Python closures over the runtime.

Stage: check + compile (one walk). Each AST node is resolved — names, arity, attribute names, static
types — and, if it resolves, turned into a closure `f(rt) -> value`. Every problem goes into the
Report with the node's span; a game with any error is never run, so the closures built for broken
nodes (which raise) are never called.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.compile import builtins as B
from interpreter.compile.scope import (
    ANY,
    BOOL,
    COMP,
    INT,
    NONE,
    PLAYER,
    STR,
    ZONE,
    Scope,
    elem,
    join,
    list_of,
    type_of_value,
)
from interpreter.dsl import ast
from interpreter.model import Closure, CompiledGame
from interpreter.runtime import MAX_DEPTH, GameRuntimeError, Runtime
from interpreter.source import Report, Span, did_you_mean

Typed = tuple[Closure, str]

_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "%": operator.mod,
}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
BUILTIN_ATTRS = {"name": STR, "key": STR, "type": STR, "zone": ZONE, "holder": PLAYER, "id": INT}
SPECIAL_NAMES = {"players", "num_players", "active", "round", "turn"}


def _broken(rt: Runtime) -> Any:
    raise GameRuntimeError("this expression has an error and cannot run", None)


@dataclass
class FunctionSlot:
    """A user function, compiled on first use (so definitions may come in any order)."""

    name: str
    params: list[str]
    body: ast.Expr | None
    span: Span | None
    cell: list[Closure] = field(default_factory=list)
    type: str = ANY
    state: str = "new"  # new | compiling | done


def to_list(f: Closure, t: str) -> Closure:
    """A closure giving a Python list for a list- or zone-typed expression."""
    if t == ZONE:
        return lambda rt: rt.st["z"][f(rt)]
    if t == ANY:

        def dyn(rt: Runtime) -> Any:
            v = f(rt)
            return rt.st["z"][v] if isinstance(v, int) and not isinstance(v, bool) else v

        return dyn
    return f


class ExprCompiler:
    """Resolves and compiles expressions against one game's names."""

    def __init__(self, game: CompiledGame, report: Report, functions: dict[str, FunctionSlot]) -> None:
        self.g = game
        self.report = report
        self.functions = functions
        self.props: dict[str, set[str]] = {}  # property name -> component types having it
        for c in game.components:
            for k in c.props:
                self.props.setdefault(k, set()).add(c.type)

    # ------------------------------------------------------------ errors
    def error(self, code: str, msg: str, span: Span | None, hint: str | None = None) -> Typed:
        self.report.error(code, msg, span, hint)
        return _broken, ANY

    def all_names(self, scope: Scope) -> list[str]:
        g = self.g
        return [
            *scope.locals,
            *SPECIAL_NAMES,
            *g.constants,
            *(s for syms in g.enums.values() for s in syms),
            *g.counters,
            *g.vars,
            *g.zones,
            *g.by_type,
            *self.functions,
            *B.BUILTINS,
        ]

    # ------------------------------------------------------------ entry
    def expr(self, node: ast.Expr, scope: Scope) -> Typed:
        method = getattr(self, "_" + type(node).__name__)
        result: Typed = method(node, scope)
        return result

    def cond(self, node: ast.Expr, scope: Scope) -> Closure:
        f, t = self.expr(node, scope)
        if t not in (BOOL, ANY):
            self.report.warning(
                "T010",
                f"this condition is a {t}, not true/false",
                node.span,
                "compare it with something, e.g. '... > 0'",
            )
        return f

    def listy(self, node: ast.Expr, scope: Scope) -> Typed:
        f, t = self.expr(node, scope)
        if t not in (ANY, ZONE) and not t.startswith("list["):
            return self.error("T001", f"expected a list or a zone, found a {t}", node.span)
        return to_list(f, t), (list_of(elem(t)) if t != ANY else ANY)

    # ------------------------------------------------------------ literals
    def _Number(self, n: ast.Number, scope: Scope) -> Typed:
        v = n.value
        return (lambda rt: v), INT

    def _String(self, n: ast.String, scope: Scope) -> Typed:
        v = n.value
        return (lambda rt: v), STR

    def _Bool(self, n: ast.Bool, scope: Scope) -> Typed:
        v = n.value
        return (lambda rt: v), BOOL

    def _NoneLit(self, n: ast.NoneLit, scope: Scope) -> Typed:
        return (lambda rt: None), NONE

    def _ListLit(self, n: ast.ListLit, scope: Scope) -> Typed:
        items = [self.expr(x, scope) for x in n.items]
        fs = [f for f, _ in items]
        t = NONE
        for _, it in items:
            t = join(t, it)
        return (lambda rt: [f(rt) for f in fs]), list_of(ANY if t == NONE else t)

    # ------------------------------------------------------------ names
    def _Name(self, n: ast.Name, scope: Scope) -> Typed:
        name = n.id
        g = self.g
        if name in scope.locals:
            return (lambda rt: rt.loc[name]), scope.locals[name]
        if name == "players":
            return (lambda rt: list(range(rt.st["t"]["n"]))), list_of(PLAYER)
        if name == "num_players":
            return (lambda rt: rt.st["t"]["n"]), INT
        if name == "active":
            return (lambda rt: rt.st["t"]["active"]), PLAYER
        if name == "round":
            return (lambda rt: rt.st["t"]["round"]), INT
        if name == "turn":
            return (lambda rt: rt.st["t"]["turn"]), INT
        if name in g.by_type:
            cids = g.by_type[name]
            return (lambda rt: cids), list_of(COMP)
        if name in g.constants:
            v = g.constants[name]
            return (lambda rt: v), type_of_value(v)
        for syms in g.enums.values():
            if name in syms:
                return (lambda rt: name), STR
        if name in g.counters:
            c = g.counters[name]
            if c.per_player or c.keys:
                return self.error(
                    "E102",
                    f"counter '{name}' needs arguments",
                    n.span,
                    f"write {name}({'p' if c.per_player else ''}{', key' if c.keys else ''})",
                )
            i = c.base
            return (lambda rt: rt.st["c"][i]), INT
        if name in g.vars:
            v_ = g.vars[name]
            if v_.per_player:
                return self.error("E102", f"'{name}' is kept per player: write {name}(p)", n.span)
            return (lambda rt: rt.st["v"][name]), v_.type
        if name in g.zones:
            z = g.zones[name]
            if z.per_player:
                return self.error("E102", f"zone '{name}' is per player: write {name}(p)", n.span)
            i = z.base
            return (lambda rt: i), ZONE
        if name in self.functions:
            return self._call_function(self.functions[name], [], n.span)
        if name in ("me", "self", "p"):
            return self.error(
                "E101",
                f"'{name}' is not defined here",
                n.span,
                "'me' exists inside actions, 'self' inside component abilities, "
                "'p' inside phases and procedures that declare it",
            )
        return self.error("E101", f"unknown name '{name}'", n.span, did_you_mean(name, self.all_names(scope)))

    # ------------------------------------------------------------ calls
    def _Call(self, n: ast.Call, scope: Scope) -> Typed:
        if not isinstance(n.func, ast.Name):
            return self.error("E103", "only named functions can be called", n.func.span)
        name = n.func.id
        g = self.g
        if name in ("value", "rule", "option"):
            return self._named_lookup(name, n, scope)
        if name in self.functions:
            slot = self.functions[name]
            if len(n.args) != len(slot.params):
                return self.error(
                    "E105",
                    f"'{name}' takes {len(slot.params)} argument(s), got {len(n.args)}",
                    n.span,
                    f"{name}({', '.join(slot.params)})",
                )
            return self._call_function(slot, [self.expr(a, scope)[0] for a in n.args], n.span)
        if name in g.counters:
            return self._counter_read(name, n, scope)
        if name in g.vars:
            v_ = g.vars[name]
            if not v_.per_player or len(n.args) != 1:
                return self.error(
                    "E105", f"'{name}' takes {'one player' if v_.per_player else 'no'} argument", n.span
                )
            pf, _ = self.expr(n.args[0], scope)
            return (lambda rt: rt.st["v"][name][pf(rt)]), v_.type
        if name in g.zones:
            z = g.zones[name]
            if not z.per_player or len(n.args) != 1:
                return self.error(
                    "E105", f"zone '{name}' takes {'one player' if z.per_player else 'no'} argument", n.span
                )
            pf, pt = self.expr(n.args[0], scope)
            self.expect(pt, PLAYER, n.args[0].span)
            base = z.base
            return (lambda rt: base + pf(rt)), ZONE
        if name in B.BUILTINS:
            return B.BUILTINS[name].compile(self, n, scope)
        return self.error(
            "E104",
            f"unknown function '{name}'",
            n.func.span,
            did_you_mean(name, [*self.functions, *B.BUILTINS, *g.counters, *g.vars, *g.zones]),
        )

    def _CallGen(self, n: ast.CallGen, scope: Scope) -> Typed:
        if not isinstance(n.func, ast.Name) or n.func.id not in B.AGGREGATES:
            return self.error(
                "E106", "a 'for' generator can only be used inside " + ", ".join(sorted(B.AGGREGATES)), n.span
            )
        return B.compile_aggregate(self, n.func.id, n.gen, scope, n.span)

    def expect(self, got: str, want: str, span: Span | None) -> None:
        if got in (ANY, want) or (want == PLAYER and got == INT) or got == NONE:
            return
        self.report.error("T002", f"expected a {want}, found a {got}", span)

    def _counter_read(self, name: str, n: ast.Call, scope: Scope) -> Typed:
        idx = self.counter_index(name, n, scope)
        if idx is None:
            return _broken, ANY
        return (lambda rt: rt.st["c"][idx(rt)]), INT

    def counter_index(self, name: str, n: ast.Call | ast.Name, scope: Scope) -> Closure | None:
        """A closure giving the flat index of counter `name(args)` in state["c"]."""
        c = self.g.counters[name]
        args = n.args if isinstance(n, ast.Call) else ()
        want = (1 if c.per_player else 0) + (1 if c.keys else 0)
        if len(args) != want:
            form = f"{name}({', '.join((['p'] if c.per_player else []) + (['key'] if c.keys else []))})"
            self.report.error(
                "E105", f"counter '{name}' takes {want} argument(s), got {len(args)}", n.span, f"write {form}"
            )
            return None
        base, width = c.base, c.width
        if not c.keys:
            if not c.per_player:
                return lambda rt: base
            pf, pt = self.expr(args[0], scope)
            self.expect(pt, PLAYER, args[0].span)
            return lambda rt: base + pf(rt)
        keys = {k: i for i, k in enumerate(c.keys)}
        key_node = args[-1]
        kf, _ = self.expr(key_node, scope)
        span = key_node.span

        def key_index(rt: Runtime) -> int:
            k = kf(rt)
            try:
                return keys[k]
            except KeyError:
                raise GameRuntimeError(
                    f"counter '{name}' has no key {k!r} (keys: {', '.join(c.keys)})", span
                ) from None

        if isinstance(key_node, ast.Name) and key_node.id in keys and key_node.id not in scope.locals:
            fixed = keys[key_node.id]
            if not c.per_player:
                return lambda rt: base + fixed
            pf, _ = self.expr(args[0], scope)
            return lambda rt: base + pf(rt) * width + fixed
        if not c.per_player:
            return lambda rt: base + key_index(rt)
        pf, _ = self.expr(args[0], scope)
        return lambda rt: base + pf(rt) * width + key_index(rt)

    def _call_function(self, slot: FunctionSlot, args: list[Closure], span: Span | None) -> Typed:
        if slot.state == "new":
            self.compile_function(slot)
        cell = slot.cell
        params = slot.params
        if not params:

            def call0(rt: Runtime) -> Any:
                saved = rt.loc
                rt.loc = {}
                try:
                    return cell[0](rt)
                finally:
                    rt.loc = saved

            return call0, slot.type

        def call(rt: Runtime) -> Any:
            new = {p: a(rt) for p, a in zip(params, args, strict=True)}
            saved = rt.loc
            rt.depth += 1
            if rt.depth > MAX_DEPTH:
                raise GameRuntimeError(f"'{slot.name}' calls itself more than {MAX_DEPTH} deep", span)
            rt.loc = new
            try:
                return cell[0](rt)
            finally:
                rt.loc = saved
                rt.depth -= 1

        return call, slot.type

    def compile_function(self, slot: FunctionSlot) -> None:
        slot.state = "compiling"
        slot.cell.append(_broken)
        if slot.body is not None:
            f, t = self.expr(slot.body, Scope({p: ANY for p in slot.params}, f"function '{slot.name}'"))
            slot.cell[0] = f
            slot.type = t
        slot.state = "done"

    def _named_lookup(self, kind: str, n: ast.Call, scope: Scope) -> Typed:
        if not n.args or not isinstance(n.args[0], (ast.Name, ast.String)):
            return self.error("E105", f"{kind}() needs a name first, e.g. {kind}(hand_size, p)", n.span)
        first = n.args[0]
        key = first.id if isinstance(first, ast.Name) else first.value
        if kind == "option":
            if key not in self.g.options:
                return self.error(
                    "E107", f"unknown rules option '{key}'", first.span, did_you_mean(key, self.g.options)
                )
            t = type_of_value(self.g.options[key])
            return (lambda rt: rt.st["o"][key]), t
        table: dict[str, Any] = self.g.values if kind == "value" else self.g.rules
        if key not in table:
            return self.error("E107", f"unknown {kind} '{key}'", first.span, did_you_mean(key, table))
        args = [self.expr(a, scope)[0] for a in n.args[1:]]
        if len(args) != len(table[key].params):
            return self.error("E105", f"{kind} '{key}' takes {len(table[key].params)} argument(s)", n.span)
        from interpreter.compile.modifiers import rule_closure, value_closure

        if kind == "value":
            return value_closure(self.g, key, args), INT
        return rule_closure(self.g, key, args), BOOL

    # ------------------------------------------------------------ postfix
    def _Attr(self, n: ast.Attr, scope: Scope) -> Typed:
        of, ot = self.expr(n.obj, scope)
        name = n.name
        if ot not in (ANY, COMP, NONE):
            return self.error("T003", f"'.{name}' needs a component, but this is a {ot}", n.obj.span)
        g = self.g
        if name in g.marks:
            return (lambda rt: rt.st["m"][name][of(rt)]), type_of_value(g.marks[name]) if g.marks[
                name
            ] is not None else ANY
        if name in self.props:
            comps = g.components

            def prop(rt: Runtime) -> Any:
                return comps[of(rt)].props.get(name)

            return prop, self._prop_type(name)
        if name in BUILTIN_ATTRS:
            return B.builtin_attr(self, name, of), BUILTIN_ATTRS[name]
        return self.error(
            "E108",
            f"no component has a property or mark named '{name}'",
            n.span,
            did_you_mean(name, [*self.props, *g.marks, *BUILTIN_ATTRS]),
        )

    def _prop_type(self, name: str) -> str:
        t = NONE
        for c in self.g.components:
            if name in c.props:
                t = join(t, type_of_value(c.props[name]))
                if t == ANY:
                    break
        return ANY if t == NONE else t

    def _Index(self, n: ast.Index, scope: Scope) -> Typed:
        of, ot = self.expr(n.obj, scope)
        kf, _ = self.expr(n.key, scope)
        span = n.span

        def index(rt: Runtime) -> Any:
            obj = of(rt)
            key = kf(rt)
            try:
                return obj[key]
            except (KeyError, IndexError, TypeError):
                raise GameRuntimeError(f"no entry {key!r} in {_short(obj)}", span) from None

        return index, elem(ot) if ot.startswith("list[") else ANY

    # ------------------------------------------------------------ operators
    def _Neg(self, n: ast.Neg, scope: Scope) -> Typed:
        f, t = self.expr(n.operand, scope)
        self.expect(t, INT, n.operand.span)
        return (lambda rt: -f(rt)), INT

    def _Not(self, n: ast.Not, scope: Scope) -> Typed:
        f = self.cond(n.operand, scope)
        return (lambda rt: not f(rt)), BOOL

    def _And(self, n: ast.And, scope: Scope) -> Typed:
        a, b = self.cond(n.left, scope), self.cond(n.right, scope)
        return (lambda rt: bool(a(rt)) and bool(b(rt))), BOOL

    def _Or(self, n: ast.Or, scope: Scope) -> Typed:
        a, b = self.cond(n.left, scope), self.cond(n.right, scope)
        return (lambda rt: bool(a(rt)) or bool(b(rt))), BOOL

    def _Compare(self, n: ast.Compare, scope: Scope) -> Typed:
        a, at = self.expr(n.left, scope)
        b, bt = self.expr(n.right, scope)
        op = _COMPARE[n.op]
        if n.op not in ("==", "!="):
            for t, node in ((at, n.left), (bt, n.right)):
                if t not in (INT, ANY):
                    self.report.error("T004", f"'{n.op}' compares numbers, but this is a {t}", node.span)
        elif at == ZONE and bt == ZONE:
            pass
        span = n.span

        def compare(rt: Runtime) -> bool:
            try:
                return op(a(rt), b(rt))
            except TypeError:
                raise GameRuntimeError(
                    f"cannot compare {_short(a(rt))} {n.op} {_short(b(rt))}", span
                ) from None

        return (compare if n.op not in ("==", "!=") else (lambda rt: op(a(rt), b(rt)))), BOOL

    def _In(self, n: ast.In, scope: Scope) -> Typed:
        x, _ = self.expr(n.item, scope)
        cf, ct = self.expr(n.container, scope)
        neg = n.negated
        if ct == ZONE:
            return (lambda rt: (rt.st["loc"][x(rt)] == cf(rt)) != neg), BOOL
        if ct not in (ANY,) and not ct.startswith("list["):
            return self.error(
                "T001", f"'in' needs a list or a zone on its right, found a {ct}", n.container.span
            )
        lf = to_list(cf, ct)
        return (lambda rt: (x(rt) in lf(rt)) != neg), BOOL

    def _Binary(self, n: ast.Binary, scope: Scope) -> Typed:
        a, at = self.expr(n.left, scope)
        b, bt = self.expr(n.right, scope)
        op = _ARITH[n.op]
        if n.op == "+" and (at.startswith("list[") or bt.startswith("list[")):
            return (lambda rt: list(a(rt)) + list(b(rt))), join(at, bt)
        for t, node in ((at, n.left), (bt, n.right)):
            if t not in (INT, ANY):
                self.report.error("T005", f"'{n.op}' needs numbers, but this is a {t}", node.span)
        span = n.span

        def arith(rt: Runtime) -> Any:
            try:
                return op(a(rt), b(rt))
            except ZeroDivisionError:
                raise GameRuntimeError("division by zero", span) from None
            except TypeError:
                raise GameRuntimeError(
                    f"cannot compute {_short(a(rt))} {n.op} {_short(b(rt))}", span
                ) from None

        return arith, INT if (at, bt) == (INT, INT) else (ANY if ANY in (at, bt) else INT)

    def _CondExpr(self, n: ast.CondExpr, scope: Scope) -> Typed:
        c = self.cond(n.test, scope)
        a, at = self.expr(n.then, scope)
        b, bt = self.expr(n.otherwise, scope)
        return (lambda rt: a(rt) if c(rt) else b(rt)), join(at, bt)

    def _ListComp(self, n: ast.ListComp, scope: Scope) -> Typed:
        return B.compile_aggregate(self, "list", n.gen, scope, n.span)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) < 40 else text[:37] + "..."
