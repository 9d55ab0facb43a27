"""What one instance of a component type carries itself: its own abilities, hook bodies and text.

Stage: check + compile. A component type may declare **hooks** with typed parameters
(`hooks: {on_gain: {params: [p: player]}}`); each instance may give a body for a hook
(`hooks: {on_gain: "gain 2 coins(p)"}`), run by the effect statement `run c.on_gain(p)`, which does
nothing for a component whose instance gives no body. An instance may also carry `modifiers`,
`allow`, `deny` and `triggers` of its own: they count exactly like its type's (under the type's
`active`), for that instance's components only. `text:` is the printed text, never read by the rules.

A hook body is compiled once per (instance, hook), like a procedure with `self` (the component) as
an extra parameter. A call dispatches through one generated table per hook, component id -> the
body's function (or, when some body can wait for a decision, -> its resumable block, pushed through
the machine CALL protocol): no test of names while playing. Tables are generated source, so a
cached game rebuilds them with the rest of its module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tabula.interpreter.base.source import Span, did_you_mean
from tabula.interpreter.base.types import COMP
from tabula.interpreter.dsl import ast
from tabula.interpreter.load.positions import span_for

if TYPE_CHECKING:
    from tabula.interpreter.compile.python.game import GameCompiler

Path_ = tuple[str | int, ...]

# instance keys that are not properties (everything else an instance lists is one)
INSTANCE_KEYS = ("copies", "text", "modifiers", "allow", "deny", "triggers", "hooks")
_NEAR = ("text", "modifiers", "allow", "deny", "triggers", "hooks", "defaults")


@dataclass
class HookBody:
    """One instance's body for a hook: the components it runs for and where it is written."""

    ctype: str
    instance: str
    ids: list[int]
    path: Path_
    stmts: ast.Block | None


@dataclass
class HookInfo:
    """A hook declared by a component type, with every instance's body."""

    name: str
    owner: str
    params: list[str]
    types: dict[str, str]
    span: Span | None
    table: str = ""
    bodies: list[HookBody] = field(default_factory=list)
    suspends: bool = False


def declare_hooks(gc: GameCompiler) -> dict[str, HookInfo]:
    """Every type's hooks and every instance's bodies, parsed and checked (C006, C008, E125)."""

    hooks: dict[str, HookInfo] = {}
    comps = gc.data.get("components") or {}
    for tname, tdef in comps.items():
        for hname in (tdef or {}).get("hooks") or {}:
            path: Path_ = ("components", tname, "hooks", hname)
            typed = gc._params(path)
            if not gc._identifier(str(hname), path):
                continue
            if hname in hooks:
                other = hooks[hname]
                if other.params != [p for p, _ in typed] or other.types != dict(typed):
                    gc.report.error(
                        "E125",
                        f"hook '{hname}' is declared by '{other.owner}' and '{tname}' with other parameters",
                        span_for(gc.src, path, key=True),
                        f"give both the parameters of '{other.owner}': {', '.join(other.params)}",
                    )
                continue
            hooks[hname] = HookInfo(
                str(hname),
                tname,
                [p for p, _ in typed],
                dict(typed),
                span_for(gc.src, path, key=True),
                gc.mod.fresh(f"hooks_{hname}"),
            )
    for tname, tdef in comps.items():
        tdef = tdef or {}
        own = tdef.get("hooks") or {}
        declared = set(tdef.get("properties") or {}) | set(tdef.get("defaults") or {})
        for i, inst in enumerate(tdef.get("instances") or []):
            base: Path_ = ("components", tname, "instances", i)
            for key in inst:
                hint = did_you_mean(str(key), _NEAR)
                if key not in INSTANCE_KEYS and key not in declared and hint and key != "name":
                    gc.report.error(
                        "C008",
                        f"'{key}' on {inst.get('name', tname)} looks like a misspelt key",
                        span_for(gc.src, (*base, key), key=True),
                        hint,
                    )
            for hname in inst.get("hooks") or {}:
                hpath: Path_ = (*base, "hooks", hname)
                if hname not in own:
                    gc.report.error(
                        "C006",
                        f"'{tname}' declares no hook '{hname}'",
                        span_for(gc.src, hpath, key=True),
                        did_you_mean(str(hname), own) or "declare it under the type's `hooks:`",
                    )
                    continue
                if hname in hooks:  # two types may share a hook with the same parameters
                    body = HookBody(tname, str(inst.get("name")), gc.instance_ids[(tname, i)], hpath, None)
                    body.stmts = gc.block_at(hpath)
                    hooks[hname].bodies.append(body)
    return hooks


def instance_holders(gc: GameCompiler, tname: str) -> list[tuple[Path_, dict[str, Any], list[int]]]:
    """Whatever carries abilities for type `tname`: the type itself (all its components), then each
    instance with abilities of its own (its components only)."""
    tdef = (gc.data.get("components") or {}).get(tname) or {}
    out: list[tuple[Path_, dict[str, Any], list[int]]] = [
        (("components", tname), tdef, gc.g.by_type.get(tname, []))
    ]
    for i, inst in enumerate(tdef.get("instances") or []):
        if any(inst.get(k) for k in ("modifiers", "allow", "deny", "triggers")):
            out.append((("components", tname, "instances", i), inst, gc.instance_ids[(tname, i)]))
    return out


def compile_hooks(gc: GameCompiler, hooks: dict[str, HookInfo]) -> None:
    """Each body once, then each hook's dispatch table (component id -> function or block)."""
    for info in hooks.values():
        entries: list[str] = []
        for body in info.bodies:
            types = {"self": COMP, **info.types}
            fn_name = gc.mod.fresh(f"H_{info.name}")
            where = f"hook '{info.name}' of {body.instance}"
            bid = gc.compile_entry(
                body.path,
                types,
                where,
                ["me", "self", *info.params],
                tail=[],
                fn_name=fn_name,
                stmts=body.stmts or (),
            )
            if bid is None:
                continue
            gc.name_block(bid, "hook", f"{body.instance}.{info.name}", body.path)
            target = str(bid) if info.suspends else fn_name
            if not info.suspends and fn_name not in gc.mod.ns:
                continue  # failed to compile: reported
            entries += [f"{cid}: {target}" for cid in body.ids]
        gc.mod.define(f"{info.table} = {{{', '.join(entries)}}}\n")
