"""Engine behaviour on the small test game: logs that hide, labels, and author errors caught by check."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.view import visible_log
from tabula.interpreter.scenarios import run_scenario_file

MINI = Path(__file__).resolve().parents[1] / "games" / "mini"


def variant(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    text = (folder / "game.yaml").read_text()
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new))
    return folder


def codes(folder: Path) -> list[str]:
    with pytest.raises(AuthorError) as err:
        load_game(folder)
    return [d.code for d in err.value.report.diagnostics if d.severity == "error"]


def test_a_hidden_choice_is_masked_in_other_players_logs_until_it_is_shown(tmp_path: Path) -> None:
    # a card played from the hand face up to the table: Bob sees it once the choice is done
    engine = Engine(load_game(MINI))
    log: list[dict[str, object]] = []
    st = engine.new_game(["Ann", "Bob"], seed=1, log=log)
    card = next(i for i in engine.legal_ids(st) if i.startswith("play_card:"))
    engine.apply_inplace(st, card, log)
    assert f"Ann: {card}" in visible_log(log, 0)
    assert f"Ann: {card}" in visible_log(log, 1)
    # a card put away unseen (back into the hidden deck): Bob reads the masked line only
    hidden = variant(tmp_path, "      move c to table\n", "      move c to deck\n")
    engine = Engine(load_game(hidden))
    log = []
    st = engine.new_game(["Ann", "Bob"], seed=1, log=log)
    card = next(i for i in engine.legal_ids(st) if i.startswith("play_card:"))
    engine.apply_inplace(st, card, log)
    assert f"Ann: {card}" in visible_log(log, 0)
    assert f"Ann: {card}" not in visible_log(log, 1)
    assert "Ann: play_card:?" in visible_log(log, 1)


def test_labels_read_in_the_games_words(tmp_path: Path) -> None:
    folder = variant(tmp_path, "  stop:\n", "  stop:\n    label: 'stop with {pile} stones left'\n")
    engine = Engine(load_game(folder))
    st = engine.new_game(2, seed=1)
    assert ("stop", "stop with 10 stones left") in engine.labels(st)


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("  last: {initial: none}", "  round: {initial: none}", "C004"),
        ("      set last = me", "      set round = 3", "E110"),
        ("    when: n <= pile", "    when: count(x for x in takes where x > n default 1) >= 0", "E116"),
        (
            "    phases:\n      - id: main\n        do: |\n          window p: take, play_card, stop\n",
            "    phases: []\n",
            "F002",
        ),
        # declared names become identifiers in generated code: anything else is refused
        ("  pile: {initial: 0}", '  "x): pass\\nimport os #": {initial: 0}', "C005"),
        ("    params: {n: takes}", "    params: {'n=__import__(\"os\")': takes}", "C005"),
    ],
    ids=[
        "reserved-name",
        "set-engine-name",
        "default-outside-max",
        "no-phases",
        "code-in-a-name",
        "code-in-a-parameter",
    ],
)
def test_author_errors(tmp_path: Path, old: str, new: str, code: str) -> None:
    assert code in codes(variant(tmp_path, old, new))


def test_scenario_checks_and_expected_winners(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        f"scenario: checks\ngame: {MINI}\nplayers: [Ann, Bob]\n"
        "given: {start: main, counters: {pile: 3}}\n"
        "when:\n  - {check: [pile == 3, num_players == 2]}\n  - take:3\nexpect_end: [Bob]\n"
    )
    result = run_scenario_file(scenario)
    assert not result.passed
    assert result.failures == ["winners should be ['Bob'], not ['Ann']"]


def test_unused_definitions_and_unheard_triggers_are_warnings(tmp_path: Path) -> None:
    folder = variant(
        tmp_path,
        "flow:\n",
        "procedures:\n  forgotten: {do: pass}\ntriggers:\n  - {id: ear, on: bell, do: pass}\nflow:\n",
    )
    game = load_game(folder)
    found = sorted((d.code, d.message) for d in game.check_warnings)
    assert ("W001", "procedure 'forgotten' is never used") in found
    assert ("W002", "trigger 'ear' waits for 'bell', which nothing emits") in found


def test_a_counter_only_the_presentation_shows_is_used(tmp_path: Path) -> None:
    folder = variant(
        tmp_path,
        "  score: {per: player}\n",
        "  score: {per: player}\n  shown: {per: player}\n  hidden_away: {}\n",
    )
    with (folder / "game.yaml").open("a") as f:
        f.write("\npresentation:\n  player:\n    - {title: Shown, show: [shown]}\n")
    found = [d.message for d in load_game(folder).check_warnings if d.code == "W001"]
    assert found == ["counter 'hidden_away' is never used"]


def test_a_counter_only_take_moves_units_of_is_used(tmp_path: Path) -> None:
    folder = variant(
        tmp_path, "  pile: {initial: 0}\n", "  pile: {initial: 0}\n  bank: {initial: 9}\n  spare: {}\n"
    )
    text = (
        (folder / "game.yaml")
        .read_text()
        .replace("      pay n pile\n", "      pay n pile\n      take 1 from bank to score(me)\n")
    )
    (folder / "game.yaml").write_text(text)
    found = [d.message for d in load_game(folder).check_warnings if d.code == "W001"]
    assert found == ["counter 'spare' is never used"]  # `bank`, read only by `take`, is used


def test_two_actions_enumerating_the_same_values_share_one_enumeration(tmp_path: Path) -> None:
    from tabula.cli.main import main

    # `take_more` says what `take` says, in other spacing, at another place: its generated text
    # differs (fresh names), what it says does not
    test = "n <= pile and count(x for x in (takes if n > 0 else []) where x == n) > 0"
    folder = variant(tmp_path, "    when: n <= pile\n", f"    when: {test}\n")
    text = (folder / "game.yaml").read_text()
    text = text.replace("take, play_card, stop", "take, play_card, take_more, stop")
    more = f"  take_more:\n    params: {{n: takes}}\n    when: {test.replace(' ', '  ')}\n    do: pass\n"
    (folder / "game.yaml").write_text(text.replace("  stop:\n", more + "  stop:\n"))
    assert main(["compile", str(folder), "--dump", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "mini.py").read_text(encoding="utf-8")
    window = text[text.index("def window_") :].split("\ndef ")[0]
    assert "_lg0 = legal" in window and window.count("legal = _lg0") == 2
    engine = Engine(load_game(folder))
    st = engine.new_game(2, 1)
    ids = st["dec"]["ids"]
    takes = [i.split(":")[1] for i in ids if i.startswith("take:")]
    assert takes and takes == [i.split(":")[1] for i in ids if i.startswith("take_more:")]
