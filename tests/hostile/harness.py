"""Runs one case of the hostile corpus the way a user would meet it, in a child process with limits.

A case is a path under tests/hostile/ (a game folder, a scenario file or a save file), the command
that reads it and the diagnostic code expected (CASES.txt lists them all). The child is forked from
the test process (so it pays no interpreter start-up), limited to `MEMORY` bytes of address space
(`resource.setrlimit`, as `prlimit --as` does), and runs the CLI's own `main` with its output in
files; it is killed if it runs past `WALL` seconds. The test then requires that it ended by itself,
within `CPU_SECONDS` of CPU time, with exit code 1 (0 for cases expected to be fine or to warn, a
`W` code, 2 for `usage`: a bad call of the command line, refused by its argument checks with a
message on stderr), no traceback and no internal error on stderr, no raw control or bidi character in
its output (`RAW_TERMINAL`), and the expected code in its output.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RUN_DIR = Path(tempfile.gettempdir()) / "tabula-hostile-runs"  # the folder every case runs in
RUN_DIR.mkdir(exist_ok=True)
MEMORY = 1 << 30  # 1 GiB of address space beyond what the forked child already maps
# a hang guard, not a benchmark: a cold compile cache and a busy machine took cases of 1.6 s to 3.8 s
CPU_SECONDS = 5.0
# a game's first native build (gcc, once per game and compiler: a cold compile cache) may take this
# much more: a valid 100x100 board's build took 1.8 s idle and passed the 5 s with its load when loaded
COLD_BUILD_SECONDS = 3.0
WALL = 60.0  # a hang guard only: a busy machine may be slow, so the limit that counts is CPU time
COMMANDS = ("check", "verify", "simulate", "variants", "load-save", "cli", "serve")
SECRET_FILES = (Path("/etc/passwd"), Path("/proc/self/environ"))  # no answer of `serve` may quote them


@dataclass(frozen=True)
class Case:
    """One line of CASES.txt: `path command expect [arguments...]`."""

    path: str
    command: str
    expect: str
    args: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.path if not self.args else f"{self.path}[{' '.join(self.args)}]"

    def env(self) -> dict[str, str]:
        """The environment a `cli` case sets (its `env:NAME=VALUE` arguments; {here}: tests/hostile)."""
        pairs = [a[4:].replace("{here}", str(HERE)).split("=", 1) for a in self.args if a.startswith("env:")]
        return {name: value for name, value in pairs}

    def argv(self) -> list[str]:
        """The `tabula` arguments this case runs (absolute paths: a case runs in RUN_DIR)."""
        where = str(HERE / self.path) if self.path != "-" else ""
        if self.command == "cli":
            return [a.replace("{path}", where) for a in self.args if not a.startswith("env:")]
        extra = ["--games", "1"] if self.command == "simulate" else []
        return [self.command, where, *extra, *self.args]


@dataclass(frozen=True)
class Outcome:
    status: int | None  # the exit code, or None when a signal ended the child
    signal: int | None
    cpu: float  # user + system seconds
    stdout: str
    stderr: str
    killed: bool  # still running after WALL seconds
    built: bool = False  # a native library was built (and cached) during the run


def read_cases(path: Path = HERE / "CASES.txt") -> list[Case]:
    cases = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        path_, command, expect, *args = line.split()
        assert command in COMMANDS, f"CASES.txt: unknown command {command!r} in {raw!r}"
        cases.append(Case(path_, command, expect, tuple(args)))
    return cases


def load_save(path: str) -> int:
    """`load-save`: load a save file into the corpus's base game, as a program would."""
    from tabula.interpreter.engine import Engine, load_game
    from tabula.interpreter.run.saves import InvalidSave

    engine = Engine(load_game(HERE / "base"))
    try:
        st = engine.from_json((REPO / path).read_bytes())
    except InvalidSave as err:
        print(err, file=sys.stderr)
        return 1
    engine.legal_ids(st)
    print("ok")
    return 0


