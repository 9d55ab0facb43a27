"""Warm starts: a compiled game kept on disk plays exactly as a freshly compiled one, and any change to
what went into it (a game file, an option, the engine) makes a new entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.dev.traces import Config, play
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABULA_CACHE_DIR", str(folder))
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
