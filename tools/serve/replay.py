"""Replaying a table's choices with (possibly new) rules, and saying where and how the game moved.

`replay` applies the recorded choices one by one to a fresh start and compares each new position
with the recorded one by its semantic hash (the state without the frame stack, as the trace files
do): the first choice that is no longer legal or fails stops the replay there, the first different
position is where the rules changed the game. `describe` says so in words. `differences` names what
differs at that point, read from one seat's views only (counters, vars, zone contents by name), so a
report can be shown to any seat. `play` is one step of a game with its record, for the table too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabula.common import runtime_error_text
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State, semantic_hash
from tabula.interpreter.model.view import HIDDEN, zone_members
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice
from tabula.interpreter.run.simultaneous import take_early
from tabula.play.choicelog import apply_named
from tabula.serve.export import counter_refs
from tabula.serve.model import Report

MAX_DIFFERENCES = 6


@dataclass(frozen=True)
class Step:
    """One choice made and what a table keeps of it: who made it, the position after it (a copy),
    the length of the log then, and the position's semantic hash."""

    choice: str
    decider: int
    state: State
    log_size: int
    hash: str


def play(engine: Engine, state: State, log: list[dict[str, Any]], choice: str) -> Step:
    """Apply one choice to `state` in place (raises IllegalChoice, or GameRuntimeError half-way):
    the decider's, then the answers given ahead that are due then; or, written `@seat:choice`
    (`ahead_choice`), a seat's answer to an open simultaneous step before its turn, kept hidden."""
    early = parse_ahead(choice)
    if early is not None:
        engine.answer(state, early[0], early[1], log)
        return Step(choice, early[0], engine.clone(state), len(log), semantic_hash(state))
    seat = engine.current_player(state)
    assert seat is not None
    apply_named(engine, state, choice, log)
    while (dec := (plain := engine.plain(state))["dec"]) is not None and (
        cid := take_early(plain, dec["p"])
    ) is not None:
        apply_named(engine, state, cid, log)
    return Step(choice, seat, engine.clone(state), len(log), semantic_hash(state))


def ahead_choice(seat: int, choice: str) -> str:
    """How a table records `seat`'s answer given ahead of its turn (a choice id never starts with @)."""
    return f"@{seat}:{choice}"


def parse_ahead(choice: str) -> tuple[int, str] | None:
    """(seat, choice) of a recorded answer given ahead (`ahead_choice`), else None."""
    seat, sep, rest = choice[1:].partition(":")
    if not choice.startswith("@") or not sep or not seat.isdigit():
        return None
    return int(seat), rest


@dataclass
class Replayed:
    failed_at: int | None = None
    failed_choice: str = ""
    reason: str = ""
    diverged_at: int | None = None  # the first position (0 = after setup) that differs
    broke: bool = False  # the failed choice's rules raised half-way: the position before it holds
    steps: list[Step] = field(default_factory=list)  # the choices that were made


def replay(
    engine: Engine, state: State, log: list[dict[str, Any]], choices: list[str], hashes: list[str]
) -> Replayed:
    """Apply `choices` to `state`, a fresh start, comparing positions with `hashes`."""
    out = Replayed()
    if hashes and semantic_hash(state) != hashes[0]:
        out.diverged_at = 0
    for i, choice in enumerate(choices):
        if engine.is_terminal(state):
            return _stopped(out, i, choice, "the game is already over at this point")
        try:
            step = play(engine, state, log, choice)
        except IllegalChoice as err:
            return _stopped(out, i, choice, f"not legal any more: {err.reason}")
        except GameRuntimeError as err:
            out.broke = True
            return _stopped(out, i, choice, runtime_error_text(err))
        out.steps.append(step)
        if out.diverged_at is None and i + 1 < len(hashes) and step.hash != hashes[i + 1]:
            out.diverged_at = i + 1
    return out


def _stopped(out: Replayed, at: int, choice: str, reason: str) -> Replayed:
    out.failed_at, out.failed_choice, out.reason = at, choice, reason
    return out


def describe(result: Replayed, verb: str, total: int) -> Report:
    """The report of a replay, in words."""
    if result.failed_at is not None:
        return Report(
            "failed",
            f"rules {verb}: the replay stopped at decision {result.failed_at + 1} of {total}"
            f" ('{result.failed_choice}'); the game goes on from there",
            result.reason,
            result.failed_at,
        )
    if result.diverged_at is not None:
        return Report(
            "diverged",
            f"rules {verb}: all {total} decisions replayed, but the positions differ from decision"
            f" {result.diverged_at} on",
            result.reason,
            result.diverged_at,
        )
    return Report(verb, f"rules {verb}: all {total} decisions replayed, every position the same")


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
    facts.update(
        {ref: "?" if view["c"][i] is None else str(view["c"][i]) for ref, i in counter_refs(g, names)}
    )
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
        ids, size = zone_members(view, index)
        shown = ", ".join("?" if c == HIDDEN else g.components[c].name for c in ids) or "-"
        facts[key] = shown if size is not None else f"{shown} (how many: ?)"
    dec = view["dec"]
    facts["deciding"] = "nobody (game over)" if dec is None else names[dec["p"]]
    return facts
