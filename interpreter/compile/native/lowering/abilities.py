"""Values with modifiers and extensible rules in the typed form: `value(name, args)` and
`rule(name, args)` as native functions, with every component's contribution inlined.

Stage: compile (native). The same contributions as the Python backend (sections/abilities.py: the
type's and each card's own `modifiers`, `allow`, `deny`, under the type's `active` with `self`
and `p` bound, `p` being the first argument), evaluated in the same order where it can matter:

- `value` = (base + each active component's "+N") x each active component's "*N";
- `rule` = base first, then the denies (any active deny that holds: false), then, when the base
  did not hold, the allows (any active allow that holds: true).

Each contribution walks the ids of the components that carry it (a constant table `AB_k`) with
`any`/`sum`/`prod` aggregates; everything in them is pure, so the order of the components changes
no answer (only which of two failing reads is reported first, and Python reports it anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabula.interpreter.base.source import Report, Span
from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.compile.native.lowering.ir import BOOL, COMP, COMPS, INT, PLAYER
from tabula.interpreter.compile.native.lowering.lower import Lowering, Scope, Unsupported
from tabula.interpreter.compile.reader import GameReader, Path_, origin_of
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import parse_expr

KINDS = ("values", "rules")


@dataclass(frozen=True)
class Contribution:
    """One holder's ability towards a value or a rule: `op` +, * (values), allow or deny (rules)."""

    ids: tuple[int, ...]
    op: str
    node: ast.Expr
    active: ast.Expr | None


@dataclass(frozen=True)
class AbilityDef:
    """A value or a rule: its parameter names, its base (None: 0 or false) and its contributions."""

    params: tuple[str, ...]
    base: ast.Expr | None
    contributions: tuple[Contribution, ...]


def instance_ids(data: dict[str, Any], max_players: int) -> dict[tuple[str, int], list[int]]:
    """Each instance's component ids, numbered as layout.py numbers them (declaration order, a
    per-player type's instance once per seat)."""
    out: dict[tuple[str, int], list[int]] = {}
    at = 0
    for tname, tdef in (data.get("components") or {}).items():
        tdef = tdef or {}
        seats = max_players if tdef.get("per_player") else 1
        for i, inst in enumerate(tdef.get("instances") or []):
            n = seats * int(inst.get("copies", 1))
            out[(tname, i)] = list(range(at, at + n))
            at += n
    return out


def gather(
    read: GameReader, by_type: dict[str, list[int]], max_players: int
) -> dict[tuple[str, str], AbilityDef]:
    """Every value and rule of the game with its contributions, in the order Python gathers them."""
    data = read.data
    found: dict[tuple[str, str], list[Contribution]] = {}
    ids = instance_ids(data, max_players)
    for tname, tdef in (data.get("components") or {}).items():
        tdef = tdef or {}
        active = read.expr_at(("components", tname, "active")) if tdef.get("active") else None
        holders: list[tuple[Path_, dict[str, Any], list[int]]] = [
            (("components", tname), tdef, by_type.get(tname, []))
        ]
        for i, inst in enumerate(tdef.get("instances") or []):
            if any(inst.get(k) for k in ("modifiers", "allow", "deny", "triggers")):
                holders.append((("components", tname, "instances", i), inst, ids[(tname, i)]))
        for base, holder, mine in holders:
            for vname, c in _modifiers(read, base, holder, tuple(mine), active):
                found.setdefault(("values", vname), []).append(c)
            for kind in ("allow", "deny"):
                for rname in holder.get(kind) or {}:
                    node = read.expr_at((*base, kind, rname))
                    if node is not None:
                        found.setdefault(("rules", rname), []).append(
                            Contribution(tuple(mine), kind, node, active)
                        )
    out: dict[tuple[str, str], AbilityDef] = {}
    for kind in KINDS:
        for name in data.get(kind) or {}:
            params = tuple(p for p, _ in read.params((kind, name)))
            written = read.expr_at((kind, name, "base"))
            out[(kind, name)] = AbilityDef(params, written, tuple(found.get((kind, name), ())))
    return out


def _modifiers(
    read: GameReader, base: Path_, holder: dict[str, Any], ids: tuple[int, ...], active: ast.Expr | None
) -> list[tuple[str, Contribution]]:
    """`modifiers: {value: "+N"}` (or "*N", or a list of them), read as sections/abilities.py does."""
    out: list[tuple[str, Contribution]] = []
    for vname, mod in (holder.get("modifiers") or {}).items():
        path = (*base, "modifiers", vname)
        entries = mod if isinstance(mod, list) else [mod]
        for k, entry in enumerate(entries):
            epath = (*path, k) if isinstance(mod, list) else path
            text = str(entry).strip()
            op = "*" if text.startswith("*") else "+"
            body = text[1:] if text[:1] in "+*" else text
            node = parse_expr(body, origin_of(read.span(epath)), Report())
            if node is not None:
                out.append((vname, Contribution(ids, op, node, active)))
    return out


