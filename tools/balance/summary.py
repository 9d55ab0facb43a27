"""What a run's games say, as plain data: the numbers behind `simulate` and `compare`.

Win rates count sole wins; a game won jointly is a tie for each of its winners and is counted on
its own. `by_seat` groups players by seat, `by_bot` by bot spec (the figure that matters when bots
rotate over the seats). The events table says, for every action and every component, how often it
was taken or gained and how often the players who did won, against those who did not.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from tabula.balance.match import Config, GameRecord
from tabula.balance.stats import describe, wilson

CONCESSION_WARNING = 0.5


def outcome(rec: GameRecord, p: int) -> str:
    """win, tie or loss for player p (an unfinished or failed game is a loss for everyone)."""
    if p not in rec.winners:
        return "loss"
    return "win" if len(rec.winners) == 1 else "tie"


def _group(records: list[GameRecord], key: str) -> dict[Any, list[tuple[GameRecord, int]]]:
    groups: dict[Any, list[tuple[GameRecord, int]]] = defaultdict(list)
    for rec in records:
        for p in range(len(rec.names)):
            groups[p if key == "seat" else rec.bots[p]].append((rec, p))
    return groups


def _results(items: list[tuple[GameRecord, int]]) -> dict[str, Any]:
    n = len(items)
    counts = Counter(outcome(rec, p) for rec, p in items)
    return {
        "games": n,
        "wins": counts["win"],
        "ties": counts["tie"],
        "losses": counts["loss"],
        "win_rate": wilson(counts["win"], n).as_dict(),
        "tie_rate": wilson(counts["tie"], n).as_dict(),
        "score": describe([rec.scores[p] for rec, p in items]),
    }


def bot_effort(records: list[GameRecord]) -> dict[str, dict[str, float]]:
    """Per bot spec: decisions searched, playouts per searched decision, CPU seconds per decision/game."""
    out: dict[str, dict[str, float]] = {}
    for spec in sorted({b for rec in records for b in rec.bots}):
        searched = playouts = 0.0
        seconds = 0.0
        seats = 0
        for rec in records:
            for p, b in enumerate(rec.bots):
                if b == spec and p < len(rec.bot_stats):
                    st = rec.bot_stats[p]
                    searched += st["searched"]
                    playouts += st["playouts"]
                    seconds += st["seconds"]
                    seats += 1
        out[spec] = {
            "decisions_searched": searched,
            "playouts_per_decision": playouts / searched if searched else 0.0,
            "seconds_per_decision": seconds / searched if searched else 0.0,
            "seconds_per_game": seconds / seats if seats else 0.0,
        }
    return out


def events_table(records: list[GameRecord], kind: str) -> list[dict[str, Any]]:
    """For each action (kind 'actions') or component name (kind 'gained'): how often, and the win
    rate of the players who did it at least once against those who never did."""
    totals: Counter[str] = Counter()
    did: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # name -> [player-games, wins]
    player_games = 0
    wins = 0
    for rec in records:
        per_player = rec.actions if kind == "actions" else rec.gained
        for p, events in enumerate(per_player):
            won = outcome(rec, p) == "win"
            player_games += 1
            wins += won
            for name, count in events.items():
                totals[name] += count
                did[name][0] += 1
                did[name][1] += won
    rows = []
    for name, count in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])):
        n_did, w_did = did[name]
        rows.append(
            {
                "name": name,
                "count": count,
                "per_game": count / max(len(records), 1),
                "players": n_did,
                "win_rate_did": wilson(w_did, n_did).as_dict(),
                "win_rate_not": wilson(wins - w_did, player_games - n_did).as_dict(),
            }
        )
    return rows


def endings(records: Iterable[GameRecord]) -> dict[str, int]:
    return dict(Counter(rec.ending for rec in records).most_common())


def warnings_for(ends: dict[str, int], games: int) -> list[str]:
    """A warning when most games end by a declared winner (a concession?) or at the decision cap."""
    out = []
    for label, test in (
        ("a declared winner (a concession or an instant win)", "declared winner"),
        ("the decision limit (unfinished)", "unfinished"),
    ):
        n = sum(v for k, v in ends.items() if k.startswith(test))
        if games and n / games > CONCESSION_WARNING:
            out.append(
                f"{n / games:.0%} of the games ended by {label}: the figures say little about the full game"
            )
    return out


def header(config: Config, game_name: str, players: int, seed: int) -> dict[str, Any]:
    return {
        "game": game_name,
        "variant": config.variant,
        "expansions": list(config.expansions),
        "options": dict(config.options),
        "players": players,
        "bots": list(config.bots),
        "rotate_bots": config.rotate,
        "seed": seed,
        "ranking": "lowest" if config.lowest_wins else "highest",
    }


def summarize(
    records: list[GameRecord], head: dict[str, Any], seconds: float, interrupted: bool = False
) -> dict[str, Any]:
    """Everything `simulate` prints, as JSON-ready data."""
    finished = [r for r in records if r.error is None]
    sign = -1 if head.get("ranking") == "lowest" else 1  # a margin is how far the winner is ahead
    margins = [
        sign * r.scores[r.winners[0]]
        - max((sign * s for q, s in enumerate(r.scores) if q != r.winners[0]), default=0)
        for r in finished
        if len(r.winners) == 1
    ]
    decisions = sum(r.decisions for r in records)
    ends = endings(records)
    return {
        **head,
        "games": len(records),
        "interrupted": interrupted,
        "seconds": seconds,
        "games_per_second": len(records) / seconds if seconds > 0 else 0.0,
        "decisions_per_second": decisions / seconds if seconds > 0 else 0.0,
        "seats": [
            {"seat": s, "name": items[0][0].names[s], **_results(items)}
            for s, items in sorted(_group(records, "seat").items())
        ],
        "by_bot": {b: _results(items) for b, items in sorted(_group(records, "bot").items())},
        "bot_effort": bot_effort(records),
        "margin": describe(margins),
        "turns": describe([r.turns for r in records]),
        "decisions": describe([r.decisions for r in records]),
        "endings": ends,
        "warnings": warnings_for(ends, len(records)),
        "actions": events_table(records, "actions"),
        "components": events_table(records, "gained"),
        "errors": [{"index": r.index, "seed": r.seed, "error": r.error} for r in records if r.error],
    }
