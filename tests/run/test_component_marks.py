"""Marks that name components (issue 26, item 7 for marks): a mark declared `type: component` (or
`components`), or one the rules give only components, is hidden in views from a player who cannot
see the component it names, and saves hold it to component ids; a mark of type `any` that a rule
may give a component among other values is T011 at the mark, unless it is declared public."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_sandbox import line_of
from test_typed_stores import PLAY, written

from tabula.interpreter.base import types as static
from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import HIDDEN
from tabula.interpreter.run.knowledge import known, seat_states
from tabula.interpreter.run.runtime import GameRuntimeError
from tabula.interpreter.run.saves import InvalidSave

GAME = (
    """\
game:
  id: marks
  players: {min: 2, max: 2}
components:
  card:
    marks:
MARKS
    instances:
      - {name: A}
      - {name: B}
      - {name: C}
      - {name: D}
zones:
  table: {visibility: public}
  hand: {per: player, visibility: owner}
counters:
  n: {per: player}
vars:
  anything: {initial: none, type: any, visibility: public}
flow:
  setup: |
    let cs = [c for c in card]
    move cs[0] to table
    move cs[1] to hand(0)
    move cs[2] to hand(1)
    move cs[3] to hand(0)
    let a = cs[0]
SETUP
"""
    + PLAY
)
A, B, C = 0, 1, 2  # A on the table (seen by both), B (and D) in hand(0), C in hand(1)


def game(tmp_path: Path, marks: str, setup: str) -> Path:
    """A game folder with these marks (one per line) and these setup lines after the deal."""
    return written(tmp_path / "marks", GAME, {"MARKS": ("      ", marks), "SETUP": ("    ", setup)})


TYPED = "under: {initial: none, type: component}\npeeked: none\nseen: {initial: [], type: components}"
PLANTED = "set a.under = cs[1]\nset a.peeked = cs[2]\nset a.seen = [cs[1], cs[2]]"


def test_a_mark_naming_a_hidden_component_is_hidden_from_who_cannot_see_it(tmp_path: Path) -> None:
    engine = Engine(load_game(game(tmp_path, TYPED, PLANTED)))
    st = engine.new_game(2)
    assert (st["m"]["under"][A], st["m"]["peeked"][A], st["m"]["seen"][A]) == (B, C, [B, C])
    for viewer, under, peeked, seen in ((0, B, HIDDEN, [B, HIDDEN]), (1, HIDDEN, C, [HIDDEN, C])):
        m = engine.view(st, viewer)["m"]
        assert (m["under"][A], m["peeked"][A], m["seen"][A]) == (under, peeked, seen)
    assert engine.game.mark_kinds == {"under": static.COMP, "peeked": static.COMP, "seen": "list[comp]"}


def test_a_seat_state_does_not_know_which_hidden_component_a_mark_names(tmp_path: Path) -> None:
    engine = Engine(load_game(game(tmp_path, TYPED, PLANTED)))
    st = engine.new_game(2)
    states = seat_states(engine.game, st, 1)  # B and D are hidden from seat 1: two fillings
    assert known(states, lambda s: s["m"]["under"][A]) == (False, None)
    assert known(states, lambda s: s["m"]["peeked"][A]) == (True, C)


def test_a_save_holds_a_component_mark_to_component_ids(tmp_path: Path) -> None:
    engine = Engine(load_game(game(tmp_path, TYPED, PLANTED)))
    doc = json.loads(engine.to_json(engine.new_game(2)))
    for mark, value, words in (
        (
            "under",
            99,
            "state.m.under.0: 99 is not a component id of this game (mark under holds a component id",
        ),
        ("peeked", "x", "state.m.peeked.0: expected a component id, got a text"),
        ("seen", [1, 7], "state.m.seen.0.1: 7 is not a component id of this game"),
    ):
        bad = json.loads(json.dumps(doc))
        bad["state"]["m"][mark][A] = value
        with pytest.raises(InvalidSave) as err:
            engine.from_json(json.dumps(bad))
        assert words in str(err.value)


def test_a_store_of_another_kind_into_a_typed_mark_fails_at_the_set(tmp_path: Path) -> None:
    folder = game(tmp_path, TYPED, "set anything = 'x'\nset a.under = anything")
    with pytest.raises(GameRuntimeError) as err:
        Engine(load_game(folder)).new_game(2)
    assert err.value.code == "R010" and err.value.message == "set mark under: 'x' is not a component"
    assert err.value.span is not None and err.value.span.line == line_of(folder, "set a.under")
    with pytest.raises(AuthorError) as refused:
        load_game(game(tmp_path, TYPED, "set a.under = 'x'"))
    assert [d.code for d in refused.value.report.diagnostics] == ["T002"]


def test_an_any_mark_given_components_and_numbers_must_declare_it(tmp_path: Path) -> None:
    folder = game(tmp_path, "note: none", "set a.note = 3\nset a.note = cs[1]")
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    (d,) = err.value.report.diagnostics
    assert d.code == "T011" and d.message.startswith("mark 'note' has no component type, but a rule may")
    assert d.span is not None and (d.span.line, d.span.col) == (line_of(folder, "      note: "), 7)


def test_an_any_var_made_of_a_component_mark_must_declare_it(tmp_path: Path) -> None:
    folder = game(tmp_path, TYPED, "set anything = a.under")
    text = folder.joinpath("game.yaml").read_text().replace(", visibility: public", "")
    folder.joinpath("game.yaml").write_text(text)
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    assert [d.code for d in err.value.report.diagnostics] == ["T011"]


def test_an_any_mark_made_of_itself_and_players_needs_nothing(tmp_path: Path) -> None:
    engine = Engine(load_game(game(tmp_path, "who: []", "set a.who = a.who + [0]\nset a.who = a.who + [1]")))
    st = engine.new_game(2)
    assert engine.view(st, 1)["m"]["who"][A] == [0, 1] and engine.game.mark_kinds["who"] == "list[any]"


def test_a_public_mark_is_the_author_s_word(tmp_path: Path) -> None:
    engine = Engine(load_game(game(tmp_path, "note: {visibility: public}", "set a.note = cs[1]")))
    st = engine.new_game(2)
    assert engine.view(st, 1)["m"]["note"][A] == B
