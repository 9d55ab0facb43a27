"""A scenario's values are checked where they enter: packs stay inside the scenario's and the game's
folders, the active player is a player, zones are zones, `given` values are plain one-line values,
seeds fit 64 bits; a pack with a blank description is listed. Every problem is located, none crashes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.load.overlay import list_packs
from tabula.interpreter.scenarios import run_scenario_file

MINI = Path(__file__).resolve().parents[1] / "games" / "mini"

BASE = """\
scenario: probe
game: ./mini
players: [Ann, Bob]
seed: 1
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(MINI, tmp_path / "mini", ignore=shutil.ignore_patterns("scenarios"))
    (tmp_path / "secret.yaml").write_text("pack: secret\nkind: variant\n")
    return tmp_path


def run(folder: Path, extra: str, base: str = BASE) -> tuple[bool, str]:
    keys = {line.split(":")[0] for line in extra.splitlines() if line and not line.startswith(" ")}
    text = "".join(line + "\n" for line in base.splitlines() if line.split(":")[0] not in keys) + extra
    (folder / "s.yaml").write_text(text, encoding="utf-8")
    result = run_scenario_file(folder / "s.yaml")
    return result.passed, result.error or "\n".join(result.failures)


def first_line(error: str) -> str:
    return error.splitlines()[0]


@pytest.mark.parametrize(
    "ref",
    ["../../../../../../../../etc/passwd", "/etc/passwd", "../secret.yaml", "mini/../../secret.yaml"],
)
def test_a_pack_path_outside_both_folders_is_refused_without_reading_it(folder: Path, ref: str) -> None:
    game_side = folder / "sub"
    game_side.mkdir()
    shutil.move(folder / "mini", game_side / "mini")
    (game_side / "s.yaml").write_text(BASE + f"variant: {ref}\n")
    result = run_scenario_file(game_side / "s.yaml")
    assert not result.passed and result.error is not None
    outside = f"'{ref}' is outside the scenario's folder and the game's folder"
    assert first_line(result.error) == f"{game_side / 's.yaml'}:5:10: error[S006]: {outside}"
    assert "root:" not in result.error and "secret" not in result.error.replace(ref, "")


def test_expansion_paths_are_confined_too(folder: Path) -> None:
    passed, error = run(folder, "with: [ok, ../../../../../etc/hostname]\n")
    assert not passed
    assert "error[S006]: '../../../../../etc/hostname' is outside" in first_line(error)
    assert ":5:12:" in first_line(error)


def test_a_pack_file_beside_the_scenario_or_inside_the_game_is_used(folder: Path) -> None:
    (folder / "mini" / "variants").mkdir()
    (folder / "mini" / "variants" / "v.yaml").write_text("pack: v\nkind: variant\noptions: {target: 2}\n")
    (folder / "here.yaml").write_text("pack: here\nkind: variant\noptions: {target: 3}\n")
    then = "given: {start: main}\nthen: ['pile == N']\n"
    assert run(folder, "variant: here.yaml\n" + then.replace("N", "3")) == (True, "")
    assert run(folder, "variant: variants/v.yaml\n" + then.replace("N", "2")) == (True, "")
    assert run(folder, "variant: v\n" + then.replace("N", "2")) == (True, "")


def test_a_missing_pack_file_inside_the_folders_is_named(folder: Path) -> None:
    passed, error = run(folder, "variant: nope.yaml\n")
    assert not passed
    assert "no pack file 'nope.yaml' in the scenario's folder or the game's folder" in first_line(error)


def test_an_active_player_who_is_not_playing_is_a_located_error(folder: Path) -> None:
    passed, error = run(folder, "given: {start: main, active: Nobody}\n")
    assert not passed
    assert first_line(error).endswith(":5:30: error[R107]: 'Nobody' is not a player of this scenario")
    assert "players: Ann, Bob" in error


@pytest.mark.parametrize("zone", ["'1'", "pile", "'[1, 2]'", "none", "'-1'", "'99999'"])
def test_a_zone_key_that_is_not_a_zone_is_a_located_error(folder: Path, zone: str) -> None:
    passed, error = run(folder, f"given: {{start: main, zones: {{{zone}: [A]}}}}\n")
    assert not passed
    assert "error[R108]" in first_line(error) and "is not a zone" in first_line(error)


@pytest.mark.parametrize("player", ["99", "-1", "2"])
def test_a_zone_of_a_seat_not_in_the_game_is_a_located_error(folder: Path, player: str) -> None:
    passed, error = run(folder, f"given: {{start: main, zones: {{'hand({player})': [A]}}}}\n")
    assert not passed
    assert first_line(error).endswith("error[R108]: this is not a zone of a player in the game (hand)")


def test_a_zone_of_a_player_is_written(folder: Path) -> None:
    assert run(
        folder, "given: {start: main, zones: {'hand(Bob)': [A]}}\nthen: ['count(hand(Bob)) == 1']\n"
    ) == (
        True,
        "",
    )


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ('vars: {last: "1\\nend_game"}', "a value in 'given' is one line"),
        ("vars: {last: {a: 1}}", "a value in 'given' is a number, text, true/false, none or a list"),
        ('counters: {"pile = 1\\nend_game\\nset pile": 1}', "a reference in 'given' is one line"),
        ('marks: {A: {"seen = true\\nend_game\\nset _c.seen": true}}', "is not a mark name"),
    ],
)
def test_given_values_cannot_smuggle_statements(folder: Path, given: str, message: str) -> None:
    passed, error = run(folder, f"given: {{start: main, {given}}}\n")
    assert not passed and "error[S006]" in first_line(error) and message in first_line(error)


@pytest.mark.parametrize(
    ("seed", "message"), [("-1", "at least 0"), (str(2**64), "less than 18446744073709551616")]
)
def test_a_seed_outside_64_bits_is_a_located_error(folder: Path, seed: str, message: str) -> None:
    passed, error = run(folder, f"seed: {seed}\n")
    assert not passed
    assert ":4:7: error[S003]: 'seed' must be " + message in first_line(error)


def test_a_seed_with_thousands_of_digits_is_one_located_error(folder: Path) -> None:
    passed, error = run(folder, "seed: " + "9" * 5000 + "\n")
    assert not passed
    assert ":4:7: error[Y010]: this number has more than 20 digits" in first_line(error)
    assert error.rstrip().endswith("1 error, 0 warnings")


def test_counters_with_thousands_of_digits_are_a_located_error(folder: Path) -> None:
    passed, error = run(folder, "given: {start: main, counters: {pile: " + "9" * 5000 + "}}\n")
    assert not passed
    assert "error[Y010]: this number has more than 20 digits" in first_line(error)


def test_a_pack_with_a_blank_description_is_listed(tmp_path: Path) -> None:
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "blank.yaml").write_text("pack: blank\nkind: variant\ndescription: '   '\n")
    (tmp_path / "variants" / "lines.yaml").write_text("pack: lines\ndescription: |\n\n  second\n")
    names = [(name, description) for name, _, description, _ in list_packs(tmp_path)]
    assert names == [("blank", ""), ("lines", "second")]
