"""Every bundled game has a README naming its rulings (issue 34, item 10: Hanabi and Sushi Go had
none): a reader learns what the encoding decided where the rules leave a choice."""

from __future__ import annotations

from pathlib import Path

import pytest

GAMEDEFS = Path(__file__).resolve().parents[2] / "gamedefs"
GAMES = sorted(p for p in GAMEDEFS.iterdir() if (p / "game.yaml").is_file())


def test_the_eight_bundled_games_are_seen() -> None:
    assert len(GAMES) >= 8


@pytest.mark.parametrize("folder", GAMES, ids=[p.name for p in GAMES])
def test_a_bundled_game_has_a_readme_with_its_rulings(folder: Path) -> None:
    readme = folder / "README.md"
    assert readme.is_file(), f"{folder.name} has no README.md"
    text = readme.read_text(encoding="utf-8").lower()
    assert any(w in text for w in ("ruling", "reading", "leaves open")), f"{folder.name}: no rulings"
