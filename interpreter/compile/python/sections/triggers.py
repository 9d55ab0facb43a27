"""The game's triggers (the game's own and each component type's and card's): their effects, and
one dispatcher per event that finds the triggers that fire.

Stage: check + compile (the Python target). Every trigger is parsed first (the suspension analysis
needs their bodies), compiled after the actions; a trigger's locals are the emitted arguments (every
name some `emit event(name=...)` in the game passes), `me`, and for a component type's trigger
`self` and `p`. The dispatcher `X_<event>` tests every condition before any trigger runs.
"""

from __future__ import annotations

import re
from typing import Any

from tabula.interpreter.base.types import ANY, COMP, PLAYER, Scope
from tabula.interpreter.compile.python.cards import instance_holders
from tabula.interpreter.compile.python.context import GameContext
from tabula.interpreter.compile.python.expressions.analysis import conjuncts, names_always_read, names_in
from tabula.interpreter.compile.reader import Path_
from tabula.interpreter.dsl import ast
from tabula.interpreter.model.game import TriggerDef
from tabula.interpreter.run import support

FIRING = 16
"""Units of the work budget a trigger's firing is charged, besides its `do`'s statements: a firing
copies the emitted arguments into its locals and calls its effect (measured: a fan-out of triggers
that emit again took 1 us a firing in a plain run, up to 9 us in the hostile corpus's forked child,
where each allocation of the recursion page-faulted; a loop's pass takes 0.3 us). Charged one
unit, such a fan-out spent 3.7 s of CPU there to reach R002; the bundled games fire a few dozen
triggers a decision at most, far below the budget."""

TriggerSource = tuple[Path_, dict[str, Any], str, str | None, ast.Block | None]
"""A trigger as written: (path, definition, event, component type or None, parsed body)."""

TriggerCode = tuple[TriggerDef, str | None, ast.Expr | None, ast.Expr | None, int]
"""A compiled trigger, for its event's dispatcher: (its def, its plain function's name when it cannot
wait for a decision, its `where`, its type's `active`, the units a firing is charged)."""


