"""Which card or action goes with winning: win-rate lift by seat, corrected for many comparisons.

For one name (an action, or a component gained or named by a choice) every player-game is either
one where the player did it at least once or one where they did not. The lift is the win rate of
the first minus that of the second, computed within each seat and combined with Mantel-Haenszel
weights (n_did * n_not / n per seat), so a seat that wins more and also does something more often
does not make that thing look strong. Its 95 % interval and two-sided p-value come from the
stratified normal approximation (Agresti-Caffo adjusted for the interval); the p-values of a table
are corrected with Benjamini-Hochberg (false-discovery rate 5 %) and a row is `flagged` when it
survives.

A row with fewer than MIN_GROUP player-games on either side (a rare card) is `too_few`: it is not
tested (its interval would say nothing) and comes after the tested rows.
A name that nearly every player does in nearly every game (at least FOLD_SHARE of the player-games)
leaves no one to compare with: its row is folded (counted, not listed first; `--json` keeps it).
Lift measures association, not cause: a card good players pick looks strong too.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from tabula.balance.match import GameRecord
from tabula.balance.stats import Z95, benjamini_hochberg, normal_sf, wilson

FOLD_SHARE = 0.95
FDR = 0.05
MIN_GROUP = 10  # player-games on each side (did, did not) below which a row is "too few games"

Events = Callable[[GameRecord, int], dict[str, int]]


def _strata(records: list[GameRecord], events: Events, won: Callable[[GameRecord, int], bool]) -> Any:
    """name -> seat -> [did games, did wins]; seat -> [games, wins]; name -> total count."""
    did: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    totals: dict[str, int] = defaultdict(int)
    for rec in records:
        for p in range(len(rec.names)):
            w = won(rec, p)
            seats[p][0] += 1
            seats[p][1] += w
            for name, count in events(rec, p).items():
                totals[name] += count
                did[name][p][0] += 1
                did[name][p][1] += w
    return did, seats, totals


def stratified_lift(did: dict[int, list[int]], seats: dict[int, list[int]]) -> dict[str, float]:
    """Mantel-Haenszel difference of win rates (did minus not) over the seats, interval and p."""
    weight = est = var = var0 = 0.0
    for seat, (n, wins) in seats.items():
        nd, wd = did.get(seat, (0, 0))
        nn, wn = n - nd, wins - wd
        if nd == 0 or nn == 0:
            continue
        w = nd * nn / n
        pd, pn, pooled = wd / nd, wn / nn, wins / n
        weight += w
        est += w * (pd - pn)
        # the interval's variance from Agresti-Caffo proportions (a win and a loss added to each
        # group), so that a seat whose players all won, or all lost, does not give a zero width
        ad, an = (wd + 1) / (nd + 2), (wn + 1) / (nn + 2)
        var += w * w * (ad * (1 - ad) / (nd + 2) + an * (1 - an) / (nn + 2))
        var0 += w * w * pooled * (1 - pooled) * (1 / nd + 1 / nn)
    if weight == 0:
        return {"lift": 0.0, "low": -1.0, "high": 1.0, "p": 1.0}
    lift = est / weight
    se = math.sqrt(var) / weight
    se0 = math.sqrt(var0) / weight
    p = 1.0 if se0 == 0 else min(1.0, 2 * normal_sf(abs(lift) / se0))
    # a difference of two win rates lies in [-1, 1]: the normal interval is cut there
    return {"lift": lift, "low": max(-1.0, lift - Z95 * se), "high": min(1.0, lift + Z95 * se), "p": p}


def lift_table(
    records: list[GameRecord], events: Events, won: Callable[[GameRecord, int], bool]
) -> list[dict[str, Any]]:
    """One row per name: counts, win rates if done / not, lift by seat, the corrected flag; flagged
    rows first, then the others, each by p-value; folded rows last."""
    did, seats, totals = _strata(records, events, won)
    player_games = sum(n for n, _ in seats.values())
    all_wins = sum(w for _, w in seats.values())
    rows = []
    for name, count in totals.items():
        n_did = sum(v[0] for v in did[name].values())
        w_did = sum(v[1] for v in did[name].values())
        folded = n_did >= FOLD_SHARE * player_games
        rows.append(
            {
                "name": name,
                "count": count,
                "per_game": count / max(len(records), 1),
                "players": n_did,
                "share": n_did / max(player_games, 1),
                "win_rate_did": wilson(w_did, n_did).as_dict(),
                "win_rate_not": wilson(all_wins - w_did, player_games - n_did).as_dict(),
                "lift": stratified_lift(did[name], seats),
                "folded": folded,
                "too_few": not folded and min(n_did, player_games - n_did) < MIN_GROUP,
                "flagged": False,
            }
        )
    tested = [r for r in rows if not r["folded"] and not r["too_few"]]
    for row, hit in zip(tested, benjamini_hochberg([r["lift"]["p"] for r in tested], FDR), strict=True):
        row["flagged"] = hit
    rows.sort(key=lambda r: (r["folded"], r["too_few"], not r["flagged"], r["lift"]["p"], r["name"]))
    return rows
