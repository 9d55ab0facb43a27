"""Warm starts: a compiled game kept on disk plays exactly as a freshly compiled one, and any change to
what went into it (a game file, an option, the engine) makes a new entry."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest

from tabula.dev.traces import Config, play
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABULA_CACHE_DIR", str(folder))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # a key of this test's own
    monkeypatch.delenv("TABULA_NO_CACHE", raising=False)
    return folder


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.game")) if folder.is_dir() else []


@pytest.mark.slow  # compiles a game into an empty cache and plays it twice
def test_a_cached_game_plays_as_the_compiled_one(cache_dir: Path) -> None:
    cold = load_game("porta-nigra")
    assert len(entries(cache_dir)) == 1
    warm = load_game("porta-nigra")
    assert warm is not cold and warm.module is not cold.module
    cfg = Config("porta-nigra", 3)
    for seed in (1, 2):
        a, b = play(Engine(cold), cfg, seed, 400), play(Engine(warm), cfg, seed, 400)
        assert a.choices == b.choices and a.hashes == b.hashes
        assert len(a.choices) > 50


def test_a_cached_game_still_compiles_scenario_text_and_locates_errors(cache_dir: Path) -> None:
    from tabula.interpreter.base.source import Report
    from tabula.interpreter.dsl.parser import PlainOrigin
    from tabula.interpreter.run.runtime import Runtime

    load_game("high-card")
    game = load_game("high-card")  # from the cache
    engine = Engine(game)
    st = engine.new_game(2, 3)
    f = game.snippets.expr("num_players * 10", PlainOrigin("t"), Report(), {})
    assert f is not None and f(Runtime(game, st)) == 20
    # explain and labels use compiled conditions kept in the cache
    assert isinstance(engine.explain(st, "nothing"), str)


def test_a_changed_file_or_option_makes_a_new_entry(cache_dir: Path, tmp_path: Path) -> None:
    game = tmp_path / "hc"
    shutil.copytree(ROOT / "gamedefs" / "high-card", game)
    load_game(game)
    load_game(game)
    assert len(entries(cache_dir)) == 1
    load_game(game, {"tricks": 3})
    assert len(entries(cache_dir)) == 2
    rules = game / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text + "\n# a comment changes the key too\n", encoding="utf-8")
    load_game(game)
    assert len(entries(cache_dir)) == 3


@pytest.mark.slow  # compiles a variant into an empty cache
def test_a_variant_given_as_an_expansion_is_refused_even_when_cached(cache_dir: Path) -> None:
    from tabula.interpreter.base.source import AuthorError

    load_game("porta-nigra", variant="short-game")
    with pytest.raises(AuthorError) as err:
        load_game("porta-nigra", expansions=["gamedefs/porta-nigra/variants/short-game.yaml"])
    assert "is a variant" in str(err.value)


def test_a_copy_of_a_game_elsewhere_is_its_own_entry(cache_dir: Path, tmp_path: Path) -> None:
    """Same files in two folders: each compiled game names its own folder (and its errors its files)."""
    for name in ("one", "two"):
        shutil.copytree(ROOT / "gamedefs" / "high-card", tmp_path / name)
    first, second = load_game(tmp_path / "one"), load_game(tmp_path / "two")
    assert Path(first.folder).name == "one" and Path(second.folder).name == "two"
    assert len(entries(cache_dir)) == 2


def test_old_entries_are_pruned(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabula.interpreter.compile.python import cache

    monkeypatch.setattr(cache, "KEEP", 2)
    for tricks in (3, 4, 5):
        load_game("high-card", {"tricks": tricks})
    assert len(entries(cache_dir)) == 2


def test_a_damaged_entry_is_compiled_again(cache_dir: Path) -> None:
    load_game("high-card")
    (entry,) = entries(cache_dir)
    entry.write_bytes(b"not a compiled game")
    game = load_game("high-card")
    st = Engine(game).new_game(2, 1)
    assert st["dec"] is not None
    assert entry.read_bytes() != b"not a compiled game"  # written anew


def test_no_cache_leaves_the_folder_alone(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_NO_CACHE", "1")
    load_game("high-card")
    assert entries(cache_dir) == []


@pytest.mark.slow  # 600 decisions asked twice
def test_recomputed_decisions_equal_the_pending_ones() -> None:
    """Engine.recompute_decision asks every pending question again from the rest of the state."""
    for name, players, opts in (("porta-nigra", 3, None), ("glory-to-rome", 3, {"surrender_allowed": False})):
        engine = Engine(load_game(name, opts))
        st = engine.new_game(players, 7)
        gen = rng.seed_state(7)
        kinds = set()
        for _ in range(300):
            if st["dec"] is None:
                break
            again = engine.recompute_decision(st)
            assert again is not None
            assert again["ids"] == st["dec"]["ids"] and again["p"] == st["dec"]["p"]
            kinds.add(st["dec"]["k"])
            engine.apply_inplace(st, rng.below(gen, len(st["dec"]["ids"])))
        assert kinds == {"window", "choose"}


def test_compile_dump_writes_the_generated_module(tmp_path: Path) -> None:
    from tabula.cli.main import main

    assert main(["compile", "high-card", "--dump", str(tmp_path)]) == 0
    text = (tmp_path / "high-card.py").read_text(encoding="utf-8")
    assert text.startswith("# Generated by `tabula compile`")
    compile(text, "high-card.py", "exec")  # valid Python
    assert "def X_" in text or "def window_" in text


def test_a_game_named_by_another_path_shows_that_path(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative and an absolute path to one folder: each compiled game's spans show the path as the
    user wrote it (a cached entry made through the other must not leak its spelling)."""
    shutil.copytree(ROOT / "gamedefs" / "high-card", tmp_path / "hc")
    monkeypatch.chdir(tmp_path)
    absolute = load_game(tmp_path / "hc")
    relative = load_game(Path("hc"))
    files = {str(span.file) for span in relative.block_spans.values()}
    assert files and all(not f.startswith("/") for f in files), files
    assert all(str(span.file).startswith("/") for span in absolute.block_spans.values())
    assert len(entries(cache_dir)) == 2


