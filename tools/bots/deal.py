"""The game's `bots: deal:` conditions: which hidden components a bot may deal into which places.

A bot that deals the cards it cannot see (`tabula.interpreter.run.determinize`) deals uniformly at
random by default. What every player saw can rule cards out of a place: in Hanabi a player was told
which of their cards are red, so a determinisation that puts a blue card there is one the player
knows to be false. `bots: deal: {ZONE: COND}` states it, with `c` (the component), `q` (the zone's
player, none for a global zone) and `i` (the position) bound; each place of that zone is then dealt
a component for which COND holds, where one is left. The conditions are compiled once per game,
and evaluated at most once per component and place per decision (`DealFilter` caches them): the
state does not change while a bot searches from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.source import AuthorError, Report
from tabula.interpreter.base.types import COMP, INT, PLAYER
from tabula.interpreter.dsl.parser import PlainOrigin
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import Runtime

Conditions = dict[str, Callable[[Runtime], Any]]  # zone name -> compiled condition
# id(game) -> (game, its conditions): a compiled game is not hashable; keeping the game keeps its id
_COMPILED: dict[int, tuple[CompiledGame, Conditions]] = {}


def deal_conditions(game: CompiledGame) -> Conditions:
    """The game's `bots: deal:` conditions, compiled (an author error names its line)."""
    if id(game) not in _COMPILED:
        section = game.bots.get("deal", ({}, None))[0] or {}
        report = Report()
        out: Conditions = {}
        for zone, (text, origin) in section.items():
            where = origin or PlainOrigin(f"{game.folder}/bots.deal.{zone}")
            f = game.snippets.expr(str(text), where, report, {"c": COMP, "q": PLAYER, "i": INT})
            if f is not None:
                out[zone] = f
        unknown = sorted(set(section) - {z.family or z.name for z in game.zone_layouts})
        if unknown:
            raise ValueError(f"bots.deal names no zone of the game: {', '.join(unknown)}")
        if report.has_errors:
            raise AuthorError(report)
        _COMPILED[id(game)] = (game, out)
    return _COMPILED[id(game)][1]


class DealFilter:
    """`fits(component, zone instance, position)` for one state: True or False where a condition
    covers the zone, None elsewhere; each answer computed once."""

    def __init__(self, game: CompiledGame, st: State) -> None:
        self.game = game
        self.conditions = deal_conditions(game)
        self.rt = Runtime(game, st)
        self.cache: dict[tuple[int, int, int], bool] = {}

    def __call__(self, c: int, zi: int, pos: int) -> bool | None:
        layout = self.game.zone_layouts[zi]
        cond = self.conditions.get(layout.family or layout.name)
        if cond is None:
            return None
        key = (c, zi, pos)
        if key not in self.cache:
            self.rt.loc = {"c": c, "q": self.game.zone_owner[zi], "i": pos}
            self.cache[key] = bool(self.rt.evaluate(cond, None))
        return self.cache[key]
