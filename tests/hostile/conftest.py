"""The soak test runs only when asked for by name (`pytest -m soak`): CI's plain `pytest`, and the
fast tier `pytest -m 'not slow'`, never collect it (it is deselected, not skipped).

The corpus's files are data for test_hostile.py, which runs each in a forked child under its limits
with the code CASES.txt expects: the scenario plugin (tabula.pytest_plugin) must not collect
scenarios/*.yaml as scenario items of its own (they are meant to fail, and unbounded)."""

from __future__ import annotations

import pytest

collect_ignore = ["base", "games", "packs", "requests", "saves", "scenarios"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "soak" in (config.getoption("markexpr") or ""):
        return
    soak = [item for item in items if item.get_closest_marker("soak") is not None]
    if soak:
        config.hook.pytest_deselected(items=soak)
        items[:] = [item for item in items if item.get_closest_marker("soak") is None]
