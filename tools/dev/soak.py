"""`tabula soak GAME`: many random games, each checked as it is played (tabula.dev.soak_game): saves
loaded back, every player's view and the swap test of hidden information, clones and loaded states
played on, replays from seed and choices, and a sample of games compared with the Python backend
decision by decision.

Game k of a run has seed `--seed` + k; its configuration (the base game, a shipped variant or an
expansion) and player count follow from the seed, so `--seed S --games 1` plays game S alone again.
The games run on `--jobs` worker processes (`tabula.balance.parallel.map_seeds`, results in seed
order, so the figures do not depend on the jobs). Every failure is printed with its game, seed and
decision and what differed, and the exit code is 1; 0 when every check of every game held.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from tabula.balance.parallel import map_seeds
from tabula.dev.soak_game import Outcome, Plan, play, setup

SHOWN_FAILURES = 20


@dataclass
class Totals:
    """The figures of a run, added up over its games."""

    games: int = 0
    finished: int = 0
    decisions: int = 0
    saves: int = 0
    views: int = 0
    swaps: int = 0
    played_on: int = 0
    replays: int = 0
    compared_games: int = 0
    compared: int = 0
    failures: list[str] = field(default_factory=list)
    backends: set[str] = field(default_factory=set)

    def add(self, o: Outcome) -> None:
        self.games += 1
        self.finished += o.finished
        self.decisions += o.decisions
        self.saves += o.saves
        self.views += o.views
        self.swaps += o.swaps
        self.played_on += o.played_on
        self.replays += o.replays
        self.compared_games += o.compared > 0
        self.compared += o.compared
        self.backends.add(o.backend)
        if o.failure is not None:
            self.failures.append(o.failure)


def soak_arguments(p: argparse.ArgumentParser) -> None:
    from tabula.common import count, seed

    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--games", type=count(min=1), default=100, help="random games to play (default 100)")
    p.add_argument("--seed", type=seed, default=1, help="seed of the first game (default 1)")
    p.add_argument(
        "--backend",
        choices=["python", "native"],
        default="native",
        help="the backend (default native)",
    )
    p.add_argument("--jobs", type=count(min=1), default=1, help="worker processes (default 1)")
    p.add_argument(
        "--every", type=count(min=1), default=16, help="check a decision with chance 1/EVERY (default 16)"
    )
    p.add_argument("--most", type=count(min=0), default=3, help="checks a game, at most (default 3)")
    p.add_argument(
        "--views",
        type=count(min=1),
        default=2,
        help="views at every VIEWS-th check (default 2)",
    )
    p.add_argument(
        "--python",
        type=count(min=0),
        default=50,
        metavar="K",
        help="compare every K-th game (by seed) with the Python backend, decision by decision; 0: none "
        "(default 50)",
    )
    p.add_argument("--max-decisions", type=count(min=1), default=5000, help="stop a game after this many")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")


def run_soak(args: argparse.Namespace) -> int:
    plan = Plan(args.game, args.backend, args.every, args.most, args.views, args.python, args.max_decisions)
    s = setup(plan)  # the base game: an author error stops the run here
    seeds = range(args.seed, args.seed + args.games)
    for k in sorted({seed % len(s.configurations) for seed in seeds}):
        s.engines(k)  # compiled and built here, once: the workers load them from the caches
    cpu = time.process_time() + _children_cpu()  # from here: the builds are not counted
    batch = map_seeds(play, plan, seeds, jobs=args.jobs)
    totals = Totals()
    for o in batch.results:
        totals.add(o)
    used = time.process_time() + _children_cpu() - cpu
    if args.json:
        out: dict[str, Any] = {"game": args.game, "plan": asdict(plan), **asdict(totals)}
        out["backends"] = sorted(totals.backends)
        out["interrupted"] = batch.interrupted
        out["configurations"] = s.labels
        out["cpu_seconds"] = round(used, 1)
        print(json.dumps(out, indent=1))
    else:
        print("\n".join(report_lines(plan, s.labels, totals, args.seed, used)))
    for failure in totals.failures[:SHOWN_FAILURES]:
        print(f"FAILED {failure}", file=sys.stderr)
    if len(totals.failures) > SHOWN_FAILURES:
        print(f"... and {len(totals.failures) - SHOWN_FAILURES} more failures", file=sys.stderr)
    return 1 if totals.failures or batch.interrupted else 0


def _children_cpu() -> float:
    """CPU seconds of the child processes this one waited for: workers, compilers (Unix)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def report_lines(plan: Plan, labels: list[str], t: Totals, first: int, cpu: float) -> list[str]:
    """The run's figures, in words."""
    backends = ", ".join(sorted(t.backends)) or plan.backend
    python = f"1 game in {plan.python} (seed divisible by {plan.python})" if plan.python else "no game"
    return [
        f"soak {plan.game}: {t.games} games (seeds {first}-{first + t.games - 1}) on the {backends} backend",
        f"configurations: {', '.join(labels)}",
        f"checked: a decision with chance 1/{plan.every} (at most {plan.most} a game) and the end; views at "
        f"1 check in {plan.views}; {python} against Python",
        f"{t.finished} finished, {t.decisions} decisions; {t.saves} save/load, {t.views} views, "
        f"{t.swaps} swap tests, {t.played_on} clones and loads played on, {t.replays} replays, "
        f"{t.compared_games} games ({t.compared} decisions) compared with Python",
        f"{len(t.failures)} failures; {cpu:.1f} s CPU ({t.games / max(cpu, 1e-9):.1f} games per CPU second)",
    ]
