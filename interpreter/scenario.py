"""Scenarios: rulebook examples as data (given / when / then), run by `tabula verify`, the pytest
plugin (`tabula.pytest_plugin`) and rules coverage, all through one runner.

The parts, each a module of its own:

- `scenario_files`: finding scenario files, the game a file names, expanding a file into cases
  (`cases:` and the `examples:` table of a scenario outline);
- `scenario_given`: writing `given` into a state (flow position, vars, counters, zones, marks, the
  top of a zone, the order after a zone's next shuffle);
- `scenario_eval`: evaluating the file's conditions, with both sides of a failed comparison;
- `scenario_run`: running one case (choices, checks now or at an event, probes, mid-scenario
  `given`), with compiled games shared per process;
- `scenario_record`: writing a scenario file from a played game.

The format is docs/language.md §6; the JSON Schema is `tabula schema scenario`.
"""

from __future__ import annotations

from tabula.interpreter.scenario_files import Case, Loaded, find_scenarios, load_cases
from tabula.interpreter.scenario_run import (
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
