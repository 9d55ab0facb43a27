"""Indexing checked at check time (issue 28): `zone[i]` is the component at position i (0 the top,
-1 the bottom), a list's position is a number, and a value that is no list cannot be indexed (T013)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tables import errors, mini_with

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import GameRuntimeError

ON_TABLE = "move card[0] to table\nmove card[3] to table top\n"  # the table holds C (top), then A


def test_a_zone_is_indexed_from_its_top(tmp_path: Path) -> None:
    setup = ON_TABLE + "gain table[0].value score(0)\ngain 10 * table[-1].value score(0)"
    engine = Engine(load_game(mini_with(tmp_path, setup)))
    assert engine.new_game(2, seed=1)["c"][1] == 3 + 10 * 1  # C is worth 3, A 1


def test_a_position_off_the_zone_is_a_runtime_error_in_the_dsl_words(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, ON_TABLE + "gain table[2].value score(0)")))
    with pytest.raises(GameRuntimeError) as err:
        engine.new_game(2, seed=1)
    assert "no such position in the list" in err.value.message


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("gain pile[0] score(0)", "error[T013]: a number cannot be indexed with [...]"),
        ("gain card[0][0] score(0)", "error[T013]: a component cannot be indexed with [...]"),
        ("gain table['x'].value score(0)", "error[T013]: a position is a number, not a text"),
        ("gain takes[true] score(0)", "error[T013]: a position is a number, not a true/false value"),
    ],
)
def test_indexing_what_has_no_positions_is_refused_at_check_time(
    tmp_path: Path, setup: str, message: str
) -> None:
    assert message in errors(mini_with(tmp_path, setup))


@pytest.mark.parametrize(
    ("setup", "score"),
    [
        ("let g = [1, 2, 3]\nset g[1] = 5\nset g[-1] += 10\ngain sum(g) score(0)", 1 + 5 + 13),
        ("set last = [0, 0]\nset last[0] = 7\nset last[1] -= 2\ngain last[0] + last[1] score(0)", 7 - 2),
        # the constant the local was bound to is not changed: a new list is stored
        ("let a = takes\nset a[0] = 9\ngain takes[0] + 10 * a[0] score(0)", 1 + 90),
    ],
    ids=["local", "var", "shared"],
)
def test_set_an_item_of_a_list(tmp_path: Path, setup: str, score: int) -> None:
    folder = mini_with(tmp_path, setup)
    text = (folder / "game.yaml").read_text().replace("last: {initial: none}", "last: {visibility: public}")
    (folder / "game.yaml").write_text(text)
    engine = Engine(load_game(folder))
    assert engine.new_game(2, seed=1)["c"][1] == score


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("set pile[0] = 5", "error[E110]: only an item of a list can be set, and this is a number"),
        ("set table[0] = 5", "error[E110]: only an item of a list can be set, and this is a zone"),
        ("let g = [1]\nset g['x'] = 5", "error[T013]: a position is a number, not a text"),
    ],
)
def test_setting_an_item_of_what_is_no_list_is_refused(tmp_path: Path, setup: str, message: str) -> None:
    assert message in errors(mini_with(tmp_path, setup))


def test_setting_an_item_off_the_list_is_a_runtime_error(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, "let g = [1]\nset g[3] = 5")))
    with pytest.raises(GameRuntimeError) as err:
        engine.new_game(2, seed=1)
    assert "no such position in the list" in err.value.message
