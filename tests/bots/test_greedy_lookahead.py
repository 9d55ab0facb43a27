"""Greedy looks ahead over its own decisions in a row (`depth`, 3 by default; `depth=1`: one ply),
and past that depth plays `follow` more of them greedily before it evaluates.

The game (tests/games/lookahead) has a turn of two decisions: `prepare` scores nothing by itself
but lets the same turn `cash` 5 points, while `quick` scores 1 at once and ends the turn. One ply
sees 1 against 0 and takes `quick`; looking ahead it sees 5 and prepares.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.bots import simple
from tabula.bots.base import Observation, bot_generator
from tabula.bots.spec import make_bot
from tabula.interpreter.engine import Engine, load_game

GAME = Path(__file__).parents[1] / "games" / "lookahead"


@pytest.fixture
def engine() -> Engine:
    return Engine(load_game(GAME))


def first_choice(engine: Engine, spec: str) -> tuple[str, int]:
    st = engine.new_game(2, 0)
    bot = make_bot(spec, engine)
    choice = bot.choose(Observation(engine, st, 0), bot_generator(0))
    return choice, bot.stats.playouts


def test_one_ply_takes_the_point_in_hand(engine: Engine) -> None:
    assert first_choice(engine, "greedy:1:depth=1") == ("quick", 2)


def test_lookahead_sees_what_the_same_turn_builds(engine: Engine) -> None:
    # quick; prepare; prepare then quick or cash (another player to move: the lookahead stops)
    assert first_choice(engine, "greedy:1") == ("prepare", 4)
    assert first_choice(engine, "greedy:1:depth=2") == ("prepare", 4)


def test_a_lookahead_past_its_applies_is_done_one_decision_shallower(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(simple, "LOOKAHEAD_APPLIES", 3)  # two plies need 4 applies: one ply it is
    assert first_choice(engine, "greedy:1") == ("quick", 2)
    monkeypatch.setattr(simple, "LOOKAHEAD_APPLIES", 4)
    assert first_choice(engine, "greedy:1") == ("prepare", 4)


def test_follow_plays_the_seats_next_decisions_greedily_past_the_depth(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one ply, then prepare's follow-up (quick or cash) taken greedily: cash's 5 shows
    assert first_choice(engine, "greedy:1:depth=1:follow=1") == ("prepare", 4)
    assert first_choice(engine, "greedy:1:depth=1:follow=0") == ("quick", 2)
    monkeypatch.setattr(simple, "FOLLOW_CHOICES", 1)  # a follow-up of 2 choices ends the chain
    assert first_choice(engine, "greedy:1:depth=1:follow=1") == ("quick", 2)


@pytest.mark.slow  # about 1.1 CPU s: loads Sushi Go
def test_ties_random_breaks_a_tie_without_playing_on() -> None:
    """Sushi Go's first pick: every card ties right after it (picks are revealed together), so greedy
    plays on past the other player's pick (18 applies for 6 choices); `ties=random` picks among the
    tied at once (6 applies, one a choice)."""
    from tabula.common import load

    sushi = Engine(load("sushi-go", [], None, []))
    st = sushi.new_game(2, 0)
    seat = int(sushi.current_player(st) or 0)
    applies = []
    for spec in ("greedy:1:depth=1", "greedy:1:depth=1:ties=random"):
        bot = make_bot(spec, sushi)
        bot.choose(Observation(sushi, st, seat), bot_generator(0))
        applies.append(bot.stats.playouts)
    assert applies[1] == len(sushi.legal_ids(st)) < applies[0], applies
