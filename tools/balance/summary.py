"""What a run's games say, as plain data: the numbers behind `simulate` and `compare`.

Win rates count sole wins; a game won jointly is a tie for each of its winners and is counted on
its own. `by_seat` groups players by seat, `by_bot` by bot spec (the figure that matters when bots
rotate over the seats). In the game's own terms: each part of `presentation.score`, every counter
and numeric var at the end (per seat and overall, mean with a 95 % interval), and how games ended
(which end check fired). The events tables say, for every action and every component, how often it
was taken, gained or chosen and how much more often the players who did won (`tabula.balance.lift`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from tabula.balance.cards import card_table, scored_table
from tabula.balance.defaults import RANDOM_WARNING
from tabula.balance.fairness import fairness
from tabula.balance.lift import lift_table
from tabula.balance.match import Config, GameRecord
from tabula.balance.stats import describe, mean_interval, wilson

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


def _won(rec: GameRecord, p: int) -> bool:
    return outcome(rec, p) == "win"


def _actions(rec: GameRecord, p: int) -> dict[str, int]:
    # a record without per-player events (a failed game, or one read from an older export) has none
    return rec.actions[p] if p < len(rec.actions) else {}


def _cards(rec: GameRecord, p: int) -> dict[str, int]:
    """The components player p gained or named in a choice, with how often."""
    out = Counter(rec.gained[p] if p < len(rec.gained) else {})
    out.update(rec.used[p] if p < len(rec.used) else {})
    return dict(out)


def events_table(records: list[GameRecord], kind: str) -> list[dict[str, Any]]:
    """For each action (kind 'actions') or component (kind 'gained'): how often, the win rates of
    the players who did it at least once and of those who never did, and the lift by seat
    (`tabula.balance.lift`)."""
    return lift_table(records, _actions if kind == "actions" else _cards, _won)


def measure_table(
    records: list[GameRecord], read: Callable[[GameRecord], list[dict[str, float]]]
) -> list[dict[str, Any]]:
    """For each name a game measures per player (a score part, a counter): the mean with its 95 %
    interval over every player, and per seat. Names in the order the game gives them."""
    names: list[str] = []
    for rec in records:
        for values in read(rec):
            names.extend(k for k in values if k not in names)
    seats = len(records[0].names) if records else 0
    rows = []
    for name in names:
        per_seat = [[read(r)[p][name] for r in records if name in read(r)[p]] for p in range(seats)]
        rows.append(
            {
                "name": name,
                "overall": mean_interval([v for vs in per_seat for v in vs]),
                "seats": [mean_interval(vs) for vs in per_seat],
            }
        )
    return rows


def table_values(records: list[GameRecord]) -> list[dict[str, Any]]:
    """The table's counters and numeric vars at the end: mean and 95 % interval."""
    names: list[str] = []
    for rec in records:
        names.extend(k for k in rec.table if k not in names)
    return [
        {"name": n, "overall": mean_interval([r.table[n] for r in records if n in r.table])} for n in names
    ]


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


def header(config: Config, game_name: str, players: int, seed: int, note: str = "") -> dict[str, Any]:
    return {
        "bot_choice": note,
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
    records: list[GameRecord],
    head: dict[str, Any],
    seconds: float,
    interrupted: bool = False,
    cards: str | None = None,
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
        "fairness_seat": fairness(finished, "seat"),
        "fairness_position": fairness(finished, "position"),
        "by_bot": {b: _results(items) for b, items in sorted(_group(records, "bot").items())},
        "bot_effort": bot_effort(records),
        "margin": describe(margins),
        "turns": describe([r.turns for r in records]),
        "decisions": describe([r.decisions for r in records]),
        "endings": ends,
        "score_parts": measure_table(finished, lambda r: r.parts),
        "end_values": measure_table(finished, lambda r: r.counters),
        "table_values": table_values(finished),
        "warnings": warnings_for(ends, len(records)),
        "notes": [RANDOM_WARNING] if records and all(set(r.bots) == {"random"} for r in records) else [],
        "actions": events_table(records, "actions"),
        "components": events_table(records, "gained"),
        "cards": card_table(records, cards),
        "scored_with": scored_table(finished, cards),
        "errors": [{"index": r.index, "seed": r.seed, "error": r.error} for r in records if r.error],
    }
