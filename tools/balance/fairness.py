"""Is a seat favoured? Wins by seat and by turn position, one test over all of them, and per-seat
intervals corrected for the many seats.

A *seat* is a place at the table: the player's name (a colour in Porta Nigra), the same in every
game. Who plays first is the game's business (Porta Nigra and Glory to Rome draw the start player),
so a seat is not a turn position. The *turn position* of a player is counted from the seat that
made the game's first decision (position 1, the start player), then on in seat order (position 2
is the next seat, ...).

The test over all seats together is Pearson's chi-square on the sole wins by seat against equal
shares (n - 1 degrees of freedom), on the games with a sole winner: a tied or unfinished game says
nothing about which seat is favoured and is left out (the numbers of each are given). Each seat's
own test is the exact binomial test of its share of those wins against 1/n, with Holm's correction
over the seats; its interval is the Wilson interval at level 1 - 0.05/n (Bonferroni), so the n
intervals hold together with 95 % confidence.
"""

from __future__ import annotations

from typing import Any

from tabula.balance.match import GameRecord
from tabula.balance.stats import binomial_two_sided, chi2_uniform, holm_adjusted, wilson
from tabula.balance.stats import normal_sf as _normal_sf

ALPHA = 0.05


def _z_for(level: float) -> float:
    """The normal quantile z with P(|Z| > z) = 1 - level (bisection: no scipy needed)."""
    lo, hi = 0.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if 2 * _normal_sf(mid) > 1 - level:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def position_of(rec: GameRecord, seat: int) -> int:
    """The turn position (0: the start player) of `seat` in this game."""
    n = len(rec.names)
    first = rec.first if rec.first >= 0 else 0
    return (seat - first) % n


def fairness(records: list[GameRecord], by: str) -> dict[str, Any]:
    """Sole wins by seat (`by` 'seat') or by turn position ('position'): the chi-square test over
    all of them, and each one's share with a simultaneous interval and a Holm-corrected test."""
    n = len(records[0].names) if records else 0
    wins = [0] * n
    sole = ties = 0
    for rec in records:
        if len(rec.winners) == 1:
            sole += 1
            w = rec.winners[0]
            wins[w if by == "seat" else position_of(rec, w)] += 1
        elif rec.winners:
            ties += 1
    stat, df, p = chi2_uniform(wins)
    z = _z_for(1 - ALPHA / max(n, 1))
    raw = [binomial_two_sided(w, sole, 1 / n) for w in wins] if n else []
    rows = [
        {"index": i, "wins": w, "share": wilson(w, sole, z).as_dict(), "p": q, "p_holm": h}
        for i, (w, q, h) in enumerate(zip(wins, raw, holm_adjusted(raw), strict=True))
    ]
    return {
        "by": by,
        "games": len(records),
        "sole_wins": sole,
        "ties": ties,
        "unfinished": len(records) - sole - ties,
        "chi2": stat,
        "df": df,
        "p": p,
        "favoured": p <= ALPHA,
        "rows": rows,
    }


def ordinal(i: int) -> str:
    k = i + 1
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def fairness_lines(data: dict[str, Any], names: list[str]) -> list[str]:
    """The text: which a seat is, the test over all seats, each seat and each turn position."""
    seat, pos = data["fairness_seat"], data["fairness_position"]
    n = len(seat["rows"])
    out = [
        "",
        f"seat fairness: {seat['sole_wins']} games with a sole winner ({seat['ties']} tied, "
        f"{seat['unfinished']} unfinished: left out of these tests)",
        '  a "seat" is a place at the table (a player\'s name), not a turn position: the 1st to play is',
        "  the seat that made the game's first decision, the others follow in seat order",
    ]
    if not seat["sole_wins"]:  # no game to test: a table of zeros would read as a finding
        return out[:2]
    for label, d in (("all seats together:", seat), ("all turn positions together:", pos)):
        what = "seat" if d["by"] == "seat" else "turn position"
        verdict = f"a {what} is favoured" if d["favoured"] else f"no {what} shown favoured"
        out.append(f"  {label:<29} chi-square {d['chi2']:.2f}, {d['df']} df, p={d['p']:.2g}: {verdict}")
    out.append(f"  {'':<16} {'wins':>5} {'share [95% CI, simultaneous]':>30} {'p (Holm)':>9}")
    for d in (seat, pos):
        for r in d["rows"]:
            i = r["index"]
            label = (
                f"seat {i} {names[i] if i < len(names) else ''}"
                if d["by"] == "seat"
                else f"{ordinal(i)} to play"
            )
            s = r["share"]
            share = f"{s['rate']:.1%} [{s['low']:.1%}, {s['high']:.1%}]"
            out.append(f"  {label:<16} {r['wins']:>5} {share:>30} {r['p_holm']:>9.2g}")
    out.append(
        f"  intervals: Wilson at {1 - ALPHA / max(n, 1):.1%} each (Bonferroni over {n}: 95 % together); "
        f"p: exact binomial test against 1/{n}, Holm's correction over {n}"
    )
    return out
