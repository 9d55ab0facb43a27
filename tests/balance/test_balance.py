"""The balancing loop: bots, simulate's statistics and exports, compare, plots, --jobs and Ray.

Small, fast versions of the runs in docs/balancing.md: few games, playout budgets (so every result
is fixed by the seed), asserting real outcomes. The long experiments of issue 12 are in
tests/bots/test_bot_strength.py (marked slow).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tabula.balance.match import Config, play_game
from tabula.balance.parallel import map_seeds
from tabula.balance.simulate import replay_command
from tabula.balance.stats import bootstrap_diff, describe, two_proportion_z, wilson
from tabula.bots.spec import BotSpecError, parse_bot_spec
from tabula.cli import main as cli
from tabula.interpreter.scenarios import run_scenario_cases

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "games" / "mini"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert cli.main(list(argv)) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


# ------------------------------------------------------------------ statistics


def test_wilson_interval_matches_known_values() -> None:
    p = wilson(8, 10)
    assert p.rate == 0.8
    assert p.low == pytest.approx(0.4902, abs=1e-4) and p.high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 20).low == 0.0 and wilson(20, 20).high == 1.0


def test_two_proportion_test_and_bootstrap() -> None:
    same = two_proportion_z(50, 100, 50, 100)
    assert same.diff == 0 and same.p == pytest.approx(1.0)
    far = two_proportion_z(30, 100, 70, 100)
    assert far.diff == pytest.approx(0.4) and far.p < 1e-6 and far.low > 0
    a = [float(x % 7) for x in range(60)]
    b = [x + 3.0 for x in a]
    d = bootstrap_diff(a, b, paired=True)
    assert d.diff == pytest.approx(3.0) and d.low == pytest.approx(3.0) and d.p == 0.0
    assert bootstrap_diff(a, a).p > 0.9  # unpaired: resampling noise around a zero difference
    stats = describe([1, 2, 3, 4])
    assert stats["mean"] == 2.5 and stats["median"] == 2.5 and stats["q25"] == 1.75


# ------------------------------------------------------------------ bots


def test_bot_specs_parse_and_refuse() -> None:
    assert parse_bot_spec("ismcts:0.25s").budget.seconds == 0.25  # type: ignore[union-attr]
    assert parse_bot_spec("mcts:300:depth=5:rollout=greedy").text == "mcts:300:depth=5:rollout=greedy"
    # greedy's depth is its own decisions looked ahead (3 by default: not shown); mcts's is 20
    assert parse_bot_spec("greedy:2:depth=1").text == "greedy:2:depth=1"
    assert parse_bot_spec("greedy:depth=3").text == "greedy"
    assert (
        parse_bot_spec("mcts:depth=20").text == "mcts"
        and parse_bot_spec("ismcts:reuse=no").text == "ismcts:reuse=no"
    )
    assert parse_bot_spec("mcts:10:depth=0").effective_depth == 0
    # greedy's ties: played on by default (not shown), or broken at random at once
    assert parse_bot_spec("greedy:1:depth=1:ties=random").text == "greedy:1:depth=1:ties=random"
    assert parse_bot_spec("greedy:ties=play").text == "greedy"
    for bad, word in [
        ("alphazero", "unknown bot"),
        ("random:3", "no budget"),
        ("ismcts:fast", "budget"),
        ("greedy:0.1s", "determinisations"),
        ("mcts:10:depth=x", "does not take"),
        ("greedy:depth=0", "does not take"),
        ("random:depth=2", "does not take"),
        ("ismcts:ties=random", "does not take"),
        ("greedy:ties=never", "does not take"),
    ]:
        with pytest.raises(BotSpecError, match=word):
            parse_bot_spec(bad)


@pytest.mark.slow  # hundreds of games of search bots
def test_search_bots_beat_random_at_high_card() -> None:
    """Deterministic (playout budgets): the search bots win clearly more than the 50 % of chance."""
    for spec in ("ismcts:30", "mcts:30", "greedy:2"):
        config = Config("high-card", 2, bots=(spec, "random"), rotate=True)
        records = [play_game(config, i, 100 + i) for i in range(100)]
        wins = sum(1 for r in records if r.winners == [r.bots.index(spec)])
        # chance would win about 50 of 100 (sd 5); measured: 63, 63 and 59
        assert wins >= 58, (spec, wins)


def test_bad_bot_flags_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "high-card", "--bot", "5=random", "--jobs", "1"]) == 2  # a bad call
    assert "seat must be 0..1" in capsys.readouterr().err
    assert cli.main(["simulate", "high-card", "--bot", "0=ismcts:many", "--jobs", "1"]) == 2
    assert "neither a number of playouts" in capsys.readouterr().err


def test_bots_section_errors_are_located(tmp_path: Path) -> None:
    import shutil

    from tabula.bots.spec import make_bot
    from tabula.interpreter.base.source import AuthorError
    from tabula.interpreter.engine import Engine, load_game

    game = tmp_path / "hc"
    shutil.copytree(ROOT / "gamedefs" / "high-card", game)
    (game / "bots.yaml").write_text("bots:\n  evaluate: tricks(p) + nonsense(p)\n")
    engine = Engine(load_game(game))
    with pytest.raises(AuthorError) as err:
        make_bot("greedy", engine)
    assert f"{game / 'bots.yaml'}:2:" in str(err.value) and "nonsense" in str(err.value)
    (game / "bots.yaml").write_text("bots:\n  evaluate: tricks(p) * 2\n  scale: 3\n")
    bot = make_bot("greedy", Engine(load_game(game)))
    assert bot.evaluation.scale == 3.0 and bot.evaluation.source == "tricks(p) * 2"  # type: ignore[attr-defined]


# ------------------------------------------------------------------ simulate: output and files


@pytest.mark.slow  # simulates games with a search bot
def test_simulate_json_names_the_configuration_and_counts_everything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = run_json(
        capsys,
        "simulate",
        "porta-nigra",
        "--players",
        "2",
        "--games",
        "4",
        "--variant",
        "family",
        "--bot",
        "0=greedy:1",
        "--rotate-bots",
        "--json",
        "--jobs",
        "1",
    )
    assert data["variant"] == "family" and data["bots"] == ["greedy:1", "random"] and data["rotate_bots"]
    by_bot = data["by_bot"]
    assert isinstance(by_bot, dict) and set(by_bot) == {"greedy:1", "random"}
    assert all(b["games"] == 4 for b in by_bot.values())
    assert data["endings"] == {"normal": 4}
    actions = data["actions"]
    assert isinstance(actions, list) and {"play", "end_turn"} <= {a["name"] for a in actions}
    assert data["bot_effort"]["greedy:1"]["playouts_per_decision"] > 1  # type: ignore[index]


@pytest.mark.slow  # simulates games twice
def test_out_rows_are_complete_in_jsonl_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonl, table = tmp_path / "games.jsonl", tmp_path / "games.csv"
    for out in (jsonl, table):
        assert (
            cli.main(
                [
                    "simulate",
                    "porta-nigra",
                    "--players",
                    "3",
                    "--games",
                    "5",
                    "--seed",
                    "7",
                    "--bot",
                    "all=random",
                    "--out",
                    str(out),
                    "--jobs",
                    "1",
                ]
            )
            == 0
        )
    capsys.readouterr()
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [7, 8, 9, 10, 11]
    for r in rows:
        assert set(r) >= {"seed", "winners", "scores", "turns", "decisions", "ending", "counters", "bots"}
        assert len(r["scores"]) == 3 and len(r["counters"]) == 3 and r["winners"]
        assert r["counters"][0] and all(isinstance(v, int) for v in r["counters"][0].values())
    with table.open() as f:
        flat = list(csv.DictReader(f))
    assert len(flat) == 5
    counters = sorted(rows[0]["counters"][0])
    for row, r in zip(flat, rows, strict=True):
        assert all(value != "" for key, value in row.items() if key != "error"), row
        assert int(row["seed"]) == r["seed"] and int(row["p2_score"]) == r["scores"][2]
        assert all(f"p1_{c}" in row for c in counters)


def test_out_refuses_an_unknown_format_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["simulate", "high-card", "--out", str(tmp_path / "x.xlsx"), "--jobs", "1"]) == 2
    assert "must end in .jsonl, .csv, .parquet" in capsys.readouterr().err


def test_replay_command_carries_every_flag() -> None:
    from tabula.balance.match import GameRecord

    config = Config(
        "glory-to-rome",
        2,
        (("petition_sizes", "3"), ("surrender_allowed", False)),
        "imperium",
        ("all-44-buildings",),
        ("ismcts:50", "greedy"),
        900,
        rotate=True,
    )
    rec = GameRecord(3, 13, config.bots_for(3), ["P1", "P2"])
    cmd = replay_command(config, rec)
    assert cmd == (
        "tabula simulate glory-to-rome --players 2 --games 1 --seed 13 --variant imperium "
        "--with all-44-buildings --option petition_sizes=3 --option surrender_allowed=false "
        "--bot 0=greedy --bot 1=ismcts:50 --max-decisions 900"
    )


def test_failing_game_prints_a_replay_with_its_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    monkeypatch.chdir(tmp_path)  # the failed game is written as a scenario in the current folder

    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    path = game / "game.yaml"
    path.write_text(path.read_text().replace("      gain n score(me)\n", "      pay 5 score(me)\n"))
    assert (
        cli.main(["simulate", str(game), "--games", "3", "--seed", "3", "--bot", "1=greedy:2", "--jobs", "1"])
        == 1
    )
    err = capsys.readouterr().err
    assert f"tabula simulate {game} --players 2 --games 1 --seed 3 --bot 0=random --bot 1=greedy:2" in err
    # written from the game's record, not played again: the scenario fails with the same error
    (result,) = run_scenario_cases(tmp_path / "failed-mini-2p-seed3.yaml")
    assert not result.passed and result.error is not None and "game.yaml:" in result.error
    assert result.error.split(": ", 2)[2].splitlines()[0] in err


def test_a_rule_failing_in_the_default_bots_probe_is_reported_without_playing_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from tabula.balance.match import Match

    monkeypatch.chdir(tmp_path)
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    path = game / "game.yaml"
    path.write_text(path.read_text().replace("      gain n score(me)\n", "      pay 5 score(me)\n"))

    def played(*_args: object) -> None:
        raise AssertionError("the probe's failed game was played again")

    monkeypatch.setattr(Match, "play", played)
    assert cli.main(["simulate", str(game), "--games", "3", "--seed", "3", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert f"tabula simulate {game} --players 2 --games 1 --seed 3 --bot all=random" in err
    (result,) = run_scenario_cases(tmp_path / "failed-mini-2p-seed3.yaml")
    assert not result.passed and result.error is not None and "game.yaml:" in result.error


# ------------------------------------------------------------------ compare and plots


@pytest.mark.slow  # simulates a family of variants and draws plots
def test_compare_family_variant_prints_a_verdict_and_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], assert_png: Callable[[Path], None]
) -> None:
    assert (
        cli.main(
            [
                "compare",
                "porta-nigra",
                "--players",
                "2",
                "--games",
                "6",
                "--b",
                "--variant family",
                "--bot",
                "all=random",
                "--plot",
                str(tmp_path / "plots"),
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "B: --variant family" in out and "\nverdict: " in out
    for name in ("win_rate.png", "scores.png", "length.png"):
        assert_png(tmp_path / "plots" / name)
    page = (tmp_path / "plots" / "index.html").read_text()
    assert '<img src="win_rate.png"' in page and "verdict" in page


def test_compare_finds_a_real_difference(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        *("compare", "high-card", "--games", "60", "--b", "--option tricks=2", "--bot", "all=random"),
        *("--json", "--jobs", "1"),
    )
    assert data["decisions"]["diff"] == -6.0  # type: ignore[index]
    assert "game length (decisions) -6.00" in str(data["verdict"])


@pytest.mark.slow  # simulates games and draws plots with matplotlib
def test_simulate_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], assert_png: Callable[[Path], None]
) -> None:
    assert (
        cli.main(
            [
                "simulate",
                "high-card",
                "--games",
                "10",
                "--bot",
                "0=greedy",
                "--plot",
                str(tmp_path),
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    capsys.readouterr()
    for name in ("win_rate.png", "win_rate_by_bot.png", "scores.png", "length.png"):
        assert_png(tmp_path / name)


# ------------------------------------------------------------------ --jobs and Ray


@pytest.mark.slow  # the same games in one process and in worker processes
def test_jobs_give_the_same_results_as_one_process() -> None:
    config = Config("porta-nigra", 2, bots=("greedy:1", "random"), rotate=True)
    seeds = list(range(50, 56))
    one = map_seeds(play_game, config, seeds, jobs=1).results
    two = map_seeds(play_game, config, seeds, jobs=2).results
    strip = [(r.seed, r.bots, r.scores, r.winners, r.decisions, r.actions, r.gained) for r in one]
    assert strip == [(r.seed, r.bots, r.scores, r.winners, r.decisions, r.actions, r.gained) for r in two]


def test_ray_gives_the_same_output_as_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    argv = ["simulate", "high-card", "--games", "12", "--seed", "4", "--bot", "0=greedy:2", "--json"]
    local = run_json(capsys, *argv, "--jobs", "1")
    ray = run_json(capsys, *argv, "--ray", "--jobs", "2")
    for data in (local, ray):
        for key in ("seconds", "games_per_second", "decisions_per_second", "bot_effort"):
            data.pop(key)
    assert ray == local
