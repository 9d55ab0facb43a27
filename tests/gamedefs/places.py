"""A shared invariant for game tests: every component is in exactly one place."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabula.interpreter.model.game import CompiledGame


def check_places(game: CompiledGame, st: dict[str, Any], in_play: Iterable[int]) -> None:
    """No component is in two zones, every location agrees with the zone lists, and each component
    of `in_play` lies in some zone (the others may be out of play, but then in no zone)."""
    seen: dict[int, int] = {}
    for zi, zone in enumerate(st["z"]):
        for cid in zone:
            assert cid not in seen, f"{game.components[cid].key} is in two zones"
            seen[cid] = zi
    for cid, loc in enumerate(st["loc"]):
        key = game.components[cid].key
        assert seen.get(cid, -1) == loc, f"{key}: location {loc}, found in {seen.get(cid)}"
    for cid in in_play:
        assert st["loc"][cid] >= 0, f"{game.components[cid].key} is nowhere"
