"""The pending decision computed again from a state (stage: run).

A state keeps the question it waits on (`st["dec"]`), and its top frame waits at one of the game's
decision points. Running that point again on a copy poses the same question: saves are checked with
it (saves.py), the engine offers it as `Engine.recompute_decision`, and benchmarks time it as one
legal-choice enumeration.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State, clone
from tabula.interpreter.run.runtime import IllegalChoice, Runtime


class _Probe(Runtime):
    """A runtime that re-poses a pending decision: the end checks before it were tested already."""

    __slots__ = ()
    probing = True

    def fire_end_checks(self) -> bool:
        return False


def recompute_decision(game: CompiledGame, st: State) -> dict[str, Any] | None:
    """The decision the state's frames pose, computed again from the rest of the state (the state is
    not changed): equal to `st["dec"]` for any state the engine made; None when nothing is pending."""
    stk = st.get("stk") or []
    if st.get("dec") is None or not stk:
        return None
    fr = stk[-1]
    here = game.decision_points.get((fr[0], fr[1]))
    if here is None:
        return None
    probe = clone(st)
    probe["dec"] = None
    top = probe["stk"][-1]
    top[1] = here
    rt = _Probe(game, probe)
    game.blocks[top[0]](rt, top)
    dec: dict[str, Any] | None = probe["dec"]
    return dec


def match_name(game: CompiledGame, dec: dict[str, Any], choice: str) -> int:
    """The index of the choice an id names without its '#' key (or with it dropped); IllegalChoice
    with what is legal now otherwise."""
    ids: list[str] = dec["ids"]
    for i, x in enumerate(ids):
        if x.split("#")[0] == choice or x.replace("#", "") == choice:
            return i
    reason = f"legal now: {', '.join(ids[:12])}{' ...' if len(ids) > 12 else ''}"
    if dec["k"] == "window":
        action = choice.split(":")[0]
        if action in game.actions:
            reason = f"'{action}' is not possible now with these arguments; " + reason
    raise IllegalChoice(choice, reason)


def hidden_from(game: CompiledGame, st: State, dec: dict[str, Any], value: Any) -> list[int]:
    """Players who may not see which components were chosen (so the log line is masked for them)."""
    from tabula.interpreter.base.types import COMP
    from tabula.interpreter.model.view import visible_to

    if dec["k"] == "choose":
        typed = [(value, dec.get("t", ""))]
    else:
        act = game.action_list[value[0]]
        typed = [(v, t) for (_, _, t), v in zip(act.params, value[1], strict=True)]
    comps = [v for v, t in typed if t == COMP and isinstance(v, int)]
    seats = range(st["t"]["n"])
    return [q for q in seats if q != dec["p"] and any(not visible_to(game, st, c, q) for c in comps)]
