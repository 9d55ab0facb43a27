"""The pytest plugin: scenario files are native items named by their titles (so -k, -m, --lf, -x, -n
and JUnit XML work), and every scenario under gamedefs/ and tests/games is collected."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tabula.interpreter.scenarios import find_scenarios, load_cases

ROOT = Path(__file__).resolve().parents[2]
RELAY = ROOT / "tests" / "games" / "relay"


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def scenario(title: str, then: str, extra: str = "") -> str:
    return (
        textwrap.dedent(f"""\
        scenario: {title}
        game: {RELAY}
        players: [Ann, Bob]
        given: {{start: play, zones: {{hand(Ann): [B3]}}}}
        when: ["play:B3"]
        then: ["{then}"]
        """)
        + extra
    )


def write_suite(tmp_path: Path) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "good.yaml").write_text(
        scenario("Playing B3 scores three", "points(Ann) == 3", "tags: [fast]\n")
    )
    (folder / "bad.yaml").write_text(scenario("Playing B3 scores four", "points(Ann) == 4"))
    outline = scenario("Outline <n>", "points(Ann) + <n> == 3 + <n>", "examples: [{n: 1}, {n: 2}]\n")
    (folder / "outline.yaml").write_text(outline)
    (folder / "broken.yaml").write_text("scenario: Broken\ngame: [\n")
    (tmp_path / "notes.yaml").write_text("just: data\n")  # not a scenario: not collected
    return folder


@pytest.mark.slow  # a pytest of its own in a new process
def test_items_are_named_by_title_and_carry_markers(tmp_path: Path) -> None:
    write_suite(tmp_path)
    run = pytest_in(tmp_path, "--collect-only", "-q", "-p", "no:cacheprovider")
    assert run.returncode == 0, run.stdout + run.stderr
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    assert ids == [
        "scenarios/bad.yaml::Playing B3 scores four",
        "scenarios/broken.yaml::broken",  # unreadable: named by its file
        "scenarios/good.yaml::Playing B3 scores three",
        "scenarios/outline.yaml::Outline 1",
        "scenarios/outline.yaml::Outline 2",
    ]
    run = pytest_in(tmp_path, "--collect-only", "-q", "-m", "fast and scenario", "-p", "no:cacheprovider")
    assert [line for line in run.stdout.splitlines() if "::" in line] == [
        "scenarios/good.yaml::Playing B3 scores three"
    ]


@pytest.mark.slow  # a pytest of its own in a new process
def test_failures_show_the_condition_and_junit_xml_names_each_case(tmp_path: Path) -> None:
    write_suite(tmp_path)
    run = pytest_in(tmp_path, "-p", "no:cacheprovider", "--junitxml", str(tmp_path / "out.xml"))
    assert run.returncode == 1
    assert "points(Ann) == 4  (left side is 3, right side is 4)" in run.stdout
    assert "scenario failed: broken" in run.stdout and "error[Y001]" in run.stdout
    assert "2 failed, 3 passed" in run.stdout
    cases = ET.parse(tmp_path / "out.xml").getroot().iter("testcase")
    outcome = {c.get("name"): c.find("failure") is None for c in cases}
    assert outcome == {
        "Playing B3 scores four": False,
        "broken": False,
        "Playing B3 scores three": True,
        "Outline 1": True,
        "Outline 2": True,
    }


@pytest.mark.slow  # five runs of pytest in new processes, one with xdist
def test_k_x_lf_and_xdist(tmp_path: Path) -> None:
    write_suite(tmp_path)
    run = pytest_in(tmp_path, "-k", "three or Outline", "-p", "no:cacheprovider")
    assert run.returncode == 0 and "3 passed, 2 deselected" in run.stdout, run.stdout
    run = pytest_in(tmp_path, "-x", "-p", "no:cacheprovider")
    assert "1 failed" in run.stdout and "passed" not in run.stdout.splitlines()[-1]
    pytest_in(tmp_path)  # records the failures in the cache
    run = pytest_in(tmp_path, "--lf")
    assert "2 failed" in run.stdout and "passed" not in run.stdout.splitlines()[-1], run.stdout
    run = pytest_in(tmp_path, "-n", "2", "-p", "no:cacheprovider")
    assert "2 failed, 3 passed" in run.stdout, run.stdout


@pytest.mark.slow  # a pytest collecting every scenario file
def test_every_bundled_and_test_scenario_is_collected() -> None:
    paths = find_scenarios([str(ROOT / "gamedefs"), str(ROOT / "tests" / "games")])
    expected = sum(len(load_cases(p).cases) or 1 for p in paths)
    # the two folders that hold scenario files (collecting the whole suite imported every test module)
    args = ("--collect-only", "-m", "scenario", "-p", "no:cacheprovider", "gamedefs", "tests/games")
    run = pytest_in(ROOT, *args)  # -q: addopts
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    assert len(ids) == expected > 300, run.stdout[-2000:]
    assert any(i.startswith("gamedefs/glory-to-rome/scenarios/") for i in ids)
    assert any(i.startswith("tests/games/relay/scenarios/") for i in ids)
