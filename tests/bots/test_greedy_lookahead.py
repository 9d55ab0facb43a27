"""Greedy looks ahead over its own decisions in a row (`depth`, 3 by default; `depth=1`: one ply).

The game below has a turn of two decisions: `prepare` scores nothing by itself but lets the same
turn `cash` 5 points, while `quick` scores 1 at once and ends the turn. One ply sees 1 against 0 and
takes `quick`; looking ahead it sees 5 and prepares.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.bots import simple
from tabula.bots.base import Observation, bot_generator
from tabula.bots.spec import make_bot
from tabula.interpreter.engine import Engine, load_game

GAME = """\
game:
  id: lookahead
  name: Lookahead
  players: {min: 2, max: 2}

counters:
  score: {per: player}
  charge: {per: player}

actions:
  quick:
    closes_window: true
    do: gain 1 score(me)
  prepare:
    when: charge(me) == 0
    do: gain 1 charge(me)
  cash:
    when: charge(me) > 0
    closes_window: true
    do: |
      pay 1 charge(me)
      gain 5 score(me)

flow:
  turn:
    player: (turn) % num_players
    phases:
      - id: main
        do: |
          window p: quick, prepare, cash
  end_checks:
    - id: done
      when: turn >= 4
      end: immediately

scoring:
  score: score(p)
"""


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    (tmp_path / "game.yaml").write_text(GAME)
    return Engine(load_game(tmp_path))


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
