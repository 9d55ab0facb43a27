"""The scenario format, third round (issue 27, item 3): a file's own `when`/`then` that every case
replaces is refused (R111), checks at the flow's moments (`at: round_end`), and placeholders that
stand for any value (`players: <names>`). Small files against the test game tests/games/relay.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tabula.interpreter.scenarios import ScenarioResult, run_scenario_cases

ROOT = Path(__file__).resolve().parents[2]
RELAY = ROOT / "tests" / "games" / "relay"
MINI = ROOT / "tests" / "games" / "mini"


def run(tmp_path: Path, body: str, head: str = "players: [Ann, Bob]\n") -> list[ScenarioResult]:
    path = tmp_path / "s.yaml"
    path.write_text(f"scenario: t\ngame: {RELAY}\n" + head + textwrap.dedent(body), encoding="utf-8")
    return run_scenario_cases(path)


def error_of(results: list[ScenarioResult]) -> str:
    (result,) = results
    assert not result.passed and result.error is not None, result
    return result.error


# ------------------------------------------------------------------ cases and the file's own example


def test_a_then_every_case_replaces_is_refused_at_the_file_key(tmp_path: Path) -> None:
    body = """\
    given: {start: play}
    then: [coins(Bob) == 4]
    cases:
      - {name: one, then: [coins(Ann) == 2]}
      - {name: two, then: [coins(Ann) == 3]}
    """
    error = error_of(run(tmp_path, body))
    assert f"{tmp_path / 's.yaml'}:5:1: error[R111]: every case replaces the file's 'then'" in error
    assert "a case of its own" in error


def test_a_when_and_expect_end_every_case_replaces_are_both_named(tmp_path: Path) -> None:
    body = """\
    when: [done]
    expect_end: false
    cases:
      - {name: one, when: [done], expect_end: false}
      - {name: two, when: [], expect_end: true}
    """
    error = error_of(run(tmp_path, body))
    assert "error[R111]: every case replaces the file's 'when'" in error
    assert "error[R111]: every case replaces the file's 'expect_end'" in error


def test_what_one_case_inherits_runs_in_it(tmp_path: Path) -> None:
    body = """\
    given: {start: play}
    then: [coins(Ann) == 9]
    cases:
      - {name: replaced, then: [coins(Ann) == 2]}
      - {name: inherited}
    """
    replaced, inherited = run(tmp_path, body)
    assert replaced.passed and not inherited.passed
    assert inherited.failures == [
        f"{tmp_path / 's.yaml'}:5:8: coins(Ann) == 9  (left side is 2, right side is 9)"
    ]


# ------------------------------------------------------------------ checks at the flow's moments

ROUND_BODY = """\
given: {start: play, zones: {hand(Ann): [R2], hand(Bob): [B3]}}
when:
  - {check: [moves == 2, round == 1, points(Ann) == 2, points(Bob) == 3], at: round_end}
  - {check: [moves == 2, round == 2], at: round_start}
  - play:R2
  - play:B3
then: [moves == 0, round == 2]
"""


def test_a_check_at_round_end_sees_the_round_before_the_next_one_resets_it(tmp_path: Path) -> None:
    (result,) = run(tmp_path, ROUND_BODY)
    assert result.passed, result.failures or result.error


def test_a_failed_check_at_round_end_says_where_it_was_checked(tmp_path: Path) -> None:
    (result,) = run(tmp_path, ROUND_BODY.replace("moves == 2, round == 1", "moves == 0, round == 1"))
    (failure,) = result.failures
    assert "(at flow:round_end) moves == 0  (left side is 2, right side is 0)" in failure


def test_a_check_at_game_end_comes_before_flow_finish(tmp_path: Path) -> None:
    body = """\
    given: {start: game_end, counters: {points(Ann): 5, coins(Ann): 2}}
    when:
      - {check: [points(Ann) == 5, not game_over], at: flow:game_end}
    then: [points(Ann) == 7]
    """
    (result,) = run(tmp_path, body)
    assert result.passed, result.failures or result.error


def test_round_moments_need_a_game_with_rounds(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        f"scenario: t\ngame: {MINI}\nplayers: 2\nwhen:\n  - {{check: 'true', at: round_end}}\n",
        encoding="utf-8",
    )
    error = error_of(run_scenario_cases(path))
    assert "error[R104]: 'round_end' is neither an event, a phase nor a moment of the flow of Mini" in error
    assert "(Mini has no rounds)" in error and "s.yaml:5:" in error


def test_an_unknown_flow_moment_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    error = error_of(run(tmp_path, "when:\n  - {check: 'true', at: 'flow:round_ends'}\n"))
    assert "error[R104]: 'flow:round_ends'" in error and "did you mean 'round_end'?" in error


# ------------------------------------------------------------------ placeholders for any value


def test_a_placeholder_stands_for_the_players_and_the_seed(tmp_path: Path) -> None:
    body = """\
    seed: <seed>
    given: {start: play}
    then: ["num_players == <n>", "coins(<first>) == 2"]
    examples:
      - {names: [Ann, Bob], n: 2, first: Ann, seed: 1}
      - {names: [Xi, Yu, Zo], n: 3, first: Xi, seed: 2}
    """
    results = run(tmp_path, body, head="players: <names>\n")
    assert [r.name for r in results] == [
        "t [names=[Ann, Bob], n=2, first=Ann, seed=1]",
        "t [names=[Xi, Yu, Zo], n=3, first=Xi, seed=2]",
    ]
    assert all(r.passed for r in results), [r.failures or r.error for r in results]


def test_a_row_whose_value_does_not_fit_is_an_error_at_the_placeholder(tmp_path: Path) -> None:
    body = """\
    then: ["num_players == 2"]
    examples:
      - {names: [Ann, Bob]}
      - {names: [Ann, [Bob]]}
    """
    results = run(tmp_path, body, head="players: <names>\n")
    error = error_of(results)
    assert f"{tmp_path / 's.yaml'}:3:10: error[S" in error and "players" in error
