"""`tabula bench GAME`: how fast the engine plays a game, in CPU time, optionally against another commit.

Per player count it prints decisions and games per CPU-second (uniform random playouts, seeds
1..N), legal-choice enumerations per CPU-second, microseconds per clone, and the CPU time of loading
(checking and compiling) the game without the compile cache. CPU time, not wall time: machines are
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


def count_instructions(path_entry: str | None, game: str, n: int, games: int, options: list[str]) -> float:
    """Machine instructions per decision of `games` random games at `n` players: valgrind's count
    (cachegrind) of the games minus that of the same program playing none (start-up and loading)."""
    from tabula.common import CliError

    if shutil.which("valgrind") is None:
        raise CliError("--instructions needs valgrind (apt-get install valgrind)")
    env = dict(os.environ, TABULA_BENCH_PLAY_ONLY="1", PYTHONHASHSEED="0")  # the same run each time
    env.pop("TABULA_NO_CACHE", None)
    if path_entry is not None:
        env["PYTHONPATH"] = path_entry
    # compiled once first, so that both counted runs load the game warm (the same work)
    subprocess.run([sys.executable, str(WORKER), game, str(n), "0", *options], env=env, capture_output=True)
    counts: list[int] = []
    decisions = 0
    for k in (0, games):
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        cmd += [sys.executable, str(WORKER), game, str(n), str(k), *options]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise RuntimeError(f"benchmark worker failed under valgrind:\n{done.stderr[-2000:]}")
        counts.append(int(found.group(1).replace(",", "")))
        decisions = json.loads(done.stdout.splitlines()[-1])["players"][str(n)]["decisions"]
    return (counts[1] - counts[0]) / max(decisions, 1)


def instructions_table(game: str, new: dict[str, float], old: dict[str, float] | None) -> str:
    lines = [f"{game}: machine instructions per decision (valgrind), start-up and loading left out"]
    lines.append(f"{'players':>7} {'this':>12}" + (f" {'against':>12} {'ratio':>7}" if old else ""))
    for n, value in new.items():
        row = f"{n:>7} {value:>12.0f}"
        if old is not None:
            row += f" {old[n]:>12.0f} {old[n] / value:>6.2f}x"
        lines.append(row)
    return "\n".join(lines)


def best(runs: list[Any]) -> Any:
    """Each figure's best (smallest CPU time) over the runs."""
    out = json.loads(json.dumps(runs[0]))
    out["load_cpu"] = min(r["load_cpu"] for r in runs)
    out["build_cpu"] = min(r.get("build_cpu", 0.0) for r in runs)
    for n in out["players"]:
        for key in ("cpu", "enum_cpu", "clone_cpu", "playout_cpu"):
            out["players"][n][key] = min(r["players"][n][key] for r in runs)
    return out


def rates(m: Any, n: str) -> dict[str, float]:
    p = m["players"][n]
    return {
        "decisions/s": p["decisions"] / p["cpu"],
        "playout dec/s": p["decisions"] / max(p.get("playout_cpu", p["cpu"]), 1e-9),
        "games/s": p["games"] / p["cpu"],
        "enumerations/s": p["enumerations"] / max(p["enum_cpu"], 1e-9),
        "clone us": 1e6 * p["clone_cpu"] / max(p["clones"], 1),
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
                over = (was[metric], value) if metric == "clone us" else (value, was[metric])
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


def run_bench(args: argparse.Namespace) -> int:
    from tabula.common import CliError

    players = args.players or [2, 3, 4]
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
        if args.instructions:  # deterministic: one run per side
            now = {str(n): count_instructions(None, args.game, n, args.games, options) for n in players}
            was = None
            if against_tree is not None:
                was = {
                    str(n): count_instructions(str(against_tree), args.game, n, args.games, options)
                    for n in players
                }
            if args.json:
                out = {"game": args.game, "instructions": {"this": now, "against": was}, "ref": args.against}
                print(json.dumps(out, indent=2))
            else:
                print(instructions_table(args.game, now, was))
            return 0
        new_runs, old_runs = [], []
        backend = getattr(args, "backend", "native")
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
