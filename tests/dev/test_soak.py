"""`tabula soak`: random games checked as they are played (tabula.dev.soak). Every bundled game
passes a few games with every check (the Python comparison included), and the checks catch what
they are for: a save/load that loses a value, a view that shows a hidden component, a clone that
shares the game's words, a native backend that plays another game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabula.cli import main as cli
from tabula.interpreter.engine import Engine

# loading the larger games (their compiled modules and native libraries, from the caches) costs
# more than the games: those are in the slow tier
SLOW = pytest.mark.slow
GAMES = [
    "high-card",
    pytest.param("porta-nigra", marks=SLOW),
    pytest.param("glory-to-rome", marks=SLOW),
    "coup",
    "hanabi",
    pytest.param("sushi-go", marks=SLOW),
    pytest.param("patchwork", marks=SLOW),
    pytest.param("ticket-to-ride", marks=SLOW),
]


def soak(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    """`tabula soak ... --json` in this process: the exit code, the figures and stderr."""
    code = cli.main(["soak", *argv, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_game_passes_a_few_games_with_every_check(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # seeds 2-3: every decision checked (--every 1), views at every check, seed 2 against Python
    args = ["--games", "2", "--seed", "2", "--every", "1", "--most", "2", "--views", "1", "--python", "2"]
    code, figures, err = soak(capsys, game, *args)
    assert code == 0, err
    assert figures["failures"] == [] and figures["games"] == 2 and figures["finished"] == 2
    assert figures["backends"] == ["native"]
    assert figures["compared_games"] == 1 and figures["compared"] > 1
    assert figures["saves"] >= 4 and figures["views"] >= 4 and figures["replays"] == 2
    assert figures["played_on"] == 4


def test_a_save_that_loses_a_value_fails_the_soak_saying_where(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Engine.from_json

    def lossy(self: Engine, text: str) -> Any:  # a load that drops the decisions count
        doc = json.loads(text)
        doc["state"]["t"]["decisions"] = 0
        return real(self, json.dumps(doc, sort_keys=True, separators=(",", ":")))

    monkeypatch.setattr(Engine, "from_json", lossy)
    code, figures, err = soak(capsys, "high-card", "--games", "3", "--python", "0")
    assert code == 1
    assert len(figures["failures"]) == 3
    first = figures["failures"][0]
    assert first.startswith("high-card, 3 players, seed 1, decision ")  # seed 1: 3 players
    assert "save/load: the loaded state differs: .state.t.decisions: " in first
    assert "FAILED high-card, 3 players, seed 1, decision" in err


def test_a_view_that_shows_a_hidden_card_fails_the_swap_test(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Engine.view

    def leaky(self: Engine, st: Any, player: int) -> dict[str, Any]:  # every hand's contents shown
        v: dict[str, Any] = real(self, st, player)
        v["leak"] = list(self.plain(st)["z"])
        return v

    monkeypatch.setattr(Engine, "view", leaky)
    code, figures, _ = soak(capsys, "high-card", "--games", "2", "--python", "0")
    assert code == 1
    assert "view of seat 0 leaks: trading hidden components " in figures["failures"][0]
    assert "changes it at .leak[" in figures["failures"][0]


def test_a_clone_that_shares_the_games_state_fails(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Engine, "clone", lambda self, st: st)
    code, figures, _ = soak(capsys, "coup", "--games", "2", "--python", "0", "--every", "1")
    assert code == 1
    assert "the clone (from decision " in figures["failures"][0]


def test_a_native_backend_that_plays_another_game_fails_against_python(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Engine.apply_inplace

    def off_by_one(self: Engine, st: Any, choice: Any, log: Any = None) -> None:  # native picks the next id
        if self.backend == "native" and isinstance(choice, int):
            choice = (choice + 1) % len(self.legal_ids(st))
        real(self, st, choice, log)

    monkeypatch.setattr(Engine, "apply_inplace", off_by_one)
    code, figures, _ = soak(capsys, "high-card", "--games", "1", "--seed", "5", "--python", "5")
    assert code == 1
    assert "high-card, 4 players, seed 5, decision 1: against the Python backend: " in figures["failures"][0]
