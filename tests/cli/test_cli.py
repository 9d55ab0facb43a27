"""Tests of the `tabula` command line: check, play (driven through stdin), simulate, verify, schema."""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import types
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tabula.cli import info
from tabula.cli import main as cli
from tabula.common import parse_option
from tabula.interpreter.load.options import OptionText

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "games" / "mini"


def tabula(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`tabula ARGS` run in this process, as the console script runs it, with stdin and output captured
    (a subprocess would cost an interpreter start and every import per call; test_version runs one)."""
    out, err = io.StringIO(), io.StringIO()
    saved, saved_cwd = sys.stdin, os.getcwd()
    sys.stdin = io.StringIO(stdin)
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = cli.main(list(args))
            except SystemExit as stop:  # argparse
                code = int(stop.code or 0)
    finally:
        sys.stdin = saved
        os.chdir(saved_cwd)
    return subprocess.CompletedProcess(["tabula", *args], code, out.getvalue(), err.getvalue())


def broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    path = game / "game.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return game


# ------------------------------------------------------------------ check


def test_check_ok() -> None:
    run = tabula("check", str(MINI))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok: Mini (4 components, 3 zones, 3 actions)")


def test_check_broken_dsl_shows_location_and_caret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = broken_copy(tmp_path, "      pay n pile\n", "      pay n pile +\n")
    assert cli.main(["check", str(game)]) == 1
    err = capsys.readouterr().err
    assert f"{game / 'game.yaml'}:38:18: error" in err
    assert "pay n pile +" in err
    assert "\n   |                  ^" in err
    assert "Traceback" not in err


def test_check_runtime_error_in_setup(tmp_path: Path) -> None:
    setup = "    set pile = option(target)\n"
    game = broken_copy(tmp_path, setup, setup + "    pay 99 pile\n")
    run = tabula("check", str(game))
    assert run.returncode == 1
    assert f"{game / 'game.yaml'}:54:" in run.stderr
    assert ": error[R009]: counter 'pile' would fall to -89 (it holds 10); below its minimum 0" in run.stderr
    assert "^" in run.stderr
    assert "Traceback" not in run.stderr


def test_unknown_game_and_bad_option_are_bad_calls() -> None:
    run = tabula("check", "no-such-game")
    assert run.returncode == 2 and "no-such-game" in run.stderr
    run = tabula("check", str(MINI), "--option", "nope=1")
    assert run.returncode == 2 and "unknown rules option 'nope'" in run.stderr


def test_internal_error_exits_70(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def boom(*_: object) -> None:
        raise RuntimeError("kaput")

    monkeypatch.setattr(info, "load", boom)
    assert cli.main(["check", str(MINI)]) == 70
    err = capsys.readouterr().err
    assert "internal error" in err and "kaput" in err and "Traceback" not in err


def test_parse_option_keeps_the_text_for_the_options_type() -> None:
    assert parse_option("target=3") == ("target", "3")
    assert isinstance(parse_option("target=3")[1], OptionText)
    assert parse_option("sizes=2,3") == ("sizes", "2,3")
    assert parse_option("name='a b'") == ("name", "a b")
    assert parse_option(" colour = red ") == ("colour", "red")


@pytest.mark.slow  # a new Python process
def test_version() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tabula", "--version"], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert run.returncode == 0 and run.stdout.startswith("tabula ")


# ------------------------------------------------------------------ simulate


def test_simulate_prints_rates() -> None:
    run = tabula("simulate", str(MINI), "--players", "2", "--games", "30", "--seed", "5", "--jobs", "1")
    assert run.returncode == 0, run.stderr
    assert "games/s" in run.stdout and "decisions/s" in run.stdout
    assert "win rate [95% CI]" in run.stdout and "turns      mean" in run.stdout and "endings" in run.stdout


def test_simulate_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        str(MINI),
        "--players",
        "3",
        "--games",
        "20",
        "--seed",
        "9",
        "--json",
        "--option",
        "target=15",
        "--bot",  # a default bot is chosen by measured CPU time, so its note varies
        "all=random",
        "--jobs",
        "1",
    ]
    results = []
    for _ in range(2):
        assert cli.main(argv) == 0
        data = json.loads(capsys.readouterr().out)
        for key in ("seconds", "games_per_second", "decisions_per_second"):
            data.pop(key)
        results.append(data)
    assert results[0] == results[1]
    assert results[0]["games"] == 20 and len(results[0]["seats"]) == 3
    seats = results[0]["seats"]
    assert all(s["wins"] + s["ties"] + s["losses"] == 20 for s in seats)
    # each game has one sole winner (one win) or k >= 2 shared winners (k ties)
    assert sum(s["wins"] for s in seats) <= 20 <= sum(s["wins"] + s["ties"] for s in seats)
    assert all(s["win_rate"]["low"] <= s["win_rate"]["rate"] <= s["win_rate"]["high"] for s in seats)
    assert sum(results[0]["endings"].values()) == 20


def test_simulate_runtime_error_names_location_and_seed(tmp_path: Path) -> None:
    game = broken_copy(tmp_path, "      gain n score(me)\n", "      pay 5 score(me)\n")
    run = tabula("simulate", str(game), "--games", "5", "--seed", "3", "--jobs", "1", cwd=tmp_path)
    assert run.returncode == 1
    assert f"{game / 'game.yaml'}:40:7: error[R009]: " in run.stderr
    assert "--seed 3" in run.stderr and "game 0" in run.stderr
    assert "Traceback" not in run.stderr
    assert (tmp_path / "failed-mini-2p-seed3.yaml").is_file()  # the failed game, as a scenario


# ------------------------------------------------------------------ play


def test_play_through_stdin_reaches_the_end() -> None:
    run = tabula("play", str(MINI), "--players", "2", "--seed", "1", stdin="1\n" * 60)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "choose an action:" in out and " 1) take:1" in out
    assert "Game over." in out and "Final score" in out and "Winner" in out
    assert "\x1b[" not in out  # plain text when not on a terminal


def test_play_shows_only_the_players_view() -> None:
    run = tabula("play", str(MINI), "--players", "2", "--seed", "1", "--names", "Ann,Bob", stdin="q\n")
    assert run.returncode == 0, run.stderr
    you, _, rest = run.stdout.partition("\nBob:")
    assert "You (Ann): score 0 · hand 1" in you and "hand: A" in you
    assert rest.startswith(" score 0 · hand 1\n")  # the opponent in one line: how many cards, not which
    assert "deck (2): ? x2" in rest
    assert "quit." in run.stdout


def test_play_commands_and_eof(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nwhy take\n99\nnonsense\nplay_card:A\n"))
    assert cli.main(["play", str(MINI), "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "'take' is possible now" in out
    assert "no choice numbered 99" in out
    assert "not possible:" in out
    assert "P1: play_card:A" in out
    assert out.rstrip().endswith("quit.")


def test_play_bad_seat() -> None:
    run = tabula("play", str(MINI), "--players", "2", "--seat", "4")
    assert run.returncode == 2 and "--seat 4" in run.stderr


# ------------------------------------------------------------------ verify and schema


@dataclass
class FakeResult:
    name: str
    file: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    error: str | None = None
    log: list[str] = field(default_factory=list)


def fake_scenario_module(tmp_path: Path) -> types.ModuleType:
    module = types.ModuleType("tabula.interpreter.scenarios")

    def find_scenarios(paths: list[str]) -> list[Path]:
        return [tmp_path / "a.yaml", tmp_path / "b.yaml"]

    def run_scenario_cases(path: Path, variant: object = None, expansions: object = ()) -> list[FakeResult]:
        if path.stem == "a":
            return [FakeResult("good one", str(path), True)]
        return [
            FakeResult(
                "bad one",
                str(path),
                False,
                ["money(Thomas) == 7: money(Thomas) is 9"],
                None,
                [f"line {i}" for i in range(30)],
            )
        ]

    module.find_scenarios = find_scenarios  # type: ignore[attr-defined]
    module.run_scenario_cases = run_scenario_cases  # type: ignore[attr-defined]
    return module


def test_verify_reports_like_pytest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "tabula.interpreter.scenarios", fake_scenario_module(tmp_path))
    assert cli.main(["verify", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "PASS good one\n" in out
    assert "FAIL bad one" in out
    assert "money(Thomas) == 7: money(Thomas) is 9" in out
    assert "line 29" in out and "line 5\n" not in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_verify_real_scenarios(tmp_path: Path) -> None:
    pytest.importorskip("tabula.interpreter.scenarios")
    good = f"scenario: takes two\ngame: {MINI}\nplayers: 2\nseed: 1\nwhen: [take:2]\nthen: [pile == 8]\n"
    (tmp_path / "good.yaml").write_text(good)
    (tmp_path / "bad.yaml").write_text(good.replace("takes two", "wrong").replace("pile == 8", "pile == 7"))
    run = tabula("verify", str(tmp_path / "good.yaml"), str(tmp_path / "bad.yaml"))
    assert run.returncode == 1, run.stderr
    assert "PASS takes two" in run.stdout and "FAIL wrong" in run.stdout and "pile == 7" in run.stdout
    assert run.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_verify_missing_path() -> None:
    run = tabula("verify", "no/such/dir")
    assert run.returncode == 2 and "no/such/dir" in run.stderr


@pytest.mark.parametrize("kind", ["game", "scenario"])
def test_schema_prints_json(kind: str) -> None:
    run = tabula("schema", kind)
    assert run.returncode == 0, run.stderr
    assert "properties" in json.loads(run.stdout)


def test_play_stops_at_the_decision_limit_with_a_message(tmp_path: Path) -> None:
    out = tmp_path / "stopped.yaml"
    run = tabula(
        "play", "high-card", "--players", "3", "--seed", "5", "--max-decisions", "4",
        "--record", str(out), stdin="2\n",
    )  # fmt: skip
    assert run.returncode == 1
    assert "stopped: the game did not end within 4 decisions" in run.stdout
    assert run.stdout.count(": play:") == 4  # the person's one decision and three bots'
    assert tabula("verify", str(out)).returncode == 0  # the game so far, replayable


def test_play_and_simulate_share_the_decision_limit() -> None:
    from tabula.balance.simulate import add_simulate_arguments
    from tabula.cli.commands import play_arguments
    from tabula.interpreter.base.limits import MAX_DECISIONS

    defaults = []
    for add in (play_arguments, add_simulate_arguments):
        parser = argparse.ArgumentParser()
        add(parser)
        defaults.append(parser.parse_args(["high-card"]).max_decisions)
    assert defaults == [MAX_DECISIONS, MAX_DECISIONS] == [100_000, 100_000]
