"""Seat states: full game states that hold only what one seat may know, to evaluate display text.

Screens show values computed by DSL expressions (a summary line, the parts of a score, an action's
label, a "why not?" answer). Evaluated on the true state, such an expression could reveal a hidden
component (the sum of the values in a hidden pile). So screens evaluate them on *seat states*
instead: copies of the state in which every component the seat may not see is replaced by a stand-in
chosen by a fixed rule, the same whatever the hidden truth is.

The stand-ins: the components hidden from the seat, sorted by id, fill the hidden places of the zones
in zone order (`fill=0`), or in that order turned by one (`fill=1`: the second first, the first
last), so that every hidden place holds a different stand-in in the two fillings (in the reverse
order, the middle one of an odd number kept its stand-in and read as known). A var holding a
hidden component holds the first stand-in of its filling; marks of hidden components hold their
defaults; counters and vars the seat may not see (`visibility:`) hold stand-ins that differ between
the fillings; a zone whose size the seat may not know (`size_visibility:`) holds its visible
components only, and one stand-in more on the second filling, so its count is never `known`; the
generator is a fixed one. Everything else (visible components, public counters, turn data, names,
options) is the true state, which the seat's view shows anyway. So a seat state is a function of
the seat's view alone and cannot leak. An expression that gives the same value on both fillings
does not depend on the hidden components (`known`); one that does not is shown as unknown.

The frame stack is kept unchanged (explanations read where the pending decision is; no expression
can read its locals), and the pending decision is kept only for the seat that makes it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from tabula.interpreter.base import rng
from tabula.interpreter.base.types import COMP
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.view import (
    component_marks,
    secret_counters,
    secret_sizes,
    seen_by,
    size_seen,
    unseen_owners,
    visible_to,
)

State = dict[str, Any]
FIXED_SEED = 0


def hidden_from(game: CompiledGame, st: State, viewer: int) -> list[int]:
    """The components `viewer` may not see, by id."""
    return [c for c in range(len(game.components)) if not visible_to(game, st, c, viewer)]


def seat_state(game: CompiledGame, st: State, viewer: int, fill: int = 0) -> State:
    """A copy of `st` with every component hidden from `viewer` replaced by a stand-in (see above)."""
    hidden = hidden_from(game, st, viewer)
    if not hidden:
        out = copy.deepcopy(st)
        _keep_own_decision(out, viewer)
        _stand_in_secrets(game, out, viewer, fill)
        return out
    secret = set(hidden)
    order = hidden if fill == 0 else hidden[1:] + hidden[:1]
    stand_in = iter(order)
    loc = [-1 if c in secret else where for c, where in enumerate(st["loc"])]
    zones: list[list[int]] = []
    blind = _size_blind(game, viewer)
    for index, zone in enumerate(st["z"]):
        if index in blind:  # a secret size: its hidden components left out, one stand-in more on fill 1
            zones.append([c for c in zone if c not in secret] + order[:fill])
            continue
        placed: list[int] = []
        for c in zone:
            if c in secret:
                c = next(stand_in)
                loc[c] = index
            placed.append(c)
        zones.append(placed)
    out = copy.deepcopy({k: v for k, v in st.items() if k not in ("z", "loc", "m", "v")})
    out["z"], out["loc"] = zones, loc
    out["m"] = {
        name: [
            copy.deepcopy(game.marks[name]) if c in secret else copy.deepcopy(v) for c, v in enumerate(vals)
        ]
        for name, vals in st["m"].items()
    }
    ncomp = len(game.components)
    for name in component_marks(game):  # a mark naming a hidden component names its stand-in
        out["m"][name] = [_replace(v, secret, order[0], ncomp) for v in out["m"][name]]
    out["v"] = _vars(game, st["v"], secret, order[0])
    out["rng"] = rng.seed_state(FIXED_SEED)
    _keep_own_decision(out, viewer)
    _stand_in_secrets(game, out, viewer, fill)
    return out


def _size_blind(game: CompiledGame, viewer: int) -> set[int]:
    """The zone instances whose size `viewer` may not know."""
    if not secret_sizes(game):
        return set()
    return {i for i in range(len(game.zone_layouts)) if not size_seen(game, i, viewer)}


def _stand_in_secrets(game: CompiledGame, st: State, viewer: int, fill: int) -> None:
    """Counters and vars the viewer may not see hold stand-ins, in place: a counter 0 on the first
    filling and 1 on the second, a var its initial value (a number: one more
    on the second), so an expression that reads them is not `known`."""
    # who sees what is decided on the state as it is, before any value is replaced (a `visible_to:`
    # expression reads the state)
    blind = [i for i, vis, owner in secret_counters(game) if not seen_by(game, st, vis, owner, viewer)]
    hidden = [var for var in game.vars.values() if var.visibility != "public"]
    unseen = {var.name: unseen_owners(game, st, var, viewer) for var in hidden}
    for i in blind:
        st["c"][i] = fill
    for var in hidden:
        stand_in = (
            var.initial + fill
            if isinstance(var.initial, int) and not isinstance(var.initial, bool)
            else var.initial
        )
        value = st["v"].get(var.name)
        if var.per_player and isinstance(value, list):
            st["v"][var.name] = [
                copy.deepcopy(stand_in) if unseen[var.name][q] else v for q, v in enumerate(value)
            ]
        elif unseen[var.name][-1]:
            st["v"][var.name] = copy.deepcopy(stand_in)


def seat_states(game: CompiledGame, st: State, viewer: int) -> tuple[State, State]:
    """Both fillings of `viewer`'s seat state."""
    return seat_state(game, st, viewer, 0), seat_state(game, st, viewer, 1)


def known(states: Sequence[State], compute: Callable[[State], Any]) -> tuple[bool, Any]:
    """(True, value) when `compute` gives the same value on every state, else (False, None)."""
    values = [compute(s) for s in states]
    if all(v == values[0] for v in values[1:]):
        return True, values[0]
    return False, None


def _vars(game: CompiledGame, values: dict[str, Any], secret: set[int], stand_in: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in values.items():
        layout = game.vars.get(name)
        if layout is not None and COMP in layout.type:
            out[name] = _replace(value, secret, stand_in, len(game.components))
        else:
            out[name] = copy.deepcopy(value)
    return out


def _replace(value: Any, secret: set[int], stand_in: int, ncomp: int) -> Any:
    if isinstance(value, list):
        return [_replace(v, secret, stand_in, ncomp) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and value in secret:
        return stand_in
    return value


def _keep_own_decision(st: State, viewer: int) -> None:
    dec = st.get("dec")
    if dec is not None and dec.get("p") != viewer:
        st["dec"] = {"k": dec.get("k"), "p": dec.get("p"), "ids": [], "v": [], "prompt": ""}
