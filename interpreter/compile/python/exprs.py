"""Check and compile DSL expressions into Python source.

Stage: check + compile (one walk). Each AST node is resolved — names, arity, attribute names, static
types — and, if it resolves, turned into a fragment of Python source. Fragments are composed into the
functions of the game's generated module (`module.py`): a whole expression, a DSL function, or an
expression written inline into an effect's function. Evaluating a condition is then plain bytecode.

What the compiler does to make that bytecode small (each is semantics-preserving for the pure,
side-effect-free expressions of the DSL):

- **constant folding**: comparisons, `and`/`or`/`not`, `if-else`, arithmetic and `in` of literals;
  with `Scope.known` a name can stand for a literal (a component type's ability compiled once per
  component knows `self`, so `self.name == 'Road'` folds to true or false);
- **inlining**: a small, non-recursive DSL function is written into its caller with its arguments
  substituted (an argument used more than once, or inside a loop, must be a plain name or literal);
- **short-circuits**: `first`, `any`, `all` stop at the first deciding element;
  `count`/`sum` build a list and measure it (faster than a generator in CPython);
- **hoisting**: the `and`-conjuncts of a generator's `where` that do not use its variable are tested
  once, before the loop, not once per element;
- `bool(...)` only where an operand is not already true/false.

The generated code can only reach what is injected into its namespace: the state through `rt`, the
game's constants, property columns and the builtin registry. Every problem goes into the Report with
the node's span; a game with any error is never run.
"""

from __future__ import annotations

import ast as pyast
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.base.source import Report, Span, did_you_mean
from tabula.interpreter.base.types import (
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
from tabula.interpreter.base.types import a as article
from tabula.interpreter.compile.python import builtins as B
from tabula.interpreter.compile.python.lowering import lower
from tabula.interpreter.compile.python.module import GenModule
from tabula.interpreter.compile.python.precharge import precharge
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import Closure, CompiledGame
from tabula.interpreter.run import budget
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime, over_budget

Typed = tuple[Closure, str]
Code = tuple[str, str]  # (python source, static type)

BUILTIN_ATTRS = {"name": STR, "key": STR, "type": STR, "zone": ZONE, "holder": PLAYER, "id": INT}
SPECIAL_NAMES = {"players", "num_players", "active", "round", "turn"}
BROKEN: Code = ("_broken(rt)", ANY)
# a counter's index made of numbers and Python locals (players): reading it cannot fail
_FIXED_INDEX = re.compile(r"[\d\s()+*]*(?:\bv_\w+[\d\s()+*]*)*")
PROLOGUE = "    L = rt.loc\n    S = rt.st\n"
INLINE_NODES = 32  # a DSL function of at most this many nodes may be inlined
INLINE_CHARS = 700  # ... when its substituted source stays this short
_NO_VALUE = object()
# `x in L` for a list of at most this many items is not charged per item: it is bounded work, like
# comparing two short lists (compile/budget.py)
SHORT_LIST = 64
_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}


def _MISS_FN() -> None:
    """A marker object: no remembered result (see memo_function)."""


def _broken(rt: Runtime) -> Any:
    raise GameRuntimeError("this expression has an error and cannot run", None)


def _returning(value: str) -> list[str]:
    return [f"return {value}"]


def _remembering(value: str) -> list[str]:
    return [f"r = M[K] = {value}", "return r"]


def _lowered(src: str, finish: Callable[[str], list[str]]) -> list[str]:
    """The statements of a function's end that computes `src` (lowering.py): `finish(src)` when
    there is nothing to lower."""
    return lower(src, finish) or finish(src)


def _as_list(rt: Runtime, v: Any) -> Any:
    """A list from a value of unknown static type: ints are zone instances."""
    return rt.st["z"][v] if isinstance(v, int) and not isinstance(v, bool) else v


_COLUMN_READ = re.compile(r"\(?(_(?:prop|attr)_\w+)\[((?:v_|L\[')?[\w']+\]?)\]\)?")


def literal(src: str) -> Any:
    """The value of a Python literal source fragment, or _NO_VALUE."""
    if not src or src[0] not in "-0123456789'\"TFN([":
        return _NO_VALUE
    try:
        return pyast.literal_eval(src)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NO_VALUE


