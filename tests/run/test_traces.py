"""Semantics never move silently: random games recorded before a change to the engine or a game's
encoding (tests/traces, written by `tabula trace record`) replay with the same choices and the same
state hash after every decision. Where a rule fix must change them, the commit says so and records
them again.

The quick test replays the first game of every file; the slow one the first SLOW games of each (half
of the 200 recorded: CI's time; `tabula trace check tests/traces/*.jsonl.gz` replays them all).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabula.dev import traces
from tabula.dev.traces import Config, check
from tabula.interpreter.engine import Engine, load_game

TRACES = sorted((Path(__file__).resolve().parents[1] / "traces").glob("*.jsonl.gz"))
FIRST = 1  # games of each file the fast tier replays
SLOW = 100  # games of each file the slow tier replays, of the 200 recorded
_ENGINES: dict[str, Engine] = {}


def shared_engine(cfg: Config) -> Engine:
    """One compiled game per configuration but the player count (an Engine keeps no state): the 22
    files need 7 games compiled, not 22."""
    key = json.dumps([cfg.game, cfg.variant, list(cfg.expansions), cfg.options], sort_keys=True)
    if key not in _ENGINES:
        _ENGINES[key] = Engine(load_game(cfg.game, cfg.options or None, cfg.variant, cfg.expansions))
    return _ENGINES[key]


@pytest.fixture(autouse=True)
def share_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(traces, "engine_for", shared_engine)


def test_traces_exist() -> None:
    assert len(TRACES) >= 22


@pytest.mark.parametrize("path", TRACES, ids=[p.name.removesuffix(".jsonl.gz") for p in TRACES])
def test_first_games_replay(path: Path) -> None:
    games, divergences = check(path, first=FIRST)
    assert games == FIRST
    assert divergences == [], "\n".join(map(str, divergences))


@pytest.mark.slow
@pytest.mark.parametrize("path", TRACES, ids=[p.name.removesuffix(".jsonl.gz") for p in TRACES])
def test_the_first_hundred_games_replay(path: Path) -> None:
    games, divergences = check(path, first=SLOW)
    assert games == SLOW
    assert divergences == [], "\n".join(map(str, divergences[:10]))


def test_a_changed_game_is_caught(tmp_path: Path) -> None:
    from tabula.dev.traces import Config, Trace, read, record, write

    cfg = Config("high-card", 2)
    traces = record(cfg, 2, seed=5)
    path = tmp_path / "hc.jsonl.gz"
    write(path, cfg, traces)
    assert check(path) == (2, [])
    bad = traces[1]
    write(path, cfg, [traces[0], Trace(bad.seed, bad.choices, [*bad.hashes[:3], "0" * 10, *bad.hashes[4:]])])
    games, divergences = check(path)
    assert games == 2
    assert [(d.seed, d.decision) for d in divergences] == [(bad.seed, 3)]
    _, again = read(path)
    assert [t.seed for t in again] == [5, 6]
