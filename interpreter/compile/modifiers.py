"""Values with modifiers and extensible rules, contributed by active components.

`value(name, args)` = (base + every active "+N") x every active "*N": adds always come before
multiplies, whatever order the components were gained in. `rule(name, args)` = (base or any active
allow) and not any active deny. A component's contribution counts for player `p` (the first
argument) while its type's `active` condition holds with `self` and `p` bound.

The `active` conditions and the contributions are generated functions `f(rt, self, p, *rest)`
(rest: the value's or rule's other arguments), so checking a deck of components allocates nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabula.interpreter.model import CompiledGame
from tabula.interpreter.runtime import Runtime


def _active(rt: Runtime, ctype: str, p: Any) -> list[int]:
    select = rt.g.active_components.get(ctype)
    if select is None:  # a type without an `active` condition: its components always count
        return list(rt.g.by_type.get(ctype, []))
    found: list[int] = select(rt, p)
    return found


def _rest(params: list[str], vals: tuple[Any, ...]) -> list[Any]:
    return [v for name, v in zip(params, vals, strict=True) if name not in ("self", "p")]


def value_function(game: CompiledGame, name: str) -> Callable[..., Any]:
    """`f(rt, *args)` computing value `name`."""
    vdef = game.values[name]

    def compute(rt: Runtime, *vals: Any) -> Any:
        saved = rt.loc
        rt.loc = dict(zip(vdef.params, vals, strict=True))
        try:
            total = vdef.base(rt)
        finally:
            rt.loc = saved
        p = vals[0] if vals else None
        rest = _rest(vdef.params, vals)
        muls: list[Any] = []
        for mod in vdef.modifiers:
            for cid in _active(rt, mod.component_type, p):
                amount = mod.amount(rt, cid, p, *rest)
                if mod.op == "+":
                    total += amount
                else:
                    muls.append(amount)
        for m in muls:
            total *= m
        return total

    return compute


def rule_function(game: CompiledGame, name: str) -> Callable[..., bool]:
    """`f(rt, *args)` deciding rule `name`."""
    rdef = game.rules[name]

    def decide(rt: Runtime, *vals: Any) -> bool:
        saved = rt.loc
        rt.loc = dict(zip(rdef.params, vals, strict=True))
        try:
            ok = bool(rdef.base(rt))
        finally:
            rt.loc = saved
        p = vals[0] if vals else None
        rest = _rest(rdef.params, vals)
        for ctype, cond in rdef.deny:
            if any(cond(rt, cid, p, *rest) for cid in _active(rt, ctype, p)):
                return False
        if ok:
            return True
        return any(cond(rt, cid, p, *rest) for ctype, cond in rdef.allow for cid in _active(rt, ctype, p))

    return decide
