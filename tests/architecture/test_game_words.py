"""The engine knows no game: no game word may appear in interpreter/ or grammar/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME_WORDS = re.compile(
    r"porta|nigra|brick|torch|basilica|amphithe|city.?wall|honou?r|glory|legionar|laborer|craftsman|patron"
    r"|merchant|vault|clientel|jack|roman\b|romans|sesterce|forum|catacomb|thinker",
    re.IGNORECASE,
)


def engine_files() -> list[Path]:
    return [*ROOT.joinpath("interpreter").rglob("*.py"), *ROOT.joinpath("grammar").rglob("*.lark")]


def test_engine_files_exist() -> None:
    assert len(engine_files()) > 10


def test_no_game_words_in_engine() -> None:
    hits = []
    for f in engine_files():
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = GAME_WORDS.search(line)
            if m:
                hits.append(f"{f.relative_to(ROOT)}:{n}: {m.group(0)!r} in {line.strip()}")
    assert not hits, "game words in the engine:\n" + "\n".join(hits)


def test_the_check_catches_a_game_word(tmp_path: Path) -> None:
    assert GAME_WORDS.search("def pay_torch(): pass")


def test_games_are_data_only() -> None:
    """Games, their variants and expansions are YAML: no Python file under gamedefs/."""
    assert list(ROOT.joinpath("gamedefs").rglob("*.py")) == []
    assert len(list(ROOT.joinpath("gamedefs").rglob("*.yaml"))) > 100