# ------------------------------------------------------------------ a cache that runs nothing it finds


class Planted:
    """An object whose unpickling creates a file: what an attacker would plant as a cache entry."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games compiled afresh (a cache miss) from now on."""
    from tabula.interpreter import loading

    done: list[str] = []
    compile_game = loading._compile

    def counted(folder: Path, *args: Any) -> Any:
        done.append(folder.name)
        return compile_game(folder, *args)

    monkeypatch.setattr(loading, "_compile", counted)
    return done


def test_a_warm_start_hits_the_cache(cache_dir: Path, compiles: list[str]) -> None:
    load_game("high-card")
    load_game("high-card")
    assert compiles == ["high-card"] and len(entries(cache_dir)) == 1
    key = cache_dir.parent / "state" / "tabula" / "cache-key"
    assert key.stat().st_mode & 0o777 == 0o600 and key.parent.stat().st_mode & 0o777 == 0o700
    assert cache_dir.stat().st_mode & 0o777 == 0o700  # a folder the cache made is private


@pytest.mark.parametrize("sealed", [False, True], ids=["bare-pickle", "sealed-with-another-key"])
def test_a_planted_entry_is_never_unpickled(
    cache_dir: Path, tmp_path: Path, compiles: list[str], sealed: bool
) -> None:
    """A pickle that would run code, put where the game's entry is (bare, or in the entry format with a
    seal made under a key the attacker chose): never loaded, the game compiled again and playable."""
    from tabula.interpreter.compile.python import cache

    load_game("high-card")
    (entry,) = entries(cache_dir)
    marker = tmp_path / "planted-code-ran"
    payload = pickle.dumps(Planted(marker))
    entry.write_bytes(cache.seal(b"k" * 32, entry.stem, payload) if sealed else payload)
    game = load_game("high-card")
    assert not marker.exists()
    assert compiles == ["high-card", "high-card"]
    assert Engine(game).new_game(2, 1)["dec"] is not None
    assert entry.read_bytes().startswith(cache.MAGIC) and payload not in entry.read_bytes()


