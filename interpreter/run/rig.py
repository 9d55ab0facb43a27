"""Rigged shuffles: the order a zone takes at its next shuffle, fixed in advance as plain data.

A scenario that must not depend on a hunted seed writes `state["rig"]`: zone instance (as text, a
JSON key) -> one entry per top position, each entry the ids of the components that may stand
there (the copies of one name, or one exact copy). The `shuffle` statement consults it: the first
listed component present takes each top position in turn, the rest of the zone is shuffled below
them with the game's generator, and the zone's entry is used up. Player views never show `rig`
(it tells the future order of a hidden zone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabula.interpreter.base import rng
from tabula.interpreter.run.runtime import GameRuntimeError

if TYPE_CHECKING:
    from tabula.interpreter.model.game import CompiledGame

RIG = "rig"


def shuffle(game: CompiledGame, st: dict[str, Any], zone: int) -> None:
    """Shuffle zone instance `zone`, following (and using up) a rigged order for it."""
    rigs: dict[str, list[list[int]]] = st[RIG]
    order = rigs.pop(str(zone), None)
    if not rigs:
        del st[RIG]
    items: list[int] = st["z"][zone]
    if order is None:
        rng.shuffle(st["rng"], items)
        return
    rest = list(items)
    top: list[int] = []
    for candidates in order:
        pick = next((c for c in candidates if c in rest), None)
        if pick is None:
            name = game.components[candidates[0]].name if candidates else "?"
            raise GameRuntimeError(
                f"the order fixed for this zone's next shuffle starts with {name} at position "
                f"{len(top) + 1}, but no such component is left in the zone when it is shuffled",
                None,
                "R112",
            )
        rest.remove(pick)
        top.append(pick)
    rng.shuffle(st["rng"], rest)
    items[:] = top + rest


def rig_zone(st: dict[str, Any], zone: int, order: list[list[int]]) -> None:
    """Fix the order zone instance `zone` takes at its next shuffle (replacing an earlier one)."""
    st.setdefault(RIG, {})[str(zone)] = [list(c) for c in order]
