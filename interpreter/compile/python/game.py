"""Stage check + compile for a whole game: validated YAML data -> CompiledGame.

Input: a `GameSource` whose data has passed schema validation (so its shape is known) and the rules
options chosen. Output: a `CompiledGame`, or diagnostics in the Report. Each DSL string is parsed
with its YAML position, resolved and compiled; all problems of the stage are reported at once.

This module is the driver: it gives the order of the steps, and each section of the data is
compiled by a module of its own: the layouts (compile/layout.py), values, rules and the abilities
that modify them (abilities.py), hooks (cards.py), actions (actions.py), triggers (triggers.py),
the flow (flow.py), the end checks and the scoring (ending.py). Every name and signature is
declared before any body is compiled, so that any body may use any name, and which effects can
wait for a decision is known before the first of them is compiled.
"""

from __future__ import annotations

import re
from typing import Any

from tabula.interpreter.base.source import Report, did_you_mean
from tabula.interpreter.base.types import ANY
from tabula.interpreter.compile.layout import build_layouts
from tabula.interpreter.compile.python.cards import HookInfo, compile_hooks, declare_hooks
from tabula.interpreter.compile.python.context import GameContext
from tabula.interpreter.compile.python.expressions.analysis import FunctionSlot
from tabula.interpreter.compile.python.expressions.compiler import ExprCompiler
from tabula.interpreter.compile.python.hidden import components_in_any
from tabula.interpreter.compile.python.module import GenModule
from tabula.interpreter.compile.python.sections.abilities import Abilities
from tabula.interpreter.compile.python.sections.actions import ActionCompiler
from tabula.interpreter.compile.python.sections.ending import compile_scoring
from tabula.interpreter.compile.python.sections.flow import compile_flow
from tabula.interpreter.compile.python.sections.triggers import TriggerCompiler, TriggerSource
from tabula.interpreter.compile.python.sections.windows import WindowCompiler
from tabula.interpreter.compile.python.snippets import Snippets
from tabula.interpreter.compile.python.statements.base import ProcInfo
from tabula.interpreter.compile.python.statements.compiler import EffectCompiler
from tabula.interpreter.compile.reader import LET, GameReader
from tabula.interpreter.compile.suspend import Suspension
from tabula.interpreter.dsl import ast
from tabula.interpreter.load.positions import GameSource, span_for
from tabula.interpreter.model.game import CompiledGame


class GameCompiler:
    """Compiles one game; see the module docstring."""

    def __init__(
        self,
        source: GameSource,
        report: Report,
        options: dict[str, Any] | None = None,
        instrument: bool = False,
        unique: str | None = None,
    ) -> None:
        self.read = GameReader(source, report)
        self.chosen_options = options or {}
        self.instrument = instrument
        self.unique = unique

    def compile(self) -> CompiledGame:
        """The layouts, then every declaration, then the effect compiler, then every body."""
        g, instance_ids = build_layouts(self.read, self.chosen_options)
        functions = _function_slots(self.read)
        mod = GenModule(g.id, self.unique)
        g.module = mod
        ex = ExprCompiler(g, self.read.report, functions, mod)
        ctx = GameContext(self.read, g, instance_ids, ex, mod)
        self._declare(ctx)
        ctx.sc = self._effect_compiler(ctx)
        self._bodies(ctx, functions)
        components_in_any(ctx)
        _untils(ctx)
        _unused(ctx)
        g.rule_blocks = len(g.blocks)
        g.snippets = Snippets(ex, ctx.sc)
        return g

    def _declare(self, ctx: GameContext) -> None:
        """Values, rules, procedures, triggers and hooks: names and parameters checked, bodies parsed;
        then which of those bodies can wait for a decision (suspend.py)."""
        self.abilities = Abilities(ctx)
        self.abilities.declare()
        read = ctx.read
        proc_types = {name: read.params(("procedures", name)) for name in read.data.get("procedures") or {}}
        proc_bodies = {name: read.block_at(("procedures", name, "do")) for name in proc_types}
        self.triggers = TriggerCompiler(ctx)
        self.triggers.read_sources()
        self.hooks = declare_hooks(read, ctx.instance_ids, ctx.mod)
        self.suspension = _suspension(proc_bodies, self.triggers.sources, self.hooks)
        self.suspension.reads = self.triggers.where_reads()
        self.procedures = {
            name: ProcInfo(
                name,
                [p for p, _ in typed],
                dict(typed),
                suspends=name in self.suspension.suspending,
                body=proc_bodies.get(name) or (),
            )
            for name, typed in proc_types.items()
        }

    def _effect_compiler(self, ctx: GameContext) -> EffectCompiler:
        """The effect compiler: it needs the procedures, the suspension analysis, the hooks and the
        windows' enumeration functions, which need every action's parameters and condition."""
        self.actions = ActionCompiler(ctx)
        action_index = {name: i for i, name in enumerate(ctx.read.data.get("actions") or {})}
        windows = WindowCompiler(ctx.ex, self.actions.sources())
        sc = EffectCompiler(ctx.ex, self.procedures, action_index, self.suspension, windows, self.instrument)
        sc.hooks = self.hooks
        sc.closing = {
            n for n, a in (ctx.read.data.get("actions") or {}).items() if (a or {}).get("closes_window")
        }
        return sc

    def _bodies(self, ctx: GameContext, functions: dict[str, FunctionSlot]) -> None:
        """Every body, in the order of their block ids and generated definitions."""
        # rules and values first: code compiled after a rule tests its guard in place of a call
        self.abilities.gather()
        self.abilities.compile()
        for slot in functions.values():
            if slot.state == "new":
                ctx.ex.compile_function(slot)
        _compile_procedures(ctx, self.procedures)
        compile_hooks(ctx, ctx.mod, self.hooks)
        self.actions.compile()
        self.triggers.compile()
        self.triggers.dispatchers()
        compile_flow(ctx)
        compile_scoring(ctx)


