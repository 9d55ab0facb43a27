"""Values handed to the API and sizes declared by a game are checked where they enter: players, seeds and
choices of any type, players.max, copies and the total of components, parameters and names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base import limits
from tabula.interpreter.engine import AuthorError, Engine, IllegalChoice, load_game

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "games" / "mini"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game(MINI))


def author_error(call: Any) -> tuple[str, str]:
    with pytest.raises(AuthorError) as err:
        call()
    (diagnostic,) = err.value.report.errors
    return diagnostic.code, diagnostic.message


# ------------------------------------------------------------------ players


def test_a_huge_player_count_is_refused_before_anything_is_allocated(engine: Engine) -> None:
    assert author_error(lambda: engine.new_game(30_000_000)) == (
        "G002",
        "Mini is for 2-3 players, not 30000000",
    )
    assert author_error(lambda: engine.new_game(-1)) == ("G002", "Mini is for 2-3 players, not -1")


@pytest.mark.parametrize("players", [True, "2", 2.0, None, {"a": 1}])
def test_players_of_another_type_are_refused(engine: Engine, players: Any) -> None:
    code, message = author_error(lambda: engine.new_game(players))
    assert code == "G002" and message.startswith("players must be a number of players or a list of names")


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Ann", "Ann"], "two players are named 'Ann'"),
        (["Ann", ""], "a player's name must be text of 1 to 100 characters, not ''"),
        (["Ann", 7], "a player's name must be text of 1 to 100 characters, not 7"),
        (["Ann", "x" * 101], "a player's name must be text of 1 to 100 characters, not 'xxxxxxxx"),
    ],
)
def test_bad_player_names_are_refused(engine: Engine, names: list[Any], message: str) -> None:
    code, got = author_error(lambda: engine.new_game(names))
    assert code == "G002" and got.startswith(message)


def test_names_as_a_tuple_are_accepted(engine: Engine) -> None:
    assert engine.new_game(("Ann", "Bob"))["names"] == ["Ann", "Bob"]


# ------------------------------------------------------------------ seeds


@pytest.mark.parametrize("seed", ["x", 2**64, 2**64 + 5, -1, True, 1.0, None])
def test_seeds_outside_64_bits_or_of_another_type_are_refused(engine: Engine, seed: Any) -> None:
    code, message = author_error(lambda: engine.new_game(2, seed=seed))
    assert code == "G003" and message.startswith("the seed must be a whole number from 0 to 2^64 - 1")


def test_the_largest_seed_plays_and_differs_from_seed_zero(engine: Engine) -> None:
    top = engine.new_game(2, seed=2**64 - 1)
    assert top["rng"] != engine.new_game(2, seed=0)["rng"]
    assert top["rng"] == engine.new_game(2, seed=limits.SEED_BOUND - 1)["rng"]


# ------------------------------------------------------------------ choices


@pytest.mark.parametrize("choice", [1.0, None, [0], True, False, {}, b"take:1", ("take:1",)])
def test_a_choice_of_any_other_type_is_an_illegal_choice_with_a_reason(engine: Engine, choice: Any) -> None:
    st = engine.new_game(2, seed=3)
    before = engine.hash(st)
    with pytest.raises(IllegalChoice) as err:
        engine.apply(st, choice)
    assert err.value.reason == f"a choice is a choice id (text) or an index, not {type(choice).__name__}"
    with pytest.raises(IllegalChoice):
        engine.apply_inplace(st, choice)
    assert engine.hash(st) == before


def test_true_is_not_taken_as_index_1(engine: Engine) -> None:
    st = engine.new_game(2, seed=3)
    with pytest.raises(IllegalChoice):
        engine.apply(st, True)
    assert engine.hash(engine.apply(st, 1)) != engine.hash(st)


# ------------------------------------------------------------------ sizes and names a game declares


def game_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (MINI / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    folder = tmp_path / "mini"
    folder.mkdir()
    (folder / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return folder


def check(folder: Path) -> list[tuple[str, int, str]]:
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return [(d.code, d.span.line if d.span else 0, d.message) for d in err.value.report.errors]


def test_players_max_has_a_documented_maximum(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "max: 3}", "max: 3000000}")
    assert check(folder) == [("S003", 4, "'game.players.max' must be at most 100, not the number 3000000")]


def test_copies_have_a_documented_maximum(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "copies: 2}", "copies: 1001}")
    assert check(folder) == [
        ("S003", 18, "'components.card.instances[1].copies' must be at most 1000, not the number 1001")
    ]


def test_the_total_of_components_has_a_documented_maximum(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "marks: {seen: false}", "marks: {seen: false}\n    per_player: true")
    (folder / "game.yaml").write_text(
        (folder / "game.yaml")
        .read_text()
        .replace("max: 3}", "max: 100}")
        .replace("copies: 2}", "copies: 1000}")
    )
    assert check(folder) == [
        ("S004", 13, "the game has 100200 components, more than the 20000 a game may have")
    ]


def test_a_parameter_declared_twice_is_an_error_not_a_crash(tmp_path: Path) -> None:
    folder = game_with(
        tmp_path, "takes: [1, 2, 3]", "takes: [1, 2, 3]\nfunctions:\n  f: {params: [x, {x: int}], expr: x}"
    )
    assert check(folder) == [("S003", 12, "'functions.f.params': parameter 'x' is declared twice")]


def test_a_definition_name_with_a_space_is_an_error_not_a_crash(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "takes: [1, 2, 3]", "takes: [1, 2, 3]\nfunctions:\n  'my f': {expr: 1}")
    assert check(folder) == [("C005", 12, "'my f' is not a valid name")]


def test_names_equal_once_normalised_are_a_collision(tmp_path: Path) -> None:
    folder = game_with(
        tmp_path, "takes: [1, 2, 3]", "takes: [1, 2, 3]\nfunctions:\n  f: {params: [fi, \ufb01], expr: fi}"
    )
    assert [code for code, _, _ in check(folder)] == ["Y007"]


def test_seats_named_twice_are_an_error(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "max: 3}", "max: 3}\n  seats: [Ann, Ann]")
    assert check(folder) == [("S005", 5, "two seats are named 'Ann'")]


# ------------------------------------------------------------------ views and explanations


@pytest.mark.parametrize("player", [True, 1.0, 2, -1, None, "1", 2**70])
def test_a_view_is_only_for_a_seat_of_the_game(engine: Engine, player: Any) -> None:
    # True and 1.0 were read as seat 1 (its hidden hand); an unknown seat silently saw nothing
    st = engine.new_game(2, seed=3)
    with pytest.raises(ValueError, match="the players are seats 0 to 1"):
        engine.view(st, player)
    assert engine.view(st, 1) != engine.view(st, 0)


@pytest.mark.parametrize("name", [None, 3, ["take"]])
def test_explain_takes_an_action_name(engine: Engine, name: Any) -> None:
    with pytest.raises(ValueError, match="an action name is text"):
        engine.explain(engine.new_game(2, seed=3), name)


# ------------------------------------------------------------------ loading


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name_or_path": 3}, "the game must be a name or a folder, not 3"),
        ({"name_or_path": None}, "the game must be a name or a folder, not None"),
        ({"variant": 3}, "the variant must be a name or a pack file, not 3"),
        (
            {"expansions": "honour-plus"},
            "expansions must be a list of names or pack files, not 'honour-plus'",
        ),
        ({"expansions": [None]}, "expansions must be names or pack files, not [None]"),
        ({"options": 3}, "options must map option names to values, not 3"),
    ],
)
def test_load_game_arguments_of_the_wrong_type_are_refused(kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"name_or_path": MINI, **kwargs}
    assert author_error(lambda: load_game(**arguments)) == ("G001", message)
