"""Values with modifiers and extensible rules, contributed by active components.

`value(name, args)` = (base + every active "+N") x every active "*N": adds always come before
multiplies, whatever order the components were gained in. `rule(name, args)` = (base or any active
allow) and not any active deny. A component's contribution counts for player `p` (the first
argument) while its type's `active` condition holds with `self` and `p` bound.

Each value and rule compiles to one generated function `V_name(rt, args...)` / `R_name(rt, args...)`.
The contributions are specialised per component at compile time: with `self` known, a component's
static properties fold (`self.name == 'Insula'` is true for six cards and false for the rest), so
only the components whose contribution is not neutral are looked at while playing, grouped by the
code they share (the same code but for the names made up for it: a generator's variable, equal
injected data). A value or rule that nothing modifies is just its base.

Most components are inactive most of the time, so their tests are guarded. When a group's `active`
test first reads a mark of `self` and is false where that mark is empty (`p in self.active_for`:
`False if not m_active_for[v_self] else ...`), a run of such groups is skipped when all their marks
are empty (`if m_active_for[153] or m_active_for[154] or ...:`). When every group has one guard and
their code needs more on entry than the base (other parts of the state, cells for a closure), the
function tests the guard first and returns the base, calling the whole function only when some mark
is not empty. In a group whose condition does not read `self`, the condition is tested for the first
active component only: it gives the same answer for the others.
"""

from __future__ import annotations

import ast as pyast
import re
from collections.abc import Callable
from dataclasses import dataclass

from tabula.interpreter.base.source import Span
from tabula.interpreter.base.types import ANY, COMP, PLAYER, Scope
from tabula.interpreter.compile.python.expressions.compiler import ExprCompiler
from tabula.interpreter.compile.python.expressions.fragments import is_literal, literal
from tabula.interpreter.dsl import ast


@dataclass
class Contribution:
    """One ability of some components towards a value or rule: `op` is + or * (values), allow or
    deny (rules); `active` is the condition under which it counts (None: always)."""

    ids: list[int]
    op: str
    node: ast.Expr
    active: ast.Expr | None
    span: Span | None = None


@dataclass
class _Group:
    """Components that contribute the same code: `op`, the `active` test and the `amount` (a value's
    term, a rule's condition) as generated for the first of them; `guard` a mark column that is not
    empty for a component whose test holds (None: unknown)."""

    op: str
    active: str
    amount: str
    ids: list[int]
    guard: str | None


def _shape(ex: ExprCompiler, src: str, new: set[str]) -> str:
    """`src`'s syntax tree, with the names made up while compiling it (`new`) replaced: its own
    variables by their order of appearance, injected data by its value. Two sources of one shape
    compute the same thing."""
    tree = pyast.parse(src, mode="eval")
    seen: dict[str, str] = {}

    def rename(name: str) -> str:
        if name not in new:
            return name
        if name not in seen:
            if name in ex.mod.data:
                value = ex.mod.data[name]
                seen[name] = f"<data {type(value).__name__} {value!r}>"
            elif name in ex.mod.ns:
                seen[name] = name  # a function or helper: itself
            else:
                seen[name] = f"<local {len(seen)}>"
        return seen[name]

    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name):
            node.id = rename(node.id)
        elif isinstance(node, pyast.arg):
            node.arg = rename(node.arg)
    return pyast.dump(tree)


def _names(src: str) -> set[str]:
    return {n.id for n in pyast.walk(pyast.parse(src, mode="eval")) if isinstance(n, pyast.Name)}


def _guard(ex: ExprCompiler, src: str) -> str | None:
    """A mark column `m_x` such that the test `src` first reads `m_x[v_self]` and is false when
    that is empty: `m_x[v_self]`, `False if not m_x[v_self] else ...`, or either `and` others."""
    node = pyast.parse(src, mode="eval").body
    while isinstance(node, pyast.BoolOp) and isinstance(node.op, pyast.And):
        node = node.values[0]
    if (
        isinstance(node, pyast.IfExp)
        and isinstance(node.body, pyast.Constant)
        and node.body.value is False
        and isinstance(node.test, pyast.UnaryOp)
        and isinstance(node.test.op, pyast.Not)
    ):
        node = node.test.operand
    if (
        isinstance(node, pyast.Subscript)
        and isinstance(node.value, pyast.Name)
        and node.value.id.startswith("m_")
        and node.value.id in ex.mod.bindings
        and isinstance(node.slice, pyast.Name)
        and node.slice.id == "v_self"
    ):
        return node.value.id
    return None


