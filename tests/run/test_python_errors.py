"""Python's exceptions from rules, in the DSL's words with a code (run/pyerrors.py, issue 26 item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.pyerrors import describe
from tabula.interpreter.run.runtime import GameRuntimeError


@pytest.mark.parametrize(
    ("err", "message", "kind"),
    [
        (
            TypeError("'>=' not supported between instances of 'str' and 'int'"),
            "'>=' cannot compare a text with a number",
            "wrong kind",
        ),
        (
            TypeError("list indices must be integers or slices, not str"),
            "a list's position must be a number, not a text",
            "wrong kind",
        ),
        (
            TypeError("object of type 'int' has no len()"),
            "a number has no length: count and len need a list or a zone",
            "wrong kind",
        ),
        (
            ValueError("invalid literal for int() with base 10: 'twenty'"),
            "'twenty' is not a number",
            "wrong kind",
        ),
        (KeyError("zz"), "no entry 'zz' in the mapping", "no entry"),
        (RecursionError(), "functions call each other too deeply", "too deep"),
        (ZeroDivisionError(), "division by zero", "division"),
    ],
)
def test_python_errors_speak_the_dsl(err: Exception, message: str, kind: str) -> None:
    assert describe(err) == (message, kind)


HOSTILE = Path(__file__).resolve().parents[1] / "hostile" / "games"


@pytest.mark.parametrize(
    ("game", "code", "line", "message"),
    [
        (
            "run-counter-below-min",
            "R009",
            9,
            "counter 'n' would fall to -5 (it holds 0); below its minimum 0",
        ),
        (
            "run-counter-above-max",
            "R009",
            9,
            "counter 'n' would rise to 20 (it holds 0); above its maximum 10",
        ),
        ("run-gain-negative", "R009", 10, "cannot gain a negative amount (-3) of counter 'n'"),
        (
            "run-declare-winner-any",
            "R008",
            11,
            "declare_winner needs a player of the game (0 to 1) or a list of them, got 7 (a number)",
        ),
        ("run-repeat-text", "R004", 11, "repeat needs a number, got 'three' (a text)"),
        (
            "run-flatten-text",
            "R004",
            11,
            "flatten needs a list of lists or zones, and 'two' (a text) in it is neither",
        ),
        (
            "run-choice-no-options",
            "R011",
            11,
            "this choice has no options (guard the action or effect with a condition)",
        ),
        (
            "run-every-turn-skipped",
            "R012",
            8,
            "every player's turn is skipped: turn.skip_if held for all 2 players in a row",
        ),
    ],
)
def test_run_time_errors_have_a_code_and_the_dsl_types_at_the_rule(
    game: str, code: str, line: int, message: str
) -> None:
    engine = Engine(load_game(HOSTILE / game))
    with pytest.raises(GameRuntimeError) as err:
        engine.new_game(2, seed=1)
    assert (err.value.code, err.value.message) == (code, message)
    assert err.value.span is not None and err.value.span.line == line


def test_a_flow_whose_every_turn_is_skipped_for_ever_ends_with_r012_at_the_flow() -> None:
    engine = Engine(load_game(HOSTILE / "run-rounds-all-skipped"))
    with pytest.raises(GameRuntimeError) as err:
        engine.new_game(2, seed=1)
    assert err.value.code == "R012" and "made no progress in 10000 steps" in err.value.message
    assert err.value.span is not None and err.value.span.line == 8  # flow's rounds
