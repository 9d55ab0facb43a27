"""Issue 24, items 1 and 2: answers in the game's own terms, and per-card signal instead of noise.

Score parts (`presentation.score`), counters and numeric vars at the end, how games ended; compare's
differences of them with intervals and a verdict that names them first; the per-card and per-action
lift by seat with a Benjamini-Hochberg flag, and rows every player does folded away. The variants
are written here, each changing one thing, so what the report must find is known.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tabula.balance import defaults
from tabula.balance.lift import stratified_lift
from tabula.balance.stats import benjamini_hochberg, holm, mean_interval, paired_diff
from tabula.cli import main as cli

MONEY_SCORING = """\
pack: money-scoring
kind: variant
description: Every coin left at the end scores 1 VP (instead of 1 VP per 3 coins).
game: porta-nigra
replace:
  constants.leftover_money_per_vp: 1
"""

PLANTED_CARD = """\
pack: planted-card
kind: variant
description: An overpowered honour card, planted for a test - HC-VP5 gains 30 VP.
game: porta-nigra
replace:
  components.honour_card.instances[HC-VP5].amount: 30
"""


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert cli.main(list(argv)) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ statistics


def test_holm_and_benjamini_hochberg_on_known_values() -> None:
    ps = [0.01, 0.04, 0.03, 0.005]
    # Holm: 0.005 <= 0.05/4, 0.01 <= 0.05/3, 0.03 > 0.05/2: the step-down stops there
    assert holm(ps) == [True, False, False, True]
    # BH: the largest rank k with p(k) <= 0.05 k / 4 is k = 4 (0.04 <= 0.05): all four
    assert benjamini_hochberg(ps) == [True, True, True, True]
    assert benjamini_hochberg([0.2, 0.5, 0.04]) == [False, False, False]  # 0.04 > 0.05 / 3


def test_paired_difference_and_mean_interval() -> None:
    a = [float(x % 5) for x in range(40)]
    shifted = paired_diff(a, [x + 2.0 for x in a])
    assert shifted.diff == 2.0 and shifted.low == shifted.high == 2.0 and shifted.p == 0.0
    noisy = paired_diff(a, [x + (1.0 if i % 2 else -1.0) for i, x in enumerate(a)])
    assert noisy.diff == 0.0 and noisy.low < 0 < noisy.high and noisy.p == pytest.approx(1.0)
    m = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert m["mean"] == 2.5 and m["low"] < 2.5 < m["high"]


def test_lift_is_conditioned_on_the_seat() -> None:
    """A card only seat 0 takes, where seat 0 wins 80 % whether or not it took the card: no lift,
    though its takers win far more often than the players who never took it (seat 1, 20 %)."""
    seats = {0: [100, 80], 1: [100, 20]}
    did = {0: [50, 40]}
    assert stratified_lift(did, seats)["lift"] == pytest.approx(0.0)
    strong = stratified_lift({0: [50, 49], 1: [50, 19]}, seats)
    assert strong["lift"] == pytest.approx(0.36) and strong["low"] > 0 and strong["p"] < 0.001


# ------------------------------------------------------------------ simulate in the game's terms


def test_simulate_reports_score_parts_end_values_and_endings(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys, "simulate", "porta-nigra", "--players", "2", "--games", "6", "--bot", "all=random", "--json"
    )
    parts = {r["name"]: r for r in data["score_parts"]}  # type: ignore[attr-defined]
    assert list(parts) == [
        "Building card sets",
        "Final-scoring honour cards",
        "Leftovers",
        "Majorities",
        "VP during play",
    ]
    # the parts and the rest add up to each seat's mean score
    for seat in data["seats"]:  # type: ignore[attr-defined]
        total = sum(r["seats"][seat["seat"]]["mean"] for r in parts.values())
        assert total == pytest.approx(seat["score"]["mean"])
    leftovers = parts["Leftovers"]["overall"]
    assert leftovers["n"] == 12 and leftovers["low"] <= leftovers["mean"] <= leftovers["high"]
    values = {r["name"] for r in data["end_values"]}  # type: ignore[attr-defined]
    assert {"money", "vp", "torches", "bricks.white", "builder"} <= values  # counters and an int var
    assert "brick_supply" in {r["name"] for r in data["table_values"]}  # type: ignore[attr-defined]
    assert data["endings"] == {"normal": 6}


# ------------------------------------------------------------------ compare in the game's terms


def compare_money_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, *bots: str
) -> dict[str, object]:
    variant = write(tmp_path, "money.yaml", MONEY_SCORING)
    argv = ["compare", "porta-nigra", "--players", "2", "--games", "20", "--b", f"--variant {variant}"]
    return run_json(capsys, *argv, *bots, "--json")


def test_compare_names_the_changed_score_part_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Random bots play the same games on both sides: only the scoring moves, and the verdict says
    where the points came from before anything else."""
    data = compare_money_scoring(capsys, tmp_path, "--bot", "all=random")
    verdict = str(data["verdict"])
    first = verdict.split(": ", 2)[2]
    assert first.startswith("Leftovers (score part) +"), verdict
    parts = {r["name"]: r for r in data["score_parts"]}  # type: ignore[attr-defined]
    left = parts["Leftovers"]
    assert left["diff"] > 2 and 0 < left["low"] <= left["diff"] <= left["high"] and left["p"] < 1e-6
    assert f"Leftovers (score part) {left['diff']:+.2f} [{left['low']:+.2f}, {left['high']:+.2f}]" in verdict
    for name, row in parts.items():  # every part has its difference, interval and test, by seat too
        assert {"a", "b", "diff", "low", "high", "p"} <= set(row) and len(row["seats"]) == 2
        if name != "Leftovers":
            assert row["diff"] == 0 and row["p"] == 1.0, name  # the same games: nothing else moved
    assert "game length" not in verdict


