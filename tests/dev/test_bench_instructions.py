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
@pytest.mark.slow  # nine runs under valgrind (each way's games, and one start-up, per backend and run)
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler")
def test_native_instructions_measure_the_native_backend_the_same_run_after_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--backend native counts the native backend (it counted Python's whatever the flag said): its
    whole playouts run in C at a fraction of Python's instructions a decision. A second count of
    Python gives the same figures: instructions do not move with the machine's load."""
    argv = ["bench", "high-card", "--players", "2", "--games", "3", "--instructions", "--json"]
    assert main([*argv, "--backend", "native", "--against-backend", "python"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["backend"], out["against_backend"]) == ("native", "python")
    native, python = out["instructions"]["this"]["2"], out["instructions"]["against"]["2"]
    assert set(native) == set(python) == {"step", "playout"}
    assert 0 < native["playout"] * 5 < python["playout"]
    assert 0 < native["step"] < python["step"]
    assert main([*argv, "--backend", "python"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["instructions"]["against"] is None and again["backend"] == "python"
    for way in ("step", "playout"):  # a decision at a time through the API; whole games in one call
        first, second = python[way], again["instructions"]["this"]["2"][way]
        assert first > 10_000  # a decision of even the smallest game is that much work
        assert abs(first - second) < 0.01 * first


def test_without_valgrind_the_command_says_what_it_needs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "valgrind" else real(name))
    code = main(["bench", "high-card", "--players", "2", "--games", "1", "--instructions"])
    assert code != 0
    assert "needs valgrind" in capsys.readouterr().err
