"""What the compiler knows about DSL expression trees before it generates code for them.

Stage: compile. Plain walks over the frozen AST (dsl/ast.py), with no code generated: sizes, the
names an expression reads or calls, its `and`-conjuncts, its shape without positions, and the two
generator idioms compiled as one pass (`equal_to`, `first_of_each_key`). The DSL's own functions are
`FunctionSlot`s; before any code is generated, `mark_recursion` and `mark_expensive` tell which
functions call themselves (never inlined nor remembered) and which loop (worth remembering,
functions.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.base.types import ANY
from tabula.interpreter.dsl import ast

# ---------------------------------------------------------------- expressions


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
            for part in (n.elt, n.cond, n.default, n.by):
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
    if (
        isinstance(node, ast.CallGen)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("count", "any")
        and equal_to(node.gen, node.func.id) is not None
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


def names_always_read(node: Any) -> set[str]:
    """The names an expression reads whenever it is evaluated: not those of a later operand of
    `and`/`or`, a branch of `if ... else`, or a generator's element, test or key (its source is
    read), nor a called name."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, (ast.And, ast.Or)):
        return names_always_read(node.left)
    if isinstance(node, ast.CondExpr):
        return names_always_read(node.test)
    if isinstance(node, ast.Generator):
        return names_always_read(node.iter)
    if isinstance(node, ast.Call):
        return set().union(*(names_always_read(a) for a in node.args))
    found: set[str] = set()
    for v in _children(node):
        found |= names_always_read(v)
    return found


def equal_to(gen: ast.Generator, kind: str) -> ast.Expr | None:
    """E when `gen` only asks which items equal E (E not using the item): `count(x for x in L
    where x == E)` or `any(x == E for x in L)`. None otherwise."""
    if gen.default is not None or gen.by is not None:
        return None
    if kind == "count" and gen.cond is not None:
        test = gen.cond
    elif kind == "any" and gen.cond is None:
        test = gen.elt
    else:
        return None
    if not (isinstance(test, ast.Compare) and test.op == "=="):
        return None
    for item, other in ((test.left, test.right), (test.right, test.left)):
        if isinstance(item, ast.Name) and item.id == gen.var and gen.var not in names_in(other):
            return other
    return None


def _renamed(node: Any, old: str, new: str) -> Any:
    """`node` with every Name `old` read as `new` (generators that rebind `old` left alone)."""
    if isinstance(node, ast.Name):
        return ast.Name(node.span, new) if node.id == old else node
    if isinstance(node, ast.Generator) and node.var == old:
        return node
    if isinstance(node, tuple):
        return tuple(_renamed(x, old, new) for x in node)
    if not isinstance(node, ast.Node):
        return node
    changes = {
        f.name: _renamed(getattr(node, f.name), old, new)
        for f in fields(node)
        if f.name != "span" and isinstance(getattr(node, f.name), (ast.Node, tuple))
    }
    return replace(node, **changes) if changes else node


def first_of_each_key(gen: ast.Generator) -> ast.Expr | None:
    """The key K when `gen` is `c for c in L where first(d for d in L where K(d) == K(c)) == c`:
    the first item of each key, in order (one choice among identical cards). The generic form is
    quadratic; it compiles to one pass (run/builtins.py `_first_of_each`). None for any other generator."""
    cond, c = gen.cond, gen.var
    if not (isinstance(gen.elt, ast.Name) and gen.elt.id == c and gen.default is None and gen.by is None):
        return None
    if not (isinstance(cond, ast.Compare) and cond.op == "=="):
        return None
    found, other = (cond.left, cond.right) if isinstance(cond.left, ast.CallGen) else (cond.right, cond.left)
    if not (isinstance(other, ast.Name) and other.id == c and isinstance(found, ast.CallGen)):
        return None
    inner = found.gen
    d = inner.var
    if not (isinstance(found.func, ast.Name) and found.func.id == "first" and d != c):
        return None
    if not (inner.iter == gen.iter and isinstance(inner.elt, ast.Name) and inner.elt.id == d):
        return None
    test = inner.cond
    if inner.default is not None or not (isinstance(test, ast.Compare) and test.op == "=="):
        return None
    for key_d, key_c in ((test.left, test.right), (test.right, test.left)):
        if c in names_in(key_d) or d in names_in(key_c):
            continue
        if _renamed(key_c, c, d) == key_d:
            return key_c
    return None


# ---------------------------------------------------------------- the DSL's functions


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
    # `let:` names (reader.LET): each takes the static type of the value its first call passes
    inferred: set[str] = field(default_factory=set)


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
    known = set(functions)
    graph = {name: calls_in(slot.body) & known for name, slot in functions.items()}
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
