"""Diagnostics: rendering shape, report summary, did-you-mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.interpreter.base.source import (
    AuthorError,
    Diagnostic,
    Report,
    Span,
    did_you_mean,
    register_source,
    render,
    render_report,
)


@pytest.fixture
def actions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A 12-line file in the current directory, named by a relative path."""
    monkeypatch.chdir(tmp_path)
    lines = [f"# line {i}" for i in range(1, 12)] + ["    effect: drawcard(2)"]
    Path("actions.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return "actions.yaml"


def test_render_snippet_with_caret_and_hint(actions: str) -> None:
    d = Diagnostic(
        "error",
        "E104",
        "unknown function 'drawcard'",
        Span(actions, 12, 13, 12, 21),
        "did you mean 'draw_card'?",
    )
    assert render(d) == (
        "actions.yaml:12:13: error[E104]: unknown function 'drawcard'\n"
        "   |\n"
        "12 |     effect: drawcard(2)\n"
        "   |             ^^^^^^^^\n"
        "   = hint: did you mean 'draw_card'?"
    )


def test_gutter_width_follows_the_line_number(actions: str) -> None:
    d = Diagnostic("warning", "W001", "odd comment", Span(actions, 3, 3, 3, 7))
    assert render(d) == ("actions.yaml:3:3: warning[W001]: odd comment\n  |\n3 | # line 3\n  |   ^^^^")


def test_multi_line_span_is_underlined_to_the_end_of_its_first_line(actions: str) -> None:
    d = Diagnostic("error", "E1", "bad", Span(actions, 12, 13, 14, 2))
    assert render(d).splitlines()[-1] == "   |             ^^^^^^^^^^^"


def test_point_span_has_one_caret(actions: str) -> None:
    d = Diagnostic("error", "E1", "bad", Span.point(actions, 12, 5))
    assert render(d).splitlines()[-1] == "   |     ^"


def test_caret_keeps_tabs_of_the_source_line(tmp_path: Path) -> None:
    path = tmp_path / "tabs.txt"
    path.write_text("\tx = y\n", encoding="utf-8")
    d = Diagnostic("error", "E1", "bad", Span(str(path), 1, 4, 1, 5))
    assert render(d).splitlines()[3] == "  | \t  ^"


def test_unreadable_file_prints_first_line_and_hint() -> None:
    d = Diagnostic("error", "E2", "boom", Span("no/such/file.yaml", 7, 1, 7, 2), "try again")
    assert render(d) == "no/such/file.yaml:7:1: error[E2]: boom\n  = hint: try again"


def test_diagnostic_without_span() -> None:
    d = Diagnostic("error", "S002", "missing required section 'game'", None, "add it")
    assert render(d) == "error[S002]: missing required section 'game'\n  = hint: add it"


def test_end_of_file_position_shows_an_empty_line() -> None:
    register_source("<memory>", "a: 1\n")
    d = Diagnostic("error", "Y001", "unexpected end", Span.point("<memory>", 2, 1))
    assert render(d) == ("<memory>:2:1: error[Y001]: unexpected end\n  |\n2 |\n  | ^")


def test_registered_text_is_used_for_names_that_are_not_files() -> None:
    register_source("<inline rules>", "first\nsecond line\n")
    d = Diagnostic("error", "E1", "bad", Span("<inline rules>", 2, 1, 2, 7))
    assert render(d).splitlines()[2:] == ["2 | second line", "  | ^^^^^^"]


def test_edited_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("old\n", encoding="utf-8")
    span = Span(str(path), 1, 1, 1, 2)
    assert "1 | old" in render(Diagnostic("error", "E1", "x", span))
    path.write_text("newer text\n", encoding="utf-8")
    assert "1 | newer text" in render(Diagnostic("error", "E1", "x", span))


def test_report_collects_and_renders_errors_before_warnings() -> None:
    report = Report()
    report.warning("W1", "first a warning", None)
    report.error("E1", "then an error", None, hint="fix it")
    report.error("E2", "another error", None)
    assert report.has_errors
    assert [d.code for d in report.errors] == ["E1", "E2"]
    assert render_report(report) == (
        "error[E1]: then an error\n"
        "  = hint: fix it\n"
        "\n"
        "error[E2]: another error\n"
        "\n"
        "warning[W1]: first a warning\n"
        "\n"
        "2 errors, 1 warning"
    )


def test_report_extend_and_add() -> None:
    first, second = Report(), Report()
    second.add(Diagnostic("warning", "W1", "w", None))
    first.extend(second)
    assert not first.has_errors
    assert render_report(first).endswith("0 errors, 1 warning")
    first.raise_if_errors()  # warnings alone do not stop the pipeline


def test_raise_if_errors_carries_the_rendered_report() -> None:
    report = Report()
    report.error("E9", "broken", None)
    with pytest.raises(AuthorError) as caught:
        report.raise_if_errors()
    assert caught.value.report is report
    assert str(caught.value) == "error[E9]: broken\n\n1 error, 0 warnings"


def test_did_you_mean() -> None:
    assert did_you_mean("drawcard", ["draw_card", "discard", "pass"]) == "did you mean 'draw_card'?"
    assert did_you_mean("zzz", ["draw_card"]) is None
    assert did_you_mean("x", []) is None
