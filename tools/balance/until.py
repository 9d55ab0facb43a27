"""`--until-decided`: play games in batches and stop as soon as the answer is decided.

After every batch the run looks at confidence sequences (`tabula.balance.sequential`), which stay
valid however often it looks and whenever it stops. What is watched, each a per-game number in
[-1, 1] whose mean is 0 when nothing differs:

- simulate: for every seat and every turn position, its share of the game's win (1, 1/k in a k-way
  tie, 0) minus the mean share of the others (in [-1/(n-1), 1]: the shares add up to at most 1);
- compare: for every seat, its share of the win in B minus in A on the same seed.

The run stops when one interval excludes 0 (a difference is found), or when every interval lies
within +-tolerance (no difference larger than the tolerance), or at `--max-games`; the family of
intervals holds together at 95 % (Bonferroni over the watched numbers).
"""

from __future__ import annotations

import argparse
from typing import Any

from tabula.balance.fairness import ordinal, position_of
from tabula.balance.match import GameRecord
from tabula.balance.sequential import Bounds, confidence_sequence, decide

ALPHA = 0.05
METHOD = "confidence sequences (normal mixture, Howard et al. 2021), valid at every look"


def share(rec: GameRecord, p: int) -> float:
    """Player p's share of the game's win: 1 alone, 1/k in a k-way tie, 0 otherwise."""
    return 1 / len(rec.winners) if p in rec.winners else 0.0


def _versus_others(values: list[float], i: int) -> float:
    others = [v for j, v in enumerate(values) if j != i]
    return values[i] - sum(others) / len(others)


def simulate_watch(records: list[GameRecord]) -> dict[str, list[float]]:
    """Per seat and per turn position: each game's win share minus the others' mean share."""
    n = len(records[0].names)
    out: dict[str, list[float]] = {}
    for s in range(n):
        out[f"seat {s} ({records[0].names[s]})"] = [
            _versus_others([share(r, p) for p in range(n)], s) for r in records
        ]
    for k in range(n):
        out[f"{ordinal(k)} to play"] = [
            _versus_others([share(r, p) for p in sorted(range(n), key=lambda q: position_of(r, q))], k)
            for r in records
        ]
    return out


def compare_watch(ra: list[GameRecord], rb: list[GameRecord]) -> dict[str, list[float]]:
    """Per seat: its win share in B minus in A, game by game on the same seeds."""
    n = len(ra[0].names)
    return {
        f"seat {s} ({ra[0].names[s]}) win share B-A": [
            share(b, s) - share(a, s) for a, b in zip(ra, rb, strict=False)
        ]
        for s in range(n)
    }


def status(watch: dict[str, list[float]], tolerance: float, planned: int, lo: float = -1.0) -> dict[str, Any]:
    """The intervals of every watched number (each in [lo, 1]) and whether the answer is decided."""
    alpha = ALPHA / max(len(watch), 1)
    bounds: dict[str, Bounds] = {k: confidence_sequence(v, lo, 1.0, alpha, planned) for k, v in watch.items()}
    d = decide(bounds, 0.0, tolerance)
    return {
        "method": METHOD,
        "alpha": ALPHA,
        "tolerance": tolerance,
        "decided": d.decided,
        "differs": d.differs,
        "largest": d.largest,
        "games": len(next(iter(watch.values()), [])),
        "intervals": {k: b.as_dict() for k, b in bounds.items()},
    }


def status_line(st: dict[str, Any], what: str) -> str:
    """One sentence: what was found, after how many games, with the intervals that say it."""
    n = st["games"]
    head = f"until decided ({st['method']}):"
    if st["differs"]:
        found = "; ".join(
            f"{k} {b['mean']:+.1%} [{b['low']:+.1%}, {b['high']:+.1%}]"
            for k, b in st["intervals"].items()
            if k in st["differs"]
        )
        return f"{head} decided after {n} games: {what} differs: {found}"
    stop = "decided" if st["decided"] else "not decided (--max-games reached)"
    return f"{head} {stop}: no {what} difference larger than {st['largest']:.1%} found in {n} games"


def add_until_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--until-decided",
        action="store_true",
        help="play in batches of --games and stop when a confidence sequence decides (a seat, a turn "
        "position, or in compare a seat's win share B-A, differs from the rest; or none by more "
        "than --tolerance); see docs/balancing.md",
    )
    p.add_argument(
        "--max-games",
        type=int,
        default=1000,
        metavar="N",
        help="with --until-decided: at most N games (default 1000)",
    )
    p.add_argument(
        "--tolerance",
        type=float,
        default=0.1,
        metavar="X",
        help="with --until-decided: a difference of win share below X counts as none (default 0.1)",
    )
