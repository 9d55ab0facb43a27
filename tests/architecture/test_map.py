"""docs/ARCHITECTURE.md's map stays true: it names every package folder, and every module path that
the page or the README names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "ARCHITECTURE.md"
# `interpreter/run/`, `run/saves.py`, `compile/python/cache.py`, `tools/cli/`: a path in backquotes
PATH = re.compile(r"`((?:[a-z_]+/)+(?:[a-z_]+\.py)?)`")


def map_rows() -> list[str]:
    text = PAGE.read_text()
    table = text[text.index("## The map") : text.index("## The pipeline")]
    return [line for line in table.splitlines() if line.startswith("| `")]


def package_folders() -> list[str]:
    folders = {p.parent for root in ("interpreter", "tools") for p in (ROOT / root).rglob("__init__.py")}
    return sorted(str(f.relative_to(ROOT)) + "/" for f in folders)


def test_the_map_names_every_package_folder() -> None:
    named = " ".join(row.split("|")[1] for row in map_rows())
    # a sub-folder is covered by its parent's row (compile/python/ by interpreter/compile/)
    missing = [
        f
        for f in package_folders()
        if f not in ("interpreter/", "tools/") and not any(f"`{f[:n]}`" in named for n in _prefix_lengths(f))
    ]
    assert not missing, f"folders missing from the map in docs/ARCHITECTURE.md: {missing}"


def _prefix_lengths(folder: str) -> list[int]:
    return [i + 1 for i, ch in enumerate(folder) if ch == "/"]


def test_every_path_the_pages_name_exists() -> None:
    """A path is written from the repository's root or, inside a paragraph about one folder, from
    that folder (`python/`, `run/saves.py`): it must be the end of a real path."""
    real = ["interpreter/", "tools/", "tests/", "grammar/", "docs/", "gamedefs/", "artefacts/screenshots/"]
    real += [
        str(p.relative_to(ROOT)) + ("/" if p.is_dir() else "")
        for root in ("interpreter", "tools", "tests", "grammar", "docs", "gamedefs")
        for p in (ROOT / root).rglob("*")
        if "__pycache__" not in p.parts
    ]
    missing = []
    for page in (PAGE, ROOT / "README.md"):
        for path in PATH.findall(page.read_text()):
            if not any(r == path or r.endswith("/" + path) for r in real):
                missing.append(f"{page.name}: {path}")
    assert not missing, f"paths that do not exist: {missing}"


def test_the_pattern_finds_folders_and_modules_in_backquotes() -> None:
    text = "see `run/saves.py` and `tools/cli/`, not `x.py` nor `a b/`"
    assert PATH.findall(text) == ["run/saves.py", "tools/cli/"]
    assert _prefix_lengths("interpreter/compile/python/") == [12, 20, 27]
