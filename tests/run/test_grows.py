"""Boards that grow (`grows: true`, load/boards.py and run/boards.py): the pool of cells a board
makes, the cells the engine adds round what is placed (in the order of the board's directions,
their coordinates plain marks in the state), the cap `max_cells` (R003 while playing), and the
errors of a board that cannot grow, located in `boards:` (C010). Whole games: the scenarios of
tests/games/sprawl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import boards
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime
from tabula.interpreter.scenarios import run_scenario_file

SPRAWL = Path(__file__).resolve().parents[1] / "games" / "sprawl"
HEAD = "game: {id: b, players: {min: 2, max: 2}}\n"
REST = """\
components:
  stone: {instances: [{name: Stone, copies: 9}]}
zones:
  bag: {visibility: public, ordered: true}
actions:
  put:
    params: {c: frontier(table)}
    closes_window: true
    do: move first(bag) to on_table(c)
flow:
  setup: move stone to bag
  turn:
    phases: [{id: main, do: 'window p: put'}]
"""


def folder_with(tmp_path: Path, board: str) -> Path:
    (tmp_path / "game.yaml").write_text(HEAD + "boards:\n  table: " + board + "\n" + REST)
    return tmp_path


def errors(folder: Path) -> str:
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return render_report(err.value.report)


def test_a_board_that_grows_is_a_pool_of_cells_the_first_at_0_0() -> None:
    game = load_game(SPRAWL)
    cells = [game.components[i] for i in game.by_type["table"]]
    assert [c.name for c in cells[:3]] == ["table1", "table2", "table3"] and len(cells) == 60
    st = Engine(game).new_game(2)
    xs, ys = st["m"]["x"], st["m"]["y"]
    assert (xs[cells[0].id], ys[cells[0].id]) == (0, 0)
    assert all(xs[c.id] is None for c in cells[1:])  # not on the board yet
    json.dumps(st)  # plain data


def test_cells_are_added_round_what_is_placed_in_the_order_of_the_directions(tmp_path: Path) -> None:
    game = load_game(folder_with(tmp_path, "{kind: hex, grows: true, holds: {}}"))
    engine = Engine(game)
    st = engine.new_game(2)
    assert engine.legal_ids(st) == ["put:table1"]
    st = engine.apply(st, "put:table1")
    rt = Runtime(game, st)
    rt.budget = 10_000
    added = boards.cells(rt, ("table", 0))
    # e ne nw w sw se, in axial coordinates, then listed row by row
    assert [(st["m"]["x"][c], st["m"]["y"][c]) for c in added] == [
        (0, -1),
        (1, -1),
        (-1, 0),
        (0, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
    ]
    assert [game.components[c].name for c in boards.frontier(rt, ("table", 0))] == [
        "table4",
        "table3",
        "table5",
        "table2",
        "table6",
        "table7",
    ]
    again = engine.apply(engine.new_game(2), "put:table1")
    assert again == st  # the same choices, the same cells


def test_a_board_that_grows_past_max_cells_is_r003(tmp_path: Path) -> None:
    game = load_game(folder_with(tmp_path, "{kind: square, grows: true, max_cells: 6, holds: {}}"))
    engine = Engine(game)
    st = engine.apply(engine.new_game(2), "put:table1")  # five cells now
    with pytest.raises(GameRuntimeError) as err:
        engine.apply(st, "put:table2")  # [0, -1] needs three more
    assert err.value.code == "R003"
    assert (
        "board 'table' has grown to its 6 cells (max_cells: 6) and needs more round table2"
        in err.value.message
    )


def test_a_cell_not_on_the_board_yet_is_a_run_time_error_in_the_builtins(tmp_path: Path) -> None:
    game = load_game(folder_with(tmp_path, "{kind: square, grows: true, holds: {}}"))
    rt = Runtime(game, Engine(game).new_game(2))
    rt.budget = 10_000
    far = game.by_type["table"][5]
    with pytest.raises(GameRuntimeError, match="table6 is not on the board 'table' yet"):
        boards.neighbours(rt, far)
    with pytest.raises(GameRuntimeError, match="'ne' is not a direction of board 'table'"):
        boards.in_direction(rt, game.by_type["table"][0], "ne", 0)
    assert boards.cell(rt, ("table", 0), 0, 0) == game.by_type["table"][0]
    assert boards.cell(rt, ("table", 0), 0, 1) is None


def test_boards_that_cannot_grow_are_located(tmp_path: Path) -> None:
    folder_with(
        tmp_path, "{kind: square, size: [3, 3], grows: true, per: player, max_cells: 0, marks: {x: 0}}"
    )
    text = errors(tmp_path)
    assert "game.yaml:3:25: error[C010]: a board that grows has no size" in text
    assert "remove size (max_cells: N caps it)" in text
    assert "game.yaml:3:57: error[C010]: a board that grows is one for all players" in text
    assert "game.yaml:3:76: error[S003]: 'boards.table.max_cells' must be at least 1" in text
    assert "game.yaml:3:87: error[C010]: the mark 'x' of a cell of a board that grows is the engine's" in text
    folder_with(tmp_path, "{kind: square, grows: true, holds: {}, max_cells: 100000000}")
    assert "game.yaml:3:60: error[C010]: 100000000 cells are more than the 20000 components" in errors(
        tmp_path
    )
    folder_with(tmp_path, "{kind: square, grows: true}")
    text = errors(tmp_path)
    assert "game.yaml:3:32: error[C010]: a board that grows adds cells where things are placed" in text
    assert "holds: {}" in text
    folder_with(tmp_path, "{kind: graph, grows: true, holds: {}, spaces: {A: {at: [0, 0]}}}")
    assert "error[C010]: a graph board cannot grow: only square and hex boards do" in errors(tmp_path)


def test_a_scenario_naming_a_cell_off_the_board_is_located(tmp_path: Path) -> None:
    folder_with(tmp_path, "{kind: square, grows: true, holds: {}}")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "bad.yaml").write_text(
        "scenario: off the board\ngame: ../\nplayers: [Ann, Bob]\n"
        "given:\n  zones:\n    on_table(table9): [Stone]\n"
        "then:\n  - true\n"
    )
    result = run_scenario_file(tmp_path / "scenarios" / "bad.yaml")
    assert not result.passed and result.error is not None
    assert "bad.yaml:4:1: error[R114]: table9 is not on the board 'table' yet" in result.error
    assert "name the cells of a board that grows by coordinates" in result.error


def test_a_picture_of_a_board_that_grows_is_located(tmp_path: Path) -> None:
    folder_with(tmp_path, "{kind: square, grows: true, holds: {}}")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "pic.yaml").write_text(
        "scenario: a picture\ngame: ../\nplayers: [Ann, Bob]\n"
        "given:\n  boards:\n    table:\n      picture: ['S']\n      legend: {S: {holds: [Stone]}}\n"
        "then:\n  - true\n"
    )
    result = run_scenario_file(tmp_path / "scenarios" / "pic.yaml")
    assert result.error is not None
    assert "pic.yaml:7:7: error[R114]: the board 'table' grows: it has no rows to draw" in result.error
    assert "cells: [{at: [0, 0], holds: [...]}]" in result.error


def test_placements_on_a_board_that_grows_is_refused_by_check(tmp_path: Path) -> None:
    """Python failed at every call (R015: pieces are placed on grids of a fixed size): `check`
    says so at the board, before any game is played."""
    (tmp_path / "game.yaml").write_text(
        HEAD
        + "boards:\n  table: {kind: square, grows: true, holds: {}}\n"
        + REST.replace(
            "params: {c: frontier(table)}",
            "params: {c: frontier(table)}\n    when: count(placements(table, [[0, 0]])) > 0",
        )
    )
    text = errors(tmp_path)
    assert (
        "game.yaml:11:28: error[C010]: pieces are placed on boards of a fixed size, and 'table' grows" in text
    )
