"""The scenario runner: the format's second edition, its error messages, finding files and games.

The scenario files themselves are collected by the pytest plugin (tabula.pytest_plugin); these tests
write small scenario files against the test game tests/games/relay and check what the runner says.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tabula.interpreter.scenarios import (
    ScenarioResult,
    find_scenarios,
    load_cases,
    run_scenario_cases,
    run_scenario_file,
)

ROOT = Path(__file__).resolve().parents[2]
RELAY = ROOT / "tests" / "games" / "relay"
MINI = ROOT / "tests" / "games" / "mini"

HEAD = f"""\
game: {RELAY}
players: [Ann, Bob]
"""


def run(tmp_path: Path, body: str, head: str = HEAD, name: str = "s.yaml") -> list[ScenarioResult]:
    path = tmp_path / name
    path.write_text("scenario: t\n" + head + textwrap.dedent(body), encoding="utf-8")
    return run_scenario_cases(path)


def error_of(results: list[ScenarioResult]) -> str:
    (result,) = results
    assert not result.passed and result.error is not None, result
    return result.error


def passed(results: list[ScenarioResult]) -> bool:
    return all(r.passed for r in results) and bool(results)


# ------------------------------------------------------------------ 1. start anywhere


def test_start_names_a_phase_or_turn_or_game_end(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "given: {start: clean_up}\n"))
    assert "error[R104]: 'clean_up' is not a phase of Relay" in error and "did you mean 'cleanup'?" in error
    assert "s.yaml:4:16:" in error  # at the value of given.start


def test_round_needs_a_game_with_rounds(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "given: {round: 2}\n", f"game: {MINI}\nplayers: 2\n"))
    assert "error[R105]: Mini has no rounds" in error and "set 'turn' instead" in error


def test_round_turn_and_active_are_written_where_the_flow_reads_them(tmp_path: Path) -> None:
    body = """\
    given: {round: 2, turn: 5, active: Bob, start: play, zones: {hand(Bob): [B3]}}
    then: [round == 2, turn == 5, "legal == ['play:B3', 'buy_any', 'done']"]
    """
    assert passed(run(tmp_path, body))
    error = error_of(run(tmp_path, "given: {active: Nobody}\n"))
    assert "error[R107]: 'Nobody' is not a player of this scenario" in error and "players: Ann, Bob" in error


def test_game_end_runs_finish_and_scoring_on_the_given_state(tmp_path: Path) -> None:
    body = """\
    given: {start: game_end, counters: {points(Ann): 1, coins(Ann): 2, coins(Bob): 2}}
    expect_end: [Ann]
    then: ["scores == [3, 2]", "legal == []"]
    """
    assert passed(run(tmp_path, body))
    assert not passed(run(tmp_path, body.replace("[Ann]", "[Bob]")))


# ------------------------------------------------------------------ 2. given between choices


def test_a_given_step_is_written_and_the_question_asked_again(tmp_path: Path) -> None:
    body = """\
    given: {start: play, zones: {hand(Ann): [R1]}}
    when:
      - given: {zones: {hand(Ann): [B3]}, counters: {coins(Ann): 0}}
      - {expect_legal: "play:B3", expect_illegal: ["play:R1", buy_any]}
      - play:B3
    then: [points(Ann) == 3]
    """
    assert passed(run(tmp_path, body))


def test_a_given_step_may_not_set_the_start(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "when:\n  - given: {start: play}\n"))
    assert "unknown key 'start' in 'when[0].given'" in error


def test_a_given_step_stands_alone(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "when:\n  - {given: {vars: {moves: 1}}, choose: done}\n"))
    assert "a 'given' step stands alone" in error


# ------------------------------------------------------------------ 3. fixed random results


def test_next_shuffle_names_must_exist_and_be_in_the_zone_when_it_is_shuffled(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "given: {next_shuffle: {deck: [G4]}}\n"))
    assert "s.yaml:4:31: error[R101]: no component named 'G4'" in error
    body = """\
    given:
      start: draw
      zones: {deck: [], discard: [R1], hand(Bob): [G3]}
      next_shuffle: {deck: [G3]}
    """
    error = error_of(run(tmp_path, body))
    assert "next shuffle starts with G3" in error and "game.yaml" in error  # at the shuffle statement


# ------------------------------------------------------------------ 4. checks at an event or a phase


def test_a_check_whose_moment_never_comes_fails_and_says_what_happened(tmp_path: Path) -> None:
    body = """\
    given: {start: play}
    when:
      - {check: "count(discard) == 0", at: card_playd}
      - done
    """
    (result,) = run(tmp_path, body)
    assert not result.passed and result.error is None
    (failure,) = result.failures
    assert "the check at 'card_playd' never happened" in failure
    assert "phase:cleanup, turn_over, phase:draw" in failure


def test_a_check_at_an_unknown_phase_is_an_error(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "when:\n  - {check: 'true', at: 'phase:clean'}\n"))
    assert (
        "error[R104]: 'phase:clean' is neither an event, a phase nor a moment of the flow of Relay" in error
    )
    assert "did you mean 'cleanup'?" in error


def test_an_author_error_inside_a_check_at_an_event_is_reported_not_raised(tmp_path: Path) -> None:
    body = """\
    given: {start: play, zones: {hand(Ann): [R1]}}
    when:
      - {check: "nope(c) == 1", at: card_played}
      - play:R1
    """
    error = error_of(run(tmp_path, body))
    assert "unknown function 'nope'" in error


def test_at_requires_check_and_where_requires_at(tmp_path: Path) -> None:
    assert "'at' goes with 'check' alone" in error_of(run(tmp_path, "when:\n  - {choose: done, at: x}\n"))
    assert "'where' goes with 'at'" in error_of(run(tmp_path, "when:\n  - {check: 'true', where: 'true'}\n"))


# ------------------------------------------------------------------ 5. probes


def test_expect_legal_failure_lists_what_is_legal(tmp_path: Path) -> None:
    (result,) = run(
        tmp_path, "given: {start: play, zones: {hand(Ann): [R1]}}\nwhen:\n  - {expect_legal: play:B3}\n"
    )
    assert result.failures == [
        f"{tmp_path / 's.yaml'}:6:5: step 1: 'play:B3' should be legal, but it is not "
        "(legal now: play:R1, buy_any, done)"
    ]


def test_a_probe_is_rolled_back_and_its_checks_count(tmp_path: Path) -> None:
    body = """\
    given: {start: play, zones: {hand(Ann): [R1]}}
    when:
      - {probe: [play:R1], check: points(Ann) == 1}
      - {check: [points(Ann) == 0, "legal[0] == 'play:R1'"]}
    """
    assert passed(run(tmp_path, body))
    (result,) = run(tmp_path, body.replace("points(Ann) == 1}", "points(Ann) == 2}"))
    assert (
        len(result.failures) == 1
        and "points(Ann) == 2  (left side is 1, right side is 2)" in result.failures[0]
    )


# ------------------------------------------------------------------ 6. outlines


def test_examples_rows_are_cases_with_typed_whole_values(tmp_path: Path) -> None:
    body = """\
    given: {start: play, counters: {coins(Ann): <coins>}}
    then: ["coins(Ann) == <coins>"]
    examples:
      - {coins: 0}
      - {coins: 5}
    """
    results = run(tmp_path, body)
    assert [r.name for r in results] == ["t [coins=0]", "t [coins=5]"] and passed(results)


def test_an_examples_column_no_placeholder_uses_is_an_error(tmp_path: Path) -> None:
    body = """\
    then: ["coins(Ann) == <coins>"]
    examples:
      - {coins: 0, coin: 1}
      - {coins: 2}
    """
    error = error_of(run(tmp_path, body))
    assert "error[R106]: examples[0] gives 'coin', but no <coin> in the file uses it" in error
    assert "error[R106]: examples[1] has not the same columns as examples[0] (coin)" in error


def test_cases_merge_given_key_by_key_and_replace_the_rest(tmp_path: Path) -> None:
    body = """\
    given: {start: play, counters: {coins(Ann): 1, coins(Bob): 4}}
    then: [coins(Ann) == 2]
    cases:
      - name: one
        given: {counters: {coins(Ann): 3}}
        then: [coins(Ann) == 3, coins(Bob) == 4]
      - name: two
    """
    one, two = run(tmp_path, body)
    assert (one.name, one.passed) == ("t (one)", True)
    assert two.name == "t (two)" and two.failures == [  # the file's `then`, which case two inherits
        f"{tmp_path / 's.yaml'}:5:8: coins(Ann) == 2  (left side is 1, right side is 2)"
    ]
    combined = run_scenario_file(tmp_path / "s.yaml")
    assert not combined.passed and combined.failures[0].startswith("t (two): ")


def test_an_error_in_a_case_points_into_the_case(tmp_path: Path) -> None:
    body = """\
    cases:
      - name: one
        given: {zones: {hand(Ann): [Q9]}}
    """
    error = error_of(run(tmp_path, body))
    assert f"{tmp_path / 's.yaml'}:6:33: error[R101]: no component named 'Q9'" in error


# ------------------------------------------------------------------ 7. copies


def test_one_copy_named_twice_is_an_error_at_the_second(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "given: {zones: {hand(Ann): ['R1#1'], discard: ['R1#1']}}\n"))
    assert "error[R102]: 'R1#1' is placed twice by this given (first at line 4)" in error


def test_more_copies_named_than_exist_is_an_error(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "given: {zones: {hand(Ann): [G2, G2], discard: [G2]}}\n"))
    assert "error[R103]: every copy of 'G2' is already placed by this given" in error
    assert "the copies: G2#1, G2#2" in error


def test_marks_on_a_name_placed_twice_must_name_the_copy(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "given:\n  zones: {discard: [G2, G2]}\n  marks: {G2: {played_by: Ann}}\n"))
    assert "error[R109]: this given places 2 copies of 'G2'" in error and "G2#1, G2#2" in error


def test_every_problem_of_a_given_at_once(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "given: {active: Zed, zones: {hand(Ann): [Q1], discard: [Q2]}}\n"))
    assert error.count("error[") == 3 and error.rstrip().endswith("3 errors, 0 warnings")


# ------------------------------------------------------------------ 8. finding games and files


def test_a_folder_of_the_current_directory_never_shadows_a_bundled_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "high-card").mkdir()
    (tmp_path / "high-card" / "game.yaml").write_text("not: a game\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    results = run(tmp_path, "then: [count(deck) == 14]\n", "game: high-card\nplayers: 2\n")
    assert passed(results), results


def test_a_bare_name_that_is_no_bundled_game_says_how_to_write_a_path(tmp_path: Path) -> None:
    (tmp_path / "mygame").mkdir()
    error = error_of(run(tmp_path, "", "game: mygame\nplayers: 2\n"))
    assert "error[G001]: no bundled game named 'mygame'" in error and "game: ./mygame" in error
    error = error_of(run(tmp_path, "", "game: ./nothing\nplayers: 2\n"))
    assert "error[G001]: no game folder at './nothing'" in error


def test_relative_paths_find_scenarios_from_inside_a_scenarios_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(RELAY / "scenarios")
    found = find_scenarios(["."])
    assert len(found) == len(list((RELAY / "scenarios").glob("*.yaml"))) > 5
    monkeypatch.chdir(RELAY)
    assert find_scenarios(["."]) == [Path("scenarios") / p.name for p in found]


def test_folder_names_above_the_search_root_do_not_count(tmp_path: Path) -> None:
    root = tmp_path / "scenarios" / "work"  # a checkout that happens to be called 'scenarios'
    (root / "game" / "scenarios").mkdir(parents=True)
    (root / "game" / "game.yaml").write_text("game: {}\n", encoding="utf-8")
    (root / "game" / "scenarios" / "a.yaml").write_text("x: 1\n", encoding="utf-8")
    (root / "b.yaml").write_text("scenario: b\n", encoding="utf-8")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "c.yaml").write_text("scenario: c\n", encoding="utf-8")
    assert find_scenarios([str(root)]) == [root / "b.yaml", root / "game" / "scenarios" / "a.yaml"]


def test_a_broken_file_is_one_failed_case() -> None:
    loaded = load_cases(RELAY / "game.yaml")
    assert loaded.error is not None and "missing required key 'scenario'" in loaded.error
