"""One package: installed code lives under the single import name `tabula` (pyproject maps tools/,
interpreter/, grammar/ and gamedefs/ onto it), the bundled games resolve through the package from any
folder, and pytest is only a test dependency. The wheel tests build and install it: slow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def package_of(folder: Path) -> str:
    """The import name of a repository folder under pyproject's package-dir mapping."""
    rel = folder.relative_to(ROOT).as_posix()
    dirs = SETUPTOOLS["package-dir"].values()
    best = max((d for d in dirs if rel == d or rel.startswith(d + "/")), key=len)
    name = next(n for n, d in SETUPTOOLS["package-dir"].items() if d == best)
    rest = rel[len(best) :].strip("/")
    return ".".join([name, *rest.split("/")]) if rest else name


def python(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=1800, check=False
    )


# ------------------------------------------------------------------ pyproject


def test_every_folder_with_an_init_is_a_listed_package() -> None:
    tops = ("tools", "interpreter", "grammar", "gamedefs")
    folders = {p.parent for top in tops for p in (ROOT / top).rglob("__init__.py")}
    assert len(folders) >= 5
    listed = set(SETUPTOOLS["packages"])
    missing = sorted(package_of(f) for f in folders if package_of(f) not in listed)
    assert missing == [], f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_every_listed_package_is_a_folder_under_the_one_import_name() -> None:
    for name in SETUPTOOLS["packages"]:
        assert name == "tabula" or name.startswith("tabula."), name
        top = max((n for n in SETUPTOOLS["package-dir"] if name == n or name.startswith(n + ".")), key=len)
        folder = ROOT / SETUPTOOLS["package-dir"][top] / name[len(top) :].strip(".").replace(".", "/")
        assert folder.is_dir(), f"{name}: {folder} does not exist"


def test_pytest_is_only_a_test_dependency() -> None:
    runtime = " ".join(PYPROJECT["project"]["dependencies"]).lower()
    assert "pytest" not in runtime and "hypothesis" not in runtime
    assert any(d.startswith("pytest-xdist") for d in PYPROJECT["project"]["optional-dependencies"]["test"])
    assert PYPROJECT["project"]["scripts"] == {"tabula": "tabula.cli.main:main"}


@pytest.mark.slow
def test_the_runtime_imports_no_test_library() -> None:
    code = "import sys, tabula.cli.main, tabula.interpreter.engine\n"
    code += "print(sorted({'pytest', '_pytest'} & {*sys.modules}))"
    run = python("-c", code, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_bundled_games_resolve_through_the_package_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabula.cli import main as cli

    monkeypatch.chdir(tmp_path)
    assert cli.main(["verify", "high-card"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "3 passed, 0 failed"


@pytest.mark.slow
def test_python_m_tabula_finds_the_bundled_games_from_any_folder(tmp_path: Path) -> None:
    run = python("-m", "tabula", "verify", "high-card", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "3 passed, 0 failed"


# ------------------------------------------------------------------ the wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel . --no-deps` builds, from a copy of the tree (setuptools writes build/ and
    *.egg-info/ where it builds: not into the working tree)."""
    source = tmp_path_factory.mktemp("source") / "tabula"
    junk = shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hyp*")
    shutil.copytree(ROOT, source, ignore=junk)
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    [built] = out.glob("tabula-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_holds_only_the_tabula_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"tabula"}
    for expected in (
        "tabula/cli/main.py",
        "tabula/__main__.py",
        "tabula/interpreter/engine.py",
        "tabula/interpreter/compile/python/game.py",
        "tabula/grammar/tabula.lark",
        "tabula/interpreter/compile/native/runtime/tabula.h",
        "tabula/interpreter/compile/native/runtime/flow.c",
        "tabula/gamedefs/porta-nigra/game.yaml",
        "tabula/gamedefs/porta-nigra/scenarios/variants/short-game-rounds.yaml",
        "tabula/gamedefs/glory-to-rome/expansions/all-44-buildings.yaml",
    ):
        assert expected in names, expected
    assert not any(n.startswith(("tabula/tests", "tests/")) for n in names)
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert all("extra ==" in line for line in requires if "pytest" in line)


@pytest.mark.slow
def test_the_installed_wheel_verifies_porta_nigra_from_any_folder(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q"]
    run = subprocess.run(
        [*pip, "--target", str(target), str(wheel)], capture_output=True, text=True, timeout=1800, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    installed = {p.name for p in target.iterdir() if not p.name.endswith(".dist-info")} - {"bin"}
    assert installed == {"tabula"}  # bin/ holds the console script
    env = {**os.environ, "PYTHONPATH": str(target)}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = python("-c", "import tabula; print(tabula.__file__)", cwd=elsewhere, env=env)
    assert where.stdout.strip() == str(target / "tabula" / "__init__.py"), where.stderr
    run = python("-m", "tabula", "verify", "porta-nigra", cwd=elsewhere, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    assert run.stdout.splitlines()[-1].endswith("passed, 0 failed")
