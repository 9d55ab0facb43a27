"""Determinisation: a full game state consistent with what one player may see, for search bots.

A search bot must simulate, and simulating needs a whole state; but the bot may know only its view
(`view.view`). `determinize(game, state, player, gen)` deals the components hidden from `player`
uniformly at random into the places where the view shows a hidden component (-1), keeping every
zone's size. As with physical cards, a hidden component's back is public: its type and its `owner`
property if it has one (a player's own deck of action cards, a deck of building cards), so each
component is dealt only into a place that holds a component with the same back. The permutation is
mapped everywhere a component id can appear: zones, `loc`, vars
whose declared type holds components, the frame stack's locals and loop lists, and the pending
decision's values. Hidden components' marks are reset to their defaults and the generator words are
replaced by fresh ones drawn from `gen` (the true ones would predict future shuffles). Revealed
flags are kept (a revealed component is never hidden).

The true state is taken as input for convenience (the view drops the frame stack), but the result
depends on the view (and the backs) only: for each back, the hidden pool is sorted by id and the
hidden slots are taken in state order, so any two states with the same view and the same `gen`
give the same result (tests/run/test_determinize.py proves it by swapping hidden cards).
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base import rng
from tabula.interpreter.base.types import COMP
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State, clone
from tabula.interpreter.model.view import component_marks, own_answers, visible_to

Mapping = dict[int, int]
Back = tuple[str, Any]


def hidden_components(game: CompiledGame, st: State, player: int) -> list[int]:
    """The ids of the components `player` may not see, sorted."""
    return [c for c in range(len(game.components)) if not visible_to(game, st, c, player)]


def determinize(game: CompiledGame, st: State, player: int, gen: list[int]) -> State:
    """A state with the same view for `player` as `st`, hidden components dealt at random from `gen`.

    The pending decision must be `player`'s (or none): another player's pending choice ids would
    name components hidden from `player`.
    """
    dec = st["dec"]
    if dec is not None and dec["p"] != player:
        raise ValueError(f"the pending decision is player {dec['p']}'s, not player {player}'s")
    hidden = set(hidden_components(game, st, player))
    slots: dict[Back, list[int]] = {}  # back -> the hidden components in its slots, in state order
    for zone in st["z"]:
        for c in zone:
            if c in hidden:
                slots.setdefault(back_of(game, c), []).append(c)
    pi: Mapping = {}
    for back in sorted(slots, key=repr):
        occupants = slots[back]
        dealt = sorted(occupants)
        rng.shuffle(gen, dealt)
        pi.update(zip(occupants, dealt, strict=True))
    out = apply_mapping(game, st, pi, [rng.next_u64(gen) | 1, rng.next_u64(gen) | 1])
    if "sim" in out["t"]:  # the others' unrevealed answers: unknown (only a log line reads them)
        sim = own_answers(out["t"]["sim"], player)
        assert sim is not None
        sim["a"] = [[q, c if q == player else "?"] for q, c in out["t"]["sim"]["a"]]
        out["t"]["sim"] = sim
    return out


def back_of(game: CompiledGame, cid: int) -> Back:
    """What anyone sees of a hidden component: its type and its owner property (None if it has none)."""
    comp = game.components[cid]
    return comp.type, comp.props.get("owner")


def apply_mapping(game: CompiledGame, st: State, pi: Mapping, words: list[int] | None = None) -> State:
    """A copy of `st` where component `c` is replaced by `pi[c]` wherever it appears (a permutation of
    some components); the marks of the moved components are reset to their defaults; with `words`,
    the generator state is replaced."""
    out = clone(st)
    out["z"] = [[pi.get(c, c) for c in zone] for zone in st["z"]]
    loc, rv = out["loc"], out["rv"]
    for old, new in pi.items():
        loc[new] = st["loc"][old]
        rv[new] = st["rv"][old]  # a grant (`reveal ... to`) stays with the place it was shown in
    for name, values in out["m"].items():
        default = game.marks.get(name)
        for c in pi:
            if values[c] != default:
                values[c] = _fresh(default)
    for name, value in st["v"].items():
        layout = game.vars.get(name)
        if layout is not None and COMP in layout.type:
            out["v"][name] = _map_ids(value, pi)
    for name in component_marks(game):  # a mark naming a moved component names its replacement
        out["m"][name] = [_map_ids(v, pi) for v in out["m"][name]]
    out["stk"] = _map_stack(game, st["stk"], pi)
    if st["dec"] is not None:
        out["dec"] = _map_decision(game, st["dec"], pi)
    if words is not None:
        out["rng"] = list(words)
    return out


def _fresh(default: Any) -> Any:
    return list(default) if isinstance(default, list) else default


def _map_ids(v: Any, pi: Mapping) -> Any:
    """Every component id inside a value (ints, nested lists) mapped through `pi`."""
    if isinstance(v, list):
        return [_map_ids(x, pi) for x in v]
    if isinstance(v, int) and not isinstance(v, bool):
        return pi.get(v, v)
    return v


def _map_typed(v: Any, t: str | None, pi: Mapping) -> Any:
    return _map_ids(v, pi) if t is not None and COMP in t else v


def _map_stack(game: CompiledGame, stk: list[list[Any]], pi: Mapping) -> list[list[Any]]:
    """The frame stack with component ids mapped: each frame is `[block, pc, locals]`, its locals
    typed by `game.block_local_types[block]` (a loop's hidden `@itN` local holds its items, typed as
    the list it iterates)."""
    out: list[list[Any]] = []
    for block, pc, local_vars, *rest in stk:
        types = game.block_local_types.get(block, {})
        new_locals = (
            None
            if local_vars is None
            else {name: _map_typed(v, types.get(name), pi) for name, v in local_vars.items()}
        )
        out.append([block, pc, new_locals, *rest])
    return out


def _map_decision(game: CompiledGame, dec: dict[str, Any], pi: Mapping) -> dict[str, Any]:
    """The pending decision with its offered values mapped (ids are the viewer's own, kept)."""
    out = dict(dec)
    if dec.get("k") == "window":
        values = []
        for ai, args in dec["v"]:
            params = game.action_list[ai].params
            values.append([ai, [_map_typed(a, t, pi) for (_, _, t), a in zip(params, args, strict=True)]])
        out["v"] = values
    else:
        t = dec.get("t")
        out["v"] = [_map_typed(v, t, pi) for v in dec["v"]]
    return out
