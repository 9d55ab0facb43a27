""" "Why not?": explanations name the failing condition in the game's words, with its location."""

from __future__ import annotations

import pytest

from tabula.interpreter.engine import Engine, load_game


@pytest.fixture(scope="module")
def first_window() -> tuple[Engine, dict[str, object]]:
    engine = Engine(load_game("porta-nigra"))
    st = engine.new_game(["Ann", "Bob"], seed=2)
    while st["dec"]["k"] != "window":  # place the master builder first
        st = engine.apply(st, 0)
    return engine, st


def test_a_failed_comparison_shows_both_sides_and_its_line(first_window: tuple[Engine, dict]) -> None:
    engine, st = first_window
    text = engine.explain(st, "recruit")
    assert "the cost influence(me): recruit_cost cannot be paid (it holds 0, needs 2)" in text
    assert "gamedefs/porta-nigra/actions.yaml:" in text


def test_the_same_reason_for_every_argument_is_said_once(first_window: tuple[Engine, dict]) -> None:
    engine, st = first_window
    text = engine.explain(st, "buy_honour")
    assert text.startswith("'buy_honour' is not possible now: for every card, influence(me) >=")


def test_a_failed_comparison_in_when(first_window: tuple[Engine, dict]) -> None:
    engine, st = first_window
    text = engine.explain(st, "buy_honour:HC-VP5")
    assert "influence(me) >= min(c.cost for c in honour_display default 0) is false (left side is 0," in text


def test_a_plain_condition(first_window: tuple[Engine, dict]) -> None:
    engine, st = first_window
    assert "card_played(me) is false" in engine.explain(st, "end_turn")


def test_an_empty_parameter(first_window: tuple[Engine, dict]) -> None:
    engine, st = first_window
    text = engine.explain(st, "use_symbol")
    assert "there is no sym to choose (distinct(card_symbols(me)) is empty)" in text


def test_legal_and_unknown_actions(first_window: tuple[Engine, dict]) -> None:
    engine, st = first_window
    legal = engine.legal_ids(st)[0]
    assert engine.explain(st, legal) == f"'{legal}' is possible now"
    assert engine.explain(st, "fly").startswith("there is no action 'fly'")


def test_an_action_outside_the_current_question() -> None:
    engine = Engine(load_game("porta-nigra"))
    st = engine.new_game(["Ann", "Bob"], seed=2)
    assert st["dec"]["k"] == "choose"
    assert "is not offered at this point" in engine.explain(st, "recruit")


def test_explanations_in_glory_to_rome() -> None:
    engine = Engine(load_game("glory-to-rome"))
    st = engine.new_game(["Ann", "Bob"], seed=3, options={"surrender_allowed": False})
    text = engine.explain(st, "lead_jack")
    assert text.startswith("'lead_jack' is not possible now: for every r,")
    assert "count(jacks_in(hand(me))) > 0 is false (left side is 0, right side is 0)" in text
    assert "gamedefs/glory-to-rome/actions.yaml:" in text
    assert "option(surrender_allowed) is false" in engine.explain(st, "propose_concession")
    assert "is not offered at this point" in engine.explain(st, "hire")
