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


MIXED = """\
game:
  id: mixed
  players: {min: 2, max: 2}
constants:
  bonus: {A: 1, B: two}                 # a text among numbers
components:
  card:
    properties: {value: int}
    instances:
      - {name: A, value: 1}
      - {name: B, value: 2}
zones:
  table: {visibility: public}
counters:
  score: {per: player}
actions:
  score_card:
    params: {c: table}
    closes_window: true
    do: |
      gain 1 + bonus[c.name] score(me)
flow:
  setup: |
    for c in card:
      move c to table
  turn:
    phases:
      - id: main
        do: |
          window p: score_card
  end_checks:
    - id: e
      when: score(0) > 9
      end: immediately
scoring:
  score: score(p)
"""


def test_a_run_time_error_names_the_constant_of_the_wrong_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34, item 7: R004 pointed at the line without naming the constant (read from the line's
    text: compiled here, not taken from the cache of a copy of this game in an earlier tmp_path)."""
    monkeypatch.setenv("TABULA_NO_CACHE", "1")
    (tmp_path / "mixed").mkdir()
    (tmp_path / "mixed" / "game.yaml").write_text(MIXED)
    engine = Engine(load_game(tmp_path / "mixed"))  # the key is known only while playing
    st = engine.new_game(2)
    with pytest.raises(GameRuntimeError) as err:
        engine.apply(st, "score_card:B")
    assert err.value.code == "R004"
    assert err.value.message.endswith("(the constant 'bonus' mixes kinds of values: bonus['B'] is 'two')"), (
        err.value.message
    )
