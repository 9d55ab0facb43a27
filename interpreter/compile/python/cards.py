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
from typing import TYPE_CHECKING, Any, Protocol

from tabula.interpreter.base.source import Span, did_you_mean
from tabula.interpreter.base.types import COMP
from tabula.interpreter.compile.layout import INSTANCE_KEYS, InstanceIds
from tabula.interpreter.compile.python.module import GenModule
from tabula.interpreter.dsl import ast
from tabula.interpreter.load.positions import span_for

if TYPE_CHECKING:  # the reader imports the DSL parser (lark): a game from the compile cache needs neither
    from tabula.interpreter.compile.reader import GameReader, Path_

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


class BodyCompiler(Protocol):
    """What compiles a hook body: the game compiler's entry of an effect and its rules-coverage name
    (context.GameContext)."""

    def compile_entry(
        self,
        path: Path_,
        types: dict[str, str],
        where: str,
        args: list[str] | None,
        tail: list[Any] | None = None,
        fn_name: str | None = None,
        stmts: ast.Block | None = None,
    ) -> int | None: ...

    def name_block(self, block: int | None, kind: str, name: str, path: Path_) -> None: ...


def declare_hooks(read: GameReader, instance_ids: InstanceIds, mod: GenModule) -> dict[str, HookInfo]:
    """Every type's hooks and every instance's bodies, parsed and checked (C006, C008, E125)."""

    hooks: dict[str, HookInfo] = {}
    comps = read.data.get("components") or {}
    for tname, tdef in comps.items():
        for hname in (tdef or {}).get("hooks") or {}:
            path: Path_ = ("components", tname, "hooks", hname)
            typed = read.params(path)
            if not read.identifier(str(hname), path):
                continue
            if hname in hooks:
                other = hooks[hname]
                if other.params != [p for p, _ in typed] or other.types != dict(typed):
                    read.report.error(
                        "E125",
                        f"hook '{hname}' is declared by '{other.owner}' and '{tname}' with other parameters",
                        span_for(read.src, path, key=True),
                        f"give both the parameters of '{other.owner}': {', '.join(other.params)}",
                    )
                continue
            hooks[hname] = HookInfo(
                str(hname),
                tname,
                [p for p, _ in typed],
                dict(typed),
                span_for(read.src, path, key=True),
                mod.fresh(f"hooks_{hname}"),
            )
    for tname, tdef in comps.items():
        tdef = tdef or {}
        own = tdef.get("hooks") or {}
        declared = set(tdef.get("properties") or {}) | set(tdef.get("defaults") or {})
        for i, inst in enumerate(tdef.get("instances") or []):
            base: Path_ = ("components", tname, "instances", i)
            for key in inst:
                if key in INSTANCE_KEYS or key in declared or key == "name":
                    continue  # a known key: no near miss to look for (a 141x141 board has 59,643)
                hint = did_you_mean(str(key), _NEAR)
                if hint:
                    read.report.error(
                        "C008",
                        f"'{key}' on {inst.get('name', tname)} looks like a misspelt key",
                        span_for(read.src, (*base, key), key=True),
                        hint,
                    )
            for hname in inst.get("hooks") or {}:
                hpath: Path_ = (*base, "hooks", hname)
                if hname not in own:
                    read.report.error(
                        "C006",
                        f"'{tname}' declares no hook '{hname}'",
                        span_for(read.src, hpath, key=True),
                        did_you_mean(str(hname), own) or "declare it under the type's `hooks:`",
                    )
                    continue
                if hname in hooks:  # two types may share a hook with the same parameters
                    body = HookBody(tname, str(inst.get("name")), instance_ids[(tname, i)], hpath, None)
                    body.stmts = read.block_at(hpath)
                    hooks[hname].bodies.append(body)
    return hooks


def instance_holders(
    data: dict[str, Any], by_type: dict[str, list[int]], instance_ids: InstanceIds, tname: str
) -> list[tuple[Path_, dict[str, Any], list[int]]]:
    """Whatever carries abilities for type `tname` in the game's `data`: the type itself (all its
    components, `by_type`), then each instance with abilities of its own (its components only)."""
    tdef = (data.get("components") or {}).get(tname) or {}
    out: list[tuple[Path_, dict[str, Any], list[int]]] = [
        (("components", tname), tdef, by_type.get(tname, []))
    ]
    for i, inst in enumerate(tdef.get("instances") or []):
        if any(inst.get(k) for k in ("modifiers", "allow", "deny", "triggers")):
            out.append((("components", tname, "instances", i), inst, instance_ids[(tname, i)]))
    return out


def compile_hooks(compiler: BodyCompiler, mod: GenModule, hooks: dict[str, HookInfo]) -> None:
    """Each body once, then each hook's dispatch table (component id -> function or block)."""
    for info in hooks.values():
        entries: list[str] = []
        for body in info.bodies:
            types = {"self": COMP, **info.types}
            fn_name = mod.fresh(f"H_{info.name}")
            where = f"hook '{info.name}' of {body.instance}"
            bid = compiler.compile_entry(
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
            compiler.name_block(bid, "hook", f"{body.instance}.{info.name}", body.path)
            target = str(bid) if info.suspends else fn_name
            if not info.suspends and fn_name not in mod.ns:
                continue  # failed to compile: reported
            entries += [f"{cid}: {target}" for cid in body.ids]
        mod.define(f"{info.table} = {{{', '.join(entries)}}}\n")
