"""`--until-decided`: play games in batches and stop as soon as the answer is decided.

After every batch the run looks at confidence sequences (`tabula.balance.sequential`), which stay
valid however often it looks and whenever it stops. What is watched, each a per-game number in
[-1, 1] whose mean is 0 when nothing differs:

- simulate: for every seat and every turn position, its share of the game's win (1, 1/k in a k-way
  tie, 0) minus the mean share of the others (in [-1/(n-1), 1]: the shares add up to at most 1);
- compare: what it compares, for every seat: its share of the win in B minus in A on the same
  seed, and its score in B minus in A (unbounded: an asymptotic confidence sequence, see
  `tabula.balance.sequential.asymptotic_sequence`).

The run stops when one interval excludes 0 (a difference is found), or when every interval lies
within +-tolerance (no difference larger than the tolerance; for a score, `--score-tolerance`
points, by default the tolerance times the standard deviation of a seat's score in A), or at
`--max-games`; the family of intervals holds together at 95 % (Bonferroni over the watched
numbers). Compare then says the largest difference each family still allows, and the smallest one
its games would find with 80 % power (`compare.minimum_effects`).
"""

from __future__ import annotations

import argparse
from typing import Any

from tabula.balance.fairness import ordinal, position_of
from tabula.balance.match import GameRecord
from tabula.balance.sequential import Bounds, asymptotic_sequence, confidence_sequence, decide
from tabula.balance.stats import mean_interval

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


def compare_scores(ra: list[GameRecord], rb: list[GameRecord]) -> dict[str, list[float]]:
    """Per seat: its score in B minus in A, game by game on the same seeds."""
    n = len(ra[0].names)
    return {
        f"seat {s} ({ra[0].names[s]}) score B-A": [
            b.scores[s] - a.scores[s] for a, b in zip(ra, rb, strict=False)
        ]
        for s in range(n)
    }


def score_tolerance(ra: list[GameRecord], tolerance: float, given: float | None) -> float:
    """The score difference that counts as none: `given` points, else `tolerance` standard
    deviations of a seat's score in A (the seats' sds averaged)."""
    if given is not None:
        return given
    seats = len(ra[0].names)
    sds = [mean_interval([float(r.scores[s]) for r in ra])["sd"] for s in range(seats)]
    return tolerance * sum(sds) / seats


def compare_status(
    ra: list[GameRecord], rb: list[GameRecord], tolerance: float, given: float | None, planned: int
) -> dict[str, Any]:
    """compare's answer so far: every seat's win share and score, B - A, each with an interval
    valid at every look (Bonferroni over all of them), and whether that decides."""
    wins, scores = compare_watch(ra, rb), compare_scores(ra, rb)
    alpha = ALPHA / (len(wins) + len(scores))
    points = score_tolerance(ra, tolerance, given)
    bw = {k: confidence_sequence(v, -1.0, 1.0, alpha, planned) for k, v in wins.items()}
    bs = {k: asymptotic_sequence(v, alpha, planned) for k, v in scores.items()}
    dw, ds = decide(bw, 0.0, tolerance), decide(bs, 0.0, points)
    differs = dw.differs + ds.differs
    return {
        "method": METHOD + "; scores: asymptotic (Waudby-Smith et al. 2024)",
        "alpha": ALPHA,
        "tolerance": tolerance,
        "score_tolerance": points,
        "decided": bool(differs) or (dw.decided and ds.decided),
        "differs": differs,
        "largest": dw.largest,
        "largest_score": ds.largest,
        "games": len(ra),
        "intervals": {k: b.as_dict() for k, b in {**bw, **bs}.items()},
        "units": {**dict.fromkeys(bw, "share"), **dict.fromkeys(bs, "points")},
    }


def compare_status_line(st: dict[str, Any], smallest: dict[str, float]) -> str:
    """compare's sentence: the differences found, or how large a one the games rule out and the
    smallest they would have found (80 % power)."""
    n = st["games"]
    head = f"until decided ({st['method']}):"
    if st["differs"]:
        found = "; ".join(
            f"{k} {_amount(b, st['units'][k])}" for k, b in st["intervals"].items() if k in st["differs"]
        )
        return f"{head} decided after {n} games: B differs from A: {found}"
    stop = "decided" if st["decided"] else "not decided (--max-games reached)"
    return (
        f"{head} {stop}: no difference larger than {st['largest']:.1%} in a seat's win share or "
        f"{st['largest_score']:.2f} points in a seat's score found in {n} games; the smallest these "
        f"games would have found (80 % power): {smallest['win_share']:.1%}, {smallest['score']:.2f} points"
    )


def _amount(b: dict[str, float], unit: str) -> str:
    if unit == "share":
        return f"{b['mean']:+.1%} [{b['low']:+.1%}, {b['high']:+.1%}]"
    return f"{b['mean']:+.2f} [{b['low']:+.2f}, {b['high']:+.2f}] points"


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


def add_until_options(p: argparse.ArgumentParser, scores: bool = False) -> None:
    """--until-decided, --max-games, --tolerance; with `scores` (compare) --score-tolerance too."""
    p.add_argument(
        "--until-decided",
        action="store_true",
        help="play in batches of --games and stop when a confidence sequence decides (a seat, a turn "
        "position, or in compare a seat's win share or score B-A, differs from the rest; or none by "
        "more than --tolerance); see docs/balancing.md",
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
    if not scores:
        return
    p.add_argument(
        "--score-tolerance",
        type=float,
        default=None,
        metavar="POINTS",
        help="compare --until-decided: a score difference below POINTS counts as none (default: "
        "--tolerance times the standard deviation of a seat's score in A)",
    )
