"""How a table's game begins: a fresh game from a seed, or a scenario file's position.

A scenario's position is the game its file sets up: its rules (game, variant, expansions, options),
its players and seed, and its `given` written into the first turn, up to where its `when` steps
would begin. The scenario runner of `tabula verify` builds it, so the position is exactly the one
the scenario's checks see.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tabula.interpreter.engine import Engine
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.scenarios.files import load_cases
from tabula.interpreter.scenarios.runner import Run  # the runner of `tabula verify`: its setup and `given`
from tabula.serve.model import GameSpec, TableError

Log = list[dict[str, Any]]


@dataclass
class Start:
    """A seed and the players' names, or a scenario file (whose own players and seed are used)."""

    seed: int = 0
    names: list[str] = field(default_factory=list)
    scenario: str | None = None

    def describe(self) -> str:
        return f"scenario {Path(self.scenario).name}" if self.scenario else f"seed {self.seed}"

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "names": list(self.names), "scenario": self.scenario}

    @staticmethod
    def from_json(data: Any) -> Start:
        if not isinstance(data, dict):
            raise ValueError("'start' must be an object")
        scenario = data.get("scenario")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"'seed' must be an integer, not {seed!r}")
        return Start(seed, [str(n) for n in data.get("names") or []], str(scenario) if scenario else None)


def _scenario(path: Path, game: CompiledGame | None = None, folder: Path | None = None) -> Run:
    """A scenario file's (first) case run up to its `when` steps; `game`, when it is the scenario's
    game (same folder and packs), is used instead of loading it again. With `folder`, the case plays
    the game of that folder whatever its `game:` names (a served table plays its own game: the file
    is one of its folder or an upload, whose `game:` was written where the file was). Raises
    TableError when the file cannot be read, AuthorError or GameRuntimeError when its position
    cannot be set up."""
    loaded = load_cases(path)
    if loaded.error is not None or not loaded.cases:
        raise TableError(loaded.error or f"{path.name} holds no scenario")
    case = loaded.cases[0]
    if folder is not None:
        case = replace(case, spec=case.spec.model_copy(update={"game": str(folder.resolve())}))
    run = Run(case, None, (), game)
    run.start()
    return run


def begin(spec: GameSpec, game: CompiledGame, start: Start) -> tuple[CompiledGame, State, Log]:
    """The game, its first position and its log so far (raises AuthorError or GameRuntimeError)."""
    if start.scenario:
        run = _scenario(Path(start.scenario), None, spec.folder())
        return run.game, run.st, run.log
    log: Log = []
    state = Engine(game).new_game(list(start.names), start.seed, None, log)
    return game, state, log


def scenario_start(path: Path, current: GameSpec) -> tuple[Start, GameSpec]:
    """The start and the rules of a scenario file, played on the served game whatever its `game:`
    names (raises AuthorError or GameRuntimeError when it cannot run)."""
    run = _scenario(path, None, current.folder())
    names = list(run.st["names"])
    spec = GameSpec(current.game, run.spec.variant, list(run.spec.with_), dict(run.spec.options or {}))
    return Start(int(run.spec.seed), names, str(path)), spec
