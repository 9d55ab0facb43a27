"""Parser limits: text too long, nested too deep or with a number too long is a located D004-D006
diagnostic of the parse stage, and everything up to the limits checks, compiles and runs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Diagnostic, Report
from tabula.interpreter.dsl.parser import PlainOrigin, parse_block, parse_expr
from tabula.interpreter.engine import Engine, load_game

DEPTH = limits.MAX_DSL_DEPTH
BLOCKS = limits.MAX_BLOCK_DEPTH


def expr_errors(text: str) -> list[Diagnostic]:
    report = Report()
    node = parse_expr(text, PlainOrigin("<t>"), report)
    assert (node is None) == report.has_errors
    return report.errors


def block_errors(text: str) -> list[Diagnostic]:
    report = Report()
    node = parse_block(text, PlainOrigin("<t>"), report)
    assert (node is None) == report.has_errors
    return report.errors


def where(errors: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.col) for d in errors if d.span is not None]


def test_a_300_term_sum_is_too_deep_at_its_innermost_term() -> None:
    # `a + b + c` is ((a + b) + c): the first term is the deepest
    (error,) = expr_errors(" + ".join(["1"] * 300))
    assert (error.code, error.message) == ("D004", f"this is nested more than {DEPTH} deep")
    assert where([error]) == [("D004", 1, 1)]


def test_200_nested_calls_are_too_deep_at_the_call_past_the_limit() -> None:
    errors = expr_errors("f(" * 200 + "1" + ")" * 200)
    # each call is one level; the name of the 64th call is level 65
    assert where(errors) == [("D004", 1, 2 * (DEPTH - 1) + 1)]


def test_a_list_nested_300_deep_is_too_deep_at_the_bracket_past_the_limit() -> None:
    assert where(expr_errors("[" * 300 + "]" * 300)) == [("D004", 1, DEPTH + 1)]


@pytest.mark.parametrize(
    "text", ["-" * 1000 + "1", "not " * 500 + "true", "x" + ".a" * 1000, "x" + "[0]" * 900]
)
def test_long_chains_of_one_operator_are_too_deep(text: str) -> None:
    assert [d.code for d in expr_errors(text)] == ["D004"]


def test_statements_nested_past_the_block_limit_are_reported_at_the_block() -> None:
    lines = ["  " * i + "if true:" for i in range(BLOCKS + 1)] + ["  " * (BLOCKS + 1) + "pass"]
    (error,) = block_errors("\n".join(lines))
    assert error.message == f"statement blocks are nested more than {BLOCKS} deep"
    # at the statement that opens the block one too deep
    assert where([error]) == [("D004", BLOCKS + 1, 2 * BLOCKS + 1)]


def test_text_longer_than_the_limit_is_refused_before_parsing() -> None:
    (error,) = expr_errors("1 + " * (limits.MAX_DSL_CHARS // 4) + "1")
    assert error.message == f"this condition or effect is longer than {limits.MAX_DSL_CHARS} characters"


@pytest.mark.parametrize("digits", [21, 5000])
def test_a_number_literal_with_too_many_digits_is_located(digits: int) -> None:
    errors = expr_errors("1 + " + "7" * digits)
    assert [(d.code, d.message) for d in errors] == [("D006", "this number has more than 20 digits")]
    assert where(errors) == [("D006", 1, 5)]


def test_a_20_digit_number_is_read() -> None:
    assert expr_errors("9" * 20 + " > 0") == []


# ------------------------------------------------------------------ up to the limits, games run

GAME = """\
game: {id: limits, players: {min: 2, max: 2}}
counters: {n: {min: null}}
functions:
  inc: {params: [k], expr: k + 1}
flow:
  turn:
    phases:
      - id: main
        do: |
EFFECT
          choose x from [1, 2]
scoring:
  score: n
"""

AT_THE_LIMIT = {
    "sum": ("gain " + " + ".join(["1"] * (DEPTH - 1)) + " n", DEPTH - 1),
    "calls": ("gain " + "inc(" * (DEPTH - 2) + "0" + ")" * (DEPTH - 2) + " n", DEPTH - 2),
    "lists": ("gain len(" + "[" * (DEPTH - 2) + "]" * (DEPTH - 2) + ") n", 1),
    "negations": ("gain " + "-" * (DEPTH - 2) + "1 n", 1),
    "nots": ("if " + "not " * (DEPTH - 2) + "true:\n  gain 1 n", 1),
    "ifs": ("\n".join("  " * i + "if true:" for i in range(BLOCKS)) + "\n" + "  " * BLOCKS + "gain 3 n", 3),
    "fors": (
        "\n".join("  " * i + f"for i{i} in [1, 2]:" for i in range(BLOCKS))
        + "\n"
        + "  " * BLOCKS
        + "gain 1 n",
        2**BLOCKS,
    ),
}


@pytest.mark.parametrize("case", sorted(AT_THE_LIMIT))
def test_rules_nested_up_to_the_limits_check_compile_and_run(tmp_path: Path, case: str) -> None:
    effect, expected = AT_THE_LIMIT[case]
    (tmp_path / "game.yaml").write_text(GAME.replace("EFFECT", textwrap.indent(effect, " " * 10)))
    engine = Engine(load_game(tmp_path))
    st = engine.new_game(2)
    assert st["c"] == [expected]
