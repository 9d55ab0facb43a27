"""Stable ids for choices: how a value offered to a player is named in the API, logs and scenarios.

A component is named by its name (`C6`), or by its unique key (`Road#2`) when several offered
components share a name; a player by their name; numbers and symbols by their text; `none` for an
optional choice not taken. Window actions are `action` or `action:arg1,arg2`.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.types import COMP, PLAYER, elem
from tabula.interpreter.model.game import CompiledGame


def value_id(game: CompiledGame, names: list[str], v: Any, t: str, dup_names: set[str] | None = None) -> str:
    """The id of one value of static type `t`."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if t == COMP:
            comp = game.components[v]
            return comp.key if dup_names and comp.name in dup_names else comp.name
        if t == PLAYER and 0 <= v < len(names):
            return names[v]
        return str(v)
    if isinstance(v, list):
        return "+".join(value_id(game, names, x, elem(t), dup_names) for x in v)
    return str(v)


def option_ids(game: CompiledGame, names: list[str], values: list[Any], t: str) -> list[str]:
    """Ids for a list of offered values: unique, stable, readable."""
    if len(values) == 1:  # the common case of a single value, as the general one names it
        v = values[0]
        if t == COMP:
            if v is not None:
                return [game.component_names[v]]
        elif v.__class__ is str:
            return [v]
    if t == COMP and None not in values:
        names_ = list(map(game.component_names.__getitem__, values))
        unique = len(set(names_))
        if unique == len(values) or unique == len(set(values)):
            return names_
        # a name offered for two components: both read as their keys (Road#1, Road#2)
        dup = _repeated_names(game, values)
        comps = game.components
        return [comps[v].key if nm in dup else nm for v, nm in zip(values, names_)]  # noqa: B905
    if t != COMP and set(map(type, values)) == {str}:  # symbols and texts are their own ids
        return list(values)
    dup_names = _repeated_names(game, values) if t == COMP else None
    return [value_id(game, names, v, t, dup_names) for v in values]


def _repeated_names(game: CompiledGame, values: list[Any]) -> set[str]:
    """The names that two different components among `values` share (none is skipped)."""
    first: dict[str, int] = {}
    dup: set[str] = set()
    for v in values:
        if v is None:
            continue
        nm = game.components[v].name
        if first.setdefault(nm, v) != v:
            dup.add(nm)
    return dup
