"""Errors in native code: the run stops with its number, the engine replays the decision on the
Python backend, which reports it at its rule (the same message, code and place as a Python run);
when Python goes on (native checks are never looser), the game goes on. No C compiler: the Python
backend, with one line saying why."""

from __future__ import annotations

import ctypes
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.compile.native import build
from tabula.interpreter.compile.native.backend import prepare
from tabula.interpreter.compile.native.recompute import AGAIN
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import semantic_hash
from tabula.interpreter.run.runtime import GameRuntimeError

BOOM = Path(__file__).resolve().parent / "games" / "boom"
UNHELD = BOOM.parent / "unheld"


def python_error(game: Any, choice: str) -> GameRuntimeError:
    py = Engine(game)
    with pytest.raises(GameRuntimeError) as err:
        py.apply_inplace(py.new_game(2, 1), choice)
    return err.value


@pytest.mark.parametrize(
    ("choice", "options", "native_code", "code"),
    [("spend:B", None, 9, "R009"), ("divide", None, 6, "R006"), ("spin", {"loops": 3_000_000}, 2, "R002")],
)
def test_a_native_error_is_reported_by_python_at_its_rule(
    choice: str, options: dict[str, int] | None, native_code: int, code: str | None
) -> None:
    game = load_game(BOOM, options)
    nat = Engine(game, backend="native")
    assert nat.backend == "native", nat.backend_note
    st = nat.new_game(2, 1)
    # native code stops with its own number...
    lib = nat.native
    assert lib is not None
    words = lib.array.from_buffer_copy(st.words)  # type: ignore[attr-defined]
    assert lib.apply(words, nat.legal_ids(st).index(choice), game.work_budget, None) == native_code
    # ... and the engine gives Python's located diagnostic
    with pytest.raises(GameRuntimeError) as got:
        nat.apply_inplace(st, choice)
    want = python_error(game, choice)
    assert (got.value.message, got.value.code, got.value.span) == (want.message, want.code, want.span)
    assert got.value.code == code and got.value.span is not None
    assert got.value.span.file.endswith("game.yaml")


def test_when_python_goes_on_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("high-card")
    nat, py = Engine(game, backend="native"), Engine(game)
    lib = nat.native
    assert lib is not None

    def stops(words: Any, k: int, budget: int, before: Any) -> int:  # as if a check had failed
        ctypes.memmove(before, words, ctypes.sizeof(before))
        return 4

    a, b = nat.new_game(3, 5), py.new_game(3, 5)
    monkeypatch.setattr(lib, "apply", stops)
    nat.apply_inplace(a, 1)
    py.apply_inplace(b, 1)
    assert semantic_hash(nat.plain(a)) == semantic_hash(b)
    assert a.plain is None  # type: ignore[attr-defined]  # back in native words


