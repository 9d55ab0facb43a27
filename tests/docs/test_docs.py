"""The documentation stays true: the generated reference is current, its examples parse, and the
tutorial's game (built by docs/tutorial.md in a new folder) is the one shipped as gamedefs/high-card,
which loads and passes its scenarios. tests/docs/test_doc_commands.py runs the pages' commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabula.dev import gen_docs
from tabula.interpreter.base.source import Report, render_report
from tabula.interpreter.compile.python.expressions.builtins import doc_entries
from tabula.interpreter.dsl.parser import PlainOrigin, parse_block, parse_expr
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.scenarios import find_scenarios, run_scenario_file

ROOT = Path(__file__).resolve().parents[2]
HIGH_CARD = ROOT / "gamedefs" / "high-card"
TUTORIAL = ROOT / "docs" / "tutorial.md"
HIGH_CARD_SCENARIOS = find_scenarios([str(HIGH_CARD)])


# ------------------------------------------------------------------ docs/reference.md


@pytest.mark.slow  # regenerates the whole reference
def test_reference_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    code = gen_docs.main(["--check"])
    assert code == 0, capsys.readouterr().err


def test_every_grammar_statement_is_documented() -> None:
    assert gen_docs.statement_problems(gen_docs.GRAMMAR.read_text(encoding="utf-8")) == []


def test_an_undocumented_statement_is_caught() -> None:
    grammar = gen_docs.GRAMMAR.read_text(encoding="utf-8") + '\nextra: "frobnicate" expr -> frobnicate_stmt\n'
    problems = gen_docs.statement_problems(grammar)
    assert any("frobnicate_stmt" in p for p in problems)


def test_engine_names_are_documented() -> None:
    assert gen_docs.name_problems() == []


@pytest.mark.parametrize("doc", gen_docs.STATEMENTS, ids=[s.rule for s in gen_docs.STATEMENTS])
def test_statement_example_parses(doc: gen_docs.StatementDoc) -> None:
    report = Report()
    assert parse_block(doc.example, PlainOrigin(doc.rule), report) is not None, render_report(report)


@pytest.mark.parametrize("entry", doc_entries(), ids=[e[0] for e in doc_entries()])
def test_builtin_example_parses(entry: tuple[str, str, str]) -> None:
    report = Report()
    assert parse_expr(entry[2], PlainOrigin(entry[0]), report) is not None, render_report(report)


@pytest.mark.slow  # scans every source file for error codes
def test_error_codes_are_found() -> None:
    codes = {d.code for d in gen_docs.error_codes()}
    assert {"Y001", "S001", "D001", "E101", "T001", "C003", "O001", "G001"} <= codes


# ------------------------------------------------------------------ the tutorial's game


def test_high_card_loads_for_every_player_count() -> None:
    game = load_game(HIGH_CARD)
    engine = Engine(game)
    for players in range(game.min_players, game.max_players + 1):
        st = engine.new_game(players, seed=players)
        assert engine.legal_ids(st), f"no first decision with {players} players"


def test_high_card_has_scenarios() -> None:
    assert len(HIGH_CARD_SCENARIOS) >= 2


@pytest.mark.parametrize("path", HIGH_CARD_SCENARIOS, ids=[p.name for p in HIGH_CARD_SCENARIOS])
def test_high_card_scenario(path: Path) -> None:
    result = run_scenario_file(path)
    assert result.passed, "\n".join([*result.failures, result.error or "", *result.log])


def tutorial_files() -> dict[str, str]:
    """Each file the tutorial writes (`<!-- file: my-high-card/PATH -->` blocks) in its last version,
    by its path inside the game folder."""
    text = TUTORIAL.read_text(encoding="utf-8")
    found = re.findall(r"<!-- file: my-high-card/(\S+) -->\n```yaml\n(.*?)```", text, re.DOTALL)
    return dict(found)  # a later version of a file replaces the earlier one, as on disk


def test_tutorial_shows_every_file_of_the_game() -> None:
    files = {p.relative_to(HIGH_CARD).as_posix() for p in HIGH_CARD.rglob("*.yaml")}
    assert set(tutorial_files()) == files


@pytest.mark.parametrize("path", sorted(tutorial_files()))
def test_tutorial_builds_the_shipped_game(path: str) -> None:
    shipped = (HIGH_CARD / path).read_text(encoding="utf-8")
    assert tutorial_files()[path] == shipped, f"gamedefs/high-card/{path} differs from docs/tutorial.md"
