"""Simultaneous decisions: `simultaneous q in L:` asks each player of L the body's `choose ... by q`.

Stage: run. Tabula runs them as sequential decisions with hidden answers (docs/ARCHITECTURE.md,
"Simultaneous decisions"): the players are asked one after the other in the order of L, on the
same state as far as they can tell, and each answer stays hidden from the others until the last
one is in. While the step is open the state holds `t["sim"]`: `w`, the seats still to answer (the
one asked now first; a player leaves it when the next one's questions begin), `a`, the answers
given so far as `[seat, choice id]`, and `e` (only when
there are any) the answers given ahead of being asked (`Engine.answer`); views, seat states
and determinisations keep only the viewer's own answers (`model/view.py` `own_answers`). A game
that never uses the statement never has the key, so its states, saves and traces are unchanged.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.run.pyerrors import typed
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime
from tabula.interpreter.run.savetypes import is_int


def sim_open(rt: Runtime, items: Any) -> list[Any]:
    """The step starts: every item must be a distinct player of the game (R008); the list to loop over."""
    seats = list(items)
    n = rt.st["t"]["n"]
    for q in seats:
        if q.__class__ is not int or not 0 <= q < n:
            raise GameRuntimeError(
                f"'simultaneous q in L' needs a list of players of the game, got {typed(q)}", None, "R008"
            )
    if len(set(seats)) != len(seats):
        raise GameRuntimeError("'simultaneous q in L' names a player twice: each answers once", None, "R008")
    if seats:
        rt.st["t"]["sim"] = {"w": seats, "a": []}
    return seats


def sim_turn(rt: Runtime, seat: int) -> None:
    """`seat`'s questions come now: the players before them are done (no longer waited for)."""
    sim = rt.st["t"]["sim"]
    w = sim["w"]
    if w and w[0] != seat and seat in w:
        rt.st["t"]["sim"] = {**sim, "w": w[w.index(seat) :]}


def record_answer(st: dict[str, Any], seat: int, cid: str) -> bool:
    """Note `seat`'s answer `cid` when a simultaneous step waits for it (the dict is replaced, never
    changed in place: a clone shares it). True when the answer belongs to such a step."""
    sim = st["t"].get("sim")
    if sim is None or seat not in sim["w"]:
        return False
    st["t"]["sim"] = {**sim, "a": [*sim["a"], [seat, cid]]}
    return True


def early_answer(st: dict[str, Any], seat: int, cid: str) -> None:
    """`seat` answered before being asked (`Engine.answer`): kept in `e`, hidden like the others,
    until the step asks them."""
    sim = st["t"]["sim"]
    kept = [x for x in sim.get("e", []) if x[0] != seat]
    st["t"]["sim"] = {**sim, "e": [*kept, [seat, cid]]}


def take_early(st: dict[str, Any], seat: int) -> str | None:
    """The answer `seat` gave ahead of being asked, removed from the state (None if none)."""
    sim = st["t"].get("sim")
    if sim is None:
        return None
    for q, cid in sim.get("e", []):
        if q == seat:
            rest = [x for x in sim["e"] if x[0] != seat]
            st["t"]["sim"] = {k: v for k, v in sim.items() if k != "e"} | ({"e": rest} if rest else {})
            return str(cid)
    return None


def sim_close(rt: Runtime) -> None:
    """The step ends (every player answered): the answers are revealed together, in one log line."""
    sim = rt.st["t"].pop("sim", None)
    if sim is None or not sim["a"]:
        return
    names = rt.st["names"]
    shown = ", ".join(f"{names[q]}: {cid.split('#')[0]}" for q, cid in sim["a"])
    rt.say(f"revealed together - {shown}")


def valid_open_step(sim: dict[str, Any], n: int) -> bool:
    """(Saves) an open simultaneous step: seats still to answer (none twice), [seat, choice id]
    answers, and answers given ahead by seats still to answer."""
    if not {"w", "a"} <= set(sim) <= {"w", "a", "e"}:
        return False
    if (
        not isinstance(sim["w"], list)
        or not isinstance(sim["a"], list)
        or not isinstance(sim.get("e", []), list)
    ):
        return False
    answers = [x for x in sim["a"] if isinstance(x, list) and len(x) == 2 and isinstance(x[1], str)]
    early = [x for x in sim.get("e", []) if isinstance(x, list) and len(x) == 2 and isinstance(x[1], str)]
    seats = [*sim["w"], *(x[0] for x in answers)]
    return (
        len(answers) == len(sim["a"])
        and len(early) == len(sim.get("e", []))
        and all(is_int(q) and 0 <= q < n for q in seats)
        and len(set(sim["w"])) == len(sim["w"])
        and all(x[0] in sim["w"] for x in early)
    )
