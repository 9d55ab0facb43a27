"""The native backend never crashes and never gives a different game (issue 34, items 1, 2, 3, 6):
a rule whose list values would not fit the C stack is refused (N001); numbers outside the native
range (±2^62) in a game's data or options are refused or played on Python; a compiler that writes
nothing or hangs leaves the game on Python with its reason; builds leave nothing behind, seal files
are private, and a library is loaded from the bytes whose seal was checked."""

from __future__ import annotations

import ctypes
import os
import random
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.compile.native import build
from tabula.interpreter.compile.native.backend import prepare
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.engine import Engine, load_game

GAME = """game: {{id: g, name: G, players: {{min: 2, max: 2}}}}
options:
  k: {{default: 3, description: k}}
{options}
components:
  card:
    properties: {{rank: int}}
    instances:
{instances}
zones:
  hand: {{per: player, visibility: owner}}
counters:
  coins: {{per: player}}
actions:
  go:
    closes_window: true
    do: |
      {body}
  rest:
    closes_window: true
    do: |
      pass
flow:
  setup: |
    for c in card:
      move c to hand(0)
  turn:
    phases:
      - id: main
        do: |
          window p: go, rest
  end_checks:
    - {{id: done, when: turn > {turns}, end: immediately}}
scoring:
  score: coins(p)
"""


def write_game(
    folder: Path,
    body: str,
    ranks: list[int] | None = None,
    copies: int = 1,
    options: str = "",
    turns: int = 4,
) -> Path:
    ranks = ranks or [1, 2]
    lines = [f"      - {{name: C{i}, rank: {r}, copies: {copies}}}" for i, r in enumerate(ranks)]
    text = GAME.format(options=options, instances="\n".join(lines), body=body, turns=turns)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def play(engine: Engine, seed: int) -> tuple[list[int], str]:
    pick = random.Random(seed)
    st = engine.new_game(2, seed)
    while not engine.is_terminal(st):
        ids = engine.legal_ids(st)
        engine.apply_inplace(st, ids[pick.randrange(len(ids))])
    return engine.scores(st), engine.hash(engine.plain(st))


def n001(game: Any) -> list[str]:
    _, walk = lower_game(game)
    return [f"{d.span.line}:{d.message}" if d.span else d.message for d in walk.report.diagnostics]


# ---------------------------------------------------------------- item 1: the C stack
def cat_body(terms: int) -> str:
    return "gain count(" + " + ".join(["[c for c in card where c.rank > 5]"] * terms) + ") coins(me)"


def test_a_rule_whose_lists_would_not_fit_the_c_stack_is_refused_at_the_rule(tmp_path: Path) -> None:
    # 8,000 components: a list value is 64 kB; thirty of them concatenated need more than FRAME_ROOM
    folder = write_game(tmp_path / "g", cat_body(30), ranks=[1] * 20, copies=400)
    game = load_game(folder)
    found = n001(game)
    assert len(found) == 1 and "kB of C stack" in found[0], found
    line = int(found[0].split(":")[0])  # at the action
    assert (folder / "game.yaml").read_text().splitlines()[line - 2] == "  go:"
    eng = Engine(game, backend="native")
    assert eng.backend == "python" and "not in the native backend yet" in eng.backend_note
    # a few lists at that size stay native
    small = load_game(write_game(tmp_path / "h", cat_body(3), ranks=[1] * 20, copies=400))
    assert n001(small) == []