def is_literal(src: str) -> bool:
    return literal(src) is not _NO_VALUE


def _may_be_long_list(src: str, t: str) -> bool:
    """An operand of a comparison that may be a list of more than a few items (budget.COMPARE)."""
    if t != ANY and not t.startswith("list["):
        return False
    v = literal(src)
    return v is _NO_VALUE or (isinstance(v, list) and len(v) > budget.LIGHT)


def is_simple(src: str) -> bool:
    """A fragment cheap and safe to evaluate more than once (a name, a local, a literal)."""
    return src.isidentifier() or is_literal(src) or (src.startswith("L[") and src.count("[") == 1)


_CHEAP_NODES = (
    pyast.Name,
    pyast.Constant,
    pyast.Subscript,
    pyast.Load,
    pyast.BinOp,
    pyast.Add,
    pyast.Sub,
    pyast.UnaryOp,
    pyast.USub,
    pyast.Expression,
)
_cheap: dict[str, bool] = {}


def is_cheap(src: str) -> bool:
    """A fragment cheap enough to evaluate twice: names, literals, subscripts and sums of them."""
    if is_simple(src):
        return True
    if src not in _cheap:
        try:
            nodes = list(pyast.walk(pyast.parse(src, mode="eval")))
            _cheap[src] = len(nodes) <= 14 and all(isinstance(x, _CHEAP_NODES) for x in nodes)
        except SyntaxError:
            _cheap[src] = False
    return _cheap[src]


def split_and(src: str) -> list[str]:
    """The top-level `and` operands of a generated condition (itself when it is not an `and`)."""
    try:
        tree = pyast.parse(src, mode="eval").body
    except SyntaxError:
        return [src]
    if not (isinstance(tree, pyast.BoolOp) and isinstance(tree.op, pyast.And)):
        return [src]
    out: list[str] = []
    for v in tree.values:
        out.extend(split_and(f"({pyast.unparse(v)})"))  # parenthesised: operands are joined again
    return out


def mentions(src: str, names: set[str]) -> bool:
    """Does a generated fragment read any of these Python names?"""
    try:
        return any(
            isinstance(x, pyast.Name) and x.id in names for x in pyast.walk(pyast.parse(src, mode="eval"))
        )
    except SyntaxError:
        return True


@dataclass
class FunctionSlot:
    """A user function, compiled on first use (so definitions may come in any order)."""

    name: str
    params: list[str]
    body: ast.Expr | None
    span: Span | None
    type: str = ANY
    state: str = "new"  # new | compiling | done
    param_types: dict[str, str] = field(default_factory=dict)
    size: int = 0  # AST nodes of the body
    param_uses: dict[str, int] = field(default_factory=dict)  # uses per parameter (a loop counts 2)
    recursive: bool = False  # calls itself, directly or through other functions
    expensive: bool = False  # loops (a generator), directly or through the functions it calls


def node_count(node: Any) -> int:
    if isinstance(node, ast.Node):
        return 1 + sum(node_count(v) for v in vars(node).values())
    if isinstance(node, tuple):
        return sum(node_count(v) for v in node)
    return 0


def name_uses(node: Any, in_loop: bool = False) -> dict[str, int]:
    """How often each name is read in an expression; a read inside a generator counts as two."""
    out: dict[str, int] = {}

    def walk(n: Any, loop: bool) -> None:
        if isinstance(n, ast.Name):
            out[n.id] = out.get(n.id, 0) + (2 if loop else 1)
        elif isinstance(n, ast.Generator):
            walk(n.iter, loop)
            for part in (n.elt, n.cond, n.default):
                if part is not None:
                    walk(part, True)
            return
        if isinstance(n, ast.Node):
            for v in vars(n).values():
                walk(v, loop)
        elif isinstance(n, tuple):
            for v in n:
                walk(v, loop)

    walk(node, in_loop)
    return out


def _children(node: Any) -> Iterator[Any]:
    """The fields of an AST node, or the items of a tuple of nodes (what the walks below visit)."""
    if isinstance(node, ast.Node):
        yield from vars(node).values()
    elif isinstance(node, tuple):
        yield from node