def _groups(
    ex: ExprCompiler, params: list[tuple[str, str]], contributions: list[Contribution], cond: bool
) -> list[_Group]:
    """The contributions specialised per component and grouped by shape, in order of appearance."""
    first = params[0][0] if params else None
    known = {"self": ("v_self", COMP), "p": (f"v_{first}" if first else "None", PLAYER)}
    py = {q: t for q, t in params}
    groups: dict[tuple[str, str, str], _Group] = {}
    for c in contributions:
        for cid in c.ids:
            scope = Scope({}, "", dict(py), dict(known))
            scope.static["v_self"] = ex.g.components[cid]
            before = ex.mod.names()
            amount = ex.cond_code(c.node, scope) if cond else ex.code(c.node, scope)[0]
            if is_literal(amount):
                value = literal(amount)
                neutral = (c.op == "+" and value == 0) or (c.op == "*" and value == 1)
                if neutral or (c.op in ("allow", "deny") and not value):
                    continue
            active = ex.cond_code(c.active, scope) if c.active is not None else "True"
            if literal(active) is False:
                continue
            made = ex.mod.names() - before
            new = made | {"_" + n for n in made}  # injected data and helpers are named "_" + fresh
            key = (c.op, _shape(ex, active, new), _shape(ex, amount, new))
            if key in groups:
                groups[key].ids.append(cid)
            else:
                groups[key] = _Group(c.op, active, amount, [cid], _guard(ex, active))
    return list(groups.values())


def _test(active: str, cond: str) -> str:
    if cond == "True":
        return active
    return cond if active == "True" else f"{active} and {cond}"


def _loop(ex: ExprCompiler, g: _Group, then: str, cond: bool, pad: str) -> list[str]:
    """The code of one group: `then` for each component whose test holds (and, for a rule, its
    condition)."""
    if len(g.ids) == 1:
        test = _test(g.active, g.amount) if cond else g.active
        if "v_self" not in _names(g.active) | _names(g.amount):
            return [f"{pad}if {test}: {then}"]
        return [f"{pad}v_self = {g.ids[0]}", f"{pad}if {test}: {then}"]
    if cond and g.active == "True" and "v_self" not in _names(g.amount):
        return [f"{pad}if {g.amount}: {then}"]  # always counts, the same for each: once
    pool = ex.inject(g.ids, "ids")
    if cond and g.amount != "True" and g.active != "True" and "v_self" not in _names(g.amount):
        # the condition is the same for every component: the first active one decides
        return [
            f"{pad}for v_self in {pool}:",
            f"{pad}    if {g.active}:",
            f"{pad}        if {g.amount}: {then}",
            f"{pad}        break",
        ]
    test = _test(g.active, g.amount) if cond else g.active
    return [f"{pad}for v_self in {pool}:", f"{pad}    if {test}: {then}"]


def _stretch(
    ex: ExprCompiler, groups: list[_Group], then: Callable[[_Group], str], cond: bool, outer: bool = True
) -> list[str]:
    """The groups in order; a run of groups with one guard is skipped when all their marks are empty."""
    lines: list[str] = []
    i = 0
    while i < len(groups):
        guard = groups[i].guard
        j = i + 1
        while j < len(groups) and guard is not None and groups[j].guard == guard:
            j += 1
        run = groups[i:j]
        pad = "    "
        test = _any_mark(guard, run) if outer and guard is not None else None
        if test is not None:
            lines.append(f"    if {test}:")
            pad = "        "
        for g in run:
            lines += _loop(ex, g, then(g), cond, pad)
        i = j
    return lines


_UNROLL = 64  # at most this many components' marks are tested in one expression


def _any_mark(guard: str, groups: list[_Group]) -> str | None:
    """`m[a] or m[b] or ...` over the groups' components: four opcodes each, faster than a loop or
    a C-level `any(map(...))` (which builds two objects) for the few copies a card has."""
    ids = list(dict.fromkeys(c for g in groups for c in g.ids))
    if len(ids) > _UNROLL:
        return None
    return " or ".join(f"{guard}[{cid}]" for cid in ids)


def _words(text: str) -> set[str]:
    return set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", text))


def _define(head: str, lines: list[str]) -> str:
    """The function's text; `S` (the state) is bound only when it is used."""
    body = "\n".join(lines)
    uses_state = "S" in _words(body)
    return "\n".join([head, *(["    S = rt.st"] if uses_state else []), body]) + "\n"