class AbilityLowering(Lowering):
    """Lowers `value(...)` and `rule(...)` calls (the rest of the expressions: Lowering)."""

    abilities: dict[tuple[str, str], AbilityDef]

    def _Call(self, n: ast.Call, scope: Scope) -> ir.Expr:
        assert isinstance(n.func, ast.Name)
        kind = {"value": "values", "rule": "rules"}.get(n.func.id)
        defs = getattr(self, "abilities", {})
        if kind is None or not n.args or not isinstance(n.args[0], ast.Name):
            return super()._Call(n, scope)
        name = n.args[0].id
        if (kind, name) not in defs:
            raise Unsupported(f"{kind} '{name}' without its definition", n.span)
        args = [self.expr(a, scope) for a in n.args[1:]]
        return self.ability(kind, name, defs[(kind, name)], args, n.span)

    def ability(self, kind: str, name: str, d: AbilityDef, args: list[ir.Expr], span: Span) -> ir.Expr:
        """The call of `V_name`/`R_name` specialised for the argument types (made once)."""
        if len(args) != len(d.params):
            raise Unsupported(f"{kind[:-1]} '{name}' given {len(args)} argument(s)", span)
        if "p" in d.params[1:]:  # `p` is the first argument in a contribution: which one is meant?
            raise Unsupported(f"{kind[:-1]} '{name}' with a parameter 'p' after the first", span)
        # `p` is the first argument in every contribution (None without one): passed once more
        # when the definition names its first parameter otherwise
        extra: list[ir.Expr] = []
        if "p" not in d.params:
            extra = [args[0] if args else ir.NoneV(PLAYER)]
        tys = "".join("_" + a.ty.replace("[", "").replace("]", "") for a in args)
        key = ("V_" if kind == "values" else "R_") + name + tys
        if key not in self.functions:
            if key in self._making:
                raise Unsupported(f"recursive {kind[:-1]} '{name}'", span)
            typed = [(p, a.ty) for p, a in zip(d.params, args, strict=True)]
            typed += [("p", extra[0].ty if extra[0].ty != "none" else PLAYER)] if extra else []
            self._making.add(key)
            try:
                body = self.value_body(d, dict(typed)) if kind == "values" else self.rule_body(d, dict(typed))
            finally:
                self._making.discard(key)
            self.functions[key] = (typed, body)
        return ir.CallF(key, (*args, *extra), self.functions[key][1].ty)

    def components(self, c: Contribution) -> ir.Source:
        """The ids of the components that carry a contribution, as a constant table."""
        words = list(c.ids)
        for tname, (have, _) in self.tables.items():
            if tname.startswith("AB_") and have == words:
                return ir.Source("const", None, tname, COMPS)
        tname = f"AB_{sum(1 for t in self.tables if t.startswith('AB_'))}"
        self.tables[tname] = (words, COMP)
        return ir.Source("const", None, tname, COMPS)

    def each(self, c: Contribution, scope: Scope, agg: str) -> ir.Expr:
        """The contribution over its components: `any` of (active and condition) for a rule,
        `sum`/`prod` of the amount where active for a value."""
        inner = {**scope, "self": COMP}
        active = self.boolean(c.active, inner) if c.active is not None else None
        if agg == "any":
            cond = self.boolean(c.node, inner)
            elt = cond if active is None else ir.Bin("&&", active, cond, BOOL)
            return ir.Agg("any", "self", self.components(c), elt, None, None, BOOL)
        amount = self.number(c.node, inner)
        if amount.ty != INT:
            raise Unsupported(f"a modifier of {amount.ty}", c.node.span)
        return ir.Agg(agg, "self", self.components(c), amount, active, None, INT)

    def value_body(self, d: AbilityDef, scope: Scope) -> ir.Expr:
        out = self.number(d.base, scope) if d.base is not None else ir.Lit(0, INT)
        for c in (c for c in d.contributions if c.op == "+"):
            out = ir.Bin("+", out, self.each(c, scope, "sum"), INT)
        for c in (c for c in d.contributions if c.op == "*"):
            out = ir.Bin("*", out, self.each(c, scope, "prod"), INT)
        return out

    def rule_body(self, d: AbilityDef, scope: Scope) -> ir.Expr:
        base = self.boolean(d.base, scope) if d.base is not None else ir.Lit(0, BOOL)
        denies = [self.each(c, scope, "any") for c in d.contributions if c.op == "deny"]
        allows = [self.each(c, scope, "any") for c in d.contributions if c.op == "allow"]
        allowed = _any(allows)
        if not denies:
            return base if allowed is None else ir.Bin("||", base, allowed, BOOL)
        free = ir.Unary("!", _any(denies), BOOL)  # type: ignore[arg-type]
        # the base is read first, as Python does, whatever the denies say
        otherwise = ir.Lit(0, BOOL) if allowed is None else ir.Bin("&&", free, allowed, BOOL)
        return ir.Cond(base, free, otherwise, BOOL)


def _any(xs: list[ir.Expr]) -> ir.Expr | None:
    out: ir.Expr | None = None
    for x in xs:
        out = x if out is None else ir.Bin("||", out, x, BOOL)
    return out
