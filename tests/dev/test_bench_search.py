"""`tabula bench --search BOT`: a search bot's playouts a decision at fixed positions, on one backend
against another (issue 23: IS-MCTS on the native backend). Run here with a playout budget (a test
never times anything): both sides search the same positions the same number of times."""

from __future__ import annotations

import json

import pytest

from tabula.cli.main import main


@pytest.mark.slow  # two worker processes searching 2 x 3 positions
def test_the_search_bench_compares_backends_at_the_same_positions(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "high-card", "--players", "2", "--games", "1", "--rounds", "1", "--search", "ismcts:7"]
    assert main([*argv, "--backend", "native", "--against-backend", "python", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    this, against = out["this"], out["against"]
    assert (this["search"], this["backend"], against["backend"]) == ("ismcts:7", "native", "python")
    for side in (this, against):
        row = side["players"]["2"]
        assert row["decisions"] >= 2 and row["playouts"] == 7 * row["decisions"] and row["cpu"] > 0
    assert this["players"]["2"]["decisions"] == against["players"]["2"]["decisions"]  # the same positions
    assert main([*argv, "--backend", "native", "--against-backend", "python"]) == 0
    table = capsys.readouterr().out
    assert "ismcts:7 on the native backend" in table and "playouts/decision" in table and "x" in table
