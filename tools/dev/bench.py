"""`tabula bench GAME`: how fast the engine plays a game, in CPU time, optionally against another commit.

Per player count it prints decisions per CPU-second (uniform random games, seeds 1..N) played two
ways, stepped (`step dec/s`, JSON `step_cpu`: one decision at a time through the engine's API,
its legal ids named and one applied by id) and in whole playouts (`playout dec/s`, JSON
`playout_cpu`: `Engine.playouts`, one native call),
games and legal-choice enumerations per CPU-second, microseconds per clone and per view (`view us`,
JSON `views` and `view_cpu`: `Engine.view` of the sampled states for every seat), and the CPU time of
loading (checking and compiling) the game without the compile cache. `--instructions` counts
machine instructions per decision of each way apart (JSON `instructions.this.N.step`/`.playout`)
on the backend asked for. CPU time, not wall time: machines are
shared. With `--against REF` the same measurement runs on that commit too (a temporary git worktree),
alternating between the two `--rounds` times and keeping each side's best, and the table gives the
ratio — the way the project reports a speed change.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

WORKER = Path(__file__).resolve().with_name("bench_worker.py")


def package_tree(repo: Path, into: Path) -> Path:
    """The `tabula` package of a source tree as symlinks (tools/ is `tabula`, ...), importable with
    PYTHONPATH=into without installing it."""
    pkg = into / "tabula"
    pkg.mkdir(parents=True)
    for f in (repo / "tools").iterdir():
        if f.name != "__pycache__":
            (pkg / f.name).symlink_to(f)
    for sub in ("interpreter", "grammar", "gamedefs"):
        (pkg / sub).symlink_to(repo / sub)
    return into


def run_worker(
    path_entry: str | None,
    game: str,
    players: list[int],
    games: int,
    options: list[str],
    backend: str = "python",
    search: str | None = None,
) -> Any:
    env = dict(os.environ, TABULA_NO_CACHE="1", TABULA_BENCH_BACKEND=backend)
    if search:  # a search bot's playouts at fixed positions (loading is not measured: cache kept)
        env.pop("TABULA_NO_CACHE")
        env["TABULA_BENCH_SEARCH"] = search
    if path_entry is not None:
        env["PYTHONPATH"] = path_entry
    cmd = [sys.executable, str(WORKER), game, ",".join(map(str, players)), str(games), *options]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark worker failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


WAYS = ("step", "playout")  # a decision at a time through the engine's API; whole games in one call


def count_instructions(
    path_entry: str | None, game: str, n: int, games: int, options: list[str], backend: str
) -> tuple[dict[str, float], str, str]:
    """Machine instructions per decision of `games` random games at `n` players played each way
    (WAYS) on `backend`: valgrind's count (cachegrind) of the games minus that of the same program
    playing none (start-up and loading, the same whichever way: counted once); with the backend
    measured (python where native is not there) and why not."""
    from tabula.common import CliError

    if shutil.which("valgrind") is None:
        raise CliError("--instructions needs valgrind (apt-get install valgrind)")
    env = dict(os.environ, TABULA_BENCH_BACKEND=backend, PYTHONHASHSEED="0")
    env.pop("TABULA_NO_CACHE", None)  # the same run each time, the game's library built once
    if path_entry is not None:
        env["PYTHONPATH"] = path_entry
    with tempfile.TemporaryDirectory(prefix="tabula-bench-cache-") as private:
        # a cache of its own (private: mkdtemp's 0700), so that no other process's pruning drops the
        # game between the runs; compiled once first, so that every counted run loads it warm
        env["TABULA_CACHE_DIR"] = private
        subprocess.run(
            [sys.executable, str(WORKER), game, str(n), "0", *options], env=env, capture_output=True
        )
        start, _ = _counted(dict(env, TABULA_BENCH_PLAY_ONLY=WAYS[0]), game, n, 0, options)
        out: dict[str, float] = {}
        report: Any = {}
        for way in WAYS:
            count, report = _counted(dict(env, TABULA_BENCH_PLAY_ONLY=way), game, n, games, options)
            decisions = report["players"][str(n)]["decisions"]
            out[way] = (count - start) / max(decisions, 1)
        return out, report.get("backend", "python"), report.get("note", "")


def _counted(env: dict[str, str], game: str, n: int, games: int, options: list[str]) -> tuple[int, Any]:
    """One run of the worker under valgrind playing `games` games: its instructions and report."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    cmd += [sys.executable, str(WORKER), game, str(n), str(games), *options]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"benchmark worker failed under valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), json.loads(done.stdout.splitlines()[-1])


