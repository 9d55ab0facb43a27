"""`max:` on a zone (and on a board's cell zones, `holds: {max: 1}`): a move that would put more
components there is R016 at run time, and so is a scenario's `given` listing more (tests/games/grids:
each cell of `quilt` holds at most one patch)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run import support
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime
from tabula.interpreter.scenarios import run_scenario_cases

GRIDS = Path(__file__).resolve().parents[1] / "games" / "grids"


def test_a_second_piece_on_a_cell_of_max_1_is_r016_naming_the_zone() -> None:
    game = load_game(GRIDS)
    rt = Runtime(game, Engine(game).new_game(2))
    cell = game.boards.tables["quilt"].cell_zones[0][0]
    pile = rt.st["z"][game.zones["pile"].base]
    support.move_one(rt, pile[0], cell, False)  # one is allowed
    assert len(rt.st["z"][cell]) == 1
    with pytest.raises(GameRuntimeError) as err:
        support.draw(rt, game.zones["pile"].base, cell, 1)
    assert err.value.code == "R016"
    assert err.value.message == "on_quilt(P1, a1) may hold at most 1 (max: 1), and this move puts 2 there"
    with pytest.raises(GameRuntimeError) as err:
        support.move(rt, list(pile), cell, False, False)
    assert err.value.code == "R016" and "this move puts 3 there" in err.value.message


def test_a_given_listing_more_than_max_is_r016_at_the_list(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    body = f"""\
    scenario: t
    game: {GRIDS}
    players: [Ann, Bob]
    given:
      zones:
        on_quilt(Ann, a1): [P, P]
    """
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    (result,) = run_scenario_cases(path)
    assert not result.passed and result.error is not None
    assert "s.yaml:6:24: error[R016]: this zone may hold at most 1 (max: 1), and 2 are listed" in result.error
