"""The types a save's values must have: JSON shapes at a path, and the values a game's types can hold.

`saves.py` walks a state with these and reports each problem at its path inside the document
(`state.dec.k: expected a text, got a list`), so that nothing of the wrong type reaches the engine:
a value the rules could never have stored would fail later, far from the save, in Python's words.
And the digest of a state's shape (`layout_digest`) that a save must match to load into a game.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from typing import Any, NamedTuple

from tabula.interpreter.base import limits
from tabula.interpreter.base.types import ANY, BOOL, COMP, INT, NONE, PLAYER, STR, ZONE, type_of_value
from tabula.interpreter.model.game import CompiledGame

_JSON_WORDS: dict[type, str] = {
    bool: "true/false",
    int: "a number",
    float: "a fraction",
    str: "a text",
    list: "a list",
    dict: "an object",
}


def json_word(value: Any) -> str:
    """A JSON value's kind in words: 'a list', 'a text', 'null'."""
    if value is None:
        return "null"
    return _JSON_WORDS.get(type(value), type(value).__name__)


def expected(path: str, what: str, value: Any) -> str:
    """The message for a value of the wrong kind: `state.dec.k: expected a text, got a list`."""
    return f"{path}: expected {what}, got {json_word(value)}"


def is_int(x: Any) -> bool:
    """A JSON integer (true and false are not numbers in a save)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_number_kept(x: Any) -> bool:
    """An integer a game can hold: rules refuse to keep a number of more than MAX_NUMBER_DIGITS digits."""
    return is_int(x) and x.bit_length() <= limits.MAX_NUMBER_BITS


def mark_type(default: Any) -> str:
    """A mark's static type when its game does not give one (`CompiledGame.mark_kinds`): its default's."""
    return ANY if default is None else type_of_value(default)


class Sizes(NamedTuple):
    """What ids of a state may name: players, components and zone instances."""

    players: int
    components: int
    zones: int


def fits(value: Any, kind: str, sizes: Sizes) -> bool:
    """Whether `value` can be held where the static type `kind` (base/types.py) is declared.

    None fits every type (an unset var, an empty pick); `any` and unknown types take any JSON value.
    """
    if value is None or kind in (ANY, NONE):
        return True
    if kind == INT:
        return is_number_kept(value)
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == STR:
        return isinstance(value, str)
    if kind == PLAYER:
        return is_int(value) and 0 <= value < sizes.players
    if kind == COMP:
        return is_int(value) and 0 <= value < sizes.components
    if kind == ZONE:
        return is_int(value) and -1 <= value < sizes.zones
    if kind.startswith("list[") and kind.endswith("]"):
        inner = kind[5:-1]
        return isinstance(value, list) and (inner == ANY or all(fits(x, inner, sizes) for x in value))
    return True


def type_words(kind: str) -> str:
    """A static type in a save's words: 'a component id', 'a list of player seats'."""
    words = {
        INT: "a number",
        BOOL: "true/false",
        STR: "a text",
        PLAYER: "a player's seat",
        COMP: "a component id",
        ZONE: "a zone instance",
    }
    if kind.startswith("list[") and kind.endswith("]"):
        return "a list of " + type_words(kind[5:-1]).split(" ", 1)[1] + "s"
    return words.get(kind, "a value")


def misfit(path: str, value: Any, kind: str, sizes: Sizes) -> str | None:
    """Why `value` at `path` cannot be of static type `kind`, or None when it can."""
    if fits(value, kind, sizes):
        return None
    if kind.startswith("list[") and isinstance(value, list):
        inner = kind[5:-1]
        i, bad = next((i, x) for i, x in enumerate(value) if not fits(x, inner, sizes))
        return misfit(f"{path}.{i}", bad, inner, sizes)
    if is_int(value):
        if kind == INT:
            return f"{path}: a number of more than {limits.MAX_NUMBER_DIGITS} digits"
        if kind in (PLAYER, COMP, ZONE):
            return f"{path}: {value} is not {type_words(kind)} of this game"
    return expected(path, type_words(kind), value)


def _plain_fit(values: list[Any], cls: type) -> bool:
    """Every value None or exactly of class `cls` (true is not a number)."""
    return all(x is None or x.__class__ is cls for x in values)


def first_misfit(path: str, values: list[Any], kind: str, sizes: Sizes) -> str | None:
    """Why one of `values` (at `path.i`) cannot be of static type `kind`, or None when all can.

    The common types are tested in one pass (a save holds thousands of marks): a few ms at most."""
    if kind in (ANY, NONE):
        return None
    if kind == BOOL and _plain_fit(values, bool):
        return None
    if kind == STR and _plain_fit(values, str):
        return None
    if kind == INT and all(x is None or (x.__class__ is int and -_BOUND < x < _BOUND) for x in values):
        return None
    if kind == "list[any]" and _plain_fit(values, list):
        return None
    for i, value in enumerate(values):
        if not fits(value, kind, sizes):
            return misfit(f"{path}.{i}", value, kind, sizes)
    return None


_BOUND = 1 << limits.MAX_NUMBER_BITS  # |x| < _BOUND: x.bit_length() <= MAX_NUMBER_BITS


def grant_ends_fit(ends: Any, ncomp: int, grants: int) -> bool:
    """Is `ru` (the ends of grants given `until` an event) a non-empty list of [event name,
    component id, grant bits]?"""

    def fits(e: Any) -> bool:
        ok = isinstance(e, list) and len(e) == 3 and isinstance(e[0], str)
        return ok and all(type(x) is int for x in e[1:]) and 0 <= e[1] < ncomp and 0 < e[2] < grants

    return isinstance(ends, list) and bool(ends) and all(fits(e) for e in ends)


_digests: dict[int, tuple[weakref.ReferenceType[CompiledGame], str]] = {}


def layout_digest(game: CompiledGame) -> str:
    """A digest of everything a state's shape depends on: a save fits a game iff the digests match.
    Worked out once per game object (about a millisecond, at every save of the web table)."""
    known = _digests.get(id(game))
    if known is not None and known[0]() is game:
        return known[1]
    digest = _layout_digest(game)
    _digests[id(game)] = (weakref.ref(game), digest)
    return digest


def _layout_digest(game: CompiledGame) -> str:
    layout = {
        "components": [c.key for c in game.components],
        "zones": [[z.name, owner] for z, owner in game.zone_instances()],
        "counters": sorted([c.name, c.base, c.width, c.per_player] for c in game.counters.values()),
        "vars": sorted([v.name, v.per_player] for v in game.vars.values()),
        "marks": sorted(game.marks),
        "options": sorted(game.options),
        "actions": [[a.name, len(a.params)] for a in game.action_list],
        "players": [game.min_players, game.max_players],
    }
    return hashlib.sha256(json.dumps(layout, sort_keys=True).encode()).hexdigest()[:16]
