"""Determinisation: a full game state consistent with what one player may see, for search bots.

A search bot must simulate, and simulating needs a whole state; but the bot may know only its view
(`view.view`). `determinize(game, state, player, gen)` deals the components hidden from `player`
uniformly at random into the places where the view shows a hidden component (-1), keeping every
zone's size that `player` may know (a secret size, `size_visibility`, is drawn:
`spread_secret_sizes`). As with physical cards, a hidden component's back is public: its type and
its `owner` property if it has one (a player's own deck of action cards, a deck of building cards), so each
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

from collections.abc import Callable, Iterator
from typing import Any

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, Report
from tabula.interpreter.base.types import COMP, PLAYER
from tabula.interpreter.dsl.parser import PlainOrigin
from tabula.interpreter.model.game import CompiledGame, CounterLayout
from tabula.interpreter.model.state import State, clone
from tabula.interpreter.model.view import (
    component_marks,
    own_answers,
    secret_counters,
    secret_sizes,
    seen_by,
    shown_to,
    size_seen,
    unseen_owners,
)
from tabula.interpreter.run.runtime import Runtime

Mapping = dict[int, int]
Back = tuple[str, Any]
# may this hidden component be dealt into this place (zone instance, position)? What everyone saw
# of it (a clue given aloud) can rule components out: `bots: deal:` in a game (tabula.bots.base)
Fits = Callable[[int, int, int], bool | None]


def hidden_components(game: CompiledGame, st: State, player: int) -> list[int]:
    """The ids of the components `player` may not see, sorted: `visible_to` of every component,
    asked once per zone instance (a search bot asks it at every determinisation)."""
    return sorted(c for _, _, c in _hidden_places(game, st, player))


def _hidden_places(game: CompiledGame, st: State, player: int) -> Iterator[tuple[int, int, int]]:
    """(zone instance, position, component) of every component `player` may not see, in state
    order: those in zone instances `player` does not see and not revealed to them (components out
    of play are seen by everyone)."""
    grants = st["rv"]
    for zi, zone in enumerate(st["z"]):
        if zone and not seen_by(game, st, game.zone_layouts[zi].visibility, game.zone_owner[zi], player):
            for pos, c in enumerate(zone):
                if not (grants[c] == 1 or shown_to(grants[c], player)):
                    yield zi, pos, c


def determinize(
    game: CompiledGame, st: State, player: int, gen: list[int], fits: Fits | None = None
) -> State:
    """A state with the same view for `player` as `st`, hidden components dealt at random from `gen`.

    The pending decision must be `player`'s (or none): another player's pending choice ids would
    name components hidden from `player`. With `fits`, a place is dealt a component that fits it
    where one is left (`fits` returns None for a place it does not constrain).
    """
    if secret_sizes(game):  # first: the deal's places are where the spread put the hidden components
        st = spread_secret_sizes(game, st, player, set(hidden_components(game, st, player)), gen)
    plan = deal_plan(game, st, player)
    pi = draw_mapping(plan, gen, fits)
    out = apply_mapping(game, st, pi, [rng.next_u64(gen) | 1, rng.next_u64(gen) | 1])
    if "sim" in out["t"]:  # the others' unrevealed answers: unknown (only a log line reads them)
        sim = own_answers(out["t"]["sim"], player)
        assert sim is not None
        sim["a"] = [[q, c if q == player else "?"] for q, c in out["t"]["sim"]["a"]]
        out["t"]["sim"] = sim
    guess_secrets(game, out, player)
    return out


DealPlan = list[tuple[list[int], list[tuple[int, int]]]]


def deal_plan(game: CompiledGame, st: State, player: int) -> DealPlan:
    """Per back (in a fixed order), the hidden components in its places in state order and those
    places (zone instance, position): what every determinisation of `st` for `player` deals into.
    The pending decision must be `player`'s (or none). A game with secret zone sizes spreads the
    hidden components first, differently in each world (`determinize`), so it has no one plan."""
    dec = st["dec"]
    if dec is not None and dec["p"] != player:
        raise ValueError(f"the pending decision is player {dec['p']}'s, not player {player}'s")
    slots: dict[Back, list[int]] = {}  # back -> the hidden components in its slots, in state order
    places: dict[int, tuple[int, int]] = {}  # hidden component -> (zone instance, position)
    for zi, pos, c in _hidden_places(game, st, player):
        slots.setdefault(back_of(game, c), []).append(c)
        places[c] = (zi, pos)
    return [(slots[b], [places[c] for c in slots[b]]) for b in sorted(slots, key=repr)]


def draw_mapping(plan: DealPlan, gen: list[int], fits: Fits | None = None) -> Mapping:
    """One deal of `plan`, drawn from `gen`: each hidden component -> the one dealt into its place."""
    pi: Mapping = {}
    for occupants, where in plan:
        dealt = sorted(occupants)
        rng.shuffle(gen, dealt)
        if fits is None:
            pi.update(zip(occupants, dealt, strict=True))
        else:
            pi.update(_deal_fitting(occupants, dealt, where, fits))
    return pi


def spread_secret_sizes(
    game: CompiledGame, st: State, player: int, hidden: set[int], gen: list[int]
) -> State:
    """`st`, or a copy where the hidden components of the zone instances whose size `player` may not
    know (`size_visibility`) are spread at random among the instances of the same zone that `player`
    may not size (each at the bottom of one drawn uniformly; the visible ones stay where they are):
    the bot does not play on the true counts. What it keeps is how many such components the zone
    holds in all (docs/language.md, section 7, says so)."""
    if not secret_sizes(game):
        return st
    groups: dict[str, list[int]] = {}
    n = st["t"]["n"]
    for zi, layout in enumerate(game.zone_layouts):
        owner = game.zone_owner[zi]
        if (owner is None or owner < n) and not size_seen(game, zi, player):  # seats in play only
            groups.setdefault(layout.name, []).append(zi)
    if not groups:
        return st
    out = clone(st)
    for instances in groups.values():
        pool = sorted(c for zi in instances for c in st["z"][zi] if c in hidden)
        for zi in instances:
            out["z"][zi] = [c for c in st["z"][zi] if c not in hidden]
        for c in pool:
            zi = instances[rng.next_u64(gen) % len(instances)]
            out["z"][zi].append(c)
            out["loc"][c] = zi
    return out


def guess_secrets(game: CompiledGame, st: State, player: int) -> None:
    """Every counter and var value `player` may not see replaced, in place, by its `guess:` (owner
    bound), else its initial value: a number cannot be dealt as a card is, so a bot plays on a guess
    that depends on what it sees only (docs/language.md, section 7)."""
    secret = secret_counters(game)
    hidden_vars = [v for v in game.vars.values() if v.visibility != "public"]
    if not secret and not hidden_vars:
        return
    rt = Runtime(game, st)
    # who sees what is decided on the state as it is, before any value is replaced (a `visible_to:`
    # expression reads the state)
    blind = [(i, owner) for i, vis, owner in secret if not seen_by(game, st, vis, owner, player)]
    unseen = {var.name: unseen_owners(game, st, var, player) for var in hidden_vars}
    for i, owner in blind:
        layout = _counter_at(game, i)
        st["c"][i] = _guess(game, rt, layout.name, owner, _initial(layout, i, owner))
    for var in hidden_vars:
        value = st["v"].get(var.name)
        if var.per_player and isinstance(value, list):
            st["v"][var.name] = [
                _guess(game, rt, var.name, q, var.initial) if unseen[var.name][q] else v
                for q, v in enumerate(value)
            ]
        elif unseen[var.name][-1]:
            st["v"][var.name] = _guess(game, rt, var.name, None, var.initial)


def _counter_at(game: CompiledGame, i: int) -> CounterLayout:
    return next(
        c
        for c in game.counters.values()
        if c.base <= i < c.base + c.width * (game.max_players if c.per_player else 1)
    )


def _initial(layout: CounterLayout, i: int, owner: int | None) -> int:
    if isinstance(layout.initial, dict):
        key = layout.keys[(i - layout.base) % layout.width]
        return int(layout.initial.get(key, 0))
    return int(layout.initial)


_GUESSES: dict[int, tuple[CompiledGame, dict[str, Any]]] = {}  # id(game) -> (game, compiled guesses)


def _guess(game: CompiledGame, rt: Runtime, name: str, owner: int | None, initial: Any) -> Any:
    """The value of `name`'s guess for `owner`, or `initial` without one."""
    if id(game) not in _GUESSES:
        report = Report()
        compiled = {}
        for key, (text, origin) in game.guesses.items():
            where = origin or PlainOrigin(f"{game.folder}/{key}.guess")
            compiled[key] = game.snippets.expr(str(text), where, report, {"owner": PLAYER})
        if report.has_errors:
            raise AuthorError(report)
        _GUESSES[id(game)] = (game, compiled)
    f = _GUESSES[id(game)][1].get(name)
    if f is None:
        return _fresh(initial)
    rt.loc = {"owner": owner}
    return rt.evaluate(f, None)


def _deal_fitting(
    occupants: list[int], dealt: list[int], where: list[tuple[int, int]], fits: Fits
) -> Mapping:
    """Each occupant's place dealt a component of `dealt` (already shuffled): the most constrained
    places first, each the first free component that fits it, else the first free one (a greedy
    deal: it may miss an assignment where every place fits, and then deals as best it can)."""
    options: list[list[int] | None] = []
    for zi, pos in where:
        if fits(dealt[0], zi, pos) is None:  # a place `fits` does not constrain
            options.append(None)
        else:
            options.append([d for d in dealt if fits(d, zi, pos)])
    order = sorted(
        range(len(occupants)), key=lambda k: len(opts) if (opts := options[k]) is not None else len(dealt) + 1
    )
    free = dict.fromkeys(dealt)  # insertion-ordered: the shuffled order
    out: Mapping = {}
    for k in order:
        pick = next((d for d in options[k] or () if d in free), None)
        if pick is None:
            pick = next(iter(free))
        del free[pick]
        out[occupants[k]] = pick
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
    if "ru" in st:  # a grant's end stays with the grant (with the place it was shown in)
        out["ru"] = [[ev, pi.get(cid, cid), bits] for ev, cid, bits in st["ru"]]
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
