"""Checks of the values a program hands the engine's API (players, seeds, choices), whatever their type.

Each function is called by one line of `engine.py` before the value is used: a wrong value is a
clear error (an `AuthorError` with a code, or `IllegalChoice` with a reason), never a TypeError
from deep inside, a silently aliased seed or a huge allocation.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import AuthorError, Report, did_you_mean
from tabula.interpreter.base.terminal import shorten
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.run.runtime import IllegalChoice


def _fail(code: str, message: str, hint: str | None = None) -> AuthorError:
    report = Report()
    report.error(code, message, None, hint)
    return AuthorError(report)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def load_arguments(name_or_path: Any, options: Any, variant: Any, expansions: Any) -> None:
    """`load_game`'s arguments: a game name or path, an options mapping, pack names or paths."""
    wrong = []
    if not isinstance(name_or_path, str | PurePath) or not str(name_or_path):
        wrong.append(f"the game must be a name or a folder, not {_shown(name_or_path)}")
    if options is not None and not (isinstance(options, dict) and all(isinstance(k, str) for k in options)):
        wrong.append(f"options must map option names to values, not {_shown(options)}")
    if variant is not None and not isinstance(variant, str | PurePath):
        wrong.append(f"the variant must be a name or a pack file, not {_shown(variant)}")
    if isinstance(expansions, str | PurePath) or not isinstance(expansions, list | tuple):
        wrong.append(f"expansions must be a list of names or pack files, not {_shown(expansions)}")
    elif not all(isinstance(e, str | PurePath) for e in expansions):
        wrong.append(f"expansions must be names or pack files, not {_shown(list(expansions))}")
    if wrong:
        report = Report()
        for message in wrong:
            report.error("G001", message, None)
        raise AuthorError(report)


def player_names(game: CompiledGame, players: Any) -> list[str]:
    """The seat names for `players` (a number of players, or the names in seat order).

    The count is checked before any list is built, so `30000000` costs nothing to refuse.
    """
    if isinstance(players, bool) or not isinstance(players, int | list | tuple):
        raise _fail("G002", f"players must be a number of players or a list of names, not {_shown(players)}")
    count = players if isinstance(players, int) else len(players)
    if not game.min_players <= count <= game.max_players:
        raise _fail("G002", f"{game.name} is for {game.min_players}-{game.max_players} players, not {count}")
    if isinstance(players, int):
        return [game.seats[i] if i < len(game.seats) else f"P{i + 1}" for i in range(players)]
    names = list(players)
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name) > limits.MAX_NAME_CHARS:
            wanted = f"text of 1 to {limits.MAX_NAME_CHARS} characters"
            raise _fail("G002", f"a player's name must be {wanted}, not {_shown(name)}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise _fail("G002", f"two players are named {twice[0]!r}", "choice ids and logs name players by name")
    return names


def seed(value: Any) -> int:
    """A seed: an integer from 0 to 2**64 - 1 (the generator keeps 64 bits, so larger ones would alias)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limits.SEED_BOUND:
        raise _fail(
            "G003",
            f"the seed must be a whole number from 0 to 2^64 - 1, not {_shown(value)}",
            "the generator keeps 64 bits: any other seed would play the same game as one of these",
        )
    return int(value)


def pause(game: CompiledGame, value: Any) -> None:
    """`new_game(pause=...)`: "turn" (before the first phase) or a phase id of the game's turn."""
    if value is None:
        return
    phases = [pid for pid, _ in game.flow.phases] if game.flow is not None else []
    if isinstance(value, str) and value in ("turn", *phases):
        return
    hint = (did_you_mean(value, ["turn", *phases]) if isinstance(value, str) else None) or (
        f"phases: {', '.join(phases) or 'none'}; or 'turn' (before the first)"
    )
    raise _fail("G004", f"pause at {_shown(value)}: it is not a phase of {shorten(game.name)}", hint)


def choice(value: Any) -> None:
    """A choice is a choice id (text) or an index (an int, not a bool) among the legal choices."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return
    raise IllegalChoice(
        _shown(value), f"a choice is a choice id (text) or an index, not {type(value).__name__}"
    )


def seat(st: dict[str, Any], player: Any) -> None:
    """A player is a seat number of the game (an int, not a bool): 1.0 or True would be read as seat 1."""
    n = len(st["names"])
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"no player {_shown(player)}: the players are seats 0 to {n - 1}")


def text(value: Any, what: str) -> None:
    """A name given to the API is text."""
    if not isinstance(value, str):
        raise ValueError(f"{what} is text, not {type(value).__name__}")
