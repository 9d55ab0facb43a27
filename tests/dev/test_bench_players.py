"""`tabula bench`'s player counts and packs: by default the counts of 2, 3 and 4 the game allows
(Patchwork, a two-player game, stopped with G002 at 3 players), a count the game does not allow is
a one-line error before anything runs, and the workers load the variant and expansions asked for
(bench measured the base game whatever --variant said)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabula.cli.main import main
from tabula.dev import bench_worker


@pytest.mark.slow  # one worker process, one game
def test_a_two_player_game_is_measured_at_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "patchwork", "--games", "1", "--rounds", "1", "--backend", "python", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["this"]["players"]) == ["2"]


def test_a_player_count_the_game_does_not_allow_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "patchwork", "--players", "2", "3", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "Patchwork is for 2-2 players, not 3" in err and "Traceback" not in err and "debug" not in err


def test_the_workers_load_the_variant_and_expansions(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []

    def load_game(*args: Any) -> str:
        calls.append(args)
        return "game"

    monkeypatch.setenv("TABULA_BENCH_PACKS", json.dumps({"variant": "family", "with": ["senate"]}))
    bench_worker._load(load_game, "porta-nigra", {"x": 1})
    monkeypatch.setenv("TABULA_BENCH_PACKS", "{}")
    bench_worker._load(load_game, "porta-nigra", {})
    assert calls == [("porta-nigra", {"x": 1}, "family", ("senate",)), ("porta-nigra", None)]
