"""Loading refuses what it cannot hold exactly or cheaply: deep nesting, alias bombs, huge numbers,
non-finite numbers, number keys, huge files; names are normalised (NFKC) and their collisions named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report, render_report
from tabula.interpreter.load.positions import YamlDoc
from tabula.interpreter.load.yamlsource import load_yaml_file, load_yaml_text


def load(text: str) -> tuple[YamlDoc | None, Report]:
    report = Report()
    return load_yaml_text(text, "<t>", report), report


def codes(report: Report) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line if d.span else 0, d.span.col if d.span else 0) for d in report.errors]


@pytest.mark.parametrize("opener,closer", [("[", "]"), ("{a: ", "}")])
def test_deep_flow_nesting_is_refused_at_the_first_level_too_deep(opener: str, closer: str) -> None:
    doc, report = load("x: " + opener * 500 + "1" + closer * 500 + "\n")
    assert doc is None
    ((code, line, col),) = codes(report)
    assert (code, line) == ("Y008", 1)
    # `x: ...` is level 1, the first bracket level 2: the caret is on the first thing inside the
    # bracket that opens level MAX + 1 (a scalar counts as one level below its container)
    assert col == 4 + len(opener) * (limits.MAX_YAML_DEPTH - 1) + 1


def test_block_nesting_is_limited_like_flow_nesting() -> None:
    text = "".join("  " * i + "a:\n" for i in range(limits.MAX_YAML_DEPTH + 5)) + "  " * 70 + "b: 1\n"
    _, report = load(text)
    assert [d.code for d in report.errors] == ["Y008"]


def test_nesting_up_to_the_limit_is_fine() -> None:
    depth = limits.MAX_YAML_DEPTH
    doc, report = load("x: " + "[" * (depth - 1) + "1" + "]" * (depth - 1) + "\n")
    assert doc is not None and not report.errors
    value = doc.data["x"]
    for _ in range(depth - 2):
        value = value[0]
    assert value == [1]


def test_aliases_nested_inside_aliases_count_towards_the_depth() -> None:
    lines = ["a0: &a0 [" + "[" * 20 + "]" * 20 + "]"]
    lines += [f"a{i}: &a{i} [[[[[[[[[[[[[[[[[[[[*a{i - 1}]]]]]]]]]]]]]]]]]]]]" for i in range(1, 5)]
    _, report = load("\n".join(lines) + "\n")
    assert [d.code for d in report.errors] == ["Y008"]


def test_an_alias_bomb_is_refused_before_anything_is_copied() -> None:
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    doc, report = load("\n".join(levels) + "\n")
    assert doc is None
    (error,) = report.errors
    assert error.code == "Y005"
    assert (
        error.message
        == f"the document expands to more than {limits.MAX_YAML_VALUES} values (nested aliases?)"
    )
    # the anchor whose copies weigh most is named, where it is defined
    assert error.span is not None and error.span.line == 8
    assert error.hint == "the alias '*a7' copies 111111111 values, 10 times"


def test_an_alias_inside_itself_is_refused() -> None:
    _, report = load("a: &a [1, *a]\n")
    assert [d.message for d in report.errors] == ["an alias refers to a node that contains it"]


def test_a_few_aliases_are_copied() -> None:
    doc, report = load("base: &b {x: 1}\none: *b\ntwo: {<<: *b, y: 2}\n")
    assert doc is not None and not report.errors
    assert doc.data == {"base": {"x": 1}, "one": {"x": 1}, "two": {"y": 2, "x": 1}}


@pytest.mark.parametrize("digits", [21, 4301, 100_000])
def test_an_integer_with_too_many_digits_is_a_located_error(digits: int) -> None:
    doc, report = load("seed: 1\nn: " + "9" * digits + "\n")
    assert doc is not None and doc.data == {"seed": 1, "n": None}
    assert codes(report) == [("Y010", 2, 4)]
    assert report.errors[0].message == f"this number has more than {limits.MAX_INT_DIGITS} digits"


def test_every_64_bit_number_is_read() -> None:
    doc, report = load(f"a: {2**64 - 1}\nb: -{10**20 - 1}\nc: 0x{'f' * 16}\n")
    assert doc is not None and not report.errors
    assert doc.data == {"a": 2**64 - 1, "b": -(10**20 - 1), "c": 2**64 - 1}


@pytest.mark.parametrize("text", [".nan", ".inf", "-.inf", "1e999"])
def test_a_number_json_cannot_hold_is_refused(text: str) -> None:
    doc, report = load(f"x: {text}\n")
    assert doc is not None and doc.data == {"x": None}
    assert codes(report) == [("Y010", 1, 4)]
    assert report.errors[0].message == f"'{text}' is not a finite number"


def test_a_number_key_is_refused_because_json_would_make_it_text() -> None:
    doc, report = load("points: {1: 1, '2': 3}\n")
    assert doc is not None and doc.data == {"points": {"2": 3}}
    assert codes(report) == [("Y009", 1, 10)]
    assert report.errors[0].hint == "write '1': in quotes, or use a list indexed by the number"
    assert json.loads(json.dumps(doc.data)) == doc.data


def test_keys_are_normalised_and_a_collision_is_named() -> None:
    doc, report = load("functions:\n  fi: 1\n  \ufb01: 2\n  \uff23\uff16: 3\n")
    assert doc is not None and doc.data == {"functions": {"fi": 1, "C6": 3}}
    (error,) = report.errors
    assert (error.code, error.span and error.span.line) == ("Y007", 3)
    assert error.message == (
        "'\ufb01' is the name 'fi' once Unicode-normalised (NFKC), the same as the key at line 2"
    )


def test_names_in_lists_are_normalised_and_a_collision_is_named() -> None:
    doc, report = load("params: [fi, \ufb01, x]\nsymbols: [\uff41]\n")
    assert doc is not None and doc.data == {"params": ["fi", "fi", "x"], "symbols": ["a"]}
    assert codes(report) == [("Y007", 1, 14)]
    assert report.errors[0].message.endswith("the same as item 1 of this list")


def test_text_that_is_not_a_name_is_kept_as_written() -> None:
    doc, report = load("text: '\u00bd \ufb01re card'\nsame: [x, x]\n")
    assert doc is not None and not report.errors
    assert doc.data == {"text": "\u00bd \ufb01re card", "same": ["x", "x"]}


def test_a_file_larger_than_the_limit_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("x: '" + "a" * limits.MAX_FILE_BYTES + "'\n", encoding="utf-8")
    report = Report()
    assert load_yaml_file(big, report) is None
    assert [d.code for d in report.errors] == ["Y011"]
    assert "is larger than" in render_report(report)


def test_a_file_with_too_many_values_is_refused_before_parsing() -> None:
    # parsing costs about 60 microseconds a value: the marks are counted first, at no cost
    doc, report = load("x: [" + ",".join(["1"] * limits.MAX_YAML_MARKS) + "]\n")
    assert doc is None
    (error,) = report.errors
    assert error.code == "Y011" and error.message.startswith("<t> has more than 25000 values")


@pytest.mark.slow  # reads a YAML file of 25,000 marks
def test_a_file_just_under_the_marks_limit_is_read() -> None:
    doc, report = load("x: [" + ",".join(["1"] * (limits.MAX_YAML_MARKS - 10)) + "]\n")
    assert doc is not None and not report.errors and len(doc.data["x"]) == limits.MAX_YAML_MARKS - 10
