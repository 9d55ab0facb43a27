"""ruff (lint and format) and mypy (strict) run as part of the test suite, so CI runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*cmd: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=cwd, capture_output=True, text=True, check=False)


def package_tree(into: Path) -> Path:
    """The installed layout of the `tabula` package as symlinks (tools/ is `tabula`, interpreter/ is
    `tabula.interpreter`, ...): mypy resolves imports by folder names and cannot follow the mapping
    that pyproject.toml gives setuptools."""
    pkg = into / "tabula"
    pkg.mkdir()
    for f in (ROOT / "tools").iterdir():
        if f.name != "__pycache__":
            (pkg / f.name).symlink_to(f)
    for sub in ("interpreter", "grammar"):
        (pkg / sub).symlink_to(ROOT / sub)
    return pkg


def test_ruff() -> None:
    result = run("ruff", "check", "interpreter", "grammar", "tools", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = run("ruff", "format", "--check", "interpreter", "grammar", "tools", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # strict mypy over the whole package
def test_mypy(tmp_path: Path) -> None:
    package_tree(tmp_path)
    result = run(
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--cache-dir",
        str(tmp_path / ".mypy"),
        "-p",
        "tabula",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
