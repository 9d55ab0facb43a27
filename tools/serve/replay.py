"""Replaying a table's choices with (possibly new) rules, and saying where and how the game moved.

`replay` applies the recorded choices one by one and compares each new position with the recorded
one by its semantic hash (the state without the frame stack, as the trace files do): the first
choice that is no longer legal or fails stops the replay there, the first different position is
where the rules changed the game. `differences` names what differs at that point, read from one
seat's views only (counters, vars, zone contents by name), so a report can be shown to any seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabula.common import runtime_error_text
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import HIDDEN
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice
from tabula.serve.export import counter_refs

if TYPE_CHECKING:
    from tabula.serve.table import Table

MAX_DIFFERENCES = 6


@dataclass
class Replayed:
    failed_at: int | None = None
    failed_choice: str = ""
    reason: str = ""
    diverged_at: int | None = None  # the first position (0 = after setup) that differs


def replay(table: Table, choices: list[str], hashes: list[str]) -> Replayed:
    """Apply `choices` on the table's fresh start, comparing positions with `hashes`."""
    out = Replayed()
    if hashes and table.hashes[0] != hashes[0]:
        out.diverged_at = 0
    for i, choice in enumerate(choices):
        if table.over:
            return Replayed(i, choice, "the game is already over at this point", out.diverged_at)
        try:
            table.record(choice)
        except IllegalChoice as err:
            return Replayed(i, choice, f"not legal any more: {err.reason}", out.diverged_at)
        except GameRuntimeError as err:
            table.back_to_last()
            return Replayed(i, choice, runtime_error_text(err), out.diverged_at)
        if out.diverged_at is None and i + 1 < len(hashes) and table.hashes[i + 1] != hashes[i + 1]:
            out.diverged_at = i + 1
    return out


def differences(old: Engine, old_state: State, new: Engine, new_state: State, seat: int) -> list[str]:
    """What differs between two positions as `seat` sees them: `money(Red): 12 -> 14`, ..."""
    a, b = _facts(old, old_state, seat), _facts(new, new_state, seat)
    out = []
    for key in [*a, *(k for k in b if k not in a)]:
        if a.get(key) != b.get(key):
            out.append(
                f"{key}: {a.get(key, '(not in the old rules)')} -> {b.get(key, '(not in the new rules)')}"
            )
    if len(out) > MAX_DIFFERENCES:
        out = [*out[:MAX_DIFFERENCES], f"... and {len(out) - MAX_DIFFERENCES} more"]
    return out


def _facts(engine: Engine, st: State, seat: int) -> dict[str, str]:
    """Counters, vars, zones and the pending decision of a position by name, from `seat`'s view."""
    g = engine.game
    view: dict[str, Any] = engine.view(st, seat)
    names: list[str] = view["names"]
    facts: dict[str, str] = {}
    facts.update({ref: str(view["c"][i]) for ref, i in counter_refs(g, names)})
    for name, var in g.vars.items():
        value = view["v"].get(name)
        if var.per_player and isinstance(value, list):
            for p, v in enumerate(value[: len(names)]):
                facts[f"{name}({names[p]})"] = repr(v)
        else:
            facts[name] = repr(value)
    for index, (layout, owner) in enumerate(g.zone_instances()):
        if owner is not None and owner >= len(names):
            continue
        key = f"{layout.name}({names[owner]})" if owner is not None else layout.name
        facts[key] = ", ".join("?" if c == HIDDEN else g.components[c].name for c in view["z"][index]) or "-"
    dec = view["dec"]
    facts["deciding"] = "nobody (game over)" if dec is None else names[dec["p"]]
    return facts
