"""The corpus of games written outside the engine's own code (issue 34, item 8): every game under
tests/games keeps loading and checking after every change, and the games written from published
rules (a folder with a README.md naming its rulings: No Thanks!, Lost Cities, Love Letter) check
without a warning and play random games to their end. A new check must never refuse one of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.bots.base import bot_generator
from tabula.interpreter.engine import Engine, load_game

GAMES = Path(__file__).resolve().parents[1] / "games"
CORPUS = sorted(p for p in GAMES.iterdir() if (p / "game.yaml").is_file())
PUBLISHED = [p for p in CORPUS if (p / "README.md").is_file()]


def test_the_published_games_are_there() -> None:
    assert {p.name for p in PUBLISHED} >= {"no-thanks", "lost-cities", "love-letter"}


@pytest.mark.slow
@pytest.mark.parametrize("folder", CORPUS, ids=[p.name for p in CORPUS])
def test_every_corpus_game_loads(folder: Path) -> None:
    load_game(folder)  # an AuthorError names every diagnostic


@pytest.mark.slow
@pytest.mark.parametrize("folder", PUBLISHED, ids=[p.name for p in PUBLISHED])
def test_a_published_game_checks_clean_and_plays_to_its_end(folder: Path) -> None:
    game = load_game(folder)
    assert [f"{d.code} {d.message}" for d in game.check_warnings] == []
    engine = Engine(game)
    for seed in range(3):
        for players in sorted({game.min_players, game.max_players}):
            st = engine.new_game(players, seed=seed)
            engine.playout(st, bot_generator(seed), limit=5000)
            assert engine.is_terminal(st), f"{folder.name}, {players} players, seed {seed}: no end"
