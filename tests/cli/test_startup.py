"""How much a start of `tabula` costs: `--version` and `--help` import no subcommand (the command table
of tabula.cli.commands names their modules), and a warm `tabula check` (the game from the compile
cache) imports neither the DSL parser's lark, nor the YAML reader's ruamel, nor the schema's pydantic.

Both run in fresh interpreters (subprocesses): what this process imported already would hide it.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from tabula.cli.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
COMPILE_ONLY = ("lark", "ruamel", "pydantic")  # needed on a cache miss or to report an error only
MAX_START_CPU = 0.5  # seconds of user+sys CPU; about 0.06 on a quiet machine (0.5-0.6 before)


def python(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False
    )


def cpu_of(*args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """The user+sys CPU seconds of `python ARGS` (the children's usage before and after)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = python(*args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), run


def test_version_and_help_cost_little_cpu() -> None:
    for flag in ("--version", "--help"):
        best = float("inf")
        for _ in range(3):  # the best of three: a busy machine slows a run, never speeds it up
            cpu, run = cpu_of("-m", "tabula", flag)
            assert run.returncode == 0, run.stderr
            best = min(best, cpu)
        print(f"tabula {flag}: {best:.3f} s CPU")
        assert best < MAX_START_CPU, f"tabula {flag} took {best:.2f} s of CPU"


def test_help_lists_every_subcommand_and_imports_none() -> None:
    code = (
        "import sys\nfrom tabula.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('tabula.') and not m.startswith('tabula.cli')))"
    )
    run = python("-c", code)
    assert run.returncode == 0, run.stderr
    *help_lines, imported = run.stdout.strip().splitlines()
    assert imported == "[]", f"tabula --help imported {imported}"
    listed = " ".join(" ".join(help_lines).split())  # help lines may wrap
    for name, command in COMMANDS.items():
        assert f" {name} {command.help} " in listed, name


def test_a_subcommand_help_defines_its_arguments() -> None:
    run = python("-m", "tabula", "trace", "record", "--help")
    assert run.returncode == 0 and "--max-decisions" in run.stdout and "--variant" in run.stdout


def test_a_warm_check_imports_no_parser_yaml_reader_or_schema_library(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TABULA_NO_CACHE"}
    env["TABULA_CACHE_DIR"] = str(tmp_path)
    cold = python("-m", "tabula", "check", "porta-nigra", env=env)  # fills the cache
    assert cold.returncode == 0 and list(tmp_path.glob("*.game")), cold.stderr
    code = (
        "import sys\nfrom tabula.cli.main import main\ncode = main(['check', 'porta-nigra'])\n"
        f"print(code, sorted({{m.split('.')[0] for m in sys.modules}} & {set(COMPILE_ONLY)!r}))"
    )
    warm = python("-c", code, env=env)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout == cold.stdout + "0 []\n"  # the same report, without compiling


def test_a_cold_load_still_uses_them() -> None:
    """The other side: compiling imports them (else the test above would prove nothing)."""
    code = (
        "import sys\nfrom tabula.interpreter.compile.python import cache\ncache.disable()\n"
        "from tabula.interpreter.engine import load_game\nload_game('high-card')\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(COMPILE_ONLY)!r}))"
    )
    run = python("-c", code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(sorted(COMPILE_ONLY))
