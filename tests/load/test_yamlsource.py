"""YAML loading: plain data, positions, scalar origins, syntax errors, game-folder merging."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.base.source import Report, Span, render_report
from tabula.interpreter.load.origins import ScalarOrigin
from tabula.interpreter.load.yamlsource import (
    GameSource,
    YamlDoc,
    load_game_folder,
    load_yaml_file,
    load_yaml_text,
    span_for,
)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Relative paths keep the expected diagnostics short and show that they stay relative.
    monkeypatch.chdir(tmp_path)


def load(text: str, name: str = "doc.yaml") -> tuple[YamlDoc, Report]:
    Path(name).write_text(text, encoding="utf-8")
    report = Report()
    doc = load_yaml_file(Path(name), report)
    assert doc is not None, render_report(report)
    return doc, report


def file_pos(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, col) of the n-th occurrence of `needle` in `text`."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def text_pos(value: str, needle: str) -> tuple[int, int]:
    """1-based (line, col) of `needle` inside a scalar's value, as the DSL parser would report it."""
    return file_pos(value, needle)


def assert_plain(value: Any) -> None:
    """Only plain Python types: no ruamel subclasses anywhere."""
    assert type(value) in (dict, list, str, int, float, bool, type(None)), type(value)
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) in (str, int)
            assert_plain(item)
    elif isinstance(value, list):
        for item in value:
            assert_plain(item)


# --------------------------------------------------------------------------- data and spans


def test_data_is_plain_python() -> None:
    doc, report = load(
        "a: 1\nb: 2.5\nc: true\nd: ~\ne: 0x1F\nf: |\n  x\ng: [1, {h: i}]\nj: 2024-01-01\n"
        "k: 'q'\nl: >\n  folded\n  text\n"
    )
    assert not report.diagnostics
    assert doc.data == {
        "a": 1,
        "b": 2.5,
        "c": True,
        "d": None,
        "e": 31,
        "f": "x\n",
        "g": [1, {"h": "i"}],
        "j": "2024-01-01",
        "k": "q",
        "l": "folded text\n",
    }
    assert_plain(doc.data)


def test_every_key_and_value_has_a_span() -> None:
    text = "game:\n  players: {min: 2, max: 4}\n  seats: [Red, Blue]\n  flag: true\n"
    doc, _ = load(text)
    assert doc.key_span[("game",)] == Span("doc.yaml", 1, 1, 1, 5)
    assert doc.key_span[("game", "players", "max")] == Span("doc.yaml", 2, 21, 2, 24)
    assert doc.value_span[("game", "players", "max")] == Span("doc.yaml", 2, 26, 2, 27)
    assert doc.value_span[("game", "players")] == Span("doc.yaml", 2, 12, 2, 28)
    assert doc.value_span[("game", "seats", 1)] == Span("doc.yaml", 3, 16, 3, 20)
    assert doc.value_span[("game", "flag")] == Span("doc.yaml", 4, 9, 4, 13)
    assert doc.value_span[("game",)].line == 2
    assert doc.value_span[()].line == 1
    for path in [("game", "players", "min"), ("game", "seats"), ("game", "seats", 0)]:
        assert path in doc.value_span


def test_empty_value_points_at_the_colon() -> None:
    doc, _ = load("a:\nb: 1\n")
    assert doc.data == {"a": None, "b": 1}
    assert doc.value_span[("a",)] == Span("doc.yaml", 1, 2, 1, 3)


def test_merge_keys_are_expanded() -> None:
    doc, report = load("base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n")
    assert not report.diagnostics
    assert doc.data["d"] == {"y": 3, "x": 1}
    assert doc.value_span[("d", "y")].line == 4
    assert doc.value_span[("d", "x")].line == 1


def test_span_for_falls_back_to_the_nearest_ancestor_key() -> None:
    doc, _ = load("flow:\n  turn:\n    phases: []\n")
    assert span_for(doc, ("flow", "turn", "phases")) == Span("doc.yaml", 3, 13, 3, 15)
    assert span_for(doc, ("flow", "turn", "phases"), key=True) == Span("doc.yaml", 3, 5, 3, 11)
    assert span_for(doc, ("flow", "turn", "missing", 3)) == Span("doc.yaml", 2, 3, 2, 7)
    assert span_for(doc, ("nothing",)) == doc.value_span[()]


