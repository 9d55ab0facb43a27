"""An emit must pass what a game-wide trigger's `where` reads at every emit of its event (E105 at
the emit; the failing case is tests/gamedefs/invalid/check-time-emit-without-trigger-argument). A
read that only some emits reach (a later operand of `and`) is left to run time: the game may never
get there."""

from __future__ import annotations

from pathlib import Path

from tabula.interpreter.engine import Engine, load_game

GAME = """
game: {id: emit-args, name: Emit args, players: {min: 2, max: 2}}
counters:
  pts: {per: player}
triggers:
  - id: bonus
    on: scored
    where: big and amount > 0
    do: gain amount pts(me)
actions:
  large:
    closes_window: true
    do: emit scored(big=true, amount=2)
  small:
    closes_window: true
    do: emit scored(big=false)
flow:
  turn:
    player: (turn) % num_players
    phases:
      - {id: main, do: "window p: large, small"}
  end_checks:
    - {id: done, when: turn > 3, end: immediately}
scoring:
  score: pts(p)
"""


def test_a_read_behind_and_is_not_refused(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(GAME)
    e = Engine(load_game(tmp_path))
    st = e.new_game(2, 1)
    e.apply_inplace(st, e.legal_ids(st).index("small"))  # `big` is false: `amount` is never read
    e.apply_inplace(st, e.legal_ids(st).index("large"))
    assert e.scores(st) == [0, 2]
