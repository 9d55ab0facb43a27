"""Every command the documentation shows is run, and prints what the page shows (tests/docs/docrun.py has
the convention: `console` blocks, `$ ` commands, `...`, one folder per page, `<!-- file: -->`)."""

from __future__ import annotations

from pathlib import Path

import docrun
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_INFOS = {"", "sh", "bash", "shell", "text", "console"}
SETUP = """# Tabula

```sh
pip install -e . && tabula verify porta-nigra
pip install -e '.[test]' && pytest
```
"""


@pytest.mark.slow  # every command is a process of its own, some play whole games: seconds to a minute a page
@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_the_pages_commands_print_what_it_shows(page: Path) -> None:
    missing = docrun.missing_requirements(page.read_text(encoding="utf-8"))
    if missing:  # an optional extra (CI installs them all: .ci/run)
        pytest.skip(f"{page.name} needs {', '.join(missing)} (pip install -e '.[rl]')")
    outcomes = docrun.run_page(page)
    assert docrun.report(page.relative_to(ROOT), outcomes) == ""


def test_the_documentation_shows_commands() -> None:
    counts = {p.name: sum(isinstance(s, docrun.Command) for s in docrun.steps(p.read_text())) for p in PAGES}
    assert counts["tutorial.md"] >= 20 and counts["README.md"] >= 2
    assert all(counts[name] >= 2 for name in ("cli.md", "variants.md", "editors.md"))


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_command_is_in_a_console_block(page: Path) -> None:
    """A command shown in another kind of block would never run; only the README's set-up is exempt."""
    for block in docrun.blocks(page.read_text()):
        if block.info == "console" or block.info not in SHELL_INFOS:
            continue
        if page.name == "README.md" and block.line == 3:
            continue
        lines = [line for line in block.text.splitlines() if line.startswith(("$ ", "tabula ", "python "))]
        assert lines == [], f"{page.name}:{block.line}: commands outside a console block: {lines}"


def test_the_readme_starts_with_the_two_set_up_commands() -> None:
    assert (ROOT / "README.md").read_text().startswith(SETUP)


# ------------------------------------------------------------------ the runner itself


def write_page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.md"
    page.write_text(text)
    return page


def test_blocks_of_a_page_share_one_folder_in_order(tmp_path: Path) -> None:
    page = write_page(
        tmp_path,
        "<!-- file: game/a.txt -->\n```text\nfirst\n```\n\n"
        "```console\n$ cat game/a.txt\nfirst\n$ echo second > b.txt\n```\n\n"
        "```console\n$ cat b.txt game/a.txt\nsecond\nfirst\n```\n",
    )
    outcomes = docrun.run_page(page)
    assert [o.ok for o in outcomes] == [True, True, True]
    assert not (tmp_path / "b.txt").exists()  # the page ran in a folder of its own


def test_a_different_output_is_reported_with_its_line(tmp_path: Path) -> None:
    page = write_page(tmp_path, "text\n\n```console\n$ echo one; echo two >&2\none\nthree\n```\n")
    outcomes = docrun.run_page(page)
    assert outcomes[0].actual == ["one", "two"]  # stderr in the order a terminal shows it
    text = docrun.report(page, outcomes)
    assert text.startswith(f"{page}:4: $ echo one; echo two >&2")
    assert "-three\n+two" in text


@pytest.mark.parametrize(
    "expected, actual, ok",
    [
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "d"], ["a", "d"], True),
        (["a", "..."], ["a"], True),
        (["...", "x"], ["x", "y"], False),
        (["speed ... games/s"], ["speed 12.5 games/s"], True),
        (["speed ... games/s"], ["speed 12.5 turns/s"], False),
        (["a", "b"], ["a", "b", "c"], False),
        (["a", ""], ["a"], True),
        (["a(1) [x]"], ["a(1) [x]"], True),
    ],
)
def test_matching(expected: list[str], actual: list[str], ok: bool) -> None:
    assert docrun.matches(expected, actual) is ok


def test_a_command_may_go_on_over_lines_and_runs_in_bash(tmp_path: Path) -> None:
    page = write_page(tmp_path, "```console\n$ for x in 1 2; do \\\n  echo $x; done\n1\n2\n```\n")
    [outcome] = docrun.run_page(page)
    assert outcome.command.text == "for x in 1 2; do \\\n  echo $x; done" and outcome.ok


@pytest.mark.slow
def test_tabula_runs_from_this_environment(tmp_path: Path) -> None:
    text = "```console\n$ tabula --version; python -c 'import tabula'\ntabula ...\n```\n"
    page = write_page(tmp_path, text)
    [outcome] = docrun.run_page(page)
    assert outcome.ok, outcome.actual


def test_update_writes_printed_outputs_but_not_where_the_page_elides(tmp_path: Path) -> None:
    page = write_page(tmp_path, "```console\n$ echo new\nold\n$ echo a; echo b\n...\nx\n```\n")
    outcomes = docrun.run_page(page)
    assert docrun.update(page, outcomes) == 1
    assert page.read_text() == "```console\n$ echo new\nnew\n$ echo a; echo b\n...\nx\n```\n"
