""" "Why not?": why an action is not among the legal choices now, in the game's own words.

The answer names the failing part of the action's condition — the first `and`-conjunct of its
`when` that is false, with its source text, its location and, for a comparison, the values of both
sides — or says that the action is not offered at this point, or that one of its parameters has
nothing to choose from. Player and component values are shown by name.
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import Span, span_text
from tabula.interpreter.model.choices import value_id
from tabula.interpreter.model.game import ActionDef, CompiledGame
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime

MAX_CASES = 4


def _where(span: Span | None) -> str:
    if span is None:
        return ""
    path = Path(span.file)
    with contextlib.suppress(ValueError):
        path = path.resolve().relative_to(Path.cwd())
    return f" ({path}:{span.line}:{span.col})"


def _show(rt: Runtime, value: Any, t: str) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(rt, v, t[5:-1] if t.startswith("list[") else t) for v in value) + "]"
    if isinstance(value, str):
        return repr(value)
    return value_id(rt.g, rt.st["names"], value, t)


def _failing(rt: Runtime, act: ActionDef) -> str | None:
    """The first false conjunct of the action's condition, explained; None if all hold."""
    for span, test, sides in act.conditions:
        text = span_text(span) if span else "the condition"
        try:
            ok = rt.evaluate(test, span)
        except GameRuntimeError as err:
            return f"{text} cannot be evaluated: {err.message}{_where(span)}"
        if ok:
            continue
        if sides is not None and ":" in text:
            # a `cost:` entry (expressions never contain ':'): counter: amount
            (lf, lt), (rf, rtype) = sides
            holds, needs = _show(rt, lf(rt), lt), _show(rt, rf(rt), rtype)
            return f"the cost {text} cannot be paid (it holds {holds}, needs {needs}){_where(span)}"
        detail = ""
        if sides is not None:
            (lf, lt), (rf, rtype) = sides
            detail = f" (left side is {_show(rt, lf(rt), lt)}, right side is {_show(rt, rf(rt), rtype)})"
        return f"{text} is false{detail}{_where(span)}"
    return None


def explain(game: CompiledGame, st: dict[str, Any], name: str) -> str:
    """Why `name` (an action, or an action with arguments `name:a,b`) is not a legal choice now."""
    dec = st["dec"]
    if dec is None:
        return "the game is over"
    ids: list[str] = dec["ids"]
    if name in ids or any(i.split("#")[0] == name for i in ids):
        return f"'{name}' is possible now"
    action, _, arg_text = name.partition(":")
    offered = [i for i in ids if i.startswith(action + ":")]
    if not arg_text and offered:
        return f"'{action}' is possible now: {', '.join(offered)}"
    act = game.actions.get(action)
    who = st["names"][dec["p"]]
    if act is None:
        return f"there is no action '{action}'" + (
            f"; {who} is asked: {dec['prompt']}" if dec["prompt"] else ""
        )
    if dec["k"] != "window" or action not in _window_actions(game, st):
        return f"'{action}' is not offered at this point: {who} is asked \"{dec['prompt']}\""
    rt = Runtime(game, st)
    rt.loc = {"me": dec["p"]}
    combos = _combos(rt, act)
    if act.params and not combos:
        pname = act.params[0][0]
        span = act.param_spans[0] if act.param_spans else None
        source = span_text(span) if span else pname
        return f"'{action}': there is no {pname} to choose ({source} is empty){_where(span)}"
    wanted = [a.strip() for a in arg_text.split(",")] if arg_text else None
    reasons: list[str] = []
    causes: list[str] = []
    for combo in combos:
        labels = [value_id(game, st["names"], v, t) for (_, _, t), v in zip(act.params, combo, strict=True)]
        if wanted is not None and [lbl.split("#")[0] for lbl in labels] != [w.split("#")[0] for w in wanted]:
            continue
        rt.loc = {"me": dec["p"], **{n: v for (n, _, _), v in zip(act.params, combo, strict=True)}}
        reason = _failing(rt, act) or "its condition holds, but the choice is not offered"
        causes.append(reason)
        prefix = (
            f"with {', '.join(f'{n}={lbl}' for (n, _, _), lbl in zip(act.params, labels, strict=True))}: "
            if act.params
            else ""
        )
        reasons.append(prefix + reason)
    if not reasons:
        known = [
            ",".join(value_id(game, st["names"], v, t) for (_, _, t), v in zip(act.params, c, strict=True))
            for c in combos
        ]
        return f"'{action}' cannot take '{arg_text}'; its choices now: {', '.join(known)}"
    if act.params and len(causes) > 1 and len(set(causes)) == 1:
        return f"'{name}' is not possible now: for every {act.params[0][0]}, {causes[0]}"
    shown = reasons[:MAX_CASES] + (
        [f"... and {len(reasons) - MAX_CASES} more"] if len(reasons) > MAX_CASES else []
    )
    return f"'{name}' is not possible now:\n  " + "\n  ".join(shown)


def _window_actions(game: CompiledGame, st: dict[str, Any]) -> set[str]:
    """Actions of the window the current decision belongs to (its step lists them)."""
    fr = st["stk"][-1]
    return {game.action_list[i].name for i in game.window_actions.get((fr[0], fr[1]), [])}


def _combos(rt: Runtime, act: ActionDef) -> list[list[Any]]:
    if not act.params:
        return [[]]
    pools: list[list[Any]] = []
    for _, enum, _ in act.params:
        try:
            pools.append(list(enum(rt)))
        except GameRuntimeError:
            pools.append([])
    return [list(c) for c in itertools.product(*pools)]
