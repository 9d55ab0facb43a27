"""The broken-game corpus: every case of tests/gamedefs/invalid/ reports exactly its golden diagnostics.

Each case folder is a small game with one deliberate mistake; `<case>.expected` beside it is the full
text `tabula check` shows (see `tools/dev/regen_golden.py`, which rewrites the golden files after a
deliberate change of wording or position: `python -m tabula.dev.regen_golden`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabula.dev.regen_golden import REPO, case_folders, expected_files, expected_path, render_case

CASES = case_folders()


def test_the_corpus_is_not_empty() -> None:
    assert len(CASES) >= 45


def test_every_case_has_a_golden_file_and_every_golden_file_a_case() -> None:
    golden = set(expected_files())
    wanted = {expected_path(case) for case in CASES}
    assert sorted(map(str, wanted - golden)) == [], "cases without a golden file"
    assert sorted(map(str, golden - wanted)) == [], "golden files without a case folder"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case_reports_its_golden_diagnostics(case: Path) -> None:
    golden = REPO / expected_path(case)
    assert golden.is_file(), f"{golden} is missing: run python -m tabula.dev.regen_golden {case.name}"
    try:
        text = render_case(case)
    except Exception as err:  # anything but AuthorError is an engine defect, not a diagnostic
        pytest.fail(f"{case.name}: load_game raised {type(err).__name__}: {err}")
    assert text == golden.read_text(encoding="utf-8")
