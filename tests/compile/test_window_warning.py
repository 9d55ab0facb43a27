"""W005: a window whose only action does not close it (it is offered again after each choice until
it is no longer legal, which is seldom what the author meant)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tabula.interpreter.base.source import render
from tabula.interpreter.engine import load_game

MINI = Path(__file__).resolve().parents[2] / "tests" / "games" / "mini"


def warnings_of(tmp_path: Path, window: str, closes: bool = False) -> list[str]:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    path = folder / "game.yaml"
    text = path.read_text().replace("window p: take, play_card, stop", window)
    if closes:
        text = text.replace("  take:\n", "  take:\n    closes_window: true\n")
    path.write_text(text)
    return [render(d) for d in load_game(folder).check_warnings if d.code == "W005"]


def test_a_window_with_one_action_that_does_not_close_it_is_w005(tmp_path: Path) -> None:
    (warning,) = warnings_of(tmp_path, "window p: take")
    assert "game.yaml:64:21: warning[W005]: the window offers only 'take', which does not close it" in warning
    assert "give 'take' closes_window: true" in warning


def test_no_warning_when_the_action_closes_it_or_another_action_is_offered(tmp_path: Path) -> None:
    assert warnings_of(tmp_path, "window p: take", closes=True) == []
    assert warnings_of(tmp_path / "b", "window p: take, play_card") == []
