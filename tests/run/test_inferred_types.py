"""Static types inferred where a rule stores a value (issue 34, items 8 and 9): a number from a
function of untyped parameters, a function's `let:` name. A mark of type any given such a value is
not T011 (a game written before T011 keeps loading), and a let of a component stays a component."""

from __future__ import annotations

from pathlib import Path

from tabula.interpreter.base import types as static
from tabula.interpreter.engine import Engine, load_game

GAME = """\
game:
  id: inferred
  players: {min: 2, max: 2}
components:
  tile:
    marks: {col: none}
    instances:
      - {name: T1}
      - {name: T2}
zones:
  table: {visibility: public}
counters:
  score: {per: player}
functions:
  next_col:                       # untyped: a number plus one is a number
    params: [n]
    expr: n + 1
  first_tile:                     # a let of a component stays a component
    params: [p: player]
    let: {t: "[x for x in table][0]"}
    expr: t
actions:
  place:
    params: {t: table}
    do: |
      let c = next_col(score(me))
      set t.col = c
      gain 1 score(me)
  take_first:
    params: {t: "[first_tile(me)]"}
    closes_window: true
    do: |
      gain 1 score(me)
flow:
  setup: |
    for t in tile:
      move t to table
  turn:
    player: (turn) % num_players
    phases:
      - id: main
        do: |
          window p: place, take_first
  end_checks:
    - id: e
      when: score(0) > 2
      end: immediately
scoring:
  score: score(p)
"""


def folder(tmp_path: Path) -> Path:
    (tmp_path / "inferred").mkdir()
    (tmp_path / "inferred" / "game.yaml").write_text(GAME)
    return tmp_path / "inferred"


def test_a_mark_given_a_number_from_an_untyped_function_loads(tmp_path: Path) -> None:
    engine = Engine(load_game(folder(tmp_path)))  # was T011: "mark 'col' has no component type"
    st = engine.new_game(2)
    st = engine.apply(st, next(i for i in engine.legal_ids(st) if i.startswith("place:")))
    assert st["m"]["col"][0] == 1 and engine.game.mark_kinds["col"] == static.ANY


def test_a_let_of_a_component_keeps_the_component_type(tmp_path: Path) -> None:
    engine = Engine(load_game(folder(tmp_path)))
    st = engine.new_game(2)
    (take,) = [i for i in engine.legal_ids(st) if i.startswith("take_first")]
    assert take == "take_first:T1"  # was "take_first:0": the let's value read as a raw number
