"""Rewrite the golden diagnostics of the broken-game corpus: `python -m tabula.dev.regen_golden [CASE ...]`.

The corpus lives in `tests/gamedefs/invalid/`: every folder `<case>/` is a small game with one
deliberate mistake (or a small related group of them), and `<case>.expected` beside it holds the full
text `tabula check` shows for it: `render_report` of the `AuthorError` raised by `load_game`, or, for
a case whose mistake is only worth a warning, `render_report` of the loaded game's `check_warnings`.

A case may also carry packs, applied the way `load_game` applies them:

- `<case>/variants/*.yaml`: the variant (at most one file);
- `<case>/expansions/*.yaml`: expansions, in file-name order.

Packs cannot lie in the case folder itself: every `*.yaml` there is a file of the game.

Paths in the rendered text are relative to the repository root (the cases are loaded from there),
so the golden files do not depend on where the repository is checked out. Run this after changing
a diagnostic on purpose, then read the diff of the `.expected` files.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tabula.interpreter.base.source import AuthorError, Report, clear_source_cache, render_report
from tabula.interpreter.engine import load_game

REPO = Path(__file__).resolve().parents[2]
CASES = Path("tests") / "gamedefs" / "invalid"
EXPECTED_SUFFIX = ".expected"


def case_folders() -> list[Path]:
    """Every case folder of the corpus, relative to the repository root, sorted by name."""
    return sorted(p.relative_to(REPO) for p in (REPO / CASES).iterdir() if p.is_dir())


def expected_files() -> list[Path]:
    """Every golden file of the corpus, relative to the repository root, sorted by name."""
    return sorted(p.relative_to(REPO) for p in (REPO / CASES).glob(f"*{EXPECTED_SUFFIX}"))


def expected_path(case: Path) -> Path:
    """The golden file of a case folder: `<case>.expected` beside it."""
    return case.with_name(case.name + EXPECTED_SUFFIX)


@contextmanager
def at_repo_root() -> Iterator[None]:
    """Work from the repository root, so that spans name files relative to it."""
    before = Path.cwd()
    os.chdir(REPO)
    try:
        yield
    finally:
        os.chdir(before)


def _packs(case: Path, kind: str) -> list[str]:
    return [str(p) for p in sorted((case / kind).glob("*.yaml")) if p.is_file()]


def render_case(case: Path) -> str:
    """The text `tabula check` reports for a case folder (a path relative to the repository root).

    Only `AuthorError` is caught: any other exception is a defect of the engine and propagates.
    """
    variants = _packs(case, "variants")
    if len(variants) > 1:
        raise ValueError(f"{case}: at most one variant, found {len(variants)}")
    with at_repo_root():
        clear_source_cache()
        try:
            game = load_game(
                case, variant=variants[0] if variants else None, expansions=_packs(case, "expansions")
            )
        except AuthorError as err:
            return render_report(err.report) + "\n"
        report = Report()
        for diagnostic in game.check_warnings:
            report.add(diagnostic)
        return render_report(report) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rewrite tests/gamedefs/invalid/*.expected from the engine.")
    parser.add_argument("cases", nargs="*", help="case names (default: every case)")
    args = parser.parse_args(argv)
    folders = case_folders()
    if args.cases:
        known = {f.name: f for f in folders}
        missing = [name for name in args.cases if name not in known]
        if missing:
            parser.error(f"no such case: {', '.join(missing)}")
        folders = [known[name] for name in args.cases]
    changed = 0
    for case in folders:
        target = REPO / expected_path(case)
        text = render_case(case)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
            changed += 1
            print(f"updated {expected_path(case)}")
    if not args.cases:
        wanted = {expected_path(case) for case in folders}
        for orphan in expected_files():
            if orphan not in wanted:
                print(f"no case folder for {orphan} (delete it, or restore its case)", file=sys.stderr)
    print(f"{len(folders)} cases, {changed} golden file(s) rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
