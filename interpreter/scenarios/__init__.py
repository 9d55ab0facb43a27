"""Scenarios: rulebook examples as data (given / when / then), run by `tabula verify`, the pytest
plugin (`tabula.pytest_plugin`) and rules coverage, all through one runner.

The parts, each a module of its own:

- `files`: finding scenario files, the game a file names, expanding a file into cases
  (`cases:` and the `examples:` table of a scenario outline);
- `given`: writing `given` into a state (flow position, vars, counters, zones, marks, the
  top of a zone, the order after a zone's next shuffle);
- `context`: evaluating the file's conditions, with both sides of a failed comparison;
- `runner`: running one case (choices, checks now or at an event, probes, mid-scenario
  `given`), with compiled games shared per process;
- `record`: writing a scenario file from a played game;
- `checks`: boundary checks of a file's values before they are used;
- `coverage`: which rules the scenarios (and random games) exercise.

The format is docs/language.md §6; the JSON Schema is `tabula schema scenario`.
"""

from __future__ import annotations

from tabula.interpreter.scenarios.files import Case, Loaded, find_scenarios, load_cases
from tabula.interpreter.scenarios.runner import (
    GAMES,
    ScenarioResult,
    run_case,
    run_scenario_cases,
    run_scenario_file,
)

__all__ = [
    "GAMES",
    "Case",
    "Loaded",
    "ScenarioResult",
    "find_scenarios",
    "load_cases",
    "run_case",
    "run_scenario_cases",
    "run_scenario_file",
]
