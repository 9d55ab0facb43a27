"""Every scenario file (rulebook examples as data) is a test case."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.scenario import find_scenarios, run_scenario_file

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = find_scenarios([str(ROOT / "gamedefs"), str(ROOT / "tests" / "games")])


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario_file(path)
    detail = "\n".join([*(result.failures or []), result.error or "", "--- log ---", *result.log])
    assert result.passed, detail


def test_scenarios_are_found() -> None:
    assert any("mini" in str(p) for p in SCENARIOS)
