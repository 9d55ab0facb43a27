"""Values checked against declared types: rules options (where they enter: load_game, new_game, a
scenario, a pack), component properties and var initial values, and what packs add and replace."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, Report, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.load.options import OptionSpec, OptionText, declared_specs
from tabula.interpreter.load.packtypes import PackDef, is_open, mismatch, pack_json_schema
from tabula.interpreter.load.yamlsource import load_yaml_file
from tabula.interpreter.scenarios import run_scenario_file

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "games" / "mini"
OPTIONS = """options:
  target: {default: 10, min: 1, max: 30, description: "Stones in the pile"}
  mode: {default: fast, choices: [fast, slow]}
  loud: {default: false}
  label: {type: str, default: "3"}
"""


def game_with(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    path = folder / "game.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return folder


def typed_mini(tmp_path: Path) -> Path:
    old = 'options:\n  target: {default: 10, description: "Stones in the pile"}\n'
    return game_with(tmp_path, old, OPTIONS)


def errors_of(call: object) -> str:
    assert callable(call)
    with pytest.raises(AuthorError) as err:
        call()
    return render_report(err.value.report)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return str(path)


# ------------------------------------------------------------------ option declarations


def test_an_option_takes_its_defaults_type_or_its_declared_one(tmp_path: Path) -> None:
    game = load_game(typed_mini(tmp_path))
    specs = game.option_specs
    assert specs["target"] == OptionSpec("target", "int", 10, "Stones in the pile", 1, 30)
    assert specs["mode"].choices == ("fast", "slow") and specs["mode"].type == "str"
    assert specs["loud"].type == "bool" and specs["label"].type == "str"
    assert specs["target"].type_text() == "int 1..30"
    assert specs["mode"].type_text() == "str: 'fast' | 'slow'"


@pytest.mark.parametrize(
    "declaration, message",
    [
        ("{default: 0, min: 1}", "the default of option 'target' must be an integer of at least 1, not 0"),
        ("{default: slow, choices: [fast]}", "must be one of 'fast', not the string 'slow'"),
        ("{default: 3, type: str}", "must be a string, not the number 3"),
        ("{default: true, min: 0}", "'min' bounds an int option, and 'target' is a bool option"),
        ("{default: 2, choices: [1, two]}", "a choice of the int option 'target' must be an integer"),
    ],
)
def test_a_declaration_that_disagrees_with_itself_is_located(
    tmp_path: Path, declaration: str, message: str
) -> None:
    folder = game_with(tmp_path, '{default: 10, description: "Stones in the pile"}', declaration)
    text = errors_of(lambda: load_game(folder))
    assert "error[O003]" in text and message in text
    assert text.startswith(f"{folder / 'game.yaml'}:7:")


# ------------------------------------------------------------------ option values where they enter


@pytest.mark.parametrize(
    "options, message",
    [
        ({"target": True}, "option 'target' must be an integer from 1 to 30, not true"),
        ({"target": -4}, "option 'target' must be an integer from 1 to 30, not -4"),
        ({"target": "5"}, "option 'target' must be an integer from 1 to 30, not the string '5'"),
        ({"mode": "medium"}, "option 'mode' must be one of 'fast', 'slow', not the string 'medium'"),
        ({"loud": 1}, "option 'loud' must be true or false, not the number 1"),
        ({"label": 3}, "option 'label' must be a string, not the number 3"),
    ],
)
def test_a_wrong_option_value_is_refused_by_load_game_and_new_game(
    tmp_path: Path, options: dict[str, object], message: str
) -> None:
    folder = typed_mini(tmp_path)
    assert message in errors_of(lambda: load_game(folder, options))
    engine = Engine(load_game(folder))
    text = errors_of(lambda: engine.new_game(2, 0, options))
    assert f"error[O002]: {message}" in text and "(see `tabula options`)" in text


def test_text_from_a_person_is_read_as_the_options_type(tmp_path: Path) -> None:
    folder = typed_mini(tmp_path)
    typed = {"target": "12", "loud": "true", "label": "7", "mode": "slow"}
    game = load_game(folder, {k: OptionText(v) for k, v in typed.items()})
    assert game.options == {"target": 12, "mode": "slow", "loud": True, "label": "7"}
    assert "not the string 'true'" in errors_of(lambda: load_game(folder, {"target": OptionText("true")}))
    assert "not the string 'maybe'" in errors_of(lambda: load_game(folder, {"loud": OptionText("maybe")}))


def test_a_good_option_value_reaches_the_state(tmp_path: Path) -> None:
    engine = Engine(load_game(typed_mini(tmp_path)))
    st = engine.new_game(2, 0, {"target": 3, "mode": "slow"})
    assert st["o"]["target"] == 3 and st["o"]["mode"] == "slow"
    assert "unknown rules option 'targte'" in errors_of(lambda: engine.new_game(2, 0, {"targte": 3}))


def test_a_scenario_with_a_wrong_option_value_fails_with_the_reason(tmp_path: Path) -> None:
    folder = typed_mini(tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"scenario: typed\ngame: {folder}\nplayers: 2\noptions: {{target: '3'}}\n")
    result = run_scenario_file(scenario)
    assert not result.passed
    assert "option 'target' must be an integer from 1 to 30, not the string '3'" in (result.error or "")


def test_the_bundled_games_options_are_typed() -> None:
    specs = load_game("glory-to-rome").option_specs
    assert specs["petition_sizes"].choices == ("2", "2,3", "3")
    assert specs["surrender_allowed"].type == "bool"
    assert declared_specs({"tricks": {"default": 5, "min": 1}})["tricks"].min == 1
    assert load_game("high-card").option_specs["tricks"].min == 1


# ------------------------------------------------------------------ declared property and var types


def test_a_property_of_another_type_than_declared_is_located(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "- {name: C, value: 3}", "- {name: C, value: three}")
    text = errors_of(lambda: load_game(folder))
    assert f"{folder / 'game.yaml'}:19:" in text
    assert "error[S004]: property 'value' of C must be an integer, not the string 'three'" in text


def test_a_var_initial_value_of_another_type_is_located(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "last: {initial: none}", "last: {initial: Bob, type: player}")
    text = errors_of(lambda: load_game(folder))
    assert "the initial value of var 'last' must be a seat number (0, 1, ...), not the string 'Bob'" in text
    load_game(game_with(tmp_path / "b", "last: {initial: none}", "last: {initial: none, type: player}"))


# ------------------------------------------------------------------ packs


@pytest.mark.slow  # loads and checks the whole of a big game with a new pack (no cache entry)
def test_a_pack_replacing_a_constant_with_another_type_fails_check_in_the_pack(tmp_path: Path) -> None:
    text = "pack: bad\nkind: variant\nreplace: {constants.starting_money: twenty-two}\n"
    path = write(tmp_path, "bad", text)
    text = errors_of(lambda: load_game("porta-nigra", variant=path))
    assert text.splitlines()[0] == (
        f"{path}:3:37: error[V030]: 'constants.starting_money' must be a number, like the game's value, "
        "not the string 'twenty-two'"
    )
    assert "the game has 20 here" in text


@pytest.mark.parametrize(
    "body, where, message",
    [
        ("replace: {constants.takes: 3}", "3:28", "'constants.takes' must be a list, like the game's value"),
        ("add: {constants.takes: [x]}", "3:25", "'constants.takes[0]' must be a number, like the game's"),
        ("replace: {'components.card.instances[A].value': one}", "3:49", "property 'value' of A must be"),
        ("add: {components.card.instances: [{name: D, value: x}]}", "3:52", "property 'value' of D must be"),
        ("options: {target: big}", "3:19", "option 'target' must be an integer, not the string 'big'"),
        ("replace: {options.target.default: true}", "3:35", "option 'target' must be an integer, not true"),
        ("replace: [constants.takes]", "3:10", "'replace' must be a mapping, not a list"),
        ("remove: constants.takes", "3:9", "'remove' must be a list, not the string"),
    ],
)
def test_pack_values_are_checked_against_what_they_replace(
    tmp_path: Path, body: str, where: str, message: str
) -> None:
    pack = write(tmp_path, "p", f"pack: p\nkind: variant\n{body}\n")
    text = errors_of(lambda: load_game(MINI, variant=pack))
    assert text.startswith(f"{pack}:{where}: error"), text
    assert message in text


def test_pack_values_of_the_same_kind_pass(tmp_path: Path) -> None:
    body = (
        "replace: {'components.card.instances[A].value': 9}\n"
        "add: {constants.bonus: {a: 1}, constants.takes: [5]}\n"
    )
    game = load_game(MINI, variant=write(tmp_path, "p", f"pack: p\nkind: variant\n{body}"))
    assert game.constants["takes"] == [1, 2, 3, 5] and game.constants["bonus"] == {"a": 1}
    assert sorted(c.props["value"] for c in game.components) == [2, 2, 3, 9]


def test_open_and_typed_places_of_the_schema() -> None:
    assert is_open(("constants", "x")) and is_open(("constants", "x", "y", 0))
    assert is_open(("vars", "v", "initial")) and is_open(("components", "card", "marks", "seen"))
    assert not is_open(("flow", "rounds", "count")) and not is_open(("counters", "c", "initial"))
    assert not is_open(("components", "card", "instances", 0, "value"))  # typed by `properties:`
    assert mismatch({"a": 1, "b": 2}, {"c": "x"}) == (("c",), 1, "x")
    assert mismatch([[1, 2]], [[3, "x"]]) == ((0, 1), 1, "x")
    assert mismatch(None, "anything") is None and mismatch(3, None) is None


def test_the_pack_schema_describes_every_shipped_pack() -> None:
    schema = pack_json_schema()
    assert set(schema["properties"]) == set(PackDef.model_fields)
    assert schema["required"] == ["pack"]
    files = [*ROOT.glob("gamedefs/*/variants/*.yaml"), *ROOT.glob("gamedefs/*/expansions/*.yaml")]
    assert len(files) >= 20
    for f in files:
        doc = load_yaml_file(f, Report())
        assert doc is not None
        PackDef.model_validate(doc.data)
