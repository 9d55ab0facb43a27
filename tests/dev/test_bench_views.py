"""`tabula bench` measures views (issue 33): every seat's `Engine.view` of the sampled states, a few
rounds (JSON `views`, `view_cpu`; the table's `view us`, its ratio as for clones: the other side's
time over this one's), and still reads a run of an older worker that measured none."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabula.dev import bench, bench_worker


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("TABULA_BENCH_BACKEND", "python")
    monkeypatch.delenv("TABULA_BENCH_PLAY_ONLY", raising=False)
    monkeypatch.setenv("TABULA_BENCH_PACKS", "{}")
    return bench_worker.measure("high-card", [2, 3], 1, {})


def test_every_seat_views_every_sampled_state(measured: Any) -> None:
    for n, row in measured["players"].items():
        views = row["views"]
        assert views > 0 and views % (bench_worker.VIEW_ROUNDS * int(n)) == 0
        assert row["view_cpu"] > 0
        assert views // (bench_worker.VIEW_ROUNDS * int(n)) == row["clones"] // 20  # the clones' states


def test_the_table_gives_the_view_time_and_its_ratio(measured: Any) -> None:
    faster = json.loads(json.dumps(measured))
    for n, row in faster["players"].items():
        row["view_cpu"] = measured["players"][n]["view_cpu"] / 4
    text = bench.table("high-card", faster, measured)
    rows = [line.split() for line in text.splitlines() if "view us" in line]
    assert [r[0] for r in rows] == ["2", "3"]
    assert rows[0][-1] == "4.00x"  # the other side's time over this one's


def test_a_run_without_views_is_still_read(measured: Any) -> None:
    old = json.loads(json.dumps(measured))
    for row in old["players"].values():
        del row["views"], row["view_cpu"]
    picked = bench.best([old, old])
    assert "view_cpu" not in picked["players"]["2"]
    assert bench.rates(picked, "2")["view us"] == 0.0
    assert "view us" in bench.table("high-card", measured, picked)