def shape(node: Any) -> Any:
    """An expression without its positions: two texts that say the same thing have equal shapes."""
    if isinstance(node, ast.Node):
        return (type(node).__name__, *(shape(v) for k, v in vars(node).items() if k != "span"))
    if isinstance(node, tuple):
        return tuple(shape(v) for v in node)
    return node


def calls_in(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, (ast.Call, ast.CallGen)) and isinstance(node.func, ast.Name):
        found.add(node.func.id)
    if isinstance(node, ast.Name):
        found.add(node.id)
    for v in _children(node):
        found |= calls_in(v)
    return found


def _has_generator(node: Any) -> bool:
    return isinstance(node, ast.Generator) or any(_has_generator(v) for v in _children(node))


def _call_sites(node: Any, names: set[str], in_generator: bool = False) -> int:
    """How often `node` calls a function of `names`: a call inside a generator counts twice."""
    n = 0
    called = isinstance(node, (ast.Call, ast.CallGen)) and isinstance(node.func, ast.Name)
    if (called and node.func.id in names) or (isinstance(node, ast.Name) and node.id in names):
        n += 2 if in_generator else 1
    inner = in_generator or isinstance(node, ast.Generator)
    for v in _children(node):
        if not (called and v is node.func):
            n += _call_sites(v, names, inner)
    return n


def _has_loop(node: Any) -> bool:
    """`node` holds a generator that runs as a Python loop (`count(x for x in L where x == E)` and
    `any(x == E for x in L)` run as C loops: `L.count(E)`, `E in L`)."""
    from tabula.interpreter.compile.python.builtins import _equal_to

    if (
        isinstance(node, ast.CallGen)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("count", "any")
        and _equal_to(node.gen, node.func.id) is not None
    ):
        return _has_loop(node.gen.iter)
    return isinstance(node, ast.Generator) or any(_has_loop(v) for v in _children(node))


def conjuncts(node: ast.Expr) -> list[ast.Expr]:
    if isinstance(node, ast.And):
        return [*conjuncts(node.left), *conjuncts(node.right)]
    return [node]


def and_chain(nodes: list[ast.Expr]) -> ast.Expr:
    out = nodes[0]
    for n in nodes[1:]:
        out = ast.And(out.span, out, n)
    return out


def names_in(node: Any) -> set[str]:
    """Every name an expression mentions (loop variables of its generators included)."""
    found: set[str] = set()
    if isinstance(node, ast.Name):
        found.add(node.id)
    elif isinstance(node, ast.Generator):
        found.add(node.var)
    for v in _children(node):
        found |= names_in(v)
    return found


def mark_expensive(functions: dict[str, FunctionSlot]) -> None:
    """Set `expensive` on every function worth remembering: it loops, or it calls expensive
    functions more than once (or inside a generator). A function that calls one expensive function
    once costs one remembered lookup of it: remembering it too would cost more than it saves."""
    for slot in functions.values():
        slot.expensive = slot.body is not None and _has_loop(slot.body)
    changed = True
    while changed:
        changed = False
        names = {name for name, slot in functions.items() if slot.expensive}
        for slot in functions.values():
            if not slot.expensive and _call_sites(slot.body, names) >= 2:
                slot.expensive = changed = True


def mark_recursion(functions: dict[str, FunctionSlot]) -> None:
    """Set `recursive` on every function that can reach itself through calls."""
    graph = {name: calls_in(slot.body) & set(functions) for name, slot in functions.items()}
    for name in functions:
        seen: set[str] = set()
        todo = list(graph[name])
        while todo:
            n = todo.pop()
            if n == name:
                functions[name].recursive = True
                break
            if n not in seen:
                seen.add(n)
                todo.extend(graph.get(n, ()))


