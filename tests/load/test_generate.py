"""Instances generated from ranges and products (`for:` on an instance, load/generate.py): the
instances made, their names and properties, abilities copied, and the errors located in the
template (C009, and the checks after it: S004 at the `for:` entry)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import load_game

MINI = Path(__file__).resolve().parents[2] / "tests" / "games" / "mini"
CARDS = """\
      - {name: A, value: 1}
      - {name: B, value: 2, copies: 2}
      - {name: C, value: 3}
"""


def mini_with(tmp_path: Path, instances: str, extra: str = "") -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    path = folder / "game.yaml"
    text = path.read_text()
    text = text.replace(CARDS, instances).replace("constants:\n", "constants:\n" + extra)
    text = text.replace("properties: {value: int}", "properties: {value: int, colour: symbol}")
    path.write_text(text.replace("zones:\n", "enums:\n  colour: [red, blue]\n\nzones:\n", 1))
    return folder


def errors(folder: Path) -> str:
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return render_report(err.value.report)


def test_a_product_of_a_range_and_an_enum_makes_one_instance_per_combination(tmp_path: Path) -> None:
    instances = """\
      - {name: A, value: 1}
      - {for: {colour: colour, value: 2..4}, name: "{colour}-{value}", rank: "{value}", note: "v{value}"}
      - {name: Z, value: 9}
"""
    game = load_game(mini_with(tmp_path, instances))
    cards = [game.components[c] for c in game.by_type["card"]]
    assert [c.name for c in cards] == ["A", "red-2", "red-3", "red-4", "blue-2", "blue-3", "blue-4", "Z"]
    red3 = cards[2]
    assert (red3.props["colour"], red3.props["value"], red3.props["rank"], red3.props["note"]) == (
        "red",
        3,
        3,  # a whole "{value}" keeps the number
        "v3",
    )


def test_a_constant_list_and_copies_go_with_every_generated_instance(tmp_path: Path) -> None:
    instances = "      - {for: {value: sizes}, name: 'S{value}', copies: 2}\n"
    game = load_game(mini_with(tmp_path, instances, extra="  sizes: [5, 7]\n"))
    assert [game.components[c].key for c in game.by_type["card"]] == ["S5#1", "S5#2", "S7#1", "S7#2"]


def test_a_name_that_is_no_range_enum_or_list_is_c009_at_the_value(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "      - {for: {colour: colours}, name: 'x{colour}', value: 1}\n")
    text = errors(folder)
    assert (
        "game.yaml:17:24: error[C009]: 'colours' is neither a range (2..10) nor an enum or a constant list"
        in text
    )
    assert "did you mean 'colour'?" in text


def test_an_empty_range_and_a_key_given_twice_are_c009(tmp_path: Path) -> None:
    folder = mini_with(
        tmp_path,
        "      - {for: {value: 5..2}, name: 'x{value}'}\n      - {for: {value: 1..2}, value: 1, name: y}\n",
    )
    text = errors(folder)
    assert "error[C009]: the range 5..2 is empty" in text and "write 2..5" in text
    assert "error[C009]: 'value' is given by 'for' and by the instance" in text


def test_a_generated_value_of_the_wrong_type_is_s004_at_its_for_entry(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "      - {for: {value: [a, b]}, name: 'x{value}'}\n")
    text = errors(folder)
    assert "game.yaml:17:23: error[S004]" in text and "value" in text


def test_a_product_past_the_component_limit_is_refused_before_it_is_made(tmp_path: Path) -> None:
    folder = mini_with(tmp_path, "      - {for: {value: 1..1000, rank: 1..1000}, name: 'x{value}'}\n")
    assert "error[C009]: 'for' makes 1000000 instances, more than the 20000 components of a game" in errors(
        folder
    )