def serve_request(path: str) -> int:
    """`serve`: one request to `tabula serve` of the corpus's base game (requests/*.json: method,
    path, who sends it, headers, and a body: `json`, `text`, `repeat` [before, unit, times, after]
    or `save` (the table's own save with dotted keys replaced)). Prints `HTTP [status] answer`:
    0 for a 2xx answer, 1 for a refusal, 3 when the answer quotes a line of a secret file."""
    from fastapi.testclient import TestClient

    from tabula.serve.access import TOKEN_HEADER
    from tabula.serve.app import create_app
    from tabula.serve.model import GameSpec, SeatSpec
    from tabula.serve.table import Table

    probe = json.loads((REPO / path).read_text(encoding="utf-8"))
    table = Table(GameSpec(str(HERE / "base")), [SeatSpec("Ann"), SeatSpec("Bob")], 1)
    app = create_app(table)
    keys = app.state.keys
    token = {"host": keys.host, "seat0": keys.seats[0], "seat1": keys.seats[1], "spectator": keys.spectator}
    who = token.get(probe.get("as", "host"))
    headers = {"Content-Type": "application/json", **({TOKEN_HEADER: who} if who else {})}
    client = TestClient(app, base_url="http://127.0.0.1:8765", headers=headers)
    answer = client.request(
        probe.get("method", "POST"),
        probe["path"],
        content=_probe_body(probe, client, keys.host),
        headers=probe.get("headers"),
    )
    print(f"HTTP [{answer.status_code}] {answer.text[:2000]}")
    if any(line in answer.text for line in _secret_lines()):
        print("the answer quotes a line of a file outside the game's folder", file=sys.stderr)
        return 3
    return 0 if answer.status_code < 300 else 1


def _probe_body(probe: dict[str, Any], client: Any, host: str) -> bytes | None:
    if "json" in probe:
        return json.dumps(probe["json"]).encode()
    if "text" in probe:
        return str(probe["text"]).encode("utf-8")
    if "repeat" in probe:
        before, unit, times, after = probe["repeat"]
        return (before + unit * times + after).encode("utf-8")
    if "save" in probe:
        save = client.get("/api/save", headers={"X-Tabula-Token": host}).json()
        for dotted, value in probe["save"].items():
            *parents, last = dotted.split(".")
            target = save
            for key in parents:
                target = target[key]
            target[last] = value
        return json.dumps(save).encode()
    return None


def _secret_lines() -> list[str]:
    lines: list[str] = []
    for f in SECRET_FILES:
        try:
            text = f.read_bytes().replace(b"\0", b"\n").decode("utf-8", "replace")
        except OSError:
            continue
        lines += [line for line in text.splitlines() if len(line.strip()) >= 6]
    return lines