def instructions(
    path_entry: str | None, game: str, players: list[int], games: int, options: list[str], backend: str
) -> tuple[dict[str, dict[str, float]], str, str]:
    """Per player count, instructions per decision played each way (WAYS), the backend measured and
    why it is not the one asked for."""
    out: dict[str, dict[str, float]] = {}
    measured, note = backend, ""
    for n in players:
        out[str(n)], measured, note = count_instructions(path_entry, game, n, games, options, backend)
    return out, measured, note


def instructions_table(
    game: str,
    backend: str,
    new: dict[str, dict[str, float]],
    old: dict[str, dict[str, float]] | None,
    against: str,
) -> str:
    lines = [
        f"{game}: machine instructions per decision on the {backend} backend (valgrind), start-up and "
        f"loading left out" + (f"; against: {against}" if old else "")
    ]
    lines.append(
        f"{'players':>7} {'way':>8} {'this':>12}" + (f" {'against':>12} {'ratio':>7}" if old else "")
    )
    for n, ways in new.items():
        for way, value in ways.items():
            row = f"{n:>7} {way:>8} {value:>12.0f}"
            if old is not None:
                row += f" {old[n][way]:>12.0f} {old[n][way] / max(value, 1e-9):>6.2f}x"
            lines.append(row)
    return "\n".join(lines)


def best(runs: list[Any]) -> Any:
    """Each figure's best (smallest CPU time) over the runs."""
    out = json.loads(json.dumps(runs[0]))
    out["load_cpu"] = min(r["load_cpu"] for r in runs)
    out["build_cpu"] = min(r.get("build_cpu", 0.0) for r in runs)
    for n in out["players"]:
        for key in ("step_cpu", "enum_cpu", "clone_cpu", "playout_cpu", "view_cpu"):
            if key in out["players"][n]:  # (a worker of an older tree: no views)
                out["players"][n][key] = min(r["players"][n][key] for r in runs)
    return out


def rates(m: Any, n: str) -> dict[str, float]:
    p = m["players"][n]
    return {
        "step dec/s": p["decisions"] / max(p["step_cpu"], 1e-9),
        "playout dec/s": p["decisions"] / max(p["playout_cpu"], 1e-9),
        "games/s": p["games"] / max(p["step_cpu"], 1e-9),
        "enumerations/s": p["enumerations"] / max(p["enum_cpu"], 1e-9),
        "clone us": 1e6 * p["clone_cpu"] / max(p["clones"], 1),
        "view us": 1e6 * p.get("view_cpu", 0.0) / max(p.get("views", 0), 1),
    }


def table(game: str, new: Any, old: Any | None) -> str:
    lines = [
        f"{game}: cold load {new['load_cpu']:.2f} s CPU" + (f" (was {old['load_cpu']:.2f} s)" if old else "")
    ]
    if new.get("backend", "python") != "python":
        lines[0] += f", {new['backend']} build {new.get('build_cpu', 0.0):.2f} s CPU"
    if old is not None and old.get("backend", "python") != new.get("backend", "python"):
        lines[0] += f"; against: the {old.get('backend', 'python')} backend"
    head = f"{'players':>7} {'metric':>15} {'this':>12}"
    if old:
        head += f" {'against':>12} {'ratio':>7}"
    lines.append(head)
    for n in new["players"]:
        now = rates(new, n)
        was = rates(old, n) if old else None
        for metric, value in now.items():
            row = f"{n:>7} {metric:>15} {value:>12.1f}"
            if was is not None:
                over = (was[metric], value) if metric in ("clone us", "view us") else (value, was[metric])
                shown = f"{over[0] / over[1]:>6.2f}x" if over[1] else f"{'-':>7}"  # no windows: none timed
                row += f" {was[metric]:>12.1f} {shown}"
            lines.append(row)
    return "\n".join(lines)


def search_table(game: str, new: Any, old: Any | None) -> str:
    """Playouts a decision of a search bot per player count, each side's best run."""
    rows = new["players"]
    head = f"{game}: {new['search']} on the {new['backend']} backend"
    lines = [f"{head}, {_sites(new)} positions a player count"]
    if old is not None:
        lines[0] += f"; against: the {old['backend']} backend"
    against = f" {'against':>10} {'ratio':>7}" if old else ""
    lines.append(f"{'players':>7} {'metric':>17} {'this':>10}{against}")
    for n, p in rows.items():
        for metric, value in _search_rates(p).items():
            row = f"{n:>7} {metric:>17} {value:>10.1f}"
            if old is not None:
                was = _search_rates(old["players"][n])[metric]
                row += f" {was:>10.1f} {value / max(was, 1e-9):>6.2f}x"
            lines.append(row)
    return "\n".join(lines)