# --------------------------------------------------------------------------- scalar origins


def test_origin_plain_scalar() -> None:
    text = "functions:\n  f:\n    expr: (q - position(p)) % 4\n"
    doc, _ = load(text)
    origin = doc.value_origin[("functions", "f", "expr")]
    assert (origin.line, origin.col, origin.style) == (3, 11, "plain")
    value = doc.data["functions"]["f"]["expr"]
    assert origin.locate(*text_pos(value, "position")) == file_pos(text, "position")


def test_origin_single_quoted_scalar() -> None:
    text = "when: 'money(me) >= 3'\n"
    doc, _ = load(text)
    origin = doc.value_origin[("when",)]
    assert (origin.line, origin.col, origin.style) == (1, 8, "single")
    assert origin.locate(*text_pos(doc.data["when"], ">=")) == file_pos(text, ">=")


def test_origin_double_quoted_scalar() -> None:
    text = 'params: {sym: "distinct(played(me))"}\n'
    doc, _ = load(text)
    origin = doc.value_origin[("params", "sym")]
    assert origin.style == "double"
    assert origin.locate(*text_pos(doc.data["params"]["sym"], "played")) == file_pos(text, "played")


def test_origin_double_quoted_scalar_with_escapes() -> None:
    text = 'log: "say \\"hi\\" to {name}"\n'
    doc, _ = load(text)
    value = doc.data["log"]
    assert value == 'say "hi" to {name}'
    assert doc.value_origin[("log",)].locate(*text_pos(value, "{name}")) == file_pos(text, "{name}")


def test_origin_literal_block() -> None:
    text = "procedures:\n  build:\n    do: |\n      let x = 1\n      if x:\n        gain 1 money(p)\n"
    doc, _ = load(text)
    origin = doc.value_origin[("procedures", "build", "do")]
    assert (origin.line, origin.col, origin.style, origin.indent) == (4, 7, "literal", 6)
    value = doc.data["procedures"]["build"]["do"]
    assert origin.locate(*text_pos(value, "gain")) == file_pos(text, "gain")
    assert origin.locate(*text_pos(value, "money")) == file_pos(text, "money")


def test_origin_literal_block_in_a_list_item_with_strip_indicator() -> None:
    text = "phases:\n  - id: main\n    do: |-\n      pass\n      shuffle deck\n"
    doc, _ = load(text)
    value = doc.data["phases"][0]["do"]
    assert value == "pass\nshuffle deck"
    origin = doc.value_origin[("phases", 0, "do")]
    assert origin.locate(*text_pos(value, "deck")) == file_pos(text, "deck")


def test_origin_literal_block_with_explicit_indentation() -> None:
    text = "do: |2\n     more indented\n    base\n"
    doc, _ = load(text)
    value = doc.data["do"]
    assert value == "   more indented\n  base\n"
    origin = doc.value_origin[("do",)]
    assert origin.indent == 2
    assert origin.locate(*text_pos(value, "more")) == file_pos(text, "more")
    assert origin.locate(*text_pos(value, "base")) == file_pos(text, "base")


def test_origin_folded_block() -> None:
    text = "when: >\n  count(hand(me)) > 2\n  and money(me) > 0\n"
    doc, _ = load(text)
    value = doc.data["when"]
    assert value == "count(hand(me)) > 2 and money(me) > 0\n"
    origin = doc.value_origin[("when",)]
    assert origin.style == "folded"
    assert origin.locate(*text_pos(value, "and")) == file_pos(text, "and")
    assert origin.locate(*text_pos(value, "money")) == file_pos(text, "money")
    assert origin.locate(*text_pos(value, "count")) == file_pos(text, "count")


def test_origin_multi_line_plain_scalar() -> None:
    text = "when: count(hand(me)) > 2\n  and money(me) > 0\n"
    doc, _ = load(text)
    value = doc.data["when"]
    assert value == "count(hand(me)) > 2 and money(me) > 0"
    assert doc.value_origin[("when",)].locate(*text_pos(value, "money")) == file_pos(text, "money")


def test_origin_without_raw_text_uses_the_documented_rules() -> None:
    plain = ScalarOrigin("f.yaml", 3, 11, "plain", 10)
    assert plain.locate(1, 5) == (3, 15)
    quoted = ScalarOrigin("f.yaml", 3, 12, "double", 10)
    assert quoted.locate(1, 1) == (3, 12)
    literal = ScalarOrigin("f.yaml", 4, 7, "literal", 6)
    assert literal.locate(2, 3) == (5, 9)


