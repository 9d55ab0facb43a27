"""`reuse_loaded`: inside it, the same files, options and packs load as one compiled game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.loading import load_game, reuse_loaded

HIGH_CARD = Path(__file__).parents[2] / "gamedefs" / "high-card"


def test_inside_the_same_game_is_loaded_once_and_outside_each_caller_gets_a_copy() -> None:
    with reuse_loaded():
        first = load_game("high-card")
        assert load_game("high-card") is first
        assert load_game("high-card", {"tricks": 3}) is not first  # other options: another game
    assert load_game("high-card") is not load_game("high-card")


def test_a_file_changed_between_two_loads_gives_the_changed_game(tmp_path: Path) -> None:
    folder = tmp_path / "high-card"
    shutil.copytree(HIGH_CARD, folder)
    with reuse_loaded():
        before = load_game(folder)
        game_yaml = folder / "game.yaml"
        game_yaml.write_text(game_yaml.read_text().replace("name: High Card", "name: Higher Card"))
        after = load_game(folder)
    assert after is not before
    assert (before.name, after.name) == ("High Card", "Higher Card")


def test_without_the_cache_a_command_still_loads_its_game_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`tabula --no-cache simulate ...` (TABULA_NO_CACHE=1): nothing read from or written to the cache,
    and still one load per command (a 100x100 board's game was compiled four times)."""
    monkeypatch.setenv("TABULA_NO_CACHE", "1")
    with reuse_loaded():
        first = load_game("high-card")
        assert load_game("high-card") is first and first.cache_key is None
        assert load_game("high-card", {"tricks": 3}) is not first
    assert load_game("high-card") is not load_game("high-card")