def test_a_window_native_code_cannot_recompute_is_recomputed_by_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Engine.recompute_decision` of a phase's window: when native code stops (runtime tb_recompute
    returns an error), Python recomputes it, as after any native error (it was None)."""
    game = load_game("high-card")
    nat, py = Engine(game, backend="native"), Engine(game)
    lib = nat.native
    assert lib is not None
    a, b = nat.new_game(3, 5), py.new_game(3, 5)
    assert lib.window(a) and not lib.choosing(a)  # type: ignore[arg-type]
    assert nat.recompute_decision(a) == b["dec"] is not None
    native = lib.recompute.__self__  # type: ignore[attr-defined]  # (recompute.py Recompute)
    monkeypatch.setattr(native, "call", lambda ctx: -3)  # tb_recompute: E_SIZE, as if the room were short
    assert lib.recompute(a) is AGAIN  # type: ignore[arg-type]
    assert nat.recompute_decision(a) == b["dec"]
    assert a.plain is None  # type: ignore[attr-defined]  # the state stays in native words


def test_no_compiler_means_the_python_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CC", "/nonexistent")
    monkeypatch.setenv("PATH", str(tmp_path))  # no cc, gcc or clang
    compiler, why = build.find_compiler()
    assert compiler is None
    assert why == "no C compiler (CC=/nonexistent not found; no cc, gcc or clang on the PATH)"
    game = load_game("high-card", {"tricks": 4})  # a new game object: nothing prepared for it yet
    eng = Engine(game, backend="native")
    assert (eng.backend, eng.backend_note) == ("python", why)
    assert eng.playout(eng.new_game(2, 1), [1, 2]) == 8


NO_CC_COMMANDS = [
    ["simulate", "high-card", "--games", "2", "--backend", "native"],
    ["simulate", "high-card", "--games", "2", "--jobs", "1", "--bot", "all=ismcts:5"],  # the default
    ["compare", "high-card", "--games", "2", "--jobs", "1", "--b", "--option tricks=4"],
    ["bench", "high-card", "--games", "2", "--players", "2", "--rounds", "1"],
]


@pytest.mark.slow  # child processes
@pytest.mark.parametrize("args", NO_CC_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_no_compiler_on_the_command_line(tmp_path: Path, args: list[str]) -> None:
    """Every command whose default is the native backend works on Python; it says why in one line
    when the native backend was asked for by name (or with --debug), and a normal run says nothing
    of engines (a child process: a PATH of its own, without a C compiler)."""
    done = no_compiler_run(tmp_path, args)
    assert done.returncode == 0, done.stderr
    asked = "--backend" in args or args[0] == "bench"  # bench reports what it measured
    assert done.stderr.count("python backend: no C compiler") == (1 if asked else 0), done.stderr
    if "--backend" not in args and args[0] != "bench":
        debug = no_compiler_run(tmp_path, ["--debug", *args])
        assert debug.returncode == 0 and debug.stderr.count("python backend: no C compiler") == 1, (
            debug.stderr
        )
        again = no_compiler_run(tmp_path, [*args[:2], "--backend", "python", *args[2:]])
        assert again.returncode == 0 and "python backend" not in again.stderr, again.stderr


def no_compiler_run(tmp_path: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    code = "from tabula.cli.main import main; raise SystemExit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={"CC": "/nonexistent", "PATH": str(tmp_path), "HOME": str(tmp_path), "TABULA_NO_CACHE": "1"},
        check=False,
    )


def test_a_game_the_backend_does_not_hold_says_so() -> None:
    game = load_game(Path(__file__).resolve().parent / "games" / "unheld")
    native, why = prepare(game)
    assert native is None and why.endswith("not in the native backend yet (tabula check --native)")


def test_a_game_the_native_backend_does_not_hold_is_lowered_once_per_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # finding out lowers the whole game (Glory to Rome: over a second of CPU); a later process reads
    # the sealed verdict instead, and a verdict that is not ours is not believed
    from tabula.interpreter.compile.native import backend

    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))
    lowered: list[int] = []
    real = backend.c_source

    def counted(game: Any) -> Any:
        lowered.append(1)
        return real(game)

    monkeypatch.setattr(backend, "c_source", counted)
    first = Engine(load_game(UNHELD), backend="native")
    assert first.backend == "python" and "not in the native backend yet" in first.backend_note
    again = Engine(load_game(UNHELD), backend="native")  # a new game object: no memo
    assert (again.backend, again.backend_note) == ("python", first.backend_note) and len(lowered) == 1
    (verdict,) = (tmp_path / "cache").rglob("native-*.none")
    verdict.write_bytes(verdict.read_bytes()[:-1] + b"!")  # tampered: lowered again, and said again
    third = Engine(load_game(UNHELD), backend="native")
    assert third.backend_note == first.backend_note and len(lowered) == 2


def test_a_run_whose_first_game_fails_builds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # simulate's default bots play one random game first; when it fails (a hostile or broken rule)
    # the run reports it from the Python backend without paying for a C build (a second or more)
    from tabula.cli.main import main

    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)  # the failed game's scenario file is written here
    failing = Path(__file__).resolve().parents[1] / "hostile" / "games" / "work-long-loop-body"
    assert main(["simulate", str(failing), "--games", "1"]) == 1
    assert "error[R002]" in capsys.readouterr().err
    assert not list((tmp_path / "cache").rglob("native-*"))
    # a run that plays builds the library as before
    assert main(["simulate", "high-card", "--games", "2", "--bot", "all=random"]) == 0
    assert len(list((tmp_path / "cache").rglob("native-*.so"))) == 1


@pytest.mark.parametrize(
    ("script", "said"),
    [
        ("echo 'game.c:1: bad' >&2; exit 1", "the C compiler failed: game.c:1: bad"),
        ("kill -XCPU $$", "the C compiler was stopped after 60 s of CPU"),  # as the CPU limit stops it
    ],
)
def test_a_compiler_that_fails_means_the_python_backend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, said: str
) -> None:
    cc = tmp_path / "cc"
    cc.write_text(f"#!/bin/sh\n{script}\n")
    cc.chmod(0o755)
    monkeypatch.setenv("CC", str(cc))
    monkeypatch.setenv("TABULA_CACHE_DIR", str(tmp_path / "cache"))
    engine = Engine(load_game("high-card"), backend="native")
    assert (engine.backend, engine.backend_note) == ("python", said)
    st = engine.new_game(2, 1)
    engine.apply_inplace(st, engine.legal_ids(st)[0])  # and the game plays


def test_a_fault_of_the_lowering_leaves_the_game_on_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lowering that fails for a reason it did not foresee (not N001) is a refusal in one line:
    the game is played by Python, the process goes on (it was `internal error` for Carcassonne)."""
    from tabula.interpreter.compile.native import backend

    def broken(game: Any) -> Any:
        raise ValueError("tuple.index(x): x not in tuple")

    monkeypatch.setattr(backend, "lower_game", broken)
    monkeypatch.setattr(build, "cached", lambda key: None)  # lowered afresh, not read from the cache
    monkeypatch.setattr(build, "cached_refusal", lambda key: None)
    game = load_game(BOOM)
    native, why = backend._prepare(game)
    assert native is None
    assert why == "the native backend failed to lower this game (ValueError: tuple.index(x): x not in tuple)"