def test_a_tampered_entry_is_compiled_again(cache_dir: Path, compiles: list[str]) -> None:
    load_game("high-card")
    (entry,) = entries(cache_dir)
    blob = bytearray(entry.read_bytes())
    blob[-20] ^= 1  # one bit of the pickle, the seal kept
    entry.write_bytes(bytes(blob))
    load_game("high-card")
    assert compiles == ["high-card", "high-card"]
    load_game("high-card")  # the entry written anew is good
    assert compiles == ["high-card", "high-card"]


def test_an_entry_under_another_name_is_compiled_again(
    cache_dir: Path, tmp_path: Path, compiles: list[str]
) -> None:
    """A genuine entry copied over another game's entry: the seal covers the key too."""
    shutil.copytree(ROOT / "gamedefs" / "high-card", tmp_path / "hc")
    load_game("high-card")
    load_game(tmp_path / "hc")
    first, second = entries(cache_dir)
    second.write_bytes(first.read_bytes())
    load_game("high-card")
    load_game(tmp_path / "hc")
    assert len(compiles) == 3  # the overwritten one only


def refused(capsys: pytest.CaptureFixture[str], folder: Path) -> str:
    """The one line said on stderr about a refused cache folder."""
    err = capsys.readouterr().err
    assert err.count("not using the compile cache") == 1, err
    assert f"the folder {folder} is not safe" in err and "TABULA_CACHE_DIR" in err
    return err


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702], ids=["world", "group", "others-only"])
def test_a_cache_folder_others_can_write_to_is_refused(
    cache_dir: Path, compiles: list[str], capsys: pytest.CaptureFixture[str], mode: int
) -> None:
    cache_dir.mkdir(mode=0o700)
    cache_dir.chmod(mode)
    load_game("high-card")
    load_game("high-card")  # said once
    assert f"other users can write to it (mode {mode:o})" in refused(capsys, cache_dir)
    assert compiles == ["high-card", "high-card"] and entries(cache_dir) == []


def test_a_cache_folder_owned_by_another_user_is_refused(
    cache_dir: Path, compiles: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    load_game("high-card")  # a good entry, then the folder is someone else's
    owner = cache_dir.stat().st_uid
    monkeypatch.setattr(os, "getuid", lambda: owner + 1)
    load_game("high-card")
    assert f"owned by another user (uid {owner}, you are {owner + 1})" in refused(capsys, cache_dir)
    assert compiles == ["high-card", "high-card"]


def test_the_default_folder_is_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiles: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TABULA_CACHE_DIR", raising=False)
    monkeypatch.delenv("TABULA_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    (tmp_path / "tabula").mkdir(mode=0o700)
    (tmp_path / "tabula").chmod(0o757)
    load_game("high-card")
    refused(capsys, tmp_path / "tabula")


def test_a_key_file_open_to_others_is_refused(
    cache_dir: Path, compiles: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    key = cache_dir.parent / "state" / "tabula" / "cache-key"
    key.parent.mkdir(parents=True)
    key.write_bytes(b"k" * 32)
    key.chmod(0o644)
    load_game("high-card")
    err = capsys.readouterr().err
    assert f"the key file {key} is not safe (other users can read or write it (mode 644))" in err
    assert entries(cache_dir) == []


def test_a_command_says_why_once(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tabula.cli.main import main

    cache_dir.mkdir(mode=0o700)
    cache_dir.chmod(0o777)
    assert main(["check", "high-card"]) == 0
    assert "chmod 700" in refused(capsys, cache_dir)


def test_no_user_ids_no_owner_check(
    cache_dir: Path, compiles: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows has no os.getuid (nor POSIX modes): the cache works without the checks."""
    monkeypatch.delattr(os, "getuid")
    load_game("high-card")
    load_game("high-card")
    assert compiles == ["high-card"]
