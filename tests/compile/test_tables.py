"""Constant tables keyed by numbers (`constants: {hand_size: {2: 5, 3: 4}}`): read by index only,
and every index checked against the table's keys at check time (T012)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, Report, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.load.yamlsource import load_yaml_text

MINI = Path(__file__).resolve().parents[2] / "tests" / "games" / "mini"
TABLES = """\
  bonus: {2: 5, 3: 4}
  price: {red: 1, blue: 2}
  mixed: {1: a, b: 2}
"""


def mini_with(tmp_path: Path, setup: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    path = folder / "game.yaml"
    text = path.read_text().replace("constants:\n", "constants:\n" + TABLES)
    text = text.replace(
        "  setup: |\n", "  setup: |\n" + "".join(f"    {line}\n" for line in setup.splitlines())
    )
    path.write_text(text)
    return folder


def errors(folder: Path) -> str:
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return render_report(err.value.report)


def test_number_keys_are_allowed_under_constants_only() -> None:
    report = Report()
    doc = load_yaml_text("constants:\n  t: {2: 5, 3: 4}\nother: {1: x}\n", "g.yaml", report)
    assert doc is not None and doc.data["constants"]["t"] == {2: 5, 3: 4}
    assert doc.data["other"] == {} and [e.code for e in report.errors] == ["Y009"]  # elsewhere, as before


def test_a_table_by_player_count_is_read_by_num_players(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, "gain bonus[num_players] score(0)")))
    assert engine.new_game(2, seed=1)["c"][1] == 5
    assert engine.new_game(3, seed=1)["c"][1] == 4


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (
            "gain bonus['2'] score(0)",
            "'bonus' is keyed by numbers (2, 3): indexing it with a text or symbol can never",
        ),
        ("gain price[2] score(0)", "'price' is keyed by text ('red', 'blue'): indexing it with a number"),
        ("gain bonus[4] score(0)", "'bonus' has no key 4"),
        ("gain price['green'] score(0)", "'price' has no key 'green'"),
        ("set last = bonus", "'bonus' is keyed by numbers: it is read by index only"),
        ("set last = mixed[1]", "'mixed' mixes number and text keys (1, 'b')"),
    ],
)
def test_an_index_that_can_never_find_a_key_is_t012(tmp_path: Path, setup: str, message: str) -> None:
    text = errors(mini_with(tmp_path, setup))
    assert f"error[T012]: {message}" in text, text
