"""Check and compile DSL expressions into Python code.

Stage: check + compile (one walk). Each AST node is resolved — names, arity, attribute names, static
types — and, if it resolves, turned into a fragment of Python source. A whole expression becomes one
Python function `f(rt)`; each DSL function becomes one Python function with real parameters; a
generator becomes a Python comprehension. Evaluating a condition is then plain bytecode, with no tree
of closures to call through (the reason: hundreds of thousands of evaluations per simulated game).

The generated code can only reach what is injected into its namespace: the state through `rt`, the
game's constants, property columns and the builtin registry. DSL text never becomes Python text
except as identifiers that were resolved against the game (prefixed) and literals (repr'd), so a
game file cannot run Python of its own.

Every problem goes into the Report with the node's span; a game with any error is never run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.compile import builtins as B
from tabula.interpreter.compile.scope import (
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
from tabula.interpreter.compile.scope import a as article
from tabula.interpreter.dsl import ast
from tabula.interpreter.model import Closure, CompiledGame
from tabula.interpreter.runtime import GameRuntimeError, Runtime
from tabula.interpreter.source import Report, Span, did_you_mean

Typed = tuple[Closure, str]
Code = tuple[str, str]  # (python source, static type)

BUILTIN_ATTRS = {"name": STR, "key": STR, "type": STR, "zone": ZONE, "holder": PLAYER, "id": INT}
SPECIAL_NAMES = {"players", "num_players", "active", "round", "turn"}
BROKEN: Code = ("_broken(rt)", ANY)
# The only Python builtins generated code may use (it never names anything else).
_SAFE_BUILTINS: dict[str, Any] = {
    f.__name__: f for f in (list, range, len, bool, sum, any, all, min, max, sorted, abs)
}
_SAFE_BUILTINS.update(KeyError=KeyError, TypeError=TypeError)
_PROLOGUE = "    L = rt.loc\n    S = rt.st\n"


def _broken(rt: Runtime) -> Any:
    raise GameRuntimeError("this expression has an error and cannot run", None)


def _as_list(rt: Runtime, v: Any) -> Any:
    """A list from a value of unknown static type: ints are zone instances."""
    return rt.st["z"][v] if isinstance(v, int) and not isinstance(v, bool) else v


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
    param_types: dict[str, str] = field(default_factory=dict)


def to_list(f: Closure, t: str) -> Closure:
    """A closure giving a Python list for a list- or zone-typed closure."""
    if t == ZONE:
        return lambda rt: rt.st["z"][f(rt)]
    if t == ANY:
        return lambda rt: _as_list(rt, f(rt))
    return f


def _has_generator(node: Any) -> bool:
    if isinstance(node, ast.Generator):
        return True
    if isinstance(node, ast.Node):
        return any(_has_generator(v) for v in vars(node).values())
    if isinstance(node, tuple):
        return any(_has_generator(v) for v in node)
    return False


class ExprCompiler:
    """Resolves DSL expressions against one game's names and generates Python code for them."""

    def __init__(self, game: CompiledGame, report: Report, functions: dict[str, FunctionSlot]) -> None:
        self.g = game
        self.report = report
        self.functions = functions
        self.props: dict[str, set[str]] = {}  # property name -> component types having it
        for c in game.components:
            for k in c.props:
                self.props.setdefault(k, set()).add(c.type)
        self.ns: dict[str, Any] = {"_broken": _broken, "_as_list": _as_list, "__builtins__": _SAFE_BUILTINS}
        self._injected: dict[int, str] = {}
        self.used: set[str] = set()  # every name the game's code mentions (for unused-definition warnings)
        self._cache: dict[str, Closure] = {}

    # ------------------------------------------------------------ namespace
    def inject(self, value: Any, hint: str) -> str:
        """A namespace name for a Python object the generated code needs (constants, columns, impls)."""
        key = id(value)
        if key in self._injected:
            return self._injected[key]
        name = f"_{''.join(ch if ch.isalnum() else '_' for ch in hint)}_{len(self.ns)}"
        self.ns[name] = value
        self._injected[key] = name
        return name

    def closure(self, src: str) -> Closure:
        """Turn generated source into a function of the runtime."""
        if src in self._cache:
            return self._cache[src]
        text = f"def _f(rt):\n{_PROLOGUE}    return {src}\n"
        local: dict[str, Any] = {}
        exec(compile(text, "<tabula-dsl>", "exec"), self.ns, local)  # generated from a checked AST
        f: Closure = local["_f"]
        self._cache[src] = f
        return f

    def function(
        self, node: ast.Expr, params: list[tuple[str, str]], cond: bool = False
    ) -> Callable[..., Any]:
        """A generated `f(rt, *params)` for an expression whose names include `params` as Python locals
        (for code run per component, like `active` conditions and modifiers: no dictionary per call).
        Diagnostics go to the report as usual."""
        scope = Scope({}, "", dict(params))
        src = self.cond_code(node, scope) if cond else self.code(node, scope)[0]
        args = "".join(f", v_{name}" for name, _ in params)
        text = f"def _g(rt{args}):\n    L = rt.loc\n    S = rt.st\n    return {src}\n"
        local: dict[str, Any] = {}
        exec(compile(text, "<tabula-dsl>", "exec"), self.ns, local)  # generated from a checked AST
        fn: Callable[..., Any] = local["_g"]
        return fn

    def selector(self, node: ast.Expr, cids: list[int]) -> Callable[..., Any]:
        """A generated `f(rt, p)`: the components among `cids` for which condition `node` (with `self`
        and `p`) holds - one comprehension, no call per component."""
        scope = Scope({}, "", {"self": COMP, "p": PLAYER})
        src = self.cond_code(node, scope)
        pool = self.inject(list(cids), "cids")
        body = f"[v_self for v_self in {pool} if {src}]"
        text = f"def _s(rt, v_p):\n    L = rt.loc\n    S = rt.st\n    return {body}\n"
        local: dict[str, Any] = {}
        exec(compile(text, "<tabula-dsl>", "exec"), self.ns, local)  # generated from a checked AST
        fn: Callable[..., Any] = local["_s"]
        return fn

    # ------------------------------------------------------------ errors
    def error(self, code: str, msg: str, span: Span | None, hint: str | None = None) -> Code:
        self.report.error(code, msg, span, hint)
        return BROKEN

    def all_names(self, scope: Scope) -> list[str]:
        g = self.g
        return [
            *scope.locals,
            *scope.py,
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

    # ------------------------------------------------------------ public entry points (closures)
    def expr(self, node: ast.Expr, scope: Scope) -> Typed:
        src, t = self.code(node, scope)
        return self.closure(src), t

    def cond(self, node: ast.Expr, scope: Scope) -> Closure:
        return self.closure(self.cond_code(node, scope))

    def listy(self, node: ast.Expr, scope: Scope) -> Typed:
        src, t = self.list_code(node, scope)
        return self.closure(src), t

    def counter_index(self, name: str, n: ast.Call | ast.Name, scope: Scope) -> Closure | None:
        src = self.counter_index_code(name, n, scope)
        return None if src is None else self.closure(src)

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
        if t not in (BOOL, ANY):
            self.report.warning(
                "T010",
                f"this condition is {article(t)}, not true/false",
                node.span,
                "compare it with something, e.g. '... > 0'",
            )
        return src

    def list_code(self, node: ast.Expr, scope: Scope) -> Code:
        src, t = self.code(node, scope)
        if t == ZONE:
            return f"S['z'][{src}]", list_of(COMP)
        if t == ANY:
            return f"_as_list(rt, {src})", ANY
        if not t.startswith("list["):
            return self.error("T001", f"expected a list or a zone, found {article(t)}", node.span)
        return src, t

    def expect(self, got: str, want: str, span: Span | None) -> None:
        if got in (ANY, want) or (want == PLAYER and got == INT) or got == NONE:
            return
        self.report.error("T002", f"expected {article(want)}, found {article(got)}", span)

    # ------------------------------------------------------------ literals
    def _Number(self, n: ast.Number, scope: Scope) -> Code:
        return repr(n.value), INT

    def _String(self, n: ast.String, scope: Scope) -> Code:
        return repr(n.value), STR

    def _Bool(self, n: ast.Bool, scope: Scope) -> Code:
        return repr(n.value), BOOL

    def _NoneLit(self, n: ast.NoneLit, scope: Scope) -> Code:
        return "None", NONE

    def _ListLit(self, n: ast.ListLit, scope: Scope) -> Code:
        items = [self.code(x, scope) for x in n.items]
        t = NONE
        for _, it in items:
            t = join(t, it)
        return "[" + ", ".join(src for src, _ in items) + "]", list_of(ANY if t == NONE else t)

    # ------------------------------------------------------------ names
    def _Name(self, n: ast.Name, scope: Scope) -> Code:
        name = n.id
        g = self.g
        if name in scope.py:
            return f"v_{name}", scope.py[name]
        if name in scope.locals:
            return f"L[{name!r}]", scope.locals[name]
        special = {
            "players": ("list(range(S['t']['n']))", list_of(PLAYER)),
            "num_players": ("S['t']['n']", INT),
            "active": ("S['t']['active']", PLAYER),
            "round": ("S['t']['round']", INT),
            "turn": ("S['t']['turn']", INT),
        }
        if name in special:
            return special[name]
        if name in g.by_type:
            return self.inject(g.by_type[name], name), list_of(COMP)
        if name in g.constants:
            v = g.constants[name]
            if isinstance(v, (int, str, bool)) or v is None:
                return repr(v), type_of_value(v)
            return self.inject(v, name), type_of_value(v)
        for syms in g.enums.values():
            if name in syms:
                return repr(name), STR
        if name in g.counters:
            c = g.counters[name]
            if c.per_player or c.keys:
                args = ("p" if c.per_player else "") + (", key" if c.keys else "")
                return self.error(
                    "E102", f"counter '{name}' needs arguments", n.span, f"write {name}({args})"
                )
            return f"S['c'][{c.base}]", INT
        if name in g.vars:
            v_ = g.vars[name]
            if v_.per_player:
                return self.error("E102", f"'{name}' is kept per player: write {name}(p)", n.span)
            return f"S['v'][{name!r}]", v_.type
        if name in g.zones:
            z = g.zones[name]
            if z.per_player:
                return self.error("E102", f"zone '{name}' is per player: write {name}(p)", n.span)
            return repr(z.base), ZONE
        if name in self.functions:
            slot = self.functions[name]
            if slot.params:
                return self.error(
                    "E105",
                    f"'{name}' takes {len(slot.params)} argument(s)",
                    n.span,
                    f"{name}({', '.join(slot.params)})",
                )
            return self._call_function(slot, [])
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
    def _Call(self, n: ast.Call, scope: Scope) -> Code:
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
            args = []
            for a, pname in zip(n.args, slot.params, strict=True):
                src, t = self.code(a, scope)
                if t == ZONE and slot.param_types.get(pname, ANY).startswith("list["):
                    src = f"S['z'][{src}]"  # a zone given where a list is declared: its contents
                args.append(src)
            return self._call_function(slot, args)
        if name in g.counters:
            idx = self.counter_index_code(name, n, scope)
            return (BROKEN[0], ANY) if idx is None else (f"S['c'][{idx}]", INT)
        if name in g.vars:
            v_ = g.vars[name]
            if not v_.per_player or len(n.args) != 1:
                want = "one player" if v_.per_player else "no"
                return self.error("E105", f"'{name}' takes {want} argument", n.span)
            p, _ = self.code(n.args[0], scope)
            return f"S['v'][{name!r}][{p}]", v_.type
        if name in g.zones:
            z = g.zones[name]
            if not z.per_player or len(n.args) != 1:
                want = "one player" if z.per_player else "no"
                return self.error("E105", f"zone '{name}' takes {want} argument", n.span)
            p, pt = self.code(n.args[0], scope)
            self.expect(pt, PLAYER, n.args[0].span)
            return f"({z.base} + {p})", ZONE
        if name in B.BUILTINS:
            return B.BUILTINS[name].code(self, n, scope)
        return self.error(
            "E104",
            f"unknown function '{name}'",
            n.func.span,
            did_you_mean(name, [*self.functions, *B.BUILTINS, *g.counters, *g.vars, *g.zones]),
        )

    def _CallGen(self, n: ast.CallGen, scope: Scope) -> Code:
        if not isinstance(n.func, ast.Name) or n.func.id not in B.AGGREGATES:
            return self.error(
                "E106",
                "a 'for' generator can only be used inside " + ", ".join(sorted(B.AGGREGATES)),
                n.span,
            )
        return B.aggregate_code(self, n.func.id, n.gen, scope)

    def counter_index_code(self, name: str, n: ast.Call | ast.Name, scope: Scope) -> str | None:
        """Source for the flat index of counter `name(args)` in state["c"]."""
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
        player = ""
        if c.per_player:
            p, pt = self.code(args[0], scope)
            self.expect(pt, PLAYER, args[0].span)
            player = f" + ({p}) * {width}" if c.keys else f" + ({p})"
        if not c.keys:
            return f"({base}{player})"
        key_node = args[-1]
        if isinstance(key_node, (ast.Name, ast.String)):
            word = key_node.id if isinstance(key_node, ast.Name) else key_node.value
            shadowed = isinstance(key_node, ast.Name) and (word in scope.locals or word in scope.py)
            if word in c.keys and not shadowed:
                return f"({base}{player} + {c.keys.index(word)})"
            if isinstance(key_node, ast.String) or (
                not shadowed
                and word not in self.g.constants
                and word not in self.g.vars
                and word not in self.functions
                and not any(word in syms for syms in self.g.enums.values())
            ):
                self.report.error(
                    "E109", f"counter '{name}' has no key '{word}'", key_node.span, did_you_mean(word, c.keys)
                )
                return None
        k, _ = self.code(key_node, scope)
        # a missing key raises KeyError, reported at the statement as "no such entry"
        table = self.inject({key: i for i, key in enumerate(c.keys)}, f"keys_{name}")
        return f"({base}{player} + {table}[{k}])"

    def _call_function(self, slot: FunctionSlot, args: list[str]) -> Code:
        if slot.state == "new":
            self.compile_function(slot)
        return f"F_{slot.name}(rt{''.join(', ' + a for a in args)})", slot.type

    def compile_function(self, slot: FunctionSlot) -> None:
        """Define `F_<name>(rt, params...)` in the namespace (recursion works through the namespace)."""
        slot.state = "compiling"
        self.ns[f"F_{slot.name}"] = lambda rt, *a: _broken(rt)
        if slot.body is not None:
            scope = Scope(
                {}, f"function '{slot.name}'", {p: slot.param_types.get(p, ANY) for p in slot.params}
            )
            src, t = self.code(slot.body, scope)
            params = "".join(f", v_{p}" for p in slot.params)
            if slot.params and _has_generator(slot.body):
                # functions that loop over lists are memoised within one evaluation
                key = f"({slot.name!r}{params},)"
                text = (
                    f"def F_{slot.name}(rt{params}):\n    S = rt.st\n    M = rt.memo\n    K = {key}\n"
                    f"    try:\n        return M[K]\n    except KeyError:\n        pass\n"
                    f"    except TypeError:\n        return {src}\n"
                    f"    R = M[K] = {src}\n    return R\n"
                )
            else:
                text = f"def F_{slot.name}(rt{params}):\n    S = rt.st\n    return {src}\n"
            exec(compile(text, f"<function {slot.name}>", "exec"), self.ns)  # generated from a checked AST
            slot.type = t
            fn = self.ns[f"F_{slot.name}"]
            slot.cell.append(lambda rt: fn(rt, *[rt.loc[p] for p in slot.params]))
        slot.state = "done"

    def _named_lookup(self, kind: str, n: ast.Call, scope: Scope) -> Code:
        if not n.args or not isinstance(n.args[0], (ast.Name, ast.String)):
            return self.error("E105", f"{kind}() needs a name first, e.g. {kind}(hand_size, p)", n.span)
        first = n.args[0]
        key = first.id if isinstance(first, ast.Name) else first.value
        if kind == "option":
            if key not in self.g.options:
                return self.error(
                    "E107", f"unknown rules option '{key}'", first.span, did_you_mean(key, self.g.options)
                )
            return f"S['o'][{key!r}]", type_of_value(self.g.options[key])
        table: dict[str, Any] = self.g.values if kind == "value" else self.g.rules
        if key not in table:
            return self.error("E107", f"unknown {kind} '{key}'", first.span, did_you_mean(key, table))
        args = [self.code(a, scope)[0] for a in n.args[1:]]
        if len(args) != len(table[key].params):
            return self.error("E105", f"{kind} '{key}' takes {len(table[key].params)} argument(s)", n.span)
        from tabula.interpreter.compile.modifiers import rule_function, value_function

        fn = value_function(self.g, key) if kind == "value" else rule_function(self.g, key)
        name = self.inject(fn, f"{kind}_{key}")
        return f"{name}(rt{''.join(', ' + a for a in args)})", INT if kind == "value" else BOOL

    # ------------------------------------------------------------ postfix
    def _Attr(self, n: ast.Attr, scope: Scope) -> Code:
        obj, ot = self.code(n.obj, scope)
        name = n.name
        if ot not in (ANY, COMP, NONE):
            return self.error("T003", f"'.{name}' needs a component, but this is {article(ot)}", n.obj.span)
        g = self.g
        if name in g.marks:
            default = g.marks[name]
            return f"S['m'][{name!r}][{obj}]", (type_of_value(default) if default is not None else ANY)
        if name in self.props:
            column = [c.props.get(name) for c in g.components]
            return f"{self.inject(column, 'prop_' + name)}[{obj}]", self._prop_type(name)
        if name in BUILTIN_ATTRS:
            return B.builtin_attr_code(self, name, obj), BUILTIN_ATTRS[name]
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

    def _Index(self, n: ast.Index, scope: Scope) -> Code:
        obj, ot = self.code(n.obj, scope)
        key, _ = self.code(n.key, scope)
        return f"{obj}[{key}]", elem(ot) if ot.startswith("list[") else ANY

    # ------------------------------------------------------------ operators
    def _Neg(self, n: ast.Neg, scope: Scope) -> Code:
        src, t = self.code(n.operand, scope)
        self.expect(t, INT, n.operand.span)
        return f"(-{src})", INT

    def _Not(self, n: ast.Not, scope: Scope) -> Code:
        return f"(not {self.cond_code(n.operand, scope)})", BOOL

    def _And(self, n: ast.And, scope: Scope) -> Code:
        return f"bool({self.cond_code(n.left, scope)} and {self.cond_code(n.right, scope)})", BOOL

    def _Or(self, n: ast.Or, scope: Scope) -> Code:
        return f"bool({self.cond_code(n.left, scope)} or {self.cond_code(n.right, scope)})", BOOL

    def _Compare(self, n: ast.Compare, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        b, bt = self.code(n.right, scope)
        if n.op not in ("==", "!="):
            for t, node in ((at, n.left), (bt, n.right)):
                if t not in (INT, ANY):
                    self.report.error(
                        "T004", f"'{n.op}' compares numbers, but this is {article(t)}", node.span
                    )
        return f"({a} {n.op} {b})", BOOL

    def _In(self, n: ast.In, scope: Scope) -> Code:
        x, _ = self.code(n.item, scope)
        c, ct = self.code(n.container, scope)
        op = "!=" if n.negated else "=="
        if ct == ZONE:
            return f"(S['loc'][{x}] {op} {c})", BOOL
        if ct != ANY and not ct.startswith("list["):
            return self.error(
                "T001", f"'in' needs a list or a zone on its right, found {article(ct)}", n.container.span
            )
        container = c if ct != ANY else f"_as_list(rt, {c})"
        return f"({x} {'not in' if n.negated else 'in'} {container})", BOOL

    def _Binary(self, n: ast.Binary, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        b, bt = self.code(n.right, scope)
        if n.op == "+" and (at.startswith("list[") or bt.startswith("list[")):
            bounded = self.inject(B.bounded, "bounded")
            return f"{bounded}(list({a}) + list({b}))", join(at, bt)
        for t, node in ((at, n.left), (bt, n.right)):
            if t not in (INT, ANY):
                self.report.error("T005", f"'{n.op}' needs numbers, but this is {article(t)}", node.span)
        result = INT if (at, bt) == (INT, INT) else (ANY if ANY in (at, bt) else INT)
        return f"({a} {n.op} {b})", result

    def _CondExpr(self, n: ast.CondExpr, scope: Scope) -> Code:
        c = self.cond_code(n.test, scope)
        a, at = self.code(n.then, scope)
        b, bt = self.code(n.otherwise, scope)
        return f"({a} if {c} else {b})", join(at, bt)

    def _ListComp(self, n: ast.ListComp, scope: Scope) -> Code:
        return B.aggregate_code(self, "list", n.gen, scope)
