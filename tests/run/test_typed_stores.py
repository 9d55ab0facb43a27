"""A store is held to the var's declared type (`set leader = 99` fails at the `set`, R010), and a var
of type `any` that a rule may give a component must declare what it holds (T011), so views hide
hidden components: a component is a plain number in the state, so only its var's type can say it is
one (model/view.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_sandbox import line_of

from tabula.interpreter.base import types as static
from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import HIDDEN
from tabula.interpreter.run.pyerrors import dsl_text
from tabula.interpreter.run.runtime import GameRuntimeError

PLAY = """\
  turn:
    phases:
      - id: main
        do: |
          choose x from [1, 2] by p
          gain x n(p)
scoring:
  score: n(p)
"""
"""The turn and the scoring of the small games of these tests."""

GAME = (
    """\
game:
  id: stores
  players: {min: 2, max: 2}
components:
  card:
    instances:
      - {name: A}
      - {name: B}
zones:
  hand: {per: player, visibility: owner}
counters:
  n: {per: player}
vars:
VARS
flow:
  setup: |
    for c in card:
      move c to hand(0)
SETUP
"""
    + PLAY
)


def written(folder: Path, template: str, parts: dict[str, tuple[str, str]]) -> Path:
    """`folder`/game.yaml: `template` with each KEY of `parts` replaced by its lines, each indented."""
    folder.mkdir(exist_ok=True)
    for key, (indent, lines) in parts.items():
        template = template.replace(key, "\n".join(indent + line for line in lines.splitlines()))
    (folder / "game.yaml").write_text(template)
    return folder


def game(tmp_path: Path, vars_: str, setup: str) -> Path:
    """A game folder with these vars (one per line) and these setup lines after the deal."""
    return written(tmp_path / "stores", GAME, {"VARS": ("  ", vars_), "SETUP": ("    ", setup)})


def setup_error(folder: Path) -> GameRuntimeError:
    with pytest.raises(GameRuntimeError) as err:
        Engine(load_game(folder)).new_game(2)
    return err.value


def errors(folder: Path) -> list[Any]:
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return [d for d in err.value.report.diagnostics if d.severity == "error"]


# ------------------------------------------------------------------ stores held to the declared type


@pytest.mark.parametrize(
    ("var", "store", "message"),
    [
        ("leader: {initial: 0, type: player}", "set leader = 99", "set leader: 99 is not a player"),
        ("leader: {initial: 0, type: player}", "set leader = 98 + 1", "set leader: 99 is not a player"),
        ("leader: {initial: 0, type: player}", "set leader += 2", "set leader: 2 is not a player"),
        ("held: {type: component}", "set held = 7", "set held: 7 is not a component"),
        ("k: {type: int}\nw: {type: any, initial: true}", "set k = w", "set k: true is not a number"),
        ("s: {type: symbol}\nw: {type: any, initial: 3}", "set s = w", "set s: 3 is not a text or symbol"),
        ("ps: {type: players}", "set ps = [0, 5]", "set ps: [0, 5] is not a list of players"),
        (
            "cs: {type: components}\nw: {type: list, initial: [1, null]}",
            "set cs = w",
            "set cs: [1, none] is not a list of components",
        ),
        (
            "cs: {type: components}\nw: {type: list, initial: ['A']}",
            "set cs = w",
            "set cs: ['A'] is not a list of components",
        ),
    ],
)
def test_a_store_of_the_wrong_type_fails_at_the_set(
    tmp_path: Path, var: str, store: str, message: str
) -> None:
    folder = game(tmp_path, var, store)
    err = setup_error(folder)
    assert (err.code, err.message) == ("R010", message)
    assert err.span is not None and err.span.line == line_of(folder, store)


def test_a_type_that_cannot_fit_is_refused_at_check_time(tmp_path: Path) -> None:
    folder = game(tmp_path, "leader: {initial: 0, type: player}", "set leader = 'Ann'")
    (d,) = errors(folder)
    assert (d.code, d.message) == ("T002", "'leader' holds a player, but this is a text or symbol")
    assert (d.span.line, d.span.col) == (line_of(folder, "set leader ="), 18)


def test_values_of_the_declared_type_are_stored(tmp_path: Path) -> None:
    setup = "set leader = 1\nset leader = none\nset leader = 3 - 2\nset cs = []\nset cs = [first(card)]"
    folder = game(tmp_path, "leader: {initial: 0, type: player}\ncs: {type: components}", setup)
    st = Engine(load_game(folder)).new_game(2)
    assert st["v"]["leader"] == 1 and st["v"]["cs"] == [0]


def test_stores_the_types_prove_are_not_checked_at_run_time(tmp_path: Path) -> None:
    setup = (
        "set leader = 1\nset leader = none\nset cs = []\nset cs = [first(card)]\nset k = 3\nset leader = k"
    )
    folder = game(
        tmp_path, "leader: {initial: 0, type: player}\ncs: {type: components}\nk: {initial: 0}", setup
    )
    source = load_game(folder).module.source()  # type: ignore[union-attr]
    assert len(re.findall(r"store_checked_\d+\(rt", source)) == 1  # `set leader = k`: a number


@pytest.mark.parametrize(
    ("want", "got", "verdict"),
    [
        ("player", "player", static.OK),
        ("player", "none", static.OK),
        ("int", "player", static.OK),
        ("any", "list[comp]", static.OK),
        ("list[any]", "list[str]", static.OK),
        ("player", "int", static.CHECK),
        ("comp", "any", static.CHECK),
        ("list[comp]", "list[any]", static.CHECK),
        ("player", "str", static.WRONG),
        ("int", "bool", static.WRONG),
        ("list[comp]", "zone", static.WRONG),
        ("str", "list[str]", static.WRONG),
    ],
)
def test_the_verdict_of_the_static_types(want: str, got: str, verdict: str) -> None:
    assert static.store_verdict(want, got) == verdict


def test_values_are_shown_in_the_dsl_s_words() -> None:
    assert [dsl_text(v) for v in (None, True, "x", [1, None], 10**200)] == [
        "none",
        "true",
        "'x'",
        "[1, none]",
        "a large number",
    ]


# ------------------------------------------------------------------ components in vars of type any


@pytest.mark.parametrize(
    ("var", "setup", "stored"),
    [
        ("peek: {initial: none}", "set peek = first(hand(0))", "a component"),
        ("peek: {type: any}", "set peek = [first(hand(0))]", "a list of components"),
        (
            "peeks: {initial: []}",
            "let seen = []\nset seen = seen + hand(0)\nset peeks = seen",
            "a list of values",
        ),
        ("peeks: {type: list, per: player}", "set peeks(1) = [c for c in hand(0)]", "a list of components"),
    ],
)
def test_an_any_var_given_a_component_must_declare_it(
    tmp_path: Path, var: str, setup: str, stored: str
) -> None:
    folder = game(tmp_path, var, setup)
    (d,) = errors(folder)
    name = var.split(":")[0]
    assert d.code == "T011"
    assert d.message.startswith(f"var '{name}' has no component type, but a rule may store {stored} in it (")
    assert (d.span.line, d.span.col) == (line_of(folder, f"  {name}: "), 3)
    assert "visibility: public" in (d.hint or "")


def test_an_any_var_made_of_one_that_holds_a_component_must_declare_it_too(tmp_path: Path) -> None:
    folder = game(
        tmp_path, "w: {initial: none}\npeek: {initial: none}", "set w = first(hand(0))\nset peek = [w]"
    )
    assert [(d.code, d.span.line) for d in errors(folder)] == [
        ("T011", line_of(folder, "  w: ")),
        ("T011", line_of(folder, "  peek: ")),
    ]


def test_an_any_var_given_numbers_only_needs_nothing(tmp_path: Path) -> None:
    vars_ = "peek: {initial: none}\nw: {initial: none}\nr: {initial: []}"
    setup = "set peek = 2 + 1\nset w = peek + peek\nset w = w * w\nset r = r + [range(0, w)]"
    st = Engine(load_game(game(tmp_path, vars_, setup))).new_game(2)
    assert (st["v"]["peek"], st["v"]["w"], len(st["v"]["r"][0])) == (3, 36, 36)


@pytest.mark.parametrize(
    ("var", "setup"),
    [
        ("peek: {type: component}", "set peek = first(hand(0))"),
        ("peek: {type: components}", "set peek = hand(0)"),
        ("peek: {type: components, per: player}", "set peek(0) = hand(0)\nset peek(1) = hand(0)"),
    ],
)
def test_a_hidden_card_in_a_typed_var_is_hidden_from_the_other_player(
    tmp_path: Path, var: str, setup: str
) -> None:
    engine = Engine(load_game(game(tmp_path, var, setup.replace("= hand(0)", "= [c for c in hand(0)]"))))
    st = engine.new_game(2)
    assert st["v"]["peek"] in (0, [0, 1], [[0, 1], [0, 1]])
    hidden = re.sub(r"\d+", str(HIDDEN), str(st["v"]["peek"]))
    assert str(engine.view(st, 1)["v"]["peek"]) == hidden
    assert engine.view(st, 0)["v"]["peek"] == st["v"]["peek"]  # the owner of the hand sees them


def test_a_public_any_var_is_the_author_s_word(tmp_path: Path) -> None:
    folder = game(tmp_path, "peek: {initial: none, visibility: public}", "set peek = first(hand(0))")
    engine = Engine(load_game(folder))
    st = engine.new_game(2)
    assert engine.view(st, 1)["v"]["peek"] == 0
