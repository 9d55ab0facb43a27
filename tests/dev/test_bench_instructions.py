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
@pytest.mark.slow  # eight runs of Python under valgrind
def test_the_instructions_per_decision_are_the_same_run_after_run(capsys: pytest.CaptureFixture[str]) -> None:
    figures = []
    argv = ["bench", "high-card", "--players", "2", "--games", "3", "--instructions", "--json"]
    for _ in range(2):
        assert main([*argv, "--backend", "python"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["instructions"]["against"] is None and out["backend"] == "python"
        figures.append(out["instructions"]["this"]["2"])
    for way in ("step", "playout"):  # a decision at a time through the API; whole games in one call
        assert all(f[way] > 10_000 for f in figures)  # a decision of even the smallest game is that much work
        assert abs(figures[0][way] - figures[1][way]) < 0.01 * figures[0][way]


@needs_valgrind
@pytest.mark.slow  # eight runs under valgrind
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler")
def test_native_instructions_measure_the_native_backend(capsys: pytest.CaptureFixture[str]) -> None:
    """--backend native counts the native backend (it counted Python's whatever the flag said): its
    whole playouts run in C at a fraction of Python's instructions a decision."""
    argv = ["bench", "high-card", "--players", "2", "--games", "3", "--instructions"]
    assert main([*argv, "--backend", "native", "--against-backend", "python", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["backend"], out["against_backend"]) == ("native", "python")
    native, python = out["instructions"]["this"]["2"], out["instructions"]["against"]["2"]
    assert set(native) == set(python) == {"step", "playout"}
    assert 0 < native["playout"] * 5 < python["playout"]
    assert 0 < native["step"] < python["step"]


def test_without_valgrind_the_command_says_what_it_needs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "valgrind" else real(name))
    code = main(["bench", "high-card", "--players", "2", "--games", "1", "--instructions"])
    assert code != 0
    assert "needs valgrind" in capsys.readouterr().err