def test_origin_span_maps_both_ends() -> None:
    doc, _ = load("expr: a + bb\n")
    assert doc.value_origin[("expr",)].span(1, 5, 1, 7) == Span("doc.yaml", 1, 11, 1, 13)


# --------------------------------------------------------------------------- syntax errors


def syntax_error(text: str) -> str:
    Path("bad.yaml").write_text(text, encoding="utf-8")
    report = Report()
    assert load_yaml_file(Path("bad.yaml"), report) is None
    return render_report(report)


def test_syntax_error_tab_indentation() -> None:
    assert syntax_error("game:\n\tid: x\n") == (
        "bad.yaml:2:1: error[Y001]: YAML syntax error: tab character in indentation\n"
        "  |\n"
        "2 | \tid: x\n"
        "  | ^\n"
        "  = hint: YAML indentation must use spaces, not tabs\n"
        "\n"
        "1 error, 0 warnings"
    )


def test_syntax_error_unclosed_quote_points_at_the_opening_quote() -> None:
    assert syntax_error("a: 1\nlabel: 'use {sym}\nb: 2\n") == (
        "bad.yaml:2:8: error[Y001]: YAML syntax error: quoted string is never closed\n"
        "  |\n"
        "2 | label: 'use {sym}\n"
        "  |        ^\n"
        "  = hint: add the closing quote (write '' for a quote inside '...', or \\\" inside \"...\")\n"
        "\n"
        "1 error, 0 warnings"
    )


def test_syntax_error_colon_in_plain_value() -> None:
    rendered = syntax_error("do: if x: pass\n")
    assert rendered.splitlines()[0] == (
        "bad.yaml:1:9: error[Y001]: YAML syntax error: mapping values are not allowed here"
    )
    assert "quote the value" in rendered


def test_syntax_error_bad_indentation() -> None:
    rendered = syntax_error("a:\n  b: 1\n c: 2\n")
    assert rendered.splitlines()[0] == "bad.yaml:3:2: error[Y001]: YAML syntax error: bad indentation"


def test_unreadable_and_non_utf8_files_are_reported() -> None:
    Path("dir.yaml").mkdir()
    Path("latin.yaml").write_bytes(b"a: \xe9\n")
    report = Report()
    assert load_yaml_file(Path("dir.yaml"), report) is None
    assert load_yaml_file(Path("latin.yaml"), report) is None
    assert [d.code for d in report.errors] == ["Y000", "Y000"]
    assert "not UTF-8" in report.errors[1].message


def test_duplicate_keys_all_reported() -> None:
    doc, report = load("a:\n  b: 1\n  c: 2\n  b: 3\nd: 1\nd: 2\n")
    assert doc.data == {"a": {"b": 1, "c": 2}, "d": 1}
    assert render_report(report) == (
        "doc.yaml:4:3: error[Y002]: duplicate key 'b': first defined at line 2, again at line 4\n"
        "  |\n"
        "4 |   b: 3\n"
        "  |   ^\n"
        "  = hint: a key may appear only once in a mapping; merge the two entries or rename one\n"
        "\n"
        "doc.yaml:6:1: error[Y002]: duplicate key 'd': first defined at line 5, again at line 6\n"
        "  |\n"
        "6 | d: 2\n"
        "  | ^\n"
        "  = hint: a key may appear only once in a mapping; merge the two entries or rename one\n"
        "\n"
        "2 errors, 0 warnings"
    )


def test_unsupported_tag_is_reported() -> None:
    report = Report()
    doc = load_yaml_text("a: !custom 3\n", "<t>", report)
    assert doc is not None and doc.data == {"a": "3"}
    assert [d.code for d in report.errors] == ["Y005"]


# --------------------------------------------------------------------------- game folders


def write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def load_folder(folder: Path) -> tuple[GameSource | None, Report]:
    report = Report()
    return load_game_folder(folder, report), report


