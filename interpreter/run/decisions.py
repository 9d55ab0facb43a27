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
from tabula.interpreter.run.runtime import Runtime


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
