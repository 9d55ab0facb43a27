"""Values with modifiers and extensible rules, contributed by active components.

`value(name, args)` = (base + every active "+N") x every active "*N": adds always come before
multiplies, whatever order the components were gained in. `rule(name, args)` = (base or any active
allow) and not any active deny. A component's contribution counts for player `p` (the first
argument) while its type's `active` condition holds with `self` and `p` bound.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.model import CompiledGame
from interpreter.runtime import Runtime


def _active_components(rt: Runtime, ctype: str, p: Any) -> list[int]:
    active = rt.g.component_active.get(ctype)
    out: list[int] = []
    saved = rt.loc
    for cid in rt.g.by_type.get(ctype, ()):
        rt.loc = {"self": cid, "p": p}
        if active is None or active(rt):
            out.append(cid)
    rt.loc = saved
    return out


def value_function(game: CompiledGame, name: str) -> Callable[..., Any]:
    """`f(rt, *args)` computing value `name`."""
    vdef = game.values[name]

    def compute(rt: Runtime, *vals: Any) -> Any:
        saved = rt.loc
        base_loc = dict(zip(vdef.params, vals, strict=True))
        rt.loc = dict(base_loc)
        try:
            total = vdef.base(rt)
            p = vals[0] if vals else None
            muls: list[Any] = []
            for mod in vdef.modifiers:
                for cid in _active_components(rt, mod.component_type, p):
                    rt.loc = {**base_loc, "self": cid, "p": p}
                    amount = mod.amount(rt)
                    if mod.op == "+":
                        total += amount
                    else:
                        muls.append(amount)
            for m in muls:
                total *= m
            return total
        finally:
            rt.loc = saved

    return compute


def rule_function(game: CompiledGame, name: str) -> Callable[..., bool]:
    """`f(rt, *args)` deciding rule `name`."""
    rdef = game.rules[name]

    def decide(rt: Runtime, *vals: Any) -> bool:
        saved = rt.loc
        base_loc = dict(zip(rdef.params, vals, strict=True))
        p = vals[0] if vals else None
        try:
            rt.loc = dict(base_loc)
            ok = bool(rdef.base(rt))
            for ctype, cond in rdef.deny:
                for cid in _active_components(rt, ctype, p):
                    rt.loc = {**base_loc, "self": cid, "p": p}
                    if cond(rt):
                        return False
            if ok:
                return True
            for ctype, cond in rdef.allow:
                for cid in _active_components(rt, ctype, p):
                    rt.loc = {**base_loc, "self": cid, "p": p}
                    if cond(rt):
                        return True
            return False
        finally:
            rt.loc = saved

    return decide
