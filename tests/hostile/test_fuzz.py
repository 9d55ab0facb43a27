"""Fuzzing: random DSL text and random game files never crash the parser, the loader or the compiler.

Every input either works or gives located diagnostics with codes; nothing else ever escapes (no
RecursionError, no ValueError from int(), no TypeError deep inside). Running a game that compiled
may fail only with a located `GameRuntimeError`.

A short profile (740 examples) runs in CI. The long one runs on demand: `TABULA_FUZZ=long pytest
tests/hostile/test_fuzz.py --hypothesis-show-statistics` (100,000 examples over the four tests;
`TABULA_FUZZ_EXAMPLES=N` gives each test N).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabula.interpreter.base.source import Report
from tabula.interpreter.dsl.parser import PlainOrigin, parse_block, parse_expr
from tabula.interpreter.engine import AuthorError, Engine, GameRuntimeError, load_game
from tabula.interpreter.run.runtime import Runtime

HERE = Path(__file__).resolve().parent
MINI = HERE.parent / "games" / "mini"
GAME = load_game(MINI)
LONG = os.environ.get("TABULA_FUZZ") == "long"
EXAMPLES = int(os.environ.get("TABULA_FUZZ_EXAMPLES", "0")) or None


def profile(short: int, long: int) -> settings:
    """`short` examples in CI; `long` with TABULA_FUZZ=long (100,000 over the four tests)."""
    return settings(
        max_examples=EXAMPLES or (long if LONG else short),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )


# ------------------------------------------------------------------ DSL text

NAMES = [
    "pile",
    "score",
    "hand",
    "deck",
    "table",
    "takes",
    "me",
    "p",
    "players",
    "card",
    "c",
    "x",
    "option",
    "count",
    "sum",
    "len",
    "max",
    "min",
    "distinct",
    "range",
    "none",
    "A",
    "target",
    "last",
    "seen",
]
WORDS = ["and", "or", "not", "in", "if", "else", "for", "where", "default", "true", "false"]


@st.composite
def number(draw: st.DrawFn) -> str:
    return str(draw(st.one_of(st.integers(-5, 100), st.integers(), st.integers(10**19, 10**30))))


def atoms() -> st.SearchStrategy[str]:
    return st.one_of(
        number(),
        st.sampled_from([*NAMES, "true", "false", "none"]),
        st.text(alphabet=string.ascii_letters + " '{}\\\"\n", max_size=8).map(lambda s: f"'{s}'"),
        st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True),
    )


def compose(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    op = st.sampled_from(
        ["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in"]
    )
    return st.one_of(
        st.tuples(children, op, children).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(st.sampled_from(["-", "not "]), children).map("".join),
        st.tuples(children, children, children).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(st.sampled_from(NAMES), st.lists(children, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
        st.lists(children, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(children, st.sampled_from(["name", "value", "owner", "zone", "x"])).map(
            lambda t: f"{t[0]}.{t[1]}"
        ),
        st.tuples(children, children).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(st.sampled_from(["count", "sum", "max", "any", "all"]), children, children, children).map(
            lambda t: f"{t[0]}({t[1]} for x in {t[2]} where {t[3]})"
        ),
        children.map(lambda c: f"({c})"),
    )


def expressions(leaves: int = 16) -> st.SearchStrategy[str]:
    return st.recursive(atoms(), compose, max_leaves=leaves)


@st.composite
def deep(draw: st.DrawFn) -> str:
    """One construct repeated past (or up to) the nesting limits."""
    k = draw(st.integers(0, 400))
    inner = draw(atoms())
    kind = draw(st.sampled_from(["sum", "call", "list", "neg", "not", "paren", "attr", "index"]))
    return {
        "sum": " + ".join([inner] * max(k, 1)),
        "call": "len(" * k + inner + ")" * k,
        "list": "[" * k + inner + "]" * k,
        "neg": "-" * k + inner,
        "not": "not " * k + inner,
        "paren": "(" * k + inner + ")" * k,
        "attr": inner + ".name" * k,
        "index": inner + "[0]" * k,
    }[kind]


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """A DSL text with random characters inserted, deleted or swapped."""
    text = list(draw(st.one_of(expressions(6), deep())))
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "swap"]))
        char = draw(st.one_of(st.sampled_from(list("()[]{}.,:'\"=+-*/%<>!#\n\t \\")), st.characters()))
        if action == "insert" or not text:
            text.insert(i, char)
        elif action == "delete":
            del text[min(i, len(text) - 1)]
        else:
            text[min(i, len(text) - 1)] = char
    return "".join(text)


def dsl_texts() -> st.SearchStrategy[str]:
    return st.one_of(expressions(), deep(), mangled(), st.text(max_size=60))


@st.composite
def blocks(draw: st.DrawFn) -> str:
    """Statements, nested by indentation, some with mangled expressions."""
    stmts = [
        "pass",
        "gain {e} score(me)",
        "pay {e} pile",
        "let y = {e}",
        "set pile = {e}",
        "log 'x {{{e}}}'",
        "move {e} to table",
        "choose y from {e} by me",
        "declare_winner {e}",
        "end_game",
        "run nothing({e})",
        "emit ping(k={e})",
        "shuffle deck",
        "draw {e} from deck to hand(me)",
    ]
    heads = ["if {e}:", "for y in {e}:", "repeat {e}:", "while {e}:", "elif {e}:", "else:"]
    small = st.one_of(expressions(4), atoms(), mangled())
    lines, indent = [], 0
    for _ in range(draw(st.integers(1, 8))):
        e = draw(small).replace("\n", " ")
        if draw(st.booleans()) and indent < 30:
            lines.append("  " * indent + draw(st.sampled_from(heads)).format(e=e))
            indent += 1
        else:
            lines.append("  " * indent + draw(st.sampled_from(stmts)).format(e=e))
            indent = max(0, indent - draw(st.integers(0, 2)))
    return "\n".join(lines)


def assert_located(report: Report, text: str) -> None:
    """Every error has a code of the parse stage and a position inside the text."""
    lines = text.count("\n") + 2
    for d in report.errors:
        assert d.code in {"D001", "D002", "D003", "D004", "D006"}, d
        assert d.span is not None and 1 <= d.span.line <= lines and d.span.col >= 1, d


@pytest.mark.slow  # hundreds of generated examples
@profile(short=300, long=40_000)
@given(text=dsl_texts())
def test_parsing_any_condition_ends_in_a_tree_or_located_errors(text: str) -> None:
    report = Report()
    node = parse_expr(text, PlainOrigin("<fuzz>"), report)
    assert (node is None) == report.has_errors
    assert_located(report, text)


@pytest.mark.slow  # hundreds of generated examples
@profile(short=200, long=20_000)
@given(text=st.one_of(blocks(), st.text(max_size=80)))
def test_parsing_any_effect_ends_in_a_tree_or_located_errors(text: str) -> None:
    report = Report()
    node = parse_block(text, PlainOrigin("<fuzz>"), report)
    assert (node is None) == report.has_errors
    assert_located(report, text)


@pytest.mark.slow  # hundreds of generated examples
@profile(short=200, long=25_000)
@given(text=dsl_texts())
def test_any_condition_compiles_or_is_reported_and_runs_or_fails_located(text: str) -> None:
    report = Report()
    f = GAME.snippets.expr(text, PlainOrigin("<fuzz>"), report, {})
    assert (f is None) == report.has_errors or f is not None
    for d in report.errors:
        assert d.span is not None and d.code[0] in "DETC", d
    if f is None or report.has_errors:
        return
    engine = Engine(GAME)
    rt = Runtime(GAME, engine.new_game(2, seed=1, pause="turn"))
    rt.loc = {}
    with contextlib.suppress(GameRuntimeError):
        rt.evaluate(f, None)


# ------------------------------------------------------------------ whole game files

BASE = (MINI / "game.yaml").read_text(encoding="utf-8")
YAML_BITS = [
    "&a [1, *a]",
    "*nothing",
    "!!python/object:os.system",
    ".nan",
    "-.inf",
    "9" * 5000,
    "1e999",
    "{1: x}",
    "[" * 300,
    "\t",
    "\x00",
    "\ufb01",
    "'",
    '"',
    "|",
    ">",
    "- ",
    ": ",
    "<<: *x",
    "~",
    "---",
    "&b [x, x, x, x, x, x, x, x]",
    "[*b, *b, *b, *b, *b, *b, *b, *b]",
    "3000000",
    "-1",
    "''",
]


@st.composite
def game_texts(draw: st.DrawFn) -> str:
    """The mini game with a few lines deleted, duplicated, re-indented or spliced with hostile bits."""
    lines = BASE.splitlines()
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "indent", "dedent", "splice", "value", "dsl"]))
        line = lines[i]
        if action == "delete":
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, line)
        elif action == "indent":
            lines[i] = "  " + line
        elif action == "dedent":
            lines[i] = line[2:] if line.startswith("  ") else line
        elif action == "splice":
            j = draw(st.integers(0, len(line)))
            lines[i] = line[:j] + draw(st.sampled_from(YAML_BITS)) + line[j:]
        elif action == "value" and ":" in line:
            key = line.split(":", 1)[0]
            lines[i] = f"{key}: {draw(st.sampled_from(YAML_BITS))}"
        elif ":" in line:  # a DSL value of one line, quoted or not
            key = line.split(":", 1)[0]
            expr = " ".join(draw(dsl_texts()).splitlines()) or "1"
            lines[i] = f"{key}: {expr!r}" if draw(st.booleans()) else f"{key}: {expr}"
        if not lines:
            lines = ["game: {}"]
    return "\n".join(lines) + "\n"


def run_game_text(text: str) -> None:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-game-"))
    try:
        (folder / "game.yaml").write_text(text, encoding="utf-8")
        try:
            game = load_game(folder)
        except AuthorError as err:
            assert err.report.errors, "an AuthorError without errors"
            for d in err.report.errors:
                assert d.code and d.code[0] in "YSDETCFGOV", d
            return
        engine = Engine(game)
        try:
            st_ = engine.new_game(game.min_players, seed=3)
            for _ in range(30):
                if engine.is_terminal(st_):
                    break
                engine.apply_inplace(st_, engine.random_choice(st_, [5, 6]))
            engine.from_json(engine.to_json(st_))
        except GameRuntimeError as err:
            assert err.message
        except AuthorError as err:
            assert err.report.errors
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow  # dozens of generated games, each compiled and played
@profile(short=40, long=15_000)
@given(text=game_texts())
def test_any_game_file_loads_or_is_reported_and_plays_or_fails_located(text: str) -> None:
    run_game_text(text)


def test_the_fuzzed_base_game_is_valid_as_written() -> None:
    # the mutations start from a game that works, so each one is what breaks it
    run_game_text(BASE)
    assert load_game(MINI).name == "Mini"
