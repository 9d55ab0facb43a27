"""Compile time grows linearly with a game's size: generated games with thousands of triggers or
functions load, cold (no cache), within a budget of CPU.

Measured on two shared cores (issue 26): 2,000 triggers, each on its own event emitted once, took
about 3.3 s of CPU (quadratic before: the emitted arguments of each trigger's event were found by a
walk of the whole game data per trigger, 500 triggers took 4.2 s and 1,500 did not end in 30 s);
5,000 one-line functions about 3.7 s (each definition scanned the whole generated namespace before).
The budgets leave room for a busy machine and stay far below what a quadratic walk takes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tabula.interpreter.compile.python import cache
from tabula.interpreter.engine import Engine, load_game

HEAD = """game:
  id: many
  players: {min: 2, max: 2}
counters:
  n: {min: null}
"""

FLOW = """flow:
  setup: |
    %s
  turn:
    phases:
      - id: main
        do: |
          choose x from [1, 2] by p
scoring:
  score: n
"""


def many_triggers(folder: Path, n: int) -> Path:
    """A game of `n` triggers, each on its own event, emitted once each by the setup (through
    procedures of 100 emits: an effect has at most 20,000 characters)."""
    folder.mkdir()
    text = HEAD + "triggers:\n"
    text += "".join(f"  - {{id: t{i}, on: e{i}, where: 'k > 0', do: 'gain k n'}}\n" for i in range(n))
    text += "procedures:\n"
    for start in range(0, n, 100):
        emits = "".join(f"      emit e{i}(k=1)\n" for i in range(start, min(n, start + 100)))
        text += f"  fire{start}:\n    do: |\n{emits}"
    setup = "\n    ".join(f"run fire{start}()" for start in range(0, n, 100))
    (folder / "game.yaml").write_text(text + FLOW % setup, encoding="utf-8")
    return folder


def many_functions(folder: Path, n: int) -> Path:
    """A game of `n` one-line functions, in files of 1,000 (a file holds at most 25,000 values)."""
    folder.mkdir()
    for start in range(0, n, 1000):
        lines = "".join(
            f"  f{i}: {{params: [k], expr: 'k + {i}'}}\n" for i in range(start, min(n, start + 1000))
        )
        (folder / f"functions{start}.yaml").write_text("functions:\n" + lines, encoding="utf-8")
    (folder / "game.yaml").write_text(HEAD + FLOW % f"gain f{n - 1}(1) n", encoding="utf-8")
    return folder


def cold_load_seconds(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[float, Engine]:
    """CPU seconds of one `load_game` without the compile cache, and an engine of the game."""
    monkeypatch.setattr(cache, "enabled", lambda: False)
    start = time.process_time()
    game = load_game(folder)
    return time.process_time() - start, Engine(game)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("make", "n", "what"), [(many_triggers, 2000, "triggers"), (many_functions, 5000, "functions")]
)
def test_a_large_game_compiles_in_linear_time(
    make: Callable[[Path, int], Path], n: int, what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seconds, engine = cold_load_seconds(make(tmp_path / "g", n), monkeypatch)
    assert seconds < 12, f"{n} {what} took {seconds:.1f} s of CPU to load"
    assert engine.new_game(2)["c"][0] == n  # every trigger fired once, or f(n - 1)(1) = n: the game is whole
