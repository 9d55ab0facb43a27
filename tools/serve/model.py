"""What a table of `tabula serve` is made of, below every module that works on it: the rules it
plays (`GameSpec`), its seats (`SeatSpec`), the report of its last reload (`Report`) and the error of
a request it refuses (`TableError`). start.py, replay.py, export.py and table.py all read them; none
of them is imported here, so the serve package has no import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.interpreter.engine import find_game, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.serve.bots import HUMAN, SeatKindError, seat_kind


class TableError(Exception):
    """A request the table refuses (not your decision, nothing to undo, a bad save file)."""

    status = 400


class StaleDecision(TableError):
    """A choice made on a position the game has left (a double click, a second device)."""

    status = 409


@dataclass
class SeatSpec:
    name: str
    kind: str = HUMAN

    def __post_init__(self) -> None:
        try:
            self.kind = seat_kind(self.kind)
        except SeatKindError as err:
            raise TableError(f"seat kind: {err}") from None


@dataclass
class GameSpec:
    """Which rules: the game (a bundled name or a folder), its variant, expansions and options."""

    game: str
    variant: str | None = None
    expansions: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)

    def load(self) -> CompiledGame:
        return load_game(self.game, self.options or None, self.variant, tuple(self.expansions))

    def folder(self) -> Path:
        return find_game(self.game)


@dataclass
class Report:
    """What the last reload (or load) found: ok, where the replay diverged or failed, and why."""

    kind: str  # reloaded | diverged | failed | broken
    message: str
    detail: str = ""
    at: int | None = None
