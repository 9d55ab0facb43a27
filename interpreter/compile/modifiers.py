"""Values with modifiers and extensible rules, contributed by active components.

`value(name, args)` = (base + every active "+N") x every active "*N": adds always come before
multiplies, whatever order the components were gained in. `rule(name, args)` = (base or any active
allow) and not any active deny. A component's contribution counts for player `p` (the first
argument) while its type's `active` condition holds with `self` and `p` bound.

Each value and rule compiles to one generated function `V_name(rt, args...)` / `R_name(rt, args...)`.
The contributions are specialised per component at compile time: with `self` known, a component's
static properties fold (`self.name == 'Insula'` is true for six cards and false for the rest), so
only the components whose contribution is not neutral are looked at while playing, grouped by the
code they share. A value or rule that nothing modifies is just its base.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabula.interpreter.compile.exprs import ExprCompiler, is_literal, literal
from tabula.interpreter.compile.scope import ANY, COMP, PLAYER, Scope
from tabula.interpreter.dsl import ast
from tabula.interpreter.source import Span


@dataclass
class Contribution:
    """One ability of some components towards a value or rule: `op` is + or * (values), allow or
    deny (rules); `active` is the condition under which it counts (None: always)."""

    ids: list[int]
    op: str
    node: ast.Expr
    active: ast.Expr | None
    span: Span | None = None


def _groups(
    ex: ExprCompiler, params: list[tuple[str, str]], contributions: list[Contribution], cond: bool
) -> list[tuple[str, str, str, list[int]]]:
    """(op, active source, amount source, component ids), specialised per component and grouped."""
    first = params[0][0] if params else None
    known = {"self": ("v_self", COMP), "p": (f"v_{first}" if first else "None", PLAYER)}
    py = {q: t for q, t in params}
    groups: dict[tuple[str, str, str], list[int]] = {}
    for c in contributions:
        for cid in c.ids:
            scope = Scope({}, "", dict(py), dict(known))
            scope.static["v_self"] = ex.g.components[cid]
            amount = ex.cond_code(c.node, scope) if cond else ex.code(c.node, scope)[0]
            if is_literal(amount):
                value = literal(amount)
                neutral = (c.op == "+" and value == 0) or (c.op == "*" and value == 1)
                if neutral or (c.op in ("allow", "deny") and not value):
                    continue
            active = ex.cond_code(c.active, scope) if c.active is not None else "True"
            if literal(active) is False:
                continue
            groups.setdefault((c.op, active, amount), []).append(cid)
    return [(op, act, amt, ids) for (op, act, amt), ids in groups.items()]


def _loop(ex: ExprCompiler, ids: list[int], test: str, then: str) -> list[str]:
    if len(ids) == 1:
        return [f"    v_self = {ids[0]}", f"    if {test}: {then}"]
    pool = ex.inject(ids, "ids")
    return [f"    for v_self in {pool}:", f"        if {test}: {then}"]


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
    lines = [f"def V_{name}(rt{args}):", "    S = rt.st", f"    t = {base_src}"]
    groups = _groups(ex, params, contributions, False)
    for op, active, amount, ids in sorted(groups, key=lambda g: g[0] != "+"):
        then = f"t += {amount}" if op == "+" else f"t = t * {amount}"
        lines += _loop(ex, ids, active, then)
    lines.append("    return t")
    return "\n".join(lines) + "\n"


def rule_source(
    ex: ExprCompiler,
    name: str,
    params: list[tuple[str, str]],
    base: ast.Expr | None,
    contributions: list[Contribution],
) -> str:
    """The source of `R_<name>(rt, params...)`."""
    scope = Scope({}, f"rule '{name}'", dict(params))
    base_src = ex.cond_code(base, scope) if base is not None else "False"
    args = "".join(f", v_{p}" for p, _ in params)
    groups = _groups(ex, params, contributions, True)
    denies = [g for g in groups if g[0] == "deny"]
    allows = [g for g in groups if g[0] == "allow"]
    lines = [f"def R_{name}(rt{args}):", "    S = rt.st"]
    if not denies and not allows:
        return "\n".join([*lines, f"    return bool({base_src})"]) + "\n"
    lines.append(f"    ok = {base_src}")
    for _, active, cond, ids in denies:
        lines += _loop(ex, ids, f"{active} and {cond}" if active != "True" else cond, "return False")
    lines.append("    if ok: return True")
    for _, active, cond, ids in allows:
        lines += _loop(ex, ids, f"{active} and {cond}" if active != "True" else cond, "return True")
    lines.append("    return False")
    return "\n".join(lines) + "\n"


_ = ANY
