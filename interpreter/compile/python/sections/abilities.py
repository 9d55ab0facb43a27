"""Values and rules, and the abilities that components contribute to them.

Stage: check + compile (the Python target). Values and rules are declared first (their names and
parameters), so that functions may use `value()` and `rule()` whatever the order. Each component
type's and each card's own `modifiers`, `allow` and `deny` are then checked and kept as
contributions (a card's own count for its components only, under its type's `active`), and each
value and rule becomes one generated function `V_<name>` / `R_<name>` (modifiers.py).
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import did_you_mean
from tabula.interpreter.base.types import ANY, COMP, PLAYER, Scope
from tabula.interpreter.compile.python.cards import instance_holders
from tabula.interpreter.compile.python.context import GameContext
from tabula.interpreter.compile.python.sections.modifiers import Contribution, rule_source, value_source
from tabula.interpreter.compile.reader import Path_, origin_of
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import parse_expr
from tabula.interpreter.load.positions import span_for
from tabula.interpreter.model.game import RuleDef, ValueDef


class Abilities:
    """The values and rules of one game and every contribution to them (see the module docstring)."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self.read = ctx.read
        self.ex = ctx.ex
        self.value_params: dict[str, list[tuple[str, str]]] = {}  # value -> its (parameter, type)s
        self.rule_params: dict[str, list[tuple[str, str]]] = {}
        self.contributions: dict[tuple[str, str], list[Contribution]] = {}  # (kind, name) -> them

    def declare(self) -> None:
        """Names and parameters first, so functions may use value() and rule() whatever the order."""
        g = self.ctx.g
        self.value_params = {
            name: self.read.params(("values", name)) for name in self.read.data.get("values") or {}
        }
        self.rule_params = {
            name: self.read.params(("rules", name)) for name in self.read.data.get("rules") or {}
        }
        for name, typed in self.value_params.items():
            g.values[name] = ValueDef(name, [p for p, _ in typed])
        for name, typed in self.rule_params.items():
            g.rules[name] = RuleDef(name, [p for p, _ in typed])

    def gather(self) -> None:
        """Each component type's and each card's own modifiers, allows and denies: checked, and kept
        as contributions (a card's own count for its components only, under its type's `active`)."""
        for tname, tdef in (self.read.data.get("components") or {}).items():
            tdef = tdef or {}
            active_node = self.read.expr_at(("components", tname, "active")) if tdef.get("active") else None
            if active_node is not None:
                self.ex.cond_code(active_node, Scope({}, "", {"self": COMP, "p": PLAYER}))
            for base, holder, ids in instance_holders(
                self.read.data, self.ctx.g.by_type, self.ctx.instance_ids, tname
            ):
                self._abilities(base, holder, ids, active_node)

    def _abilities(
        self, base: Path_, holder: dict[str, Any], ids: list[int], active: ast.Expr | None
    ) -> None:
        """One holder's (a type's or a card's) modifiers, then its allows and denies."""
        self._modifiers(base, holder, ids, active)
        self._permissions(base, holder, ids, active)

    def _modifiers(
        self, base: Path_, holder: dict[str, Any], ids: list[int], active: ast.Expr | None
    ) -> None:
        """`modifiers: {value: "+N"}` (or `"*N"`, or a list of them): each checked (E121)."""
        g = self.ctx.g
        for vname, mod in (holder.get("modifiers") or {}).items():
            path = (*base, "modifiers", vname)
            if vname not in g.values:
                self.read.report.error(
                    "E121",
                    f"unknown value '{vname}'",
                    span_for(self.read.src, path, key=True),
                    did_you_mean(vname, g.values),
                )
                continue
            entries = mod if isinstance(mod, list) else [mod]
            params = self._params(g.values[vname].params, dict(self.value_params.get(vname, [])))
            for k, entry in enumerate(entries):
                epath = (*path, k) if isinstance(mod, list) else path
                text = str(entry).strip()
                op = "*" if text.startswith("*") else "+"
                body = text[1:] if text[:1] in "+*" else text
                node = parse_expr(body, origin_of(self.read.span(epath)), self.read.report)
                if node is not None:
                    self.ex.code(node, Scope({}, "", dict(params)))  # checked once, generally
                    self.contributions.setdefault(("values", vname), []).append(
                        Contribution(ids, op, node, active, self.read.span(epath))
                    )

    def _permissions(
        self, base: Path_, holder: dict[str, Any], ids: list[int], active: ast.Expr | None
    ) -> None:
        """`allow: {rule: condition}` and `deny: ...`: each checked (E122)."""
        g = self.ctx.g
        for kind in ("allow", "deny"):
            for rname in holder.get(kind) or {}:
                path = (*base, kind, rname)
                if rname not in g.rules:
                    self.read.report.error(
                        "E122",
                        f"unknown rule '{rname}'",
                        span_for(self.read.src, path, key=True),
                        did_you_mean(rname, g.rules),
                    )
                    continue
                node = self.read.expr_at(path)
                if node is not None:
                    typed = dict(self.rule_params.get(rname, []))
                    params = self._params(g.rules[rname].params, typed)
                    self.ex.cond_code(node, Scope({}, "", dict(params)))
                    self.contributions.setdefault(("rules", rname), []).append(
                        Contribution(ids, kind, node, active, self.read.span(path))
                    )

    def _params(self, params: list[str], types: dict[str, str]) -> list[tuple[str, str]]:
        """`self` and `p` first, then the value's or rule's other parameters (see modifiers.py)."""
        return [
            ("self", COMP),
            ("p", PLAYER),
            *((q, types.get(q, ANY)) for q in params if q not in ("self", "p")),
        ]

    def compile(self) -> None:
        """`V_<name>` and `R_<name>`: the base and every component's contribution (modifiers.py)."""
        for kind, params in (("values", self.value_params), ("rules", self.rule_params)):
            for name, typed in params.items():
                base = self.read.expr_at((kind, name, "base"))
                contributions = self.contributions.get((kind, name), [])
                make = value_source if kind == "values" else rule_source
                self.ctx.mod.define(make(self.ex, name, typed, base, contributions))