class ExprCompiler:
    """Resolves DSL expressions against one game's names and generates Python code for them."""

    def __init__(
        self, game: CompiledGame, report: Report, functions: dict[str, FunctionSlot], module: GenModule
    ) -> None:
        self.g = game
        self.report = report
        self.functions = functions
        self.mod = module
        self.ns = module.ns
        self.props: dict[str, set[str]] = {}  # property name -> component types having it
        for c in game.components:
            for k in c.props:
                self.props.setdefault(k, set()).add(c.type)
        self.ns["_broken"] = _broken
        self.mod.helpers["_broken"] = (__name__, "_broken")
        self.ns["_as_list"] = _as_list
        self.mod.helpers["_as_list"] = (__name__, "_as_list")
        self.used: set[str] = set()  # every name the game's code mentions (for unused-definition warnings)
        self._cache: dict[str, Closure] = {}
        self._inlining: list[str] = []
        self._loops: list[tuple[str, list[tuple[str, str]]]] = []  # generators being compiled
        # calls of expensive functions are remembered in `rt.memo` until the state is next written
        # (generated writes clear it: see effects.py), so one evaluation never repeats another
        self.memo_mode = True
        self._memo_ids: dict[str, int] = {}
        self._counter_tables: dict[str, str] = {}  # counter -> the table of its keys' offsets
        # rule function -> (its guard: marks' test not reading the arguments, the function run when it
        # holds, the answer when it does not) for rules compiled so far (modifiers.py)
        self.rule_guards: dict[str, tuple[str, str, str]] = {}
        self._derived: dict[tuple[str, str, str], str] = {}  # (column, op, value) -> its answers
        self._columns: dict[str, str] = {}
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
        body = "".join(f"    {line}\n" for line in _lowered(src, _returning))
        return self.mod.function(f"def {name}(rt{args}):\n{PROLOGUE}{body}", name)

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
        if name in scope.known:
            return scope.known[name]
        if name in scope.py:
            return f"v_{name}", scope.py[name]
        if name in scope.locals:
            return f"L[{name!r}]", scope.locals[name]
        special = {
            "players": (f"list(range({self.bind('NP')}))", list_of(PLAYER)),
            "num_players": (self.bind("NP"), INT),
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
            return f"{self.bind('C')}[{c.base}]", INT
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
        if name in scope.pending:
            return self.error("E101", f"'{name}' is not known yet here", n.span, scope.pending[name])
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
                    src = f"{self.bind('Z')}[{src}]"  # a zone given where a list is declared: its contents
                args.append(src)
            return self._call_function(slot, args)
        if name in g.counters:
            idx = self.counter_index_code(name, n, scope)
            if idx is None:
                return BROKEN[0], ANY
            read = f"{self.bind('C')}[{idx}]"
            if self._loops and _FIXED_INDEX.fullmatch(idx):
                return self.invariant_read(read), INT
            return read, INT
        if name in g.vars:
            v_ = g.vars[name]
            if not v_.per_player or len(n.args) != 1:
                want = "one player" if v_.per_player else "no"
                return self.error("E105", f"'{name}' takes {want} argument", n.span)
            p, pt = self.code(n.args[0], scope)
            read = f"{self.bind('pv_' + name)}[{p}]"
            if self._loops and pt == PLAYER and _FIXED_INDEX.fullmatch(p):
                return self.invariant_read(read), v_.type
            return read, v_.type
        if name in g.zones:
            z = g.zones[name]
            if not z.per_player or len(n.args) != 1:
                want = "one player" if z.per_player else "no"
                return self.error("E105", f"zone '{name}' takes {want} argument", n.span)
            p, pt = self.code(n.args[0], scope)
            self.expect(pt, PLAYER, n.args[0].span)
            lit = literal(p)
            if isinstance(lit, int) and not isinstance(lit, bool):
                return repr(z.base + lit), ZONE
            return (f"({z.base} + {p})" if z.base else f"({p})"), ZONE
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
            player = f"({p}) * {width}" if c.keys else f"({p})"

        def at(offset: int | str) -> str:  # the offsets are added up here, not at every read
            if not player:
                return f"({offset})"
            return f"({player})" if offset == 0 else f"({offset} + {player})"

        if not c.keys:
            return at(base)
        key_node = args[-1]
        if isinstance(key_node, (ast.Name, ast.String)):
            word = key_node.id if isinstance(key_node, ast.Name) else key_node.value
            shadowed = isinstance(key_node, ast.Name) and (
                word in scope.locals or word in scope.py or word in scope.known
            )
            if word in c.keys and not shadowed:
                return at(base + c.keys.index(word))
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
        lit = literal(k)
        if isinstance(lit, str) and lit in c.keys:
            return at(base + c.keys.index(lit))
        # a missing key raises KeyError, reported at the statement as "no such entry"; the table
        # holds each key's offset from the start of the counters (the base added in)
        table = self._counter_tables.get(name)
        if table is None:
            table = self._counter_tables[name] = self.inject(
                {key: base + i for i, key in enumerate(c.keys)}, f"at_{name}"
            )
        return at(f"{table}[{k}]")

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
        (builtins.settle_reads), else written back in place."""
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

    # ------------------------------------------------------------ DSL functions
    def _call_function(self, slot: FunctionSlot, args: list[str]) -> Code:
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
        if hashable:
            lines.append(f"    r = M.get(K, {miss})")
        else:
            lines += [
                "    try:",
                f"        r = M.get(K, {miss})",
                "    except TypeError:",
                "        #bind",
                "        S = rt.st",
                f"        return {src}",
            ]
        over = self.helper(over_budget)
        reads, body, extra = precharge(src, self.helper(budget.each))
        lines += [
            f"    if r is {miss}:",
            "        #bind",
            "        S = rt.st",
            *(f"        {line}" for line in reads),
            # a call computed (not remembered): one unit of work, and its loops' sources read above
            f"        rt.budget -= 1{' + ' + extra if extra else ''}",
            f"        if rt.budget < 0: {over}()",
            # lowered, each path stores and returns its value; else the store, and the return below
            *("        " + line for line in lower(body, _remembering) or [f"r = M[K] = {body}"]),
            "    return r",
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
            try:
                src, t = self.code(slot.body, scope)  # the unremembered version: for scenarios, tools
            finally:
                self._loops, self.memo_mode = loops, memo
            params = "".join(f", v_{p}" for p in slot.params)
            over = self.helper(over_budget)
            reads, body, extra = precharge(src, self.helper(budget.each))
            text = (
                f"def F_{slot.name}(rt{params}):\n    S = rt.st\n"
                + "".join(f"    {line}\n" for line in reads)
                # a call: one unit of work, and its loops' sources read above
                + f"    rt.budget -= 1{' + ' + extra if extra else ''}\n    if rt.budget < 0: {over}()\n"
                + "".join(f"    {line}\n" for line in _lowered(body, _returning))
            )
            self.mod.define(text)
            slot.type = t
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

    # ------------------------------------------------------------ postfix
    def _Attr(self, n: ast.Attr, scope: Scope) -> Code:
        obj, ot = self.code(n.obj, scope)
        name = n.name
        if ot not in (ANY, COMP, NONE):
            return self.error("T003", f"'.{name}' needs a component, but this is {article(ot)}", n.obj.span)
        g = self.g
        cid = literal(obj)
        comp = scope.static.get(obj)
        if isinstance(cid, int) and not isinstance(cid, bool) and 0 <= cid < len(g.components):
            comp = g.components[cid]
        if name in g.marks:
            default = g.marks[name]
            return f"{self.bind('m_' + name)}[{obj}]", (
                type_of_value(default) if default is not None else ANY
            )
        if name in self.props:
            if comp is not None:
                return repr(comp.props.get(name)), self._prop_type(name)
            return f"{self.column(name)}[{obj}]", self._prop_type(name)
        if name in BUILTIN_ATTRS:
            if comp is not None and name in ("name", "key", "type"):
                return repr(getattr(comp, name)), STR
            return B.builtin_attr_code(self, name, obj), BUILTIN_ATTRS[name]
        return self.error(
            "E108",
            f"no component has a property or mark named '{name}'",
            n.span,
            did_you_mean(name, [*self.props, *g.marks, *BUILTIN_ATTRS]),
        )

    def column(self, prop: str) -> str:
        """The injected list of one property's value for every component (None where absent)."""
        if prop not in self._columns:
            self._columns[prop] = self.inject([c.props.get(prop) for c in self.g.components], "prop_" + prop)
        return self._columns[prop]

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
        if ot.startswith("list["):
            return f"{obj}[{key}]", elem(ot)
        return f"{obj}[{key}]", self._table_type(n.obj, scope)

    def _table_type(self, node: ast.Expr, scope: Scope) -> str:
        """The type of every value of a constant table (a YAML map of numbers, say), else ANY: so
        that `price[c] + 1` is known to add numbers."""
        if not isinstance(node, ast.Name) or node.id in scope.known or node.id in scope.py:
            return ANY
        if node.id in scope.locals:
            return ANY
        table = self.g.constants.get(node.id)
        if not isinstance(table, dict) or not table:
            return ANY
        types = {type_of_value(v) for v in table.values()}
        return types.pop() if len(types) == 1 and types <= {INT, STR, BOOL} else ANY

    # ------------------------------------------------------------ operators
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
        if v is not _NO_VALUE:
            return repr(not v), BOOL
        return f"(not {src})", BOOL

    def _And(self, n: ast.And, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        self._warn_cond(at, n.left)
        b, bt = self.code(n.right, scope)
        self._warn_cond(bt, n.right)
        va, vb = literal(a), literal(b)
        if va is not _NO_VALUE:
            return ("False", BOOL) if not va else self._as_bool(b, bt)
        if vb is not _NO_VALUE and vb:
            return self._as_bool(a, at)
        if at == BOOL and bt == BOOL:
            return f"({a} and {b})", BOOL
        return f"bool({a} and {b})", BOOL

    def _Or(self, n: ast.Or, scope: Scope) -> Code:
        a, at = self.code(n.left, scope)
        self._warn_cond(at, n.left)
        b, bt = self.code(n.right, scope)
        self._warn_cond(bt, n.right)
        va, vb = literal(a), literal(b)
        if va is not _NO_VALUE:
            return ("True", BOOL) if va else self._as_bool(b, bt)
        if vb is not _NO_VALUE and not vb:
            return self._as_bool(a, at)
        if at == BOOL and bt == BOOL:
            return f"({a} or {b})", BOOL
        return f"bool({a} or {b})", BOOL

    def _warn_cond(self, t: str, node: ast.Expr) -> None:
        if t not in (BOOL, ANY):
            self.report.warning(
                "T010",
                f"this condition is {article(t)}, not true/false",
                node.span,
                "compare it with something, e.g. '... > 0'",
            )

    def _as_bool(self, src: str, t: str) -> Code:
        v = literal(src)
        if v is not _NO_VALUE:
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
        if va is not _NO_VALUE and vb is not _NO_VALUE:
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
        C loop, builtins._lookup_filter)."""
        m = _COLUMN_READ.fullmatch(read)
        value = literal(other)
        if m is None or value is _NO_VALUE or isinstance(value, (list, dict)):
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
        if vx is not _NO_VALUE and isinstance(vc, list):
            return repr((vx not in vc) if n.negated else (vx in vc)), BOOL
        container = c if ct != ANY else f"_as_list(rt, {c})"
        op = "not in" if n.negated else "in"
        if is_literal(c):
            return f"({x} {op} {container})", BOOL
        known = self.mod.data.get(c) if c.isidentifier() else None
        if isinstance(known, list) and len(known) <= SHORT_LIST:
            # a constant of the game (a table's column, say): its size is known now
            return f"({x} {op} {c})", BOOL
        charged = f"{self.helper(budget.each)}(rt, {container})"  # every item compared is charged
        if is_cheap(container):  # a short list is read like one operand, so only a long one is charged
            short = f"len({container}) <= {SHORT_LIST}"
            test = f"(({x} {op} {container}) if {short} else ({x} {op} {charged}))"
            # an empty list (a card active for nobody, say) answers without a call
            return f"({n.negated} if not {container} else {test})", BOOL
        return f"({x} {op} {charged})", BOOL

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
        result = INT if (at, bt) == (INT, INT) else (ANY if ANY in (at, bt) else INT)
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
        if n.op == "*":  # sizes bounded, big operands charged (compile/budget.py)
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
        if v is not _NO_VALUE:
            return (a, join(at, bt)) if v else (b, join(at, bt))
        return f"({a} if {c} else {b})", join(at, bt)

    def _ListComp(self, n: ast.ListComp, scope: Scope) -> Code:
        return B.aggregate_code(self, "list", n.gen, scope)
