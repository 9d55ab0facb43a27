"""Search bots keep the subtree under their move when their next decision comes right after it
(a turn of several decisions), and start afresh after another player's move or with `reuse=no`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.bots.base import Observation, bot_generator
from tabula.bots.search import SearchBot
from tabula.bots.spec import make_bot
from tabula.interpreter.engine import Engine, load_game

GAME = Path(__file__).parents[1] / "games" / "lookahead"  # a turn of two decisions: prepare, then cash


@pytest.fixture
def engine() -> Engine:
    return Engine(load_game(GAME))


def play_two_turns(engine: Engine, spec: str) -> SearchBot:
    """Both seats played by the bot for two turns; it returns the bot."""
    bot = make_bot(spec, engine)
    assert isinstance(bot, SearchBot)
    st, gen = engine.new_game(2, 0), bot_generator(0)
    while int(engine.plain(st)["t"]["turn"]) <= 2:
        seat = engine.current_player(st)
        assert seat is not None
        engine.apply_inplace(st, bot.choose(Observation(engine, st, seat), gen))
    return bot


@pytest.mark.parametrize("kind", ["ismcts", "mcts"])
def test_the_subtree_of_the_move_played_is_kept_for_the_next_own_decision(engine: Engine, kind: str) -> None:
    bot = play_two_turns(engine, f"{kind}:60")
    # each turn: prepare (searched afresh after the other seat's turn), then cash or quick (searched
    # again from the subtree under prepare, which the first search visited)
    assert bot.stats.searched == 4 and bot.stats.playouts == 4 * 60
    assert bot.stats.extra["reused"] == 2 and bot.stats.extra["reused_visits"] > 2 * 20


def test_reuse_no_starts_every_search_afresh(engine: Engine) -> None:
    bot = play_two_turns(engine, "ismcts:60:reuse=no")
    assert bot.stats.searched >= 2 and "reused" not in bot.stats.extra
