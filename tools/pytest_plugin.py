"""pytest plugin: Tabula scenario files are collected as test items, one per case, named by its title.

Registered as the `pytest11` entry point `tabula`, so it is active wherever Tabula is installed
(`-p no:tabula` turns it off; so does the ini option `tabula_scenarios = false`). A `*.yaml` file is
collected when it has a top-level `scenario:` key or lies in a folder named `scenarios` below the
rootdir. Every item has the marker `scenario` and one marker per `tags:` entry of its file or case
(`tags: [slow]`), so `-m`, `-k`, `--lf`, `-x`, `-n` (xdist) and JUnit XML work as for any test.
The scenario files of the bundled games (gamedefs/) are marked `slow` as well: they are the rulebooks'
examples, about 300 cases over every variant (each variant a game compiled of its own), and run in
the whole suite, while the fast tier (`pytest -m "not slow"`) keeps the small fixture games' scenarios.
Items run on the shared scenario runner (`tabula.interpreter.scenarios`): compiled games are shared
by every item of a process. Only pytest imports this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.engine import BUNDLED
from tabula.interpreter.scenarios import Case, ScenarioResult, load_cases, run_case
from tabula.interpreter.scenarios.files import is_scenario_file

LOG_TAIL = 10


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "tabula_scenarios", "collect Tabula scenario files (*.yaml) as tests", type="bool", default=True
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "scenario: a case of a Tabula scenario file (a rulebook example)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ScenarioFile | None:
    if file_path.suffix != ".yaml" or not parent.config.getini("tabula_scenarios"):
        return None
    root = parent.config.rootpath
    try:
        file_path.relative_to(root)
    except ValueError:
        root = file_path.parent
    if not is_scenario_file(file_path, root):
        return None
    file: ScenarioFile = ScenarioFile.from_parent(parent, path=file_path)
    if file_path.resolve().is_relative_to(BUNDLED):
        _register(parent.config, "slow")
        file.add_marker("slow")  # its items inherit it (see the module docstring)
    return file


class ScenarioFailed(Exception):
    """A case that did not pass; carries its result for the report."""

    def __init__(self, result: ScenarioResult) -> None:
        super().__init__(result.name)
        self.result = result


class ScenarioFile(pytest.File):
    """One scenario file: its cases, or one failing item when the file cannot be read."""

    def collect(self) -> Iterator[pytest.Item]:
        loaded = load_cases(self.path)
        if loaded.error is not None:
            broken = ScenarioResult(loaded.title, str(self.path), False, error=loaded.error)
            yield ScenarioItem.from_parent(self, name=_name(loaded.title), case=None, broken=broken)
            return
        for case in loaded.cases:
            item = ScenarioItem.from_parent(self, name=_name(case.title), case=case, broken=None)
            for tag in case.tags:
                _register(self.config, tag)
                item.add_marker(tag)
            yield item


class ScenarioItem(pytest.Item):
    """One case of a scenario file."""

    def __init__(self, *, case: Case | None, broken: ScenarioResult | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.broken = broken
        self.add_marker("scenario")

    def runtest(self) -> None:
        result = self.broken if self.case is None else run_case(self.case)
        assert result is not None
        if not result.passed:
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return failure_text(excinfo.value.result)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        line = self.case.line if self.case is not None else 1
        return self.path, line - 1, f"scenario: {self.name}"


def failure_text(result: ScenarioResult) -> str:
    """What failed: errors, failed conditions, the last log lines."""
    lines = [f"scenario failed: {result.name}  ({result.file})"]
    if result.error:
        lines.append(result.error)
    lines.extend(result.failures)
    if result.log:
        lines.append("last log lines:")
        lines.extend("  " + line for line in result.log[-LOG_TAIL:])
    return "\n".join(lines)


def _name(title: str) -> str:
    # "::" separates the parts of a pytest node id
    return title.replace("::", ":")


def _register(config: pytest.Config, tag: str) -> None:
    """Declare a tag as a marker (so --strict-markers accepts it), once."""
    known = {line.split(":")[0].split("(")[0].strip() for line in config.getini("markers")}
    if tag not in known:
        config.addinivalue_line("markers", f"{tag}: scenario tag")
