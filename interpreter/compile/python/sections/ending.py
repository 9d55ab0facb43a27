"""How the game ends and who wins: the flow's end checks, and the scoring.

Stage: check + compile (the Python target). An end check is a condition of the active player tested
before each decision; when it newly holds, it is marked fired and its effect runs, then the game
ends (`immediately`, or at the end of the round or turn: run/support.ending). `_fire_end_checks`
tests them all, written out in generated code. The score and the tiebreaks are expressions of a
player.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.types import PLAYER, Scope
from tabula.interpreter.compile.python.context import GameContext
from tabula.interpreter.compile.reader import Path_
from tabula.interpreter.model.game import EndCheckDef
from tabula.interpreter.run import support


def compile_end_checks(ctx: GameContext, flow: dict[str, Any], pscope: Scope) -> None:
    """Each of `flow.end_checks` as an EndCheckDef (its condition `when` in `pscope`: `p`, `me`)."""
    g = ctx.g
    for i, chk in enumerate(flow.get("end_checks") or []):
        path: Path_ = ("flow", "end_checks", i)
        when = ctx.compile_cond((*path, "when"), pscope)
        when_node = ctx.read.expr_at((*path, "when"))
        with ctx.muted():  # checked just above
            test = ctx.ex.function(when_node, [("p", PLAYER), ("me", PLAYER)], True) if when_node else None
        mode = str(chk.get("end", "immediately"))
        block = ctx.compile_entry(
            (*path, "do"),
            {"p": PLAYER, "me": PLAYER},
            f"end check '{chk.get('id', i)}'",
            ["me", "p"],
            tail=[f"{ctx.ex.helper(support.ending)}(rt, {mode!r})"],
        )
        ctx.name_block(block, "end check", str(chk.get("id", i)), path)
        if when is not None and block is not None:
            g.end_checks.append(
                EndCheckDef(str(chk.get("id", f"end_check{i + 1}")), when, block, mode, test or when)
            )


def fuse_end_checks(ctx: GameContext) -> None:
    """`_fire_end_checks(rt)`, what generated code calls before each decision: the end checks
    tested in order, each that newly holds marked fired and its effect pushed, as
    Runtime.fire_end_checks does, written out (no loop over the checks, no attribute reads)."""
    g, mod = ctx.g, ctx.mod
    ns = mod.ns
    tests = [getattr(c.test, "__name__", "") for c in g.end_checks]
    if not all(ns.get(name) is c.test for name, c in zip(tests, g.end_checks, strict=True)):
        # a test that is not a generated function of the players: the general loop
        mod.define("def _fire_end_checks(rt):\n    return rt.fire_end_checks()\n")
        return
    lines = ["def _fire_end_checks(rt):", "    if rt.probing:", "        return False"]
    if g.end_checks:
        lines += ["    t = rt.st['t']", "    fired = t['fired']", "    p = t['active']"]
        lines.append("    pushed = False")
    for name, check in zip(tests, g.end_checks, strict=True):
        lines += [
            f"    if {check.id!r} not in fired and {name}(rt, p, p):",
            f"        fired.append({check.id!r})",
            f"        rt.push({check.block}, {{'p': p, 'me': p}})",
            "        pushed = True",
        ]
    lines.append("    return pushed" if g.end_checks else "    return False")
    g.fire_end_checks = mod.function("\n".join(lines) + "\n", "_fire_end_checks")


def compile_scoring(ctx: GameContext) -> None:
    """The score of a player and the tiebreaks, in order."""
    g = ctx.g
    scoring = ctx.read.data.get("scoring") or {}
    scope = Scope({"p": PLAYER})
    g.score_span = ctx.read.span(("scoring", "score"))
    g.lowest_wins = scoring.get("ranking") == "lowest"
    if scoring.get("score") is not None:
        g.score = ctx.compile_expr(("scoring", "score"), scope)
    for i, _ in enumerate(scoring.get("tiebreak") or []):
        f = ctx.compile_expr(("scoring", "tiebreak", i), scope)
        if f is not None:
            g.tiebreak.append(f)
