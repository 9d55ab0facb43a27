"""Schema validation: models of docs/language.md, pydantic errors as positioned diagnostics."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tabula.interpreter.base.source import Report, render_report
from tabula.interpreter.load.gamecheck import validate_game
from tabula.interpreter.load.gamefolder import load_game_folder
from tabula.interpreter.load.schema.game import GameDef, game_json_schema
from tabula.interpreter.load.schema.scenario import (
    Scenario,
    WhenStep,
    scenario_json_schema,
    validate_scenario,
)
from tabula.interpreter.load.yamlsource import load_yaml_file

GAME = """\
game:
  id: demo
  name: Demo
  players: {min: 2, max: 4}
  seats: [Red, Green]
options:
  short_game: {default: false, description: "Play one round fewer"}
constants:
  price: {black: 1, blue: 2}
enums:
  colour: [black, blue]
components:
  card:
    properties: {tags: list, points: int}
    marks: {owner: none}
    per_player: true
    active: self.zone == table(p)
    modifiers: {hand_size: "+2"}
    allow: {may_add: "true"}
    triggers: [{on: turn_ended, do: pass}]
    instances:
      - {name: A1, tags: [fast], points: 2, source: provisional}
      - {name: B2, copies: 2}
zones:
  hand: {per: player, visibility: owner}
  deck: {per: player, visibility: hidden, ordered: true}
counters:
  money: {per: player, initial: 20}
  goods: {per: player, keys: colour, initial: {black: 1, blue: 0}}
  vp: {per: player, min: 0, max: 99}
vars:
  position: {per: player, initial: none}
functions:
  move_cost: {params: [p, q], expr: (q - position(p)) % 4}
procedures:
  build:
    params: [p]
    do: |
      pass
actions:
  use_tag:
    params: {sym: "distinct(tags(me))"}
    when: tag_free(me, sym)
    do: pass
    label: "use {sym}"
  end_turn: {closes_window: true, do: pass}
triggers:
  - {id: bonus, on: built, where: site.level == 2, do: pass}
values:
  hand_size: {params: [p], base: 5}
rules:
  may_add: {params: [p, c], base: "false"}
flow:
  setup: pass
  rounds: {count: 3, first: player(0), ends_when: false}
  turn:
    skip_if: money(p) < 0
    phases:
      - {id: main, do: "window p: use_tag, end_turn"}
  end_checks:
    - {id: out, when: money(active) > 50, end: final_turns}
  finish: pass