@pytest.mark.slow  # a child process playing a game of 20,000 components
def test_the_issue_s_game_of_20000_components_does_not_crash_simulate(tmp_path: Path) -> None:
    # the issue's case: thirty comprehensions concatenated at 20,000 components took 19 MB of C
    # stack in one frame and killed `tabula simulate` with SIGSEGV (exit 139, no message)
    folder = write_game(tmp_path / "g", cat_body(30), ranks=[1] * 20, copies=1000, turns=2)
    done = subprocess.run(
        # the backend named: a plain run keeps the notice to itself
        [sys.executable, "-m", "tabula", "simulate", str(folder), "--games", "1", "--backend", "native"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "TABULA_CACHE_DIR": str(tmp_path / "cache")},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "python backend: 1 construct(s) not in the native backend yet" in done.stderr


def test_a_chain_of_list_functions_past_the_stack_room_goes_on_in_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every generated function holding a list value probes the stack used since the entry point:
    # with almost no room, native code stops (E_DEPTH) and Python plays the decision, the same game
    from tabula.interpreter.compile.native.lowering import triggers

    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(triggers, "DEEP", triggers.DEEP.replace(f"> {triggers.STACK_ROOM}", "> 16"))
    from tabula.interpreter.compile.native.emit import units

    monkeypatch.setattr(units, "DEEP", triggers.DEEP.replace(f"> {triggers.STACK_ROOM}", "> 16"))
    game = load_game(write_game(tmp_path / "g", cat_body(2), ranks=[1, 7, 9]))
    nat, py = Engine(game, backend="native"), Engine(game)
    assert nat.backend == "native", nat.backend_note
    lib = nat.native
    assert lib is not None
    st = nat.new_game(2, 1)
    words = lib.array.from_buffer_copy(st.words)  # type: ignore[attr-defined]
    assert lib.apply(words, nat.legal_ids(st).index("go"), game.work_budget, None) == 13  # E_DEPTH
    assert [play(nat, s) for s in range(3)] == [play(py, s) for s in range(3)]


# ---------------------------------------------------------------- item 2: numbers outside the range
@pytest.mark.parametrize(
    ("body", "ranks", "options", "said"),
    [
        ("if first(card).rank > 0:\n        gain 5 coins(me)", [10**19], "", "property 'rank' holding"),
        ("gain 1 coins(me)", [1], "  big: {default: 4611686018427387904, description: b}", "option 'big'"),
        ("if first(card).rank < 0:\n        gain 5 coins(me)", [-(2**63)], "", "holding -922337203685477"),
    ],
)
def test_numbers_outside_the_native_range_are_refused_and_python_plays(
    tmp_path: Path, body: str, ranks: list[int], options: str, said: str
) -> None:
    # 10**19 wrapped negative in C: the same seed gave a mean score of about 1 natively, 5 in Python
    game = load_game(write_game(tmp_path / "g", body + "\n      gain 1 coins(me)", ranks, options=options))
    found = n001(game)
    assert len(found) == 1 and said in found[0] and "outside the native range" in found[0], found
    nat, py = Engine(game, backend="native"), Engine(game)
    assert nat.backend == "python"
    assert [play(nat, s) for s in range(3)] == [play(py, s) for s in range(3)]


def test_arithmetic_past_the_range_stops_native_code_and_python_goes_on(tmp_path: Path) -> None:
    # Python's numbers are unbounded: a product past 2^62 stops native code (E_SIZE) and Python
    # plays the decision; the games are the same
    game = load_game(write_game(tmp_path / "g", "set coins(me) = coins(me) * 1000 + 7", turns=30))
    nat, py = Engine(game, backend="native"), Engine(game)
    assert nat.backend == "native", nat.backend_note
    assert [play(nat, s) for s in range(3)] == [play(py, s) for s in range(3)]


def test_a_counter_bound_past_the_range_is_written_as_the_range_s_edge(tmp_path: Path) -> None:
    from tabula.interpreter.compile.native.lowering import ranges

    assert ranges.bound(9 * 10**18) == ranges.SMALL and ranges.bound(-(10**30)) == -ranges.SMALL
    assert ranges.bound(5) == 5 and ranges.bound(None) is None


# ---------------------------------------------------------------- item 3: an option past 2^62
def test_an_option_past_the_range_falls_back_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from tabula.cli.main import main

    # the backend named: a plain run keeps the notice to itself (no engine bookkeeping on screen)
    args = ["simulate", "high-card", "--option", "tricks=4611686018427387904", "--games", "1"]
    assert main([*args, "--backend", "native"]) == 0
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert "python backend: 1 construct(s) not in the native backend yet (tabula check --native)" in err


def test_an_option_past_the_range_given_to_one_game_plays_on_python() -> None:
    nat = Engine(load_game("high-card"), backend="native")
    assert nat.backend == "native"
    st = nat.new_game(2, 1, options={"tricks": 1 << 62})  # was NotNative, an internal error
    assert not hasattr(st, "words")


# ---------------------------------------------------------------- item 6: compiler faults, files
def fake_compiler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    cc = tmp_path / "cc"
    cc.write_text(f"#!/bin/sh\n{script}\n")
    cc.chmod(0o755)
    monkeypatch.setenv("CC", str(cc))
    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))


def test_a_compiler_that_writes_nothing_means_the_python_backend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_compiler(tmp_path, monkeypatch, "exit 0")
    engine = Engine(load_game("high-card", {"tricks": 3}), backend="native")
    assert (engine.backend, engine.backend_note) == ("python", "the C compiler wrote no library")


def test_a_hanging_compiler_is_stopped_by_the_wall_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a compiler that waits spends no CPU: the CPU limit never stops it; the wall limit does, with
    # the children it started (its own process group)
    fake_compiler(tmp_path, monkeypatch, f"sleep 300 & echo $! > {tmp_path}/child; wait")
    monkeypatch.setattr(build, "BUILD_WALL_SECONDS", 1)
    engine = Engine(load_game("high-card", {"tricks": 3}), backend="native")
    assert (engine.backend, engine.backend_note) == ("python", "the C compiler was stopped after 1 s")
    child = Path(f"/proc/{int((tmp_path / 'child').read_text())}/status")
    assert not child.exists() or "\nState:\tZ" in child.read_text()  # gone (or dead, not reaped yet)


def test_without_a_cache_a_build_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_NO_CACHE", "1")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    native, why = prepare(load_game("high-card", {"tricks": 2}))
    assert native is not None, why
    assert list(tmp_path.iterdir()) == []


def test_the_cache_s_files_are_private_and_a_library_is_loaded_from_its_checked_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))
    opened: list[str] = []
    real = ctypes.CDLL

    def recorded(name: str, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(name))
        return real(name, *args, **kwargs)

    monkeypatch.setattr(ctypes, "CDLL", recorded)
    for _ in range(2):  # built, then found in the cache (a new game object: nothing memoised)
        native, why = prepare(load_game("high-card", {"tricks": 1}))
        assert native is not None, why
    files = list((tmp_path / "cache").rglob("native-*"))
    assert {f.suffix for f in files} >= {".so", ".seal"}
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files), [oct(f.stat().st_mode) for f in files]
    # never the cached file's path, opened again after its seal was checked
    assert len(opened) == 2 and all(name.startswith("/proc/self/fd/") for name in opened), opened
