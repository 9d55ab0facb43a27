"""Recording played games as scenario files: a recording replays and passes; a recorded rule failure
fails with that error; `tabula play --record` and a failing `tabula simulate` write them."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from functools import partial
from pathlib import Path

import pytest

from tabula.interpreter.base import rng
from tabula.interpreter.engine import load_game
from tabula.interpreter.scenarios import run_scenario_cases
from tabula.interpreter.scenarios.record import Recorder, record_failed_playout, write_recording

ROOT = Path(__file__).resolve().parents[2]
RELAY = ROOT / "tests" / "games" / "relay"

# a game whose rule fails on the fifth turn: paying more coins than there are
FAILING = """\
game: {id: failing, name: Failing, players: {min: 2, max: 2}}
counters: {coins: {per: player, initial: 1}}
actions:
  spend:
    when: coins(me) > 0
    closes_window: true
    do: pay 1 coins(me)
  wait:
    closes_window: true
    do: pass
flow:
  turn:
    phases:
      - id: main
        do: |
          window p: spend, wait
          if turn == 5: pay 9 coins(p)
scoring: {score: coins(p)}
"""


def playout(engine: Recorder, players: int, seed: int, limit: int) -> None:
    """A random game of at most `limit` decisions (what a failing `tabula simulate` game replays)."""
    st = engine.new_game(players, seed)
    gen = rng.seed_state(seed)
    n = 0
    while st["dec"] is not None and n < limit:
        engine.apply_inplace(st, engine.random_choice(st, gen))
        n += 1


def random_game(rec: Recorder, players: int, seed: int, limit: int) -> dict[str, object]:
    st = rec.new_game(players, seed)
    gen = rng.seed_state(seed * 7 + 1)
    while st["dec"] is not None and len(rec.steps) < limit:
        rec.apply_inplace(st, rng.below(gen, len(st["dec"]["ids"])))
    return st


@pytest.mark.slow  # records and replays whole games
@pytest.mark.parametrize(
    ("game", "players", "limit", "variant", "expansions"),
    [
        (str(RELAY), 3, 1000, None, ()),
        ("high-card", 4, 1000, None, ()),
        ("porta-nigra", 2, 60, None, ("honour-plus",)),
        ("glory-to-rome", 3, 80, None, ()),
        ("glory-to-rome", 2, 40, "imperium", ()),
    ],
)
def test_a_recorded_game_replays_and_passes(
    tmp_path: Path, game: str, players: int, limit: int, variant: str | None, expansions: tuple[str, ...]
) -> None:
    rec = Recorder(load_game(game, None, variant, expansions))
    st = random_game(rec, players, seed=4, limit=limit)
    out = write_recording(tmp_path / "rec.yaml", rec, st, variant, expansions)
    text = out.read_text(encoding="utf-8")
    assert text.count("  - {by: ") == len(rec.steps) > 5
    (result,) = run_scenario_cases(out)
    assert result.passed, "\n".join([result.error or "", *result.failures])
    # the facts are real: one changed fact fails
    score = next(line for line in text.splitlines() if line.startswith('  - "scores == ['))
    (result,) = run_scenario_cases(_tamper(out, score))
    assert not result.passed and any("scores ==" in f for f in result.failures)


def _tamper(path: Path, line: str) -> Path:
    bad = path.with_name("tampered.yaml")
    bad.write_text(path.read_text(encoding="utf-8").replace(line, line.replace("[", "[100 + ", 1)))
    return bad


def test_options_that_differ_from_the_defaults_are_recorded(tmp_path: Path) -> None:
    rec = Recorder(load_game(RELAY, {"rounds": 1}))
    st = random_game(rec, 2, seed=2, limit=100)
    out = write_recording(tmp_path / "rec.yaml", rec, st)
    assert 'options: {"rounds": 1}' in out.read_text(encoding="utf-8")
    (result,) = run_scenario_cases(out)
    assert result.passed, result.failures


def test_an_unfinished_game_records_who_decides_and_what_is_legal(tmp_path: Path) -> None:
    rec = Recorder(load_game(RELAY))
    st = random_game(rec, 2, seed=3, limit=3)
    text = write_recording(tmp_path / "rec.yaml", rec, st).read_text(encoding="utf-8")
    assert "expect_end: false" in text and '  - "legal == [' in text
    (result,) = run_scenario_cases(tmp_path / "rec.yaml")
    assert result.passed, result.failures


def test_a_failed_playout_is_recorded_up_to_the_failing_choice(tmp_path: Path) -> None:
    folder = tmp_path / "failing"
    folder.mkdir()
    (folder / "game.yaml").write_text(FAILING, encoding="utf-8")
    game = load_game(folder)
    message = record_failed_playout(game, partial(playout, players=2, seed=3, limit=100), folder=tmp_path)
    out = tmp_path / "failed-failing-2p-seed3.yaml"
    assert message == f"the failed game as a scenario: {out} (tabula verify {out} replays it)"
    text = out.read_text(encoding="utf-8")
    assert text.count("  - {by: ") == 5 and "then:" not in text
    assert "The last choice failed with:" in text
    (result,) = run_scenario_cases(out)
    assert not result.passed and result.error is not None
    assert "error[R009]" in result.error and "game.yaml:17:" in result.error  # below the minimum
    ok = record_failed_playout(
        load_game(RELAY), partial(playout, players=2, seed=3, limit=100), folder=tmp_path
    )
    assert ok == "the failed game did not fail again when replayed: nothing recorded"


def tabula(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tabula", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow  # plays, records and verifies a game
def test_play_record_writes_a_scenario_that_verifies(tmp_path: Path) -> None:
    run = tabula(
        "play", str(RELAY), "--seed", "5", "--record", "game.yaml", cwd=tmp_path, stdin="1\n1\n1\nq\n"
    )
    assert run.returncode == 0, run.stderr
    assert "recorded as a scenario: game.yaml" in run.stdout
    (ref,) = re.findall(r'^game: "(.*)"$', (tmp_path / "game.yaml").read_text(encoding="utf-8"), re.M)
    assert (tmp_path / ref).resolve() == RELAY  # a path from the scenario's folder
    verify = tabula("verify", "game.yaml", cwd=tmp_path)
    assert verify.returncode == 0 and "PASS Recorded game of Relay, seed 5" in verify.stdout, verify.stdout


@pytest.mark.slow  # plays and records a game
def test_play_record_beside_the_game_uses_a_relative_path(tmp_path: Path) -> None:
    run = tabula(
        "play",
        "high-card",
        "--seed",
        "2",
        "--record",
        str(tmp_path / "hc.yaml"),
        cwd=tmp_path,
        stdin="1\n2\n3\n4\n5\n" * 3,  # a choice keeps its number while offered: 1 is gone once played
    )
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "hc.yaml").read_text(encoding="utf-8")
    assert 'game: "high-card"' in text and "expect_end: [" in text


@pytest.mark.slow  # compiles a game and simulates it
def test_simulate_writes_the_failed_game_as_a_scenario(tmp_path: Path) -> None:
    folder = tmp_path / "failing"
    folder.mkdir()
    (folder / "game.yaml").write_text(textwrap.dedent(FAILING), encoding="utf-8")
    run = tabula("simulate", str(folder), "--games", "3", "--seed", "3", cwd=tmp_path)
    assert run.returncode == 1
    assert "the failed game as a scenario: failed-failing-2p-seed3.yaml" in run.stderr, run.stderr
    verify = tabula("verify", "failed-failing-2p-seed3.yaml", cwd=tmp_path)
    assert verify.returncode == 1 and "FAIL Failing: a rule failed (seed 3, choice 5)" in verify.stdout
