"""Issue 36 through the command line: seat fairness in --json, --until-decided on simulate and
compare, the per-card tables by kind (--cards), and the planted 6-VP Statue of Glory to Rome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabula.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "tests" / "balance" / "fixtures" / "planted-honour.yaml"


def data_share(line: str) -> float:
    """The win rate in a "smallest effect" line, as a fraction."""
    return float(line.split("a seat's win rate ")[1].split("%")[0]) / 100


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert cli.main(list(argv)) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.slow
def test_simulate_reports_fairness_by_seat_and_by_turn_position(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "porta-nigra",
        "--players",
        "3",
        "--games",
        "30",
        "--bot",
        "all=random",
        "--jobs",
        "1",
    ]
    data = run_json(capsys, *argv, "--json")
    seat, pos = data["fairness_seat"], data["fairness_position"]
    assert isinstance(seat, dict) and isinstance(pos, dict)
    assert seat["sole_wins"] + seat["ties"] + seat["unfinished"] == 30
    assert sum(r["wins"] for r in seat["rows"]) == sum(r["wins"] for r in pos["rows"]) == seat["sole_wins"]
    # the same games, counted by position instead of by seat: 1st to play won 17 of 29
    assert [r["wins"] for r in pos["rows"]] == [17, 6, 6] and pos["favoured"] and not seat["favoured"]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert "not a turn position" in text and "Holm" in text
    assert "all turn positions together:  chi-square 8.34, 2 df, p=0.015: a turn position is favoured" in text


@pytest.mark.slow
def test_until_decided_stops_early_on_a_clear_difference(capsys: pytest.CaptureFixture[str]) -> None:
    # greedy against random in Porta Nigra: 95 % of the games, decided in a few batches
    argv = [
        "simulate",
        "porta-nigra",
        "--players",
        "2",
        "--games",
        "10",
        "--until-decided",
        "--max-games",
        "400",
    ]
    data = run_json(capsys, *argv, "--bot", "0=greedy:1", "--jobs", "1", "--json")
    decided = data["until_decided"]
    assert isinstance(decided, dict) and decided["decided"]
    assert "seat 0 (Red)" in decided["differs"]
    assert data["games"] <= 60 and data["games"] % 10 == 0


@pytest.mark.slow
def test_until_decided_on_a_null_difference_says_how_large_none_was(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [
        "compare",
        "high-card",
        "--games",
        "50",
        "--until-decided",
        "--max-games",
        "100",
        "--tolerance",
        "0.01",
    ]
    # B is A (the default number of tricks): the same games, no difference at all
    assert cli.main([*argv, "--b", "--option tricks=5", "--bot", "all=random", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("until decided"))
    assert "not decided (--max-games reached): no difference larger than" in line
    assert "in a seat's win share or 0.00 points in a seat's score found in 100 games" in line
    assert "the smallest these games would have found (80 % power)" in line
    assert "smallest effect these 100 games find with 80 % power" in text
    # the same games on both sides: no paired spread to read, so the win rate's is that of the
    # two-proportion test the seat table runs (about 20 % here; a stand-in sd of 1.0 gave 28 %) and the
    # score's that of the scores themselves (not 0.00 points); then what the games rule out
    smallest = next(x for x in text.splitlines() if x.startswith("smallest effect"))
    assert "(A and B played the same games" in smallest and " 0.00 points" not in smallest, smallest
    assert 0.15 < data_share(smallest) < 0.25, smallest
    assert any(
        x.startswith("no difference larger than ")
        and x.endswith("found in 100 games (the widest ends of their 95 % intervals)")
        for x in text.splitlines()
    )


@pytest.mark.slow
def test_compare_until_decided_decides_on_the_scores_it_compares(capsys: pytest.CaptureFixture[str]) -> None:
    """Three tricks instead of five: random bots win as often as before, but every seat scores
    less. Watching the win shares alone, the run went on to --max-games; the scores decide it in
    the first batches."""
    argv = ["compare", "high-card", "--games", "10", "--until-decided", "--max-games", "200"]
    data = run_json(capsys, *argv, "--b", "--option tricks=3", "--bot", "all=random", "--jobs", "1", "--json")
    decided = data["until_decided"]
    assert isinstance(decided, dict) and decided["decided"], decided
    assert data["games"] <= 40  # the scores are read from 30 games on
    assert any(name.endswith("score B-A") for name in decided["differs"]), decided["differs"]
    assert all(decided["intervals"][k]["high"] < 0 for k in decided["differs"])


@pytest.mark.slow
def test_card_tables_group_by_kind_and_measure_what_was_done(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "porta-nigra", "--variant", str(PLANTED), "--games", "60", "--bot", "all=random"]
    data = run_json(capsys, *argv, "--jobs", "1", "--json")
    rows = data["cards"]
    assert isinstance(rows, list)
    top = next(r for r in rows if r["kind"] == "honour_card")
    assert (top["card"], top["did"], top["flagged"]) == ("HC-VP5", "chose", True)
    assert {r["kind"] for r in rows} >= {"site", "honour_card", "building_card"}
    assert all(-1 <= r["lift"]["low"] <= r["lift"]["high"] <= 1 for r in rows)
    assert all(not r["flagged"] for r in rows if r["too_few"])
    assert cli.main([*argv, "--jobs", "1", "--cards", "honour_card"]) == 0
    text = capsys.readouterr().out
    assert "cards: honour_card" in text and "cards: site" not in text
    assert cli.main([*argv, "--jobs", "1", "--cards", "dragon"]) == 2
    assert "the game's card kinds are" in capsys.readouterr().err


@pytest.mark.slow
def test_a_planted_six_point_statue_is_the_strongest_building(capsys: pytest.CaptureFixture[str]) -> None:
    # Glory to Rome on the native backend, the Statue's +3 VP made +6 by the statue-six variant, with
    # random bots, named: the default bots of 100 games (one-ply greedy) seldom build the Statue, so
    # no table of theirs can flag it. Measured over 60 games of greedy:1:depth=1 (seeds 0-59): the
    # Statue was founded 3 times in 120 player-games, against 19.5 on average for a building (the
    # next fewest 9), completed twice; its cards went to the vault (18), the materials (20), the
    # stockpile (15): vaulting a marble card scores 3 VP at once, which one ply sees, while the
    # Statue's points come turns later, once founded and completed (docs/balancing.md)
    argv = ["simulate", "glory-to-rome", "--players", "2", "--games", "100", "--variant", "statue-six"]
    data = run_json(capsys, *argv, "--bot", "all=random", "--cards", "order", "--jobs", "1", "--json")
    rows = data["cards"]
    assert isinstance(rows, list)
    built = [r for r in rows if r["did"].startswith("in buildings, completed") and not r["too_few"]]
    # the table's order: significant rows first, then by p-value (the strongest evidence first)
    strongest = built[0]
    assert strongest["card"] == "Statue", [(r["card"], r["lift"]["lift"], r["lift"]["p"]) for r in built[:5]]
    assert strongest["lift"]["low"] > 0