@pytest.mark.slow  # 40 games of greedy bots
def test_compare_with_default_bots_names_the_changed_score_part_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an allowance of 30 CPU s, not 5 minutes: the default bots are the strongest the machine's
    # speed affords, so a fast machine chose a bot costing up to the whole allowance (60-112 s)
    monkeypatch.setattr(defaults, "ANSWER_SECONDS", 30.0)
    monkeypatch.setattr(defaults, "BUDGET_SECONDS", 15.0)
    data = compare_money_scoring(capsys, tmp_path)
    assert str(data.get("bot_choice", "default bots")).startswith("default bots"), data.get("bot_choice")
    assert str(data["verdict"]).split(": ", 2)[2].startswith("Leftovers (score part) +"), data["verdict"]


# ------------------------------------------------------------------ per-card signal


def test_a_planted_overpowered_card_is_flagged_and_ubiquitous_cards_are_folded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    variant = write(tmp_path, "planted.yaml", PLANTED_CARD)
    argv = ["simulate", "porta-nigra", "--players", "2", "--games", "60", "--bot", "all=random"]
    data = run_json(capsys, *argv, "--variant", variant, "--json")
    rows = data["components"]
    assert isinstance(rows, list)
    by_name = {r["name"]: r for r in rows}
    card = by_name["HC-VP5"]
    assert card["flagged"] and card["lift"]["low"] > 0.2, card["lift"]
    first = [r["name"] for r in rows[:8]]
    assert "HC-VP5" in first and not any(n in first for n in ("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"))
    assert all(by_name[f"C{i}"]["folded"] and not by_name[f"C{i}"]["flagged"] for i in range(1, 9))
    assert not by_name["HC-MONEY5"]["flagged"]  # the unchanged honour cards are not flagged
    # the text says the same
    assert cli.main([*argv, "--variant", variant]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("HC-VP5 "))
    assert line.endswith("significant")
    # the per-card tables fold the action cards that every player holds and plays
    assert "cards: honour_card" in out and "cards: action_card" in out
    assert "folded (done by nearly every player in nearly every game)" in out


# ------------------------------------------------------------------ plots


def test_compare_plots_one_chart_per_score_part_and_an_index(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, assert_png: Callable[[Path], None]
) -> None:
    argv = ["compare", "porta-nigra", "--players", "2", "--games", "4", "--bot", "all=random"]
    variant = write(tmp_path, "money.yaml", MONEY_SCORING)
    assert (
        cli.main([*argv, "--b", f"--variant {variant}", "--plot", str(tmp_path / "plots"), "--jobs", "1"])
        == 0
    )
    capsys.readouterr()
    parts = ["building-card-sets", "final-scoring-honour-cards", "leftovers", "majorities", "vp-during-play"]
    files = ["win_rate.png", "scores.png", "length.png", *(f"part-{p}.png" for p in parts)]
    page = (tmp_path / "plots" / "index.html").read_text()
    for name in files:
        assert_png(tmp_path / "plots" / name)
        assert f'<li><a href="#{name}">' in page and f'<img src="{name}"' in page
    assert "score part Leftovers" in page and "\nverdict: " in page