def mapped_bytes() -> int:
    """The address space this process maps now (Linux's VmSize; 0 where /proc is absent)."""
    try:
        status = Path("/proc/self/status").read_text(encoding="utf-8")
    except OSError:
        return 0
    found = re.search(r"^VmSize:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) * 1024 if found else 0


def _child(case: Case, out: str, err: str) -> None:
    code = 1
    try:
        # The limit counts from what the child inherits: a test process that ran threads (Ray,
        # a browser driver) keeps their stacks and malloc arenas mapped after the fork, hundreds
        # of MB that a fixed limit would take from the case itself.
        limit = mapped_bytes() + MEMORY
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        cpu = int(CPU_SECONDS) + 2  # the kernel stops a runaway child soon after the limit
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - `play` reads its end at once
        sys.stdout = open(out, "w", encoding="utf-8")  # noqa: SIM115 - closed by os._exit
        sys.stderr = open(err, "w", encoding="utf-8")  # noqa: SIM115
        os.chdir(RUN_DIR)  # what a command writes into its folder (a failed game) stays out of the checkout
        os.environ.update(case.env())  # a case's compiler (compilers/), a cache of its own
        runner: Callable[[], int]
        if case.command == "load-save":
            runner = lambda: load_save(case.argv()[1])  # noqa: E731
        elif case.command == "serve":
            runner = lambda: serve_request(case.argv()[1])  # noqa: E731
        else:
            from tabula.cli.main import main

            runner = lambda: main(case.argv())  # noqa: E731
        code = runner()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        traceback.print_exc()  # what the interpreter would print for an uncaught exception
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def warm_up() -> None:
    """Import and build in the parent what every child would otherwise build again (modules, the
    DSL parser, the schema's validators): a case's CPU time is then its own work."""
    from tabula.cli.commands import COMMANDS, named
    from tabula.interpreter.dsl.parser import _parser
    from tabula.interpreter.engine import load_game

    for command in COMMANDS.values():  # the command line imports a subcommand's modules when it runs
        named(command.arguments)
        named(command.run)
    _parser()
    load_game(HERE / "base")
    import fastapi.testclient  # noqa: F401 - `serve` cases: the web application and its client

    import tabula.serve.app  # noqa: F401


def native_builds(case: Case) -> set[str]:
    """The native libraries in the compile cache the case's command uses (its env may give its own)."""
    explicit = case.env().get("TABULA_CACHE_DIR") or os.environ.get("TABULA_CACHE_DIR")
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(explicit) if explicit else Path(base) / "tabula"
    return {f.name for f in folder.glob("native-*.so")} if folder.is_dir() else set()


def run_case(case: Case) -> Outcome:
    """Run `case` in a forked child under the limits and collect what it did."""
    before = native_builds(case)
    with tempfile.TemporaryDirectory() as tmp:
        out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(case, out, err)
        killed = False
        deadline = time.monotonic() + WALL
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                killed = True
                _, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.01)
        text = [
            Path(f).read_text(encoding="utf-8", errors="replace") if Path(f).exists() else ""
            for f in (out, err)
        ]
    return Outcome(
        os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else None,
        os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        usage.ru_utime + usage.ru_stime,
        text[0],
        text[1],
        killed,
        bool(native_builds(case) - before),
    )


# What must never reach a terminal unescaped (interpreter/base/terminal.py): C0 but newline and tab,
# DEL, C1, and the bidi controls.
RAW_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def exit_codes(expect: str) -> tuple[int, ...]:
    """The exit codes a case may end with: 0 ok, 1 a diagnostic, 2 a bad call (docs/cli.md)."""
    if expect.startswith(("W", "N")):  # a warning (N001: not native): the command succeeds and says it
        return (0,)
    return {"ok": (0,), "any": (0, 1, 2), "usage": (2,)}.get(expect, (1,))


def problems(case: Case, outcome: Outcome) -> list[str]:
    """Why the outcome is not what the case expects (empty when it is)."""
    found = []
    if outcome.killed:
        found.append(f"still running after {WALL:.0f} s")
    elif outcome.signal is not None:
        found.append(f"ended by signal {signal.Signals(outcome.signal).name} (CPU or memory limit)")
    allowed = CPU_SECONDS + (COLD_BUILD_SECONDS if outcome.built else 0.0)
    if outcome.cpu > allowed:
        built = ", a native build included" if outcome.built else ""
        found.append(f"used {outcome.cpu:.2f} s of CPU (more than {allowed:.0f} s{built})")
    if "Traceback" in outcome.stderr:
        found.append("printed a traceback")
    if "internal error" in outcome.stderr:
        found.append("reported an internal error")
    raw = sorted({hex(ord(ch)) for ch in RAW_TERMINAL.findall(outcome.stdout + outcome.stderr)})
    if raw:
        found.append(f"printed raw control or bidi characters ({', '.join(raw)}): the terminal runs them")
    wanted = exit_codes(case.expect)
    if outcome.status is not None and outcome.status not in wanted:
        found.append(f"exit code {outcome.status}, not {' or '.join(map(str, wanted))}")
    if case.expect == "usage" and not outcome.stderr.strip():
        found.append("a bad call, but nothing on stderr says why")
    coded = case.expect not in ("ok", "any", "usage")
    if coded and f"[{case.expect}]" not in outcome.stdout + outcome.stderr:
        found.append(f"no [{case.expect}] diagnostic in its output")
    return found
