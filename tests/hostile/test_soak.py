"""Soak: thousands of random games of every bundled game, with save/load, clone, view and replay checks.

Marked `soak` (and `slow`): never collected by CI's plain `pytest` (conftest.py deselects it unless
the `-m` expression names `soak`). Run it with `pytest -m soak tests/hostile/test_soak.py -s`;
`TABULA_SOAK_GAMES` sets the games per bundled game (default 10,000), and `TABULA_SOAK_FIRST` the
index of the first (default 0: seeds 1..N), so that a soak can be split over processes or days and
the parts add up to the same games. Each game cycles through the
shipped variants and expansions and every player count. At a random eighth of the decisions (and at
the end) the state is saved and loaded (validated: `saves.state_problems` must find nothing), the
hash, the legal ids and every player's view must survive, and a clone must be independent; at the
end, replaying the seed and the choices must give the same state. The figures (games, moves,
decisions per CPU second, failures) are printed and written to `soak-<game>.json` in
`TABULA_SOAK_REPORT` (default: the system's temporary folder); every `PROGRESS` games the figures so
far are written there too (`"complete": false`) and printed, so a soak stopped early still says how
far it went.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.load.overlay import list_packs
from tabula.interpreter.model.state import clone, state_hash
from tabula.interpreter.run.saves import state_problems

GAMES = [
    "high-card",
    "porta-nigra",
    "glory-to-rome",
    "coup",
    "hanabi",
    "sushi-go",
    "patchwork",
    "ticket-to-ride",
]
MAX_DECISIONS = 5_000
PROGRESS = 500  # games between two reports of the figures so far


@dataclass
class Figures:
    game: str
    games: int = 0
    finished: int = 0
    moves: int = 0
    saves: int = 0
    views: int = 0
    replays: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    configurations: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    complete: bool = False


def configurations(name: str) -> list[tuple[str | None, tuple[str, ...]]]:
    """The base game, each shipped variant alone and each expansion alone."""
    engine_folder = load_game(name).folder
    packs = list_packs(Path(engine_folder))
    out: list[tuple[str | None, tuple[str, ...]]] = [(None, ())]
    out += [(pack, ()) for pack, kind, _, _ in packs if kind == "variant"]
    out += [(None, (pack,)) for pack, kind, _, _ in packs if kind == "expansion"]
    return out


def check_round_trip(engine: Engine, st: dict[str, Any], figures: Figures) -> None:
    problems = state_problems(engine.game, st)
    assert not problems, problems
    loaded = engine.from_json(engine.to_json(st))
    assert engine.hash(loaded) == engine.hash(st)
    assert engine.legal_ids(loaded) == engine.legal_ids(st)
    for p in range(st["t"]["n"]):
        assert engine.view(loaded, p) == engine.view(st, p)
        json.dumps(engine.view(st, p))
        figures.views += 1
    copy = clone(st)
    if not engine.is_terminal(copy):
        engine.apply_inplace(copy, 0)
        assert engine.hash(st) == engine.hash(loaded), "applying a choice to a clone changed the original"
    figures.saves += 1


def play_one(engine: Engine, players: int, seed: int, figures: Figures) -> None:
    st = engine.new_game(players, seed=seed)
    bot = rng.seed_state(seed * 7919 + 1)
    checks = rng.seed_state(seed * 104729 + 3)
    choices: list[str] = []
    while not engine.is_terminal(st) and len(choices) < MAX_DECISIONS:
        if rng.below(checks, 8) == 0:
            check_round_trip(engine, st, figures)
        ids = engine.legal_ids(st)
        choice = ids[rng.below(bot, len(ids))]
        choices.append(choice)
        engine.apply_inplace(st, choice)
    figures.moves += len(choices)
    figures.finished += engine.is_terminal(st)
    check_round_trip(engine, st, figures)
    replayed = engine.replay(players, seed, choices)
    assert state_hash(replayed) == state_hash(st), "replaying the seed and the choices gave another state"
    figures.replays += 1


def report_figures(figures: Figures, start_cpu: float, start_wall: float) -> None:
    """The figures so far, written to soak-<game>.json and printed."""
    figures.cpu_seconds = round(time.process_time() - start_cpu, 1)
    figures.wall_seconds = round(time.monotonic() - start_wall, 1)
    name = figures.game
    report = Path(os.environ.get("TABULA_SOAK_REPORT", tempfile.gettempdir())) / f"soak-{name}.json"
    report.write_text(json.dumps(asdict(figures), indent=1))
    print(
        f"\nsoak {name}{'' if figures.complete else ' (so far)'}: {figures.games} games "
        f"({figures.finished} finished), {figures.moves} moves, {figures.saves} save/load checks, "
        f"{figures.views} views, {figures.replays} replays, {figures.cpu_seconds} s CPU, "
        f"{len(figures.failures)} failures -> {report}",
        flush=True,
    )


@pytest.mark.slow
@pytest.mark.soak
@pytest.mark.parametrize("name", GAMES)
def test_soak(name: str) -> None:
    wanted = int(os.environ.get("TABULA_SOAK_GAMES", "10000"))
    figures = Figures(name)
    engines = []
    for variant, expansions in configurations(name):
        engine = Engine(load_game(name, None, variant, expansions))
        engines.append(engine)
        figures.configurations.append("+".join([name, *([variant] if variant else []), *expansions]))
    start_cpu, start_wall = time.process_time(), time.monotonic()
    first = int(os.environ.get("TABULA_SOAK_FIRST", "0"))
    for i in range(first, first + wanted):
        engine = engines[i % len(engines)]
        counts = range(engine.game.min_players, engine.game.max_players + 1)
        players = counts[(i // len(engines)) % len(counts)]
        try:
            play_one(engine, players, i + 1, figures)
        except Exception as err:  # every failure is recorded, with what reproduces it
            where = f"{figures.configurations[i % len(engines)]}, {players} players, seed {i + 1}"
            figures.failures.append(f"{where}: {type(err).__name__}: {err}\n{traceback.format_exc(limit=4)}")
        figures.games += 1
        if figures.games % PROGRESS == 0 and figures.games < wanted:
            report_figures(figures, start_cpu, start_wall)
    figures.complete = True
    report_figures(figures, start_cpu, start_wall)
    assert figures.games >= wanted
    assert not figures.failures, "\n".join(figures.failures[:5])