def _one_guard(groups: list[_Group]) -> str | None:
    guards = {g.guard for g in groups}
    return guards.pop() if len(guards) == 1 else None


_CLOSURES = (pyast.GeneratorExp, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.Lambda)


def _split(
    ex: ExprCompiler,
    head: str,
    fn: str,
    args: str,
    groups: list[_Group],
    guard: str,
    fast: str,
    whole: list[str],
) -> str | None:
    """When every group has one guard and the groups' code needs more on entry than the base does
    (other parts of the state, or cells for a closure), the guard comes first (a mark read cannot
    fail): with every component's mark empty the function returns `fast` (the base), else it calls
    the `whole` function (the groups without their common guard)."""
    body = "\n".join(whole)
    tree = pyast.parse("\n".join([f"def f(rt{args}):", body]))
    closures = any(isinstance(n, _CLOSURES) for n in pyast.walk(tree))
    state = (_words(body) - _words(fast) - {guard}) & ex.mod.bindings.keys()
    test = _any_mark(guard, groups)
    # a rule whose answer without its components is known is split anyway: code compiled after it
    # tests the guard in place of calling it (ExprCompiler.rule_guards)
    known = fn.startswith("R_") and fast in ("True", "False")
    if (not closures and not state and not known) or test is None:
        return None
    name = ex.mod.fresh(fn + "_active")
    if known:
        ex.rule_guards[fn] = (test, name, fast)
    fast_lines = [f"    if {test}: return {name}(rt{args})", f"    return {fast}"]
    return _define(head, fast_lines) + _define(f"def {name}(rt{args}):", whole)


def value_source(
    ex: ExprCompiler,
    name: str,
    params: list[tuple[str, str]],
    base: ast.Expr | None,
    contributions: list[Contribution],
) -> str:
    """The source of `V_<name>(rt, params...)`."""
    scope = Scope({}, f"value '{name}'", dict(params))
    base_src = ex.code(base, scope)[0] if base is not None else "0"
    args = "".join(f", v_{p}" for p, _ in params)
    groups = sorted(_groups(ex, params, contributions, False), key=lambda g: g.op != "+")
    if not groups:
        return _define(f"def V_{name}(rt{args}):", [f"    return {base_src}"])
    lines = [f"    t = {base_src}"]
    guard = _one_guard(groups)

    def term(g: _Group) -> str:
        return f"t += {g.amount}" if g.op == "+" else f"t = t * {g.amount}"

    if guard is not None:
        whole = [*lines, *_stretch(ex, groups, term, False, outer=False), "    return t"]
        split = _split(ex, f"def V_{name}(rt{args}):", f"V_{name}", args, groups, guard, base_src, whole)
        if split is not None:
            return split
    lines += _stretch(ex, groups, term, False)
    lines.append("    return t")
    return _define(f"def V_{name}(rt{args}):", lines)


def rule_source(
    ex: ExprCompiler,
    name: str,
    params: list[tuple[str, str]],
    base: ast.Expr | None,
    contributions: list[Contribution],
) -> str:
    """The source of `R_<name>(rt, params...)`: the base first, then the denies, then the allows."""
    scope = Scope({}, f"rule '{name}'", dict(params))
    base_src = ex.cond_code(base, scope) if base is not None else "False"
    args = "".join(f", v_{p}" for p, _ in params)
    head = f"def R_{name}(rt{args}):"
    groups = _groups(ex, params, contributions, True)
    denies = [g for g in groups if g.op == "deny"]
    allows = [g for g in groups if g.op == "allow"]
    known = bool(literal(base_src)) if is_literal(base_src) else None
    if not groups or (known is True and not denies):
        return _define(head, [f"    return bool({base_src})"])

    def body(outer: bool) -> list[str]:
        lines: list[str] = []
        if denies:
            if known is None:
                lines.append(f"    ok = {base_src}")
            lines += _stretch(ex, denies, lambda g: "return False", True, outer)
            if known is True:
                return [*lines, "    return True"]
            if known is None:
                lines.append("    if ok: return True")
        elif known is None:
            lines.append(f"    if {base_src}: return True")
        lines += _stretch(ex, allows, lambda g: "return True", True, outer)
        lines.append("    return False")
        return lines

    guard = _one_guard(groups)
    if guard is not None:
        fast = f"bool({base_src})" if known is None else repr(known)
        split = _split(ex, head, f"R_{name}", args, groups, guard, fast, body(False))
        if split is not None:
            return split
    return _define(head, body(True))


_ = ANY
