"""`given.boards`: a board filled from a picture or by coordinates, and its located errors (R113-R115).

The passing cases are scenario files (tests/games/tiles/scenarios/given-picture.yaml, grids'
given-picture-per-player.yaml); these write small broken files against the tiles and grids fixtures.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tabula.interpreter.scenarios import ScenarioResult, run_scenario_cases

ROOT = Path(__file__).resolve().parents[2]
TILES = ROOT / "tests" / "games" / "tiles"
GRIDS = ROOT / "tests" / "games" / "grids"


def error_of(tmp_path: Path, body: str, game: Path = TILES) -> str:
    path = tmp_path / "s.yaml"
    head = f"scenario: t\ngame: {game}\nplayers: [Ann, Bob]\ngiven:\n  start: main\n  boards:\n"
    path.write_text(head + textwrap.indent(textwrap.dedent(body), "    "), encoding="utf-8")
    results: list[ScenarioResult] = run_scenario_cases(path)
    (result,) = results
    assert not result.passed and result.error is not None, result
    return result.error


def test_a_row_of_the_wrong_length_and_an_unknown_symbol_are_reported_together(tmp_path: Path) -> None:
    body = """\
    wall:
      picture: ["AA...", "A..", "..Z.."]
      legend: {A: {marks: {owner: Ann}}}
    """
    error = error_of(tmp_path, body)
    assert "s.yaml:8:26: error[R114]: row 2 of the picture has 3 symbols, the board 'wall' is 5 wide" in error
    assert "'wall' is 5 x 5: one symbol a cell" in error
    assert "s.yaml:8:36: error[R115]: 'Z' is not in the legend" in error  # the Z's own column
    assert "the legend has: A; '.' leaves a cell as it is" in error
    assert "2 errors" in error


def test_too_many_rows_and_a_cell_off_the_board(tmp_path: Path) -> None:
    body = """\
    wall:
      picture: [".....", ".....", ".....", ".....", ".....", "....."]
      cells: [{at: [5, 0], marks: {owner: Bob}}]
    """
    error = error_of(tmp_path, body)
    assert "error[R114]: the picture has more than 5 rows: the board 'wall' is 5 high" in error
    assert "error[R114]: [5, 0] is no cell of the board 'wall'" in error


def test_a_board_and_its_player_must_exist(tmp_path: Path) -> None:
    assert "error[R113]: 'wal' is not a board of Tiles" in error_of(tmp_path, "wal: {}\n")
    assert "did you mean 'wall'?" in error_of(tmp_path, "wal: {}\n")
    error = error_of(tmp_path, "quilt: {}\n", GRIDS)
    assert "error[R113]: the board 'quilt' is one per player: which player's?" in error
    assert "'Cy' is not a player of this scenario" in error_of(tmp_path, "quilt(Cy): {}\n", GRIDS)
    assert "the board 'wall' is one for all players" in error_of(tmp_path, "wall(Ann): {}\n")


def test_holds_on_a_board_whose_cells_hold_nothing(tmp_path: Path) -> None:
    body = """\
    ring:
      cells: [{at: [0, 0], holds: [P]}]
    """
    error = error_of(tmp_path, body, GRIDS)
    assert "error[R113]: the cells of the board 'ring' hold nothing" in error


def test_a_symbol_on_a_hole_of_the_mask(tmp_path: Path) -> None:
    body = """\
    ring:
      picture: ["...", ".X.", "..."]
      legend: {X: {holds: []}}
    """
    assert "error[R114]: [1, 1] is a hole of the board 'ring': draw it '.'" in error_of(tmp_path, body, GRIDS)