def _sites(m: Any) -> int:
    return max(int(p["decisions"]) for p in m["players"].values())


def _search_rates(p: Any) -> dict[str, float]:
    return {
        "playouts/decision": p["playouts"] / max(p["decisions"], 1),
        "playouts/CPU-s": p["playouts"] / max(p["cpu"], 1e-9),
    }


def best_search(runs: list[Any]) -> Any:
    """Each player count's run with the most playouts, then the least CPU time (the least disturbed
    by other load)."""
    out = json.loads(json.dumps(runs[0]))
    for n in out["players"]:
        out["players"][n] = max((r["players"][n] for r in runs), key=lambda p: (p["playouts"], -p["cpu"]))
    return out


def player_counts(args: argparse.Namespace) -> list[int]:
    """The player counts to measure: those asked for, each checked against the game's range, or
    by default those of 2, 3 and 4 the game allows (else its smallest count)."""
    from tabula.common import CliError, load

    game = load(args.game, args.option, args.variant, args.expansions)
    lo, hi = game.min_players, game.max_players
    if args.players:
        wrong = [n for n in args.players if not lo <= n <= hi]
        if wrong:
            raise CliError(f"{game.name} is for {lo}-{hi} players, not {wrong[0]}")
        return list(args.players)
    return [n for n in (2, 3, 4) if lo <= n <= hi] or [lo]


def run_bench(args: argparse.Namespace) -> int:
    from tabula.common import CliError

    players = player_counts(args)
    # the workers (this tree's and --against's) load the same variant and expansions
    os.environ["TABULA_BENCH_PACKS"] = json.dumps(
        {"variant": args.variant, "with": list(args.expansions or [])}
    )
    options = [f"{k}={v}" for k, v in (args.option or [])]
    rounds = max(1, args.rounds)
    against_tree: Path | None = None
    tmp = Path(tempfile.mkdtemp(prefix="tabula-bench-"))
    try:
        if args.against:
            repo = Path(__file__).resolve().parents[2]
            tree = tmp / "tree"
            done = subprocess.run(
                ["git", "-C", str(repo), "worktree", "add", "--detach", str(tree), args.against],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise CliError(f"cannot check out {args.against!r}: {done.stderr.strip()}")
            against_tree = package_tree(tree, tmp / "path")
        backend = getattr(args, "backend", "native")
        if args.instructions:  # deterministic: one run per side
            now, measured, note = instructions(None, args.game, players, args.games, options, backend)
            was, against = None, ""
            if against_tree is not None:
                was, _, _ = instructions(str(against_tree), args.game, players, args.games, options, backend)
                against = args.against
            elif getattr(args, "against_backend", None):
                was, against, _ = instructions(
                    None, args.game, players, args.games, options, args.against_backend
                )
                against = f"the {against} backend"
            if note:  # the native backend was asked for (the default) and is not there
                print(f"python backend: {note}", file=sys.stderr)
            if args.json:
                figures = {"this": now, "against": was}
                out = {"game": args.game, "backend": measured, "instructions": figures, "ref": args.against}
                print(json.dumps(out | {"against_backend": getattr(args, "against_backend", None)}, indent=2))
            else:
                print(instructions_table(args.game, measured, now, was, against))
            return 0
        new_runs, old_runs = [], []
        search = getattr(args, "search", None)
        for _ in range(rounds):
            new_runs.append(run_worker(None, args.game, players, args.games, options, backend, search))
            if against_tree is not None:
                old_runs.append(
                    run_worker(str(against_tree), args.game, players, args.games, options, backend, search)
                )
            elif getattr(args, "against_backend", None):
                old_runs.append(
                    run_worker(None, args.game, players, args.games, options, args.against_backend, search)
                )
        pick = best_search if search else best
        new = pick(new_runs)
        old = pick(old_runs) if old_runs else None
        if new.get("note"):  # the native backend was asked for (the default) and is not there
            print(f"python backend: {new['note']}", file=sys.stderr)
        if args.json:
            print(json.dumps({"game": args.game, "this": new, "against": old, "ref": args.against}, indent=2))
        else:
            print(search_table(args.game, new, old) if search else table(args.game, new, old))
        return 0
    finally:
        if args.against:
            repo = Path(__file__).resolve().parents[2]
            subprocess.run(
                ["git", "-C", str(repo), "worktree", "remove", "--force", str(tmp / "tree")],
                capture_output=True,
                check=False,
            )
        shutil.rmtree(tmp, ignore_errors=True)
