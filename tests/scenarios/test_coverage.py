"""Rules coverage: scenarios and random games mark the blocks they run; the rest is listed with its line."""

from __future__ import annotations

import shutil
from pathlib import Path

from tabula.interpreter.scenarios.coverage import measure, render

ROOT = Path(__file__).resolve().parents[2]


def test_the_tutorial_games_scenarios_cover_all_its_rules() -> None:
    report = measure(ROOT / "gamedefs" / "high-card")
    assert report.scenarios and all(r.passed for r in report.scenarios)
    assert not report.missed, report.missed
    assert "all" in render(report) and "100.0%" in render(report)


def test_a_rule_no_scenario_reaches_is_listed_with_its_location(tmp_path: Path) -> None:
    folder = tmp_path / "mini"
    shutil.copytree(ROOT / "tests" / "games" / "mini", folder)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(
        text.replace(
            "      set last = me\n", "      set last = me\n      if pile > 100:\n        gain 1 score(me)\n"
        )
    )
    report = measure(folder)
    assert [name for name, _ in report.missed.get("action", [])] == ["stop"]  # no scenario stops
    missed = report.missed["branch"]
    assert len(missed) == 1 and missed[0][1] is not None and missed[0][1].line == 41
    report = measure(folder, games=3, players=2)
    assert report.random_games == 3
