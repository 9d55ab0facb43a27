"""Soak: thousands of random games of every bundled game, each checked as it is played by `tabula
soak` (tabula.dev.soak_game: saves loaded back, views and the swap test of hidden information,
clones and loaded states played on, replays from seed and choices, one game in 50 against Python).

Marked `soak` (and `slow`): never collected by CI's plain `pytest` (conftest.py deselects it unless
the `-m` expression names `soak`). Run it with `pytest -m soak tests/hostile/test_soak_marked.py -s`;
`TABULA_SOAK_GAMES` sets the games per bundled game (default 10,000), `TABULA_SOAK_FIRST` the seed
before the first (default 0: seeds 1..N), so that a soak can be split over processes or days and
the parts add up to the same games, `TABULA_SOAK_BACKEND` the backend (default native) and
`TABULA_SOAK_JOBS` the worker processes (default 1). Each game's configuration (the base game, a
shipped variant or an expansion) and player count follow from its seed. The figures are printed and
written to `soak-<game>.json` in `TABULA_SOAK_REPORT` (default: the system's temporary folder).
`tabula soak GAME --games N --seed S --jobs J` runs the same games from the command line.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

import pytest

from tabula.balance.parallel import map_seeds
from tabula.dev.soak import Totals
from tabula.dev.soak_game import Plan, play

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


@pytest.mark.slow
@pytest.mark.soak
@pytest.mark.parametrize("name", GAMES)
def test_soak(name: str) -> None:
    wanted = int(os.environ.get("TABULA_SOAK_GAMES", "10000"))
    first = int(os.environ.get("TABULA_SOAK_FIRST", "0")) + 1
    plan = Plan(name, os.environ.get("TABULA_SOAK_BACKEND", "native"))
    start = time.process_time()
    batch = map_seeds(
        play, plan, range(first, first + wanted), jobs=int(os.environ.get("TABULA_SOAK_JOBS", "1"))
    )
    totals = Totals()
    for outcome in batch.results:
        totals.add(outcome)
    figures = {
        **asdict(totals),
        "backends": sorted(totals.backends),
        "cpu_seconds": time.process_time() - start,
    }
    report = Path(os.environ.get("TABULA_SOAK_REPORT", tempfile.gettempdir())) / f"soak-{name}.json"
    report.write_text(json.dumps(figures, indent=1))
    print(f"\nsoak {name}: {totals.games} games, {len(totals.failures)} failures -> {report}", flush=True)
    assert totals.games == wanted and not batch.interrupted
    assert not totals.failures, "\n".join(totals.failures[:5])