scoring:
  score: vp(p)
  tiebreak: [money(p)]
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def check_game(*files: str) -> tuple[GameDef | None, Report]:
    """Write files (a.yaml, b.yaml, ...) into folder `g`, load and validate them."""
    folder = Path("g")
    folder.mkdir()
    for index, text in enumerate(files):
        (folder / f"{'abcdefgh'[index]}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    report = Report()
    source = load_game_folder(folder, report)
    assert source is not None, render_report(report)
    return validate_game(source, report), report


def check_scenario(text: str) -> tuple[Scenario | None, Report]:
    Path("s.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    report = Report()
    doc = load_yaml_file(Path("s.yaml"), report)
    assert doc is not None
    return validate_scenario(doc, report), report


# --------------------------------------------------------------------------- valid input


def test_documented_game_validates() -> None:
    game, report = check_game(GAME)
    assert game is not None, render_report(report)
    assert game.game.players.max == 4
    card = game.components["card"]
    assert card.instances[0].name == "A1"
    assert card.instances[0].model_extra == {"tags": ["fast"], "points": 2, "source": "provisional"}
    assert card.instances[1].copies == 2
    assert game.zones["hand"].visibility == "owner" and not game.zones["hand"].ordered
    assert game.counters["goods"].initial == {"black": 1, "blue": 0}
    assert game.counters["money"].min == 0 and game.counters["money"].max is None
    assert game.actions["end_turn"].closes_window
    assert game.flow is not None and game.flow.turn.phases[0].id == "main"
    assert game.flow.end_checks[0].end == "final_turns"
    assert game.scoring is not None and game.scoring.tiebreak == ["money(p)"]


def test_yaml_numbers_and_booleans_in_dsl_fields_become_dsl_text() -> None:
    game, _ = check_game(GAME)
    assert game is not None and game.flow is not None and game.flow.rounds is not None
    assert game.flow.rounds.count == "3"
    assert game.flow.rounds.ends_when == "false"
    assert game.values["hand_size"].base == "5"


def test_minimal_game_defaults() -> None:
    game, report = check_game("game: {id: x, players: {min: 1, max: 1}}\n")
    assert game is not None, render_report(report)
    assert game.components == {} and game.triggers == [] and game.flow is None
    assert game.game.seats == []


def test_documented_scenario_validates() -> None:
    scenario, report = check_scenario(
        """\
        scenario: Example 3, moving twice
        game: demo
        players: [Ann, Bob]
        seed: 1
        options: {}
        given:
          start: action
          counters: {money(Ann): 10, supply(black): 1}
          vars: {position(Ann): 0}
          zones: {hand(Ann): [A5, A1], pool: [T1, T2]}
          marks: {S-2: {owner: Cy, height: 2}}
        when:
          - play:A5
          - 3
          - {by: Ann, choose: "use_tag:black"}
          - {expect_illegal: "use_tag:red", check: money(Ann) > 0}
        then:
          - money(Ann) == 7
        """
    )
    assert scenario is not None, render_report(report)
    assert scenario.when[:2] == ["play:A5", "3"]
    assert scenario.when[2] == WhenStep(by="Ann", choose="use_tag:black")
    assert scenario.when[3] == WhenStep(expect_illegal="use_tag:red", check="money(Ann) > 0")
    assert scenario.given.counters == {"money(Ann)": 10, "supply(black)": 1}
    assert scenario.expect_end is None


# --------------------------------------------------------------------------- diagnostics


def test_unknown_key_points_at_the_key_with_did_you_mean() -> None:
    _, report = check_game(
        """\
        game: {id: x, players: {min: 2, max: 4}}
        zones:
          hand: {per: player, visibility: owner, orderd: true}
        """
    )
    assert render_report(report) == (
        "g/a.yaml:3:42: error[S001]: unknown key 'orderd' in 'zones.hand'\n"
        "  |\n"
        "3 |   hand: {per: player, visibility: owner, orderd: true}\n"
        "  |                                          ^^^^^^\n"
        "  = hint: did you mean 'ordered'?\n"
        "\n"
        "1 error, 0 warnings"
    )


def test_unknown_section_lists_the_sections_when_nothing_is_close() -> None:
    _, report = check_game("game: {id: x, players: {min: 2, max: 4}}\nflwo: {}\nzzzz: 1\n")
    first, second = report.errors
    assert (first.code, first.message) == ("S001", "unknown section 'flwo'")
    assert first.hint == "did you mean 'flow'?"
    assert second.message == "unknown section 'zzzz'"
    assert second.hint is not None and second.hint.startswith("expected one of: game, options, constants")


def test_missing_field_points_at_the_parent_key() -> None:
    _, report = check_game(
        """\
        game: {id: x, players: {min: 2, max: 4}}
        flow:
          turn:
            phases: []
          end_checks:
            - id: out
              when: money(active) > 50
        """
    )
    assert render_report(report) == (
        "g/a.yaml:6:7: error[S002]: missing required key 'end' in 'flow.end_checks[0]'\n"
        "  |\n"
        "6 |     - id: out\n"
        "  |       ^^^^^^^\n"
        "  = hint: 'end': immediately, after_turn, or final_turns (each other player once)\n"
        "\n"
        "1 error, 0 warnings"
    )


def test_missing_section_names_the_folder() -> None:
    _, report = check_game("zones: {}\n")
    assert render_report(report) == (
        "error[S002]: missing required section 'game'\n"
        "  = hint: add a 'game:' section to one of the files in g\n"
        "\n"
        "1 error, 0 warnings"
    )


def test_wrong_type() -> None:
    _, report = check_game("game:\n  id: x\n  players: {min: 2, max: four}\n")
    assert render_report(report) == (
        "g/a.yaml:3:26: error[S003]: 'game.players.max' must be an integer, not the string 'four'\n"
        "  |\n"
        "3 |   players: {min: 2, max: four}\n"
        "  |                          ^^^^\n"
        "\n"
        "1 error, 0 warnings"
    )


def test_strict_types_reject_quoted_numbers_and_booleans_as_integers() -> None:
    _, report = check_game(
        """\
        game: {id: x, players: {min: 2, max: 4}}
        components:
          card:
            instances: [{name: A, copies: "2"}, {name: B, copies: true}]
        """
    )
    assert [d.message for d in report.errors] == [
        "'components.card.instances[0].copies' must be an integer, not the string '2'",
        "'components.card.instances[1].copies' must be an integer, not true",
    ]


def test_literal_value_with_did_you_mean() -> None:
    _, report = check_game("game: {id: x, players: {min: 2, max: 4}}\nzones:\n  deck: {visibility: hiden}\n")
    (error,) = report.errors
    assert error.message == (
        "'zones.deck.visibility' must be one of 'public', 'owner', 'others' or 'hidden', "
        "not the string 'hiden'"
    )
    assert error.hint == "did you mean 'hidden'?"
    assert error.span is not None and (error.span.line, error.span.col) == (3, 22)


def test_custom_validation_message() -> None:
    _, report = check_game("game: {id: x, players: {min: 4, max: 2}}\n")
    assert [d.message for d in report.errors] == ["'game.players': min (4) is greater than max (2)"]


def test_all_errors_across_files_at_once_in_file_order() -> None:
    _, report = check_game(
        "game: {id: x, players: {min: 2, max: 4}}\ntriggers:\n  - {on: x, do: pass, wehre: y}\n",
        "zones:\n  hand: {}\ntriggers:\n  - {on: y}\n",
    )
    assert [(d.code, d.span.file if d.span else None, d.message) for d in report.errors] == [
        ("S001", "g/a.yaml", "unknown key 'wehre' in 'triggers[0]'"),
        ("S002", "g/b.yaml", "missing required key 'visibility' in 'zones.hand'"),
        ("S002", "g/b.yaml", "missing required key 'do' in 'triggers[1]'"),
    ]


def test_non_string_key() -> None:
    # Refused when the file is read: JSON (saves, views) would turn the key into text.
    _, report = check_game("game: {id: x, players: {min: 2, max: 4}}\nenums: {1: [a]}\n")
    (error,) = report.errors
    assert (error.code, error.message) == ("Y009", "a mapping key must be text, not the number 1")
    assert error.hint == "write '1': in quotes, or use a list indexed by the number"


def test_union_errors_are_merged_or_narrowed() -> None:
    _, report = check_scenario(
        """\
        scenario: t
        game: demo
        players: two
        when:
          - [a]
          - {by: Bob, chose: x}
          - {by: Bob}
        """
    )
    assert [(d.code, d.message, d.hint) for d in report.errors] == [
        ("S003", "'players' must be a list or an integer, not the string 'two'", None),
        ("S003", "'when[0]' must be a string or a mapping, not a list", None),
        ("S001", "unknown key 'chose' in 'when[1]'", "did you mean 'choose'?"),
        (
            "S003",
            "'when[2]': a step needs 'choose', 'probe', 'expect_legal', 'expect_illegal', 'check' or 'given'",
            None,
        ),
    ]


def test_scenario_missing_key_and_wrong_root() -> None:
    _, report = check_scenario("scenario: t\nplayers: 2\n")
    assert [d.message for d in report.errors] == ["missing required key 'game'"]
    _, report = check_scenario("- a list\n")
    assert [d.message for d in report.errors] == ["the scenario must be a mapping, not a list"]


# --------------------------------------------------------------------------- JSON schema


def test_json_schemas_for_editors() -> None:
    game = game_json_schema()
    assert "required" not in game  # one file holds only some sections
    assert game["properties"]["flow"]["description"]
    zone = game["$defs"]["ZoneDef"]
    words = [x.get("enum") for x in zone["properties"]["visibility"]["anyOf"]]
    assert ["public", "owner", "others", "hidden"] in words  # or none: visible_to says who sees it
    assert "visible_to" in zone["properties"] and "visible_to" in game["$defs"]["CounterDef"]["properties"]
    assert zone["additionalProperties"] is False
    scenario = scenario_json_schema()
    assert {"scenario", "game", "players"} <= set(scenario["required"])
    assert all(p.get("description") for p in scenario["properties"].values())
