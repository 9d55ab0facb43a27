"""What one decision changed, as one seat sees it: the page marks exactly that (docs/presentation.md).

Both positions are read through the same seat's views (`Engine.view`), so nothing hidden from the
seat is compared: a card that moved unseen is not named, a hidden zone reads as changed only when
what the seat sees of it (its size, its visible cards) changed.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.view import HIDDEN

View = dict[str, Any]


def changes(game: CompiledGame, before: View, after: View) -> dict[str, list[Any]]:
    """`moved`: the components (by id) that are somewhere else after, or newly seen; `changed`: the
    zones, counters and vars whose value changed, as `owner:name` (owner a seat or `table`), and each
    changed key of a keyed counter as `owner:name:key`."""
    players = range(len(after["names"]))
    changed: list[str] = []
    for z in game.zones.values():
        for p in players if z.per_player else [None]:
            idx = z.index(p)
            if before["z"][idx] != after["z"][idx]:
                changed.append(f"{_owner(p)}:{z.name}")
    for c in game.counters.values():
        for p in players if c.per_player else [None]:
            base = c.base + (p or 0) * c.width
            keys = [k for i, k in enumerate(c.keys or [""]) if before["c"][base + i] != after["c"][base + i]]
            if keys:
                changed.append(f"{_owner(p)}:{c.name}")
                changed.extend(f"{_owner(p)}:{c.name}:{k}" for k in keys if k)
    for name, var in game.vars.items():
        was, now = before["v"].get(name), after["v"].get(name)
        if var.per_player and isinstance(now, list) and isinstance(was, list):
            changed.extend(
                f"{p}:{name}" for p in players if p < len(now) and p < len(was) and was[p] != now[p]
            )
        elif was != now:
            changed.append(f"table:{name}")
    return {"moved": _moved(before, after), "changed": changed}


def _owner(p: int | None) -> str:
    return "table" if p is None else str(p)


def _places(view: View) -> dict[int, int]:
    return {c: i for i, zone in enumerate(view["z"]) if zone is not None for c in zone if c != HIDDEN} | {
        c: where for c, where in enumerate(view["loc"]) if where >= 0 and view["z"][where] is None
    }


def _moved(before: View, after: View) -> list[int]:
    was, now = _places(before), _places(after)
    return sorted(c for c, i in now.items() if was.get(c) != i)
