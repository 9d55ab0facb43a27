"""`tabula simulate`: many random playouts of one game, and what they say about it.

Game i of a run with seed S is played with seed S+i, and its bots draw uniformly from their own
generator seeded from S+i as well, so `--seed S+i --games 1` replays exactly that game. Playouts use
`apply_inplace` and keep no log. The summary gives speed (games/s, decisions/s by wall time), mean
score and win rate by seat (a shared win counts 1/k for each of the k winners), mean turns and
decisions, and how the games ended; `--json` prints the same numbers as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tabula.common import CliError, load, runtime_error_text
from tabula.interpreter.engine import Engine
from tabula.interpreter.runtime import GameRuntimeError
from tabula.interpreter.scenario_record import record_failed_playout
from tabula.interpreter.state import State
from tabula.play import bot_generator


@dataclass
class Outcome:
    """The result of one playout."""

    scores: list[int]
    winners: list[int]
    turns: int
    decisions: int
    ending: str


@dataclass
class Stats:
    """Totals over all playouts."""

    names: list[str]
    games: int = 0
    seconds: float = 0.0
    score_sum: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    turns: int = 0
    decisions: int = 0
    endings: Counter[str] = field(default_factory=Counter)

    def add(self, o: Outcome) -> None:
        if not self.score_sum:
            self.score_sum = [0.0] * len(o.scores)
            self.wins = [0.0] * len(o.scores)
        self.games += 1
        for p, score in enumerate(o.scores):
            self.score_sum[p] += score
        for p in o.winners:
            self.wins[p] += 1 / len(o.winners)
        self.turns += o.turns
        self.decisions += o.decisions
        self.endings[o.ending] += 1


def ending_of(st: State, finished: bool) -> str:
    """How a game ended: declared winner, an ending mode with its end checks, an end check, or normal."""
    t = st["t"]
    fired = f" ({', '.join(t['fired'])})" if t["fired"] else ""
    if not finished:
        return "unfinished (decision limit)"
    if t["winners"] is not None:
        return "declared winner"
    if t["ending"] is not None:
        return f"{t['ending']}{fired}"
    return f"end check{fired}" if fired else "normal"


def playout(engine: Engine, players: int, seed: int, limit: int) -> Outcome:
    """One game with random bots; at most `limit` decisions."""
    st = engine.new_game(players, seed)
    gen = bot_generator(seed)
    n = 0
    while st["dec"] is not None and n < limit:
        engine.apply_inplace(st, engine.random_choice(st, gen))
        n += 1
    finished = st["dec"] is None
    winners = engine.winners(st) if finished else []
    return Outcome(engine.scores(st), winners, int(st["t"]["turn"]), n, ending_of(st, finished))


def summary(stats: Stats, game: str, seed: int) -> dict[str, Any]:
    """The numbers of a run as plain data."""
    g = max(stats.games, 1)
    secs = max(stats.seconds, 1e-9)
    seats = (
        [
            {"seat": p, "name": name, "mean_score": stats.score_sum[p] / g, "win_rate": stats.wins[p] / g}
            for p, name in enumerate(stats.names)
        ]
        if stats.score_sum
        else []
    )
    return {
        "game": game,
        "players": len(stats.names),
        "games": stats.games,
        "seed": seed,
        "seconds": stats.seconds,
        "games_per_second": stats.games / secs,
        "decisions_per_second": stats.decisions / secs,
        "seats": seats,
        "mean_turns": stats.turns / g,
        "mean_decisions": stats.decisions / g,
        "endings": dict(stats.endings.most_common()),
    }


def print_summary(data: dict[str, Any]) -> None:
    print(f"{data['game']}: {data['games']} games, {data['players']} players, seed {data['seed']}")
    print(
        f"{data['games_per_second']:.1f} games/s, {data['decisions_per_second']:.0f} decisions/s "
        f"({data['seconds']:.2f} s)"
    )
    print(f"mean turns {data['mean_turns']:.1f}, mean decisions {data['mean_decisions']:.1f}")
    print(f"{'seat':<16} {'mean score':>10} {'win rate':>9}")
    for s in data["seats"]:
        print(f"{s['seat']} {s['name']:<14} {s['mean_score']:>10.2f} {s['win_rate']:>8.1%}")
    print("endings:")
    for ending, n in data["endings"].items():
        print(f"  {ending}: {n} ({n / max(data['games'], 1):.0%})")


def report_failure(err: GameRuntimeError, args: argparse.Namespace, players: int, index: int) -> None:
    """Where the rule failed, and how to replay exactly that game."""
    seed = args.seed + index
    print(runtime_error_text(err), file=sys.stderr)
    print(
        f"in game {index} (game seed {seed}) of the run with --seed {args.seed}; replay it with:\n"
        f"  tabula simulate {args.game} --players {players} --games 1 --seed {seed}",
        file=sys.stderr,
    )


def run_simulate(args: argparse.Namespace) -> int:
    """Run the playouts and print the summary; exit 1 when a rule fails during a playout."""
    if args.games < 1:
        raise CliError("--games must be at least 1")
    game = load(args.game, args.option, args.variant, args.expansions)
    engine = Engine(game)
    players = args.players if args.players is not None else game.min_players
    seed = args.seed
    stats = Stats(engine.new_game(players, seed)["names"])
    start = time.perf_counter()
    for i in range(args.games):
        try:
            stats.add(playout(engine, players, seed + i, args.max_decisions))
        except GameRuntimeError as err:
            report_failure(err, args, players, i)
            again = partial(playout, players=players, seed=seed + i, limit=args.max_decisions)
            print(record_failed_playout(engine.game, again, args.variant, args.expansions), file=sys.stderr)
            return 1
    stats.seconds = time.perf_counter() - start
    data = summary(stats, game.name, seed)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print_summary(data)
    return 0