def test_folder_sections_merge_across_files() -> None:
    game = Path("g")
    write(game, "a.yaml", "components:\n  card: {}\ntriggers:\n  - {on: x, do: pass}\n")
    more = "components:\n  site: {}\ntriggers:\n  - {on: y, do: pass}\n  - {on: z, do: pass}\n"
    write(game, "b.yaml", more)
    write(game, "notes.txt", "not yaml")
    (game / "scenarios").mkdir()
    write(game / "scenarios", "s.yaml", "scenario: not part of the game\n")
    source, report = load_folder(game)
    assert source is not None and not report.diagnostics
    assert source.data == {
        "components": {"card": {}, "site": {}},
        "triggers": [{"on": "x", "do": "pass"}, {"on": "y", "do": "pass"}, {"on": "z", "do": "pass"}],
    }
    assert [doc.file for doc in source.docs] == ["g/a.yaml", "g/b.yaml"]
    assert source.key_span[("components", "site")] == Span("g/b.yaml", 2, 3, 2, 7)
    assert source.value_span[("triggers", 2, "on")] == Span("g/b.yaml", 5, 10, 5, 11)
    assert source.value_origin[("triggers", 1, "do")].file == "g/b.yaml"
    assert span_for(source, ("triggers", 0)) == Span("g/a.yaml", 4, 5, 4, 22)


def test_folder_entry_defined_twice() -> None:
    game = Path("g")
    write(game, "cards.yaml", "counters:\n  money: {initial: 5}\n")
    write(game, "more.yaml", "counters:\n  vp: {}\n  money: {initial: 20}\n")
    source, report = load_folder(game)
    assert source is not None
    assert render_report(report) == (
        "g/more.yaml:3:3: error[Y003]: 'counters.money' is already defined at g/cards.yaml:2:3\n"
        "  |\n"
        "3 |   money: {initial: 20}\n"
        "  |   ^^^^^\n"
        "  = hint: a section may be split over several files, but each entry must be defined only once\n"
        "\n"
        "1 error, 0 warnings"
    )
    assert source.data["counters"] == {"money": {"initial": 5}, "vp": {}}


def test_folder_scalar_section_defined_twice() -> None:
    game = Path("g")
    write(game, "a.yaml", "scoring: 1\n")
    write(game, "b.yaml", "scoring: 2\n")
    _, report = load_folder(game)
    assert [(d.code, d.message) for d in report.diagnostics] == [
        ("Y003", "section 'scoring' is already defined at g/a.yaml:1:1")
    ]


def test_folder_problems() -> None:
    game = Path("g")
    write(game, "a.yaml", "- not\n- a mapping\n")
    write(game, "b.yaml", "")
    source, report = load_folder(game)
    assert source is not None and source.data == {}
    assert [(d.severity, d.code) for d in report.diagnostics] == [("error", "Y004"), ("warning", "Y006")]

    write(game, "c.yaml", "broken: [\n")
    source, report = load_folder(game)
    assert source is None and [d.code for d in report.errors] == ["Y004", "Y001"]

    source, report = load_folder(Path("missing"))
    assert source is None and report.errors[0].message == "game folder not found: missing"
    Path("empty").mkdir()
    source, report = load_folder(Path("empty"))
    assert source is None and report.errors[0].message == "no *.yaml files in empty"


def test_folder_empty_section_does_not_conflict() -> None:
    game = Path("g")
    write(game, "a.yaml", "zones:\ncounters: {money: {}}\n")
    write(game, "b.yaml", "zones: {hand: {}}\ncounters:\n")
    source, report = load_folder(game)
    assert source is not None and not report.diagnostics
    assert source.data == {"zones": {"hand": {}}, "counters": {"money": {}}}
    assert source.key_span[("zones",)].file == "g/b.yaml"


def test_origin_double_quoted_scalar_with_newline_escape() -> None:
    text = 'log: "total\\nnow {money(p)}"\n'
    doc, _ = load(text)
    value = doc.data["log"]
    assert value == "total\nnow {money(p)}"
    assert doc.value_origin[("log",)].locate(*text_pos(value, "money")) == file_pos(text, "money")


def test_alias_bomb_is_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tabula.interpreter.load.bounds.MAX_NODES", 1000)
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 6)]
    report = Report()
    load_yaml_text("\n".join(levels) + "\n", "<bomb>", report)
    assert [d.code for d in report.errors] == ["Y005"]
    assert report.errors[0].message == "the document expands to more than 1000 values (nested aliases?)"
