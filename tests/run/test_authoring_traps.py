"""Authoring traps a new designer met (issue 34, item 9): each now says what went wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import GameRuntimeError

STUCK = """\
game:
  id: stuck
  players: {min: 2, max: 2}
counters:
  score: {per: player}
actions:
  act:
    when: score(me) > 5
    closes_window: true
    do: |
      gain 1 score(me)
flow:
  setup: |
    pass
  turn:
    phases:
      - id: main
        do: |
          window p: act
  end_checks:
    - id: e
      when: score(0) > 9
      end: immediately
limits:
  work_budget: 20000
scoring:
  score: score(p)
"""


def test_a_turn_where_nobody_can_act_says_every_menu_was_empty(tmp_path: Path) -> None:
    (tmp_path / "stuck").mkdir()
    (tmp_path / "stuck" / "game.yaml").write_text(STUCK)
    engine = Engine(load_game(tmp_path / "stuck"))
    with pytest.raises(GameRuntimeError) as err:
        engine.new_game(2)
    assert err.value.code == "R002" and "more than 20000 steps" in err.value.message
    assert "windows offered nothing since the last decision: every player's action menu was empty" in (
        err.value.message
    )
