"""The digest of a state's shape (its layout): what a save must match to load into a game."""

from __future__ import annotations

import hashlib
import json
import weakref

from tabula.interpreter.model.game import CompiledGame

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
