"""`tabula bench --instructions`: machine instructions per decision, counted by valgrind, the same
figure run after run (CPU time moves with the machine's other load). CI installs valgrind
(.ci/run); without it these tests skip, saying so, and the command refuses with a hint."""

from __future__ import annotations

import json
import shutil

import pytest

from tabula.cli.main import main

needs_valgrind = pytest.mark.skipif(
    shutil.which("valgrind") is None, reason="needs valgrind (apt-get install -y valgrind)"
)


@needs_valgrind
@pytest.mark.slow  # four runs of Python under valgrind
def test_the_instructions_per_decision_are_the_same_run_after_run(capsys: pytest.CaptureFixture[str]) -> None:
    figures = []
    for _ in range(2):
        assert main(["bench", "high-card", "--players", "2", "--games", "3", "--instructions", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["instructions"]["against"] is None
        figures.append(out["instructions"]["this"]["2"])
    assert all(f > 10_000 for f in figures)  # a decision of even the smallest game is that much work
    assert abs(figures[0] - figures[1]) < 0.01 * figures[0]


def test_without_valgrind_the_command_says_what_it_needs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "valgrind" else real(name))
    code = main(["bench", "high-card", "--players", "2", "--games", "1", "--instructions"])
    assert code != 0
    assert "needs valgrind" in capsys.readouterr().err