def _function_slots(read: GameReader) -> dict[str, FunctionSlot]:
    """Every function's parameters and parsed expression (compiled on first use, or at the end)."""
    functions = {}
    for name, (typed, body, span) in read.functions().items():
        slot = FunctionSlot(name, [p for p, _ in typed], body, span)
        slot.param_types = {p: ANY if t == LET else t for p, t in typed}
        slot.inferred = {p for p, t in typed if t == LET}
        functions[name] = slot
    return functions


def _suspension(
    proc_bodies: dict[str, ast.Block | None], triggers: list[TriggerSource], hooks: dict[str, HookInfo]
) -> Suspension:
    """Which procedures, triggers and hooks can wait for a decision; each hook is told."""
    suspension = Suspension({name: body or () for name, body in proc_bodies.items()}, {})
    for _, _, event, _, body in triggers:
        suspension.triggers.setdefault(event, []).append(body or ())
    for hname, hinfo in hooks.items():
        suspension.hooks[hname] = [b.stmts or () for b in hinfo.bodies]
    suspension.solve()
    for hname, hinfo in hooks.items():
        hinfo.suspends = hname in suspension.hook_suspending
    return suspension


def _compile_procedures(ctx: GameContext, procedures: dict[str, ProcInfo]) -> None:
    """Each procedure's block (`P_<name>` when it cannot wait), in its cell for `run` to find."""
    for name, info in procedures.items():
        info.cell[0] = (
            ctx.compile_entry(
                ("procedures", name, "do"),
                info.types,
                f"procedure '{name}'",
                ["me", *info.params],
                tail=[],
                fn_name=f"P_{name}",
                stmts=info.body,
            )
            or 0
        )
        ctx.name_block(info.cell[0], "procedure", name, ("procedures", name))


def _unused(ctx: GameContext) -> None:
    """Warnings for definitions nothing uses, and triggers on events nothing emits."""
    read = ctx.read
    if read.report.has_errors:
        return  # names used only in code that failed to compile would look unused
    mentioned = ctx.ex.used | _scenario_words(read.src.folder) | _words(read.data.get("presentation"))
    # constants are not checked: games keep provenance and reference data there on purpose
    for section in ("functions", "procedures", "actions", "counters", "vars", "zones", "values", "rules"):
        for name in read.data.get(section) or {}:
            if name not in mentioned:
                read.report.warning(
                    "W001",
                    f"{section[:-1]} '{name}' is never used",
                    span_for(read.src, (section, name), key=True),
                    "remove it, or use it in the rules or a scenario",
                )
    for event, triggers in ctx.g.triggers.items():
        if event not in ctx.sc.emitted:
            for trig in triggers:
                read.report.warning(
                    "W002",
                    f"trigger '{trig.id}' waits for '{event}', which nothing emits",
                    trig.span,
                    did_you_mean(event, ctx.sc.emitted) or f"emit it with `emit {event}(...)`",
                )


def _untils(ctx: GameContext) -> None:
    """E129: `reveal ... until EVENT` names an event the game emits or a moment of the flow that
    ends grants (`turn_end`; `round_end` with rounds), else the grant would never end."""
    moments = {"turn_end"} | ({"round_end"} if ctx.g.flow is not None and ctx.g.flow.has_rounds else set())
    known = sorted(ctx.sc.emitted | moments)
    for event, span in ctx.sc.untils:
        if event not in known:
            ctx.read.report.error(
                "E129",
                f"'until {event}': the game never emits '{event}', and it is no moment of the flow",
                span,
                did_you_mean(event, known) or f"events: {', '.join(known)}",
            )


def _words(data: Any) -> set[str]:
    """Identifiers in the keys and texts of `data` (the presentation: a counter only a screen shows
    is used)."""
    if isinstance(data, dict):
        return set().union(*(_words(k) | _words(v) for k, v in data.items()))
    if isinstance(data, list):
        return set().union(*(_words(v) for v in data))
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", data)) if isinstance(data, str) else set()


def _scenario_words(folder: Any) -> set[str]:
    """Identifiers written in the game's scenario files (names used only by scenarios are used)."""
    from tabula.interpreter.load.unsaved import source_text  # the editor's text in place of a file's

    words: set[str] = set()
    for f in sorted(folder.glob("scenarios/**/*.yaml")):
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source_text(f)))
    return words


def compile_game(
    source: GameSource,
    report: Report,
    options: dict[str, Any] | None = None,
    instrument: bool = False,
    unique: str | None = None,
) -> CompiledGame | None:
    """Check and compile a validated game; None (with diagnostics) if anything is wrong. `instrument`
    makes the generated code record which blocks run (rules coverage)."""
    compiler = GameCompiler(source, report, options, instrument, unique)
    game = compiler.compile()
    if report.has_errors:
        return None
    return game