class TriggerCompiler:
    """Reads, then compiles, every trigger of one game (see the module docstring)."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self.read = ctx.read
        self.ex = ctx.ex
        self.sources: list[TriggerSource] = []
        self.trigger_members: dict[Path_, list[int]] = {}  # a card's own trigger: its components only
        self.trigger_code: dict[str, list[TriggerCode]] = {}  # event -> its triggers, in order
        self.members_of_block: dict[int, list[int]] = {}
        self.kwargs: dict[str, set[str]] | None = None  # event -> its emitted argument names

    def read_sources(self) -> list[TriggerSource]:
        """(path, definition, event, component type, body) of every trigger, parsed once."""
        out: list[TriggerSource] = []
        for i, tdef in enumerate(self.read.data.get("triggers") or []):
            path: Path_ = ("triggers", i)
            out.append((path, tdef, str(tdef.get("on")), None, self.read.block_at((*path, "do"))))
        for tname in self.read.data.get("components") or {}:
            for base, holder, ids in instance_holders(
                self.read.data, self.ctx.g.by_type, self.ctx.instance_ids, tname
            ):
                for i, tdef2 in enumerate(holder.get("triggers") or []):
                    path = (*base, "triggers", i)
                    if len(base) > 2:
                        self.trigger_members[path] = ids
                    out.append((path, tdef2, str(tdef2.get("on")), tname, self.read.block_at((*path, "do"))))
        self.sources = out
        return out

    def where_reads(self) -> dict[str, list[tuple[str, set[str]]]]:
        """Event -> (each game-wide trigger's id, the names its `where` reads at every emit of it):
        an emit that does not pass one fails whenever it runs (the trigger reads a local it lacks)."""
        out: dict[str, list[tuple[str, set[str]]]] = {}
        if self.kwargs is None:
            self.kwargs = emitted_kwargs(self.read.data)
        for path, tdef, event, ctype, _ in self.sources:
            if ctype is not None or tdef.get("where") is None:
                continue
            with self.ctx.muted(reading=True):  # parsed again (and reported) when compiled
                where = self.read.expr_at((*path, "where"))
            if where is not None:
                trig = str(tdef.get("id", f"{event}#{path[-1]}"))
                # its locals: what some emit of the event passes (other names are the game's)
                args = self.kwargs.get(event, set()) - {"me"}
                out.setdefault(event, []).append((trig, names_always_read(where) & args))
        return out

    def _types(self, event: str, ctype: str | None) -> dict[str, str]:
        """A trigger's locals: the emitted arguments, `me`, and for a component type's `self` and `p`."""
        types: dict[str, str] = {"me": PLAYER}
        if ctype is not None:
            types.update({"self": COMP, "p": PLAYER})
        if self.kwargs is None:
            self.kwargs = emitted_kwargs(self.read.data)
        for key in sorted(self.kwargs.get(event, ())):
            types.setdefault(key, ANY)
        return types

    def compile(self) -> None:
        """Every trigger's effect, with its locals in a dict."""
        for path, tdef, event, ctype, body in self.sources:
            types = self._types(event, ctype)
            label = f"trigger '{tdef.get('id', path[-1])}'"
            where = self.read.expr_at((*path, "where")) if tdef.get("where") is not None else None
            if where is not None:
                self.ex.cond_code(where, Scope(dict(types), label))  # checked here, generated below
            fn_name = self.ctx.mod.fresh("trigger")
            block = (
                self.ctx.compile_entry(
                    (*path, "do"), types, label, None, tail=[], fn_name=fn_name, stmts=body or ()
                )
                or 0
            )
            self.ctx.name_block(block, "trigger", str(tdef.get("id", event)), path)
            trig = TriggerDef(
                str(tdef.get("id", f"{event}#{path[-1]}")), event, block, ctype, self.read.span((*path, "on"))
            )
            self.ctx.g.triggers.setdefault(event, []).append(trig)
            plain = fn_name if fn_name in self.ctx.mod.ns else None
            active = None
            if ctype is not None:
                tdata = (self.read.data.get("components") or {}).get(ctype) or {}
                active = self.read.expr_at(("components", ctype, "active")) if tdata.get("active") else None
            units = FIRING + self.ctx.sc.weight(body or ())  # the firing, and its `do` as a loop's body is
            self.trigger_code.setdefault(event, []).append((trig, plain, where, active, units))
            if path in self.trigger_members:
                self.members_of_block[block] = self.trigger_members[path]

    def dispatchers(self) -> None:
        """`X_<event>(rt, me, base)`: the triggers that fire, as (block, function or None, locals).

        Every condition is tested before any trigger runs, in declaration order; a component type's
        trigger is tried for each of its components and each player, except where its `where` pins
        `self` or `p` down with an equality (`self == b`): then only that one is tried. The emit is
        charged to the work budget: one unit, one per condition tested and, for each trigger that
        fires, FIRING and its `do`'s statements (a fan-out of triggers that emit again ends with R002 at
        the `emit`)."""
        ex = self.ex
        with self.ctx.muted():  # every condition was checked in compile
            for event, entries in self.trigger_code.items():
                over = ex.helper(support.over_budget)
                lines = [
                    f"def X_{event}(rt, v_me, base):",
                    "    S = rt.st",
                    "    if 'me' not in base: base['me'] = v_me",
                    f"    if rt.watch is not None: rt.watch({event!r}, base)",
                    "    out = []",
                    f"    _units = {1 + sum(1 for e in entries if e[0].component_type is None)}",
                ]
                for trig, fn, where, active, units in entries:
                    if trig.component_type is None:
                        scope = Scope(self._types(event, None))
                        test = ex.cond_code(where, scope) if where is not None else "True"
                        lines.append("    L = {**base}")
                        lines.append(
                            f"    if {test}: out.append(({trig.block}, {fn or 'None'}, L)); _units += {units}"
                        )
                        continue
                    lines += self._component_trigger(trig, fn or "None", where, active, event, units)
                lines += [
                    "    _units = rt.budget - _units",
                    "    rt.budget = _units",
                    f"    if _units < 0: {over}(rt)",
                ]
                lines.append("    return out")
                self.ctx.mod.define("\n".join(lines) + "\n")

    def _component_trigger(
        self,
        trig: TriggerDef,
        fn: str,
        where: ast.Expr | None,
        active: ast.Expr | None,
        event: str,
        units: int,
    ) -> list[str]:
        ex = self.ex
        ctype = trig.component_type
        assert ctype is not None
        types = self._types(event, None)
        scope = Scope(dict(types), "", {}, {"self": ("v_self", COMP), "p": ("v_p", PLAYER)})
        parts = conjuncts(where) if where is not None else []
        members = self.members_of_block.get(trig.block) or self.ctx.g.by_type.get(ctype, [])
        ids = ex.inject(members, f"ids_{ctype}")
        self_pin = p_pin = None
        for c in parts:
            if not (isinstance(c, ast.Compare) and c.op == "=="):
                continue
            for mine, other in ((c.left, c.right), (c.right, c.left)):
                if isinstance(mine, ast.Name) and not names_in(other) & {"self", "p"}:
                    if mine.id == "self" and self_pin is None:
                        self_pin = ex.code(other, Scope(dict(types)))[0]
                    elif mine.id == "p" and p_pin is None:
                        p_pin = ex.code(other, Scope(dict(types)))[0]
        tests = []
        if active is not None:
            tests.append(ex.cond_code(active, scope))
        if where is not None:
            tests.append(ex.cond_code(where, scope))
        test = " and ".join(tests) or "True"
        lines = ["    L = base"]
        if self_pin is not None:
            member = ex.inject(frozenset(members), f"members_{ctype}")
            lines.append(f"    _pin = {self_pin}")
            selves = f"((_pin,) if _pin in {member} else ())"
        else:
            selves = ids
        if p_pin is not None:
            lines.append(f"    _pinp = {p_pin}")
            players = f"((_pinp,) if type(_pinp) is int and 0 <= _pinp < {ex.bind('NP')} else ())"
        else:
            players = f"range({ex.bind('NP')})"
        fire = f"out.append(({trig.block}, {fn}, {{**base, 'self': v_self, 'p': v_p}})); _units += {units}"
        return [
            *lines,
            f"    _ss = {selves}; _ps = {players}; _units += len(_ss) * len(_ps)",  # the conditions tried
            "    for v_self in _ss:",
            "        for v_p in _ps:",
            f"            if {test}: {fire}",
        ]


_EMIT = re.compile(r"\bemit\s+(\w+)\s*\(")


def emitted_kwargs(data: dict[str, Any]) -> dict[str, set[str]]:
    """Event -> the names passed by some `emit event(...)` in the game's text (so its triggers may
    use them), found in one walk of the data: a walk per trigger made compiling quadratic."""
    found: dict[str, set[str]] = {}
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            for m in _EMIT.finditer(node):
                found.setdefault(m.group(1), set()).update(_arguments(node, m.end()))
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _arguments(text: str, at: int) -> set[str]:
    """The names of the `name=value` arguments of the call whose arguments start at `at`."""
    names: set[str] = set()
    depth, arg = 0, ""
    for ch in text[at:]:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            if "=" in arg:
                names.add(arg.split("=")[0].strip())
            arg = ""
        else:
            arg += ch
    if "=" in arg:
        names.add(arg.split("=")[0].strip())
    return names
