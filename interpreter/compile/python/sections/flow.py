"""The game's flow: the setup, the rounds, the turn and its phases, the end -> FlowDef, run by the
flow driver (run/flow.py) as the game's main block.

Stage: check + compile (the Python target). Each flow hook (`setup`, a round's `on_start` and
`on_end`, a phase's `do`, the turn's `on_end`, `finish`) is an effect entered from the driver's
frame; the end checks (ending.py) are compiled between the phases and `finish`, in the order of
their block ids. Flows that could never ask a decision or never end a round are reported.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.types import PLAYER, Scope
from tabula.interpreter.compile.python.context import GameContext
from tabula.interpreter.compile.python.sections.ending import compile_end_checks, fuse_end_checks
from tabula.interpreter.compile.reader import GameReader, Path_
from tabula.interpreter.load.positions import span_for
from tabula.interpreter.model.game import FlowDef
from tabula.interpreter.run.flow import FlowDriver


def compile_flow(ctx: GameContext) -> None:
    """The FlowDef and its driver block, the game's main block; the end checks with it."""
    g = ctx.g
    flow = ctx.read.data.get("flow") or {}
    pscope = Scope({"p": PLAYER, "me": PLAYER})
    fdef = _flow_def(ctx, flow, pscope)
    _phases(ctx, flow, fdef)
    compile_end_checks(ctx, flow, pscope)
    fdef.finish = ctx.compile_entry(("flow", "finish"), {}, "the game's end", ["me"])
    fuse_end_checks(ctx)
    _check_flow(ctx.read, flow, fdef)
    g.flow = fdef
    g.main_block = len(g.blocks)
    driver = FlowDriver(fdef)
    driver.span = ctx.read.span(("flow",))
    g.blocks.append(driver)


def _flow_def(ctx: GameContext, flow: dict[str, Any], pscope: Scope) -> FlowDef:
    """The setup, the rounds and the turn (its phases still to come), compiled in this order."""
    empty = Scope({})
    rounds = flow.get("rounds")
    rp: Path_ = ("flow", "rounds")
    none: dict[str, str] = {}
    player = {"p": PLAYER, "me": PLAYER}
    return FlowDef(
        setup=ctx.compile_entry(("flow", "setup"), none, "the setup", ["me"]),
        has_rounds=rounds is not None,
        round_count=ctx.compile_expr((*rp, "count"), empty)
        if rounds and rounds.get("count") is not None
        else None,
        round_first=ctx.compile_expr((*rp, "first"), empty)
        if rounds and rounds.get("first") is not None
        else None,
        round_ends_when=ctx.compile_cond((*rp, "ends_when"), empty)
        if rounds and rounds.get("ends_when")
        else None,
        round_on_start=ctx.compile_entry((*rp, "on_start"), none, "the round's start", ["me"])
        if rounds
        else None,
        round_on_end=ctx.compile_entry((*rp, "on_end"), none, "the round's end", ["me"]) if rounds else None,
        turn_player=ctx.compile_expr(("flow", "turn", "player"), empty)
        if (flow.get("turn") or {}).get("player") is not None
        else None,
        turn_skip_if=ctx.compile_cond(("flow", "turn", "skip_if"), pscope)
        if (flow.get("turn") or {}).get("skip_if") is not None
        else None,
        phases=[],
        turn_on_end=ctx.compile_entry(("flow", "turn", "on_end"), player, "the turn's end", ["me", "p"]),
        finish=None,
    )


def _phases(ctx: GameContext, flow: dict[str, Any], fdef: FlowDef) -> None:
    """The turn's phases, in order: each an effect of the active player `p` (and `me`)."""
    player = {"p": PLAYER, "me": PLAYER}
    for i, ph in enumerate((flow.get("turn") or {}).get("phases") or []):
        bid = ctx.compile_entry(
            ("flow", "turn", "phases", i, "do"),
            player,
            f"phase '{ph.get('id', i)}'",
            ["me", "p"],
            tail=[],
        )
        ctx.name_block(bid, "phase", str(ph.get("id", i)), ("flow", "turn", "phases", i))
        fdef.phases.append((str(ph.get("id", f"phase{i + 1}")), bid or 0))


def _check_flow(read: GameReader, flow: dict[str, Any], fdef: FlowDef) -> None:
    """Flows that could never ask a decision or never end a round."""
    if not read.data.get("flow"):
        read.report.error(
            "F001",
            "the game has no flow",
            span_for(read.src, ("game",), key=True),
            "add a 'flow:' section with turn phases (see docs/language.md)",
        )
        return
    if not fdef.phases:
        read.report.error(
            "F002",
            "the turn has no phases, so no player ever acts",
            span_for(read.src, ("flow", "turn", "phases"), key=True) or read.span(("flow",)),
            "add flow.turn.phases: [{id: main, do: ...}]",
        )
    rounds = flow.get("rounds")
    if rounds is not None and rounds.get("ends_when") is None:
        read.report.warning(
            "F003",
            "rounds have no 'ends_when': a round ends only when every player is skipped",
            span_for(read.src, ("flow", "rounds"), key=True),
            "add flow.rounds.ends_when: <condition>",
        )
