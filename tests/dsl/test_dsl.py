"""DSL tests: data-driven expression cases, positions of nodes and errors, and the grammar itself."""

from __future__ import annotations

import ast as pyast
from pathlib import Path

import pytest
from lark import Lark

from tabula.grammar import GRAMMAR_PATH
from tabula.interpreter.base.source import Report, render
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import PlainOrigin, parse_block, parse_expr
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
GAME = load_game(ROOT / "games" / "mini")


def cases() -> list[tuple[int, str, str]]:
    out = []
    for n, line in enumerate((ROOT / "dsl" / "expressions.txt").read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        expr, _, expect = line.partition("  # ")
        out.append((n, expr.strip(), expect.strip()))
    return out


@pytest.mark.parametrize(("line", "text", "expect"), cases(), ids=[f"line{c[0]}" for c in cases()])
def test_expression_case(line: int, text: str, expect: str) -> None:
    engine = Engine(GAME)
    st = engine.new_game(2, seed=1, pause="turn")
    report = Report()
    f = GAME.snippets.expr(text, PlainOrigin("expressions.txt", line, 1), report, {})
    if expect.startswith("error"):
        code = expect.split()[1]
        assert [d.code for d in report.diagnostics if d.severity == "error"][:1] == [code], report.diagnostics
        return
    assert not report.has_errors, [render(d) for d in report.diagnostics]
    assert f is not None
    rt = Runtime(GAME, st)
    rt.loc = {}
    assert f(rt) == pyast.literal_eval(expect.removeprefix("expect:").strip())


def test_grammar_has_no_conflicts() -> None:
    # strict mode (it needs interegular, a test extra) fails on LALR conflicts and terminal collisions
    from tabula.interpreter.dsl.parser import _DslIndenter

    parser = Lark(
        GRAMMAR_PATH.read_text(),
        parser="lalr",
        start=["block", "expr"],
        strict=True,
        postlex=_DslIndenter(),
        maybe_placeholders=True,
    )
    assert parser.parse("a + 1", start="expr") is not None


def test_spans_point_into_the_file() -> None:
    report = Report()
    node = parse_expr("a + foo(b)", PlainOrigin("f.yaml", 10, 7), report)
    assert isinstance(node, ast.Binary)
    call = node.right
    assert (call.span.file, call.span.line, call.span.col, call.span.end_col) == ("f.yaml", 10, 11, 17)


def test_block_spans_follow_lines() -> None:
    report = Report()
    block = parse_block("let x = 1\nif x > 0:\n  gain 2 pile\n", PlainOrigin("f.yaml", 5, 3), report)
    assert block is not None and not report.has_errors
    stmt = block[1]
    assert isinstance(stmt, ast.If)
    gain = stmt.branches[0][1][0]
    assert (gain.span.line, gain.span.col) == (7, 3)


def test_syntax_error_is_located_with_a_hint() -> None:
    report = Report()
    parse_expr("count(x) = 2", PlainOrigin("f.yaml", 3, 9), report)
    (d,) = report.diagnostics
    assert d.code == "D001" and d.span is not None
    assert (d.span.line, d.span.col) == (3, 18)
    assert d.hint and "==" in d.hint


def test_unknown_name_suggests() -> None:
    report = Report()
    GAME.snippets.expr("pil + 1", PlainOrigin("f.yaml", 1, 1), report, {})
    (d,) = report.diagnostics
    assert d.code == "E101" and d.hint == "did you mean 'pile'?"


@pytest.mark.parametrize(
    ("text", "line", "col", "words"),
    [
        ("let x = 1\nif x > 0:\n  gain 1 score\n    pay 1 score\n", 4, 5, "indented more"),
        ("let x = 1\n  # a comment\n  let y = 2\n", 3, 3, "indented more"),
        ("if x:\n    pay 1 s\n  pay 1 s\n", 3, 3, "matches no enclosing block"),
    ],
)
def test_an_indentation_error_points_at_the_line_indented(text: str, line: int, col: int, words: str) -> None:
    """Issue 34, item 9: 'unexpected a change of indentation' with the caret on the line before."""
    report = Report()
    parse_block(text, PlainOrigin("f.yaml", 1, 1), report)
    (d,) = report.diagnostics
    assert d.message in ("syntax error: unexpected indentation", "syntax error: unexpected dedent")
    assert d.span is not None and (d.span.line, d.span.col) == (line, col)
    assert d.hint is not None and words in d.hint
