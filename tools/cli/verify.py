"""`tabula verify`: run scenario files and report them like pytest.

The scenario runner is the one the pytest plugin uses, `tabula.interpreter.scenarios`:
`find_scenarios(paths)`, and `run_scenario_cases(path)` returning one result per case of the file
(`name, file, passed, failures, error, log`); compiled games are shared by every case of a run. This
module prints `PASS name` / `FAIL name` per case, the failures, errors and last log lines of the
failed ones, and a final `N passed, M failed` line (with `--json`: one JSON document of every result);
the exit code is 1 when any case failed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Protocol

from tabula.common import CliError, print_json, runtime_error_text
from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import BUNDLED
from tabula.interpreter.run.runtime import GameRuntimeError

LOG_TAIL = 10


class ScenarioResult(Protocol):
    """What `tabula.interpreter.scenarios.run_scenario_cases` returns, one per case."""

    name: str
    file: str
    passed: bool
    failures: list[str]
    error: str | None
    log: list[str]


class Broken:
    """A scenario file the runner could not even start (its error text stands in for a result)."""

    def __init__(self, path: Path, error: str) -> None:
        self.name = path.stem
        self.file = str(path)
        self.passed = False
        self.failures: list[str] = []
        self.error: str | None = error
        self.log: list[str] = []


def scenario_module() -> ModuleType:
    """`tabula.interpreter.scenarios`, or a CliError while it does not exist yet."""
    try:
        return importlib.import_module("tabula.interpreter.scenarios")
    except ImportError as err:
        raise CliError(f"scenarios cannot be run: interpreter.scenario is not available ({err})") from err


def run_one(
    module: ModuleType,
    path: Path,
    variant: str | None = None,
    expansions: tuple[str, ...] = (),
    backend: str = "python",
) -> list[ScenarioResult]:
    """The results of every case of one file."""
    try:
        if backend == "python":
            results: list[ScenarioResult] = module.run_scenario_cases(path, variant, expansions)
        else:
            results = module.run_scenario_cases(path, variant, expansions, backend=backend)
    except AuthorError as err:
        return [Broken(path, str(err))]
    except GameRuntimeError as err:
        return [Broken(path, runtime_error_text(err))]
    return results


def indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def report(result: ScenarioResult) -> None:
    """One line per scenario; the details for a failed one."""
    if result.passed:
        print(f"PASS {result.name}")
        return
    print(f"FAIL {result.name}  ({result.file})")
    if result.error:
        print(indent(result.error))
    for failure in result.failures:
        print(indent(failure))
    if result.log:
        print("    last log lines:")
        print(indent("\n".join(result.log[-LOG_TAIL:]), "      "))


def run_verify(args: argparse.Namespace) -> int:
    """Run every scenario found under the paths; 1 if any failed."""
    if args.option:
        print("tabula verify: --option is ignored; each scenario sets its own options", file=sys.stderr)
    missing = [p for p in args.paths if not Path(p).exists() and not (BUNDLED / p).is_dir()]
    if missing:
        raise CliError(f"no such file or folder: {', '.join(missing)}")
    module = scenario_module()
    paths: list[Path] = list(module.find_scenarios(list(args.paths)))
    if not paths:
        raise CliError(f"no scenario files found in {', '.join(args.paths)}")
    as_json = bool(getattr(args, "json", False))
    results = []
    for path in paths:
        backend = getattr(args, "backend", "python")
        for result in run_one(module, path, args.variant, tuple(args.expansions), backend):
            results.append(result)
            if not as_json:
                report(result)
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if as_json:
        print_json({"passed": passed, "failed": failed, "scenarios": [result_json(r) for r in results]})
    else:
        print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def result_json(result: ScenarioResult) -> dict[str, object]:
    """One scenario's result as plain data (`verify --json`)."""
    return {
        "name": result.name,
        "file": result.file,
        "passed": result.passed,
        "failures": list(result.failures),
        "error": result.error,
        "log": [] if result.passed else list(result.log),  # as the text report: for failures only
    }
