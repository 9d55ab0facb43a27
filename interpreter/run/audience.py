"""`visible_to:` expressions: who sees a zone's contents, a counter's or a var's value, evaluated on
the state each time it is asked (docs/language.md section 7).

The compiled game keeps each expression as text (`CompiledGame.audiences`, keyed by the layout's
visibility `to:SECTION:NAME`), as it keeps `guess:`: a compiled game is cached as data, and the
expression is compiled again here, once per game, on first use. `audience` is what
`CompiledGame.audience_of` names, so that model/view.py (below the runtime) can ask it.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import AuthorError, Report
from tabula.interpreter.base.types import PLAYER
from tabula.interpreter.dsl.parser import PlainOrigin
from tabula.interpreter.model.game import Closure, CompiledGame
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime

_COMPILED: dict[int, tuple[CompiledGame, dict[str, Closure | None]]] = {}  # id(game) -> (game, closures)


def _closures(game: CompiledGame) -> dict[str, Closure | None]:
    if id(game) not in _COMPILED:
        report = Report()
        compiled: dict[str, Closure | None] = {}
        for token, (text, origin) in game.audiences.items():
            where = origin or PlainOrigin(f"{game.folder}/{token}.visible_to")
            per = token in _per_player(game)
            compiled[token] = game.snippets.expr(str(text), where, report, {"owner": PLAYER} if per else {})
        if report.has_errors:
            raise AuthorError(report)
        _COMPILED[id(game)] = (game, compiled)
    return _COMPILED[id(game)][1]


def _per_player(game: CompiledGame) -> set[str]:
    """The tokens of the per-player zones, counters and vars (their expressions have `owner`)."""
    layouts: list[Any] = [*game.zones.values(), *game.counters.values(), *game.vars.values()]
    return {x.visibility for x in layouts if x.per_player and x.visibility.startswith("to:")}


def audience(game: CompiledGame, st: dict[str, Any], token: str, owner: int | None) -> list[int]:
    """The players the `visible_to:` expression `token` names on `st`, with `owner` bound (a
    per-player one's player). A value that is not a player or a list of players is R008."""
    f = _closures(game).get(token)
    if f is None:
        return []
    rt = Runtime(game, st)
    rt.loc = {"owner": owner} if owner is not None else {}
    value = rt.evaluate(f, None)
    if value is None:  # a var holding nobody yet
        return []
    who = value if isinstance(value, list) else [value]
    n = st["t"]["n"]
    for p in who:
        if type(p) is not int or not 0 <= p < n:
            name = token.split(":", 2)[-1]
            raise GameRuntimeError(
                f"visible_to of '{name}' needs players of the game, got {value!r}", None, "R008"
            )
    return who
