"""Every scenario file (rulebook examples as data) is a test case.

Tiers: the scenarios of the small games (tests/games, High Card) and the first scenario of each big
game run in the fast tier; the other scenarios of Porta Nigra and Glory to Rome (each loads its game:
about a second) are `slow` and run in the full suite.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.scenario import find_scenarios, run_scenario_file

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = find_scenarios([str(ROOT / "gamedefs"), str(ROOT / "tests" / "games")])
BIG_GAMES = ("porta-nigra", "glory-to-rome")


def tiered(paths: list[Path]) -> list[object]:
    """Each scenario as a parameter; those of the big games but their first are marked slow."""
    big = {game: sorted(p for p in paths if game in p.parts) for game in BIG_GAMES}
    first = {found[0] for found in big.values() if found}
    out: list[object] = []
    for p in paths:
        slow = any(game in p.parts for game in BIG_GAMES) and p not in first
        out.append(pytest.param(p, id=str(p.relative_to(ROOT)), marks=[pytest.mark.slow] if slow else []))
    return out


@pytest.mark.parametrize("path", tiered(SCENARIOS))
def test_scenario(path: Path) -> None:
    result = run_scenario_file(path)
    detail = "\n".join([*(result.failures or []), result.error or "", "--- log ---", *result.log])
    assert result.passed, detail


def test_scenarios_are_found() -> None:
    assert any("mini" in str(p) for p in SCENARIOS)
