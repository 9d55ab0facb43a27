"""The hostile corpus (tests/hostile/, listed in CASES.txt): every case ends by itself within 5 s of
CPU and 1 GiB of memory, with its expected diagnostic code and never a traceback (see harness.py).
The runtime cases (work budget R002, sizes of values R003, `declare_winner` and `choose ... by`
checked at check time) run on the generated code of the compiler (interpreter/run/budget.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from harness import HERE, MEMORY, REPO, RUN_DIR, Case, exit_codes, problems, read_cases, run_case, warm_up

CASES = read_cases()


def params() -> list[object]:
    out: list[object] = []
    for case in CASES:
        out.append(pytest.param(case, id=case.id))
    return out


def test_the_corpus_has_at_least_50_cases_of_each_kind_listed_once() -> None:
    assert len(CASES) >= 50
    assert len({case.id for case in CASES}) == len(CASES)
    kinds = {case.path.split("/")[0] for case in CASES}
    assert {"games", "scenarios", "saves", "requests"} <= kinds


def test_every_file_of_the_corpus_is_a_listed_case() -> None:
    listed = {case.path for case in CASES}
    on_disk = {f"games/{p.name}" for p in (HERE / "games").iterdir()}
    on_disk |= {f"scenarios/{p.name}" for p in (HERE / "scenarios").glob("*.yaml")}
    on_disk |= {f"saves/{p.name}" for p in (HERE / "saves").glob("*.json")}
    on_disk |= {f"requests/{p.name}" for p in (HERE / "requests").glob("*.json")}
    assert sorted(on_disk - listed) == [], "files of the corpus that CASES.txt does not list"
    assert sorted(p for p in listed - on_disk if "/" in p) == [], "cases whose file is missing"


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm_up()


@pytest.mark.slow  # 135 forked runs, one per case of the corpus
@pytest.mark.parametrize("case", params())
def test_case(case: Case) -> None:
    outcome = run_case(case)
    found = problems(case, outcome)
    output = (outcome.stdout + outcome.stderr).strip()
    assert not found, f"{case.id} ({' '.join(case.argv())}): {'; '.join(found)}\n{output[-3000:]}"


COMMANDS = [
    ("check", "{path}"),
    ("simulate", "{path} --games 1 --jobs 1"),  # a failed game is played again: 2 runs of a budget
    ("coverage", "{path} --games 1"),
    ("variants", "{path}"),
    ("play", "{path} --seed 1"),
    ("trace", "record {path} --players 2 --games 1 --out /tmp/tabula-hostile-{n}.jsonl.gz"),
]


def every_command() -> list[object]:
    out: list[object] = []
    games = [case for case in CASES if case.path.startswith("games/")]
    for command, args in COMMANDS:
        for n, case in enumerate(games):
            argv = [command, *args.replace("{n}", str(n)).split()]
            out.append(pytest.param(Case(case.path, "cli", "any", tuple(argv)), id=f"{command}-{case.path}"))
    return out


@pytest.mark.slow  # six commands on every game of the corpus: 390 forked runs
@pytest.mark.parametrize("case", every_command())
def test_no_command_prints_a_traceback_for_any_game_of_the_corpus(case: Case) -> None:
    outcome = run_case(case)
    found = problems(case, outcome)
    output = (outcome.stdout + outcome.stderr).strip()
    assert not found, f"{' '.join(case.argv())}: {'; '.join(found)}\n{output[-3000:]}"


def sample() -> list[Case]:
    """Two cases of each command (and each save code is covered by the forked runs above)."""
    picked: dict[str, list[Case]] = {}
    for case in CASES:
        if case.command not in ("load-save", "serve"):
            picked.setdefault(case.command, []).append(case)
    return [case for cases in picked.values() for case in cases[:2]]


@pytest.mark.slow  # a new Python process per case
@pytest.mark.parametrize("case", sample(), ids=[case.id for case in sample()])
def test_the_real_command_line_under_prlimit(case: Case) -> None:
    # The forked runs call the CLI's main; this runs the installed command itself, as a user does.
    command = ["prlimit", f"--as={MEMORY}", sys.executable, "-m", "tabula", *case.argv()]
    done = subprocess.run(command, capture_output=True, text=True, cwd=RUN_DIR, timeout=300, check=False)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.returncode in exit_codes(case.expect), done.stdout + done.stderr
    assert case.expect in ("ok", "usage") or f"[{case.expect}]" in done.stdout + done.stderr


def test_the_save_files_are_current() -> None:
    # The saves are data made by make_saves.py from a real save; when the engine's state format
    # moves they must be made again (python tests/hostile/make_saves.py) and CASES.txt looked at.
    from make_saves import SAVES, TAMPERINGS, base_save, make

    doc, _ = base_save()
    for name in TAMPERINGS:
        assert (SAVES / f"{name}.json").read_text() == make(name, doc), f"saves/{name}.json is stale"


def tutorial_game_before(heading: str, folder: Path) -> Path:
    """The tutorial's game folder as the page has written it before `heading`: each block marked
    `<!-- file: PATH -->` written to PATH under `folder`, a later block replacing an earlier one."""
    page = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8").split(heading)[0]
    for path, text in re.findall(r"^<!-- file: (\S+) -->\n```\w*\n(.*?)^```", page, re.M | re.S):
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder / "my-high-card"


@pytest.mark.slow  # a forked run of a whole game up to its budget
def test_the_tutorial_s_endless_loop_reaches_r002_within_the_corpus_limits(tmp_path: Path) -> None:
    # docs/tutorial.md section 5: turns that never ask anything end with R002 (5 s of CPU, 1 GiB)
    game = tutorial_game_before("## 6. Tricks as rounds", tmp_path)
    assert sorted(p.name for p in game.iterdir()) == [
        "cards.yaml",
        "flow.yaml",
        "game.yaml",
        "rules.yaml",
        "table.yaml",
    ]
    case = Case(str(game), "simulate", "R002")
    outcome = run_case(case)
    assert not problems(case, outcome), outcome.stdout + outcome.stderr
    assert "flow.yaml:11:9: error[R002]" in outcome.stdout + outcome.stderr
