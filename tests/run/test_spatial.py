"""The spatial builtins at run time (run/boards.py, run/pieces.py): distinct orientations of
pieces, the work budget charged per cell visited, and run-time errors in the DSL's words (R015).
The hand-counted cases on whole boards are scenarios: tests/games/tiles and tests/games/routes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import boards
from tabula.interpreter.run.pieces import orientations, placements
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture(scope="module")
def rt() -> Runtime:
    game = load_game(GAMES / "tiles")
    return Runtime(game, Engine(game).new_game(2))


@pytest.mark.parametrize(
    ("shape", "ways"),
    [
        ([(0, 0)], 1),
        ([(0, 0), (1, 0)], 2),  # a domino
        ([(0, 0), (1, 0), (0, 1), (1, 1)], 1),  # a square
        ([(0, 0), (0, 1), (1, 1)], 4),  # an L tromino
        ([(0, 0), (1, 0), (2, 0), (1, 1)], 4),  # T
        ([(0, 0), (1, 0), (1, 1), (2, 1)], 4),  # S: turned 2 ways, mirrored into Z
        ([(0, 0), (0, 1), (0, 2), (1, 2)], 8),  # L tetromino
        ([(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)], 8),  # F pentomino
        ([(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], 1),  # X pentomino
    ],
)
def test_a_piece_takes_each_distinct_orientation_once(shape: list[tuple[int, int]], ways: int) -> None:
    assert len(orientations(tuple(shape), "square")) == ways


def test_on_a_hex_grid_a_piece_turns_six_ways_and_mirrors() -> None:
    assert len(orientations(((0, 0), (1, 0)), "hex")) == 3
    assert len(orientations(((0, 0), (1, 0), (2, 0)), "hex")) == 3
    assert len(orientations(((0, 0), (1, 0), (1, 1)), "hex")) == 6  # a bent three: turned and mirrored


def test_spatial_builtins_charge_each_cell_they_visit(rt: Runtime) -> None:
    wall = rt.g.boards.tables["wall"].cells[0]
    rt.budget = 1000
    boards.line_from(rt, wall[0], "e")
    assert rt.budget == 1000 - 5  # four cells and the start
    rt.budget = 1000
    region = boards.region(rt, wall, lambda c: True)
    assert len(region) == 25 and 1000 - rt.budget == 25 + sum(
        len(n) for n in rt.g.boards.tables["wall"].geometry.neighbours
    )
    rt.budget = 1000
    assert len(placements(rt, ("wall", 0), [[0, 0], [1, 0]])) == 40
    # two orientations, 25 anchors, two cells each; then two cells for each of the 40 found
    assert 1000 - rt.budget == 2 * 25 * 2 + 40 * 2


def test_a_search_past_the_budget_stops_with_r002(rt: Runtime) -> None:
    wall = rt.g.boards.tables["wall"].cells[0]
    rt.budget = 10
    with pytest.raises(GameRuntimeError) as err:
        boards.region(rt, wall, lambda c: True)
    assert err.value.code == "R002"


def test_errors_name_the_cell_and_the_board(rt: Runtime) -> None:
    rt.budget = 1000
    stone = rt.g.by_type["stone"][0]
    with pytest.raises(GameRuntimeError, match=r"^S is not a cell or space of a board$") as err:
        boards.neighbours(rt, stone)
    assert err.value.code == "R015"
    wall = rt.g.boards.tables["wall"].cells[0]
    with pytest.raises(
        GameRuntimeError, match=r"'up' is not a direction of board 'wall' \(directions: n, e, s, w\)"
    ):
        boards.in_direction(rt, wall[0], "up")
    with pytest.raises(GameRuntimeError, match=r"a piece's shape is a list of \[x, y\] offsets"):
        placements(rt, ("wall", 0), [[0, 0], [1]])
    with pytest.raises(GameRuntimeError, match=r"is not an edge of a graph board"):
        boards.longest_path(rt, [wall[0]])


REGIONS_KEPT = """
game: {id: unheld, name: Unheld, players: {min: 2, max: 2}}
boards:
  table: {kind: square, size: [3, 3]}
functions:
  spread:
    expr: count(regions(x for x in cells(table) where true by 1))
actions:
  go: {closes_window: true, do: pass}
flow:
  turn:
    player: (turn) % num_players
    phases:
      - id: main
        do: |
          window p: go
  end_checks:
    - {id: done, when: turn > 2 and spread > 0, end: immediately}
scoring:
  score: 0
"""


def test_the_native_backend_holds_every_spatial_builtin(tmp_path: Path) -> None:
    from tabula.interpreter.compile.native.support import lower_game

    # longest_path, path_exists (routes), regions (tiles), the features of tiles (edges) and
    # regions kept whole as a value (a list of lists: tests/native/test_native_groups.py plays them)
    for held in ("routes", "tiles", "edges"):
        _, walk = lower_game(load_game(GAMES / held))
        assert walk.report.diagnostics == []
    (tmp_path / "game.yaml").write_text(REGIONS_KEPT)
    _, walk = lower_game(load_game(tmp_path))
    found = [(d.code, d.span.line if d.span else 0, d.message) for d in walk.report.diagnostics]
    assert found == []


NO_PATH = """
game: {id: nopath, name: No path, players: {min: 2, max: 2}}
boards:
  wall: {kind: square, size: [3, 1], holds: {}}
components:
  stone: {instances: [{name: S, copies: 2}]}
zones:
  pool: {visibility: public}
counters:
  found: {per: player}
actions:
  go:
    closes_window: true
    do: |
      let d = distance(cell(wall, 0, 0), cell(wall, 2, 0), [cell(wall, 0, 0), cell(wall, 2, 0)])
      if d == none:
        gain 1 found(me)
flow:
  turn:
    player: (turn) % num_players
    phases:
      - {id: main, do: "window p: go"}
  end_checks:
    - {id: done, when: turn > 1, end: immediately}
scoring:
  score: found(p)
"""


def test_a_number_local_may_hold_none(tmp_path: Path) -> None:
    """`let d = distance(a, b, L)` with no path through L keeps none (the check of a number's size
    after the store allowed no none: R004, "'<' cannot compare a number with none")."""
    (tmp_path / "game.yaml").write_text(NO_PATH)
    e = Engine(load_game(tmp_path))
    st = e.new_game(2, 1)
    e.apply_inplace(st, 0)
    assert e.scores(st)[0] == 1
