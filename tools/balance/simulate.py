"""`tabula simulate`: many games between bots, and what they say about the game.

Game i of a run with seed S is played with seed S+i (see `tabula.balance.match`), so `--seed S+i --games 1`
with the same bots replays exactly that game (when the bots' budgets are playouts). Games run on
`--jobs` worker processes or as Ray tasks (`tabula.balance.parallel`) with results in seed order, so the
output does not depend on how they were run. On a terminal a progress bar shows the rate and the
time left; Ctrl-C stops the run and prints the results of the games finished so far.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tabula.balance.export import check_out_path, write_out
from tabula.balance.match import Config, GameRecord, play_game
from tabula.balance.parallel import map_seeds
from tabula.balance.report import summary_lines
from tabula.balance.summary import header, summarize
from tabula.balance.until import add_until_options, simulate_watch, status
from tabula.bots.spec import BOT_KINDS, parse_bot_spec
from tabula.bots.spec import BotSpecError as _BotSpecError
from tabula.common import CliError, count, load, seed
from tabula.interpreter.base.terminal import shorten
from tabula.interpreter.engine import Engine

EXIT_INTERRUPTED = 130


def bot_specs(pairs: list[str], players: int) -> tuple[str, ...]:
    """`SEAT=KIND[:BUDGET]` flags (SEAT a 0-based seat or `all`) -> one canonical spec per seat."""
    specs = ["random"] * players
    for pair in pairs:
        seat, sep, spec = pair.partition("=")
        if not sep:
            raise CliError(f"--bot {pair}: expected SEAT=KIND[:BUDGET], e.g. 0=ismcts:0.25s")
        try:
            text = parse_bot_spec(spec).text
        except _BotSpecError as err:
            raise CliError(f"--bot {pair}: {err}") from None
        if seat == "all":
            specs = [text] * players
        elif seat.isdigit() and int(seat) < players:
            specs[int(seat)] = text
        else:
            raise CliError(f"--bot {pair}: seat must be 0..{players - 1} or 'all'")
    return tuple(specs)


def config_from(
    args: argparse.Namespace, announce: bool = True, said: set[str] | None = None
) -> tuple[Config, str, int]:
    """The run's configuration (checked: the game loads, the bots parse), its game name and players."""
    game = load(args.game, args.option, args.variant, args.expansions)
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        raise CliError(
            f"{shorten(game.name)} is for {game.min_players}-{game.max_players} players, not {players}"
        )
    config = Config(
        game=args.game,
        players=players,
        options=tuple(args.option or ()),
        variant=args.variant,
        expansions=tuple(args.expansions or ()),
        bots=bot_specs(args.bot or [], players),
        max_decisions=args.max_decisions,
        rotate=bool(getattr(args, "rotate_bots", False)),
        backend=getattr(args, "backend", None) or "native",
        lowest_wins=game.lowest_wins,
    )
    # the native backend asked for by name (or --debug): why Python plays, in one line, however
    # often the config is read; the default falls back quietly (a normal run shows no engine notice)
    asked = getattr(args, "backend", None) == "native" or getattr(args, "debug", False)
    if announce and asked and config.backend == "native":
        note = Engine(game, backend="native").backend_note
        if note and note not in (said if said is not None else set()):  # compare: once per note
            if said is not None:
                said.add(note)
            print(f"python backend: {note}", file=sys.stderr)
    return config, game.name, players


def default_bots(args: argparse.Namespace, games: int) -> tuple[str, GameRecord | None]:
    """Without any --bot: give every seat the default bot (`tabula.balance.defaults`) and say which
    and why; with one, nothing (seats not named play at random). Second: the record of the run's
    first game when a rule failed in the default bots' probe (it is that game)."""
    if args.bot:
        return "", None
    from tabula.balance.defaults import default_bot
    from tabula.balance.parallel import default_jobs

    config, _, _ = config_from(args, announce=False)
    spec, note, failure = default_bot(config, args.seed, games, args.jobs or default_jobs())
    args.bot = [f"all={spec}"]
    return note, failure


def bot_flags(specs: list[str]) -> list[str]:
    """`--bot` flags that seat exactly these bots (`all=` when every seat has the same)."""
    if len(set(specs)) == 1:
        return ["--bot", f"all={specs[0]}"]
    return [x for seat, spec in enumerate(specs) for x in ("--bot", f"{seat}={spec}")]


def replay_command(config: Config, rec: GameRecord) -> str:
    """The command that plays exactly this game again: every flag of the run, its seed, its seats."""
    parts = ["tabula", "simulate", config.game, "--players", str(config.players), "--games", "1"]
    parts += ["--seed", str(rec.seed)]
    if config.variant:
        parts += ["--variant", config.variant]
    for e in config.expansions:
        parts += ["--with", e]
    for k, v in config.options:
        parts += ["--option", f"{k}={json.dumps(v) if not isinstance(v, str) else v}"]
    parts += bot_flags(rec.bots)
    if config.max_decisions != 100_000:
        parts += ["--max-decisions", str(config.max_decisions)]
    return shlex.join(parts)


@contextmanager
def progress_bar(total: int, enabled: bool) -> Iterator[Callable[[GameRecord], None]]:
    """A rich progress bar (rate, ETA) on stderr while the games run; a no-op when not enabled."""
    if not enabled:
        yield lambda _rec: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    from rich.console import Console

    from tabula.interpreter.base.terminal import raw_stream

    started = time.perf_counter()
    # the bar draws terminal sequences itself: on the stream under the sanitiser (tabula.cli.main)
    with Progress(*columns, console=Console(file=raw_stream(sys.stderr)), transient=True) as bar:
        task = bar.add_task("games", total=total, rate="")

        def advance(_rec: GameRecord) -> None:
            done = bar.tasks[0].completed + 1
            rate = done / max(time.perf_counter() - started, 1e-9)
            bar.update(task, advance=1, rate=f"{rate:.1f} games/s")

        yield advance


def run_games(
    config: Config, seeds: list[int], args: argparse.Namespace
) -> tuple[list[GameRecord], bool, float]:
    """Play the games (with a progress bar on a terminal); the records in seed order."""
    interactive = sys.stderr.isatty() and sys.stdout.isatty() and not args.json
    started = time.perf_counter()
    with progress_bar(len(seeds), interactive) as advance:
        batch = map_seeds(play_game, config, seeds, args.jobs, ray_address(args), advance)
    return batch.results, batch.interrupted, time.perf_counter() - started


def ray_address(args: argparse.Namespace) -> str | None:
    ray: str | None = getattr(args, "ray", None)
    return ray


def report_failure(config: Config, rec: GameRecord, run_seed: int) -> None:
    """Where the rule failed, and how to replay exactly that game."""
    print(rec.error, file=sys.stderr)
    print(
        f"in game {rec.index} (game seed {rec.seed}) of the run with --seed {run_seed}; replay it with:\n"
        f"  {replay_command(config, rec)}",
        file=sys.stderr,
    )


def record_failure(config: Config, rec: GameRecord) -> str:
    """The failed game written as a scenario file from its record (its choices, the failing one last)."""
    from tabula.interpreter.scenarios.record import Recorder, record_failed_game

    recorder = Recorder(load(config.game, list(config.options), config.variant, list(config.expansions)))
    recorder.players, recorder.seed, recorder.steps = list(rec.names), rec.seed, list(rec.choices)
    return record_failed_game(recorder, rec.error or "", config.variant, list(config.expansions))


def play_until_decided(
    config: Config,
    args: argparse.Namespace,
    watch: Callable[[list[GameRecord]], dict[str, list[float]]],
    lo: float = -1.0,
) -> tuple[list[GameRecord], bool, float, dict[str, Any]]:
    """Batches of --games games until the watched confidence sequences (each number in [lo, 1])
    decide, or --max-games."""
    records: list[GameRecord] = []
    seconds = 0.0
    planned = max(args.games, min(args.max_games, 200))
    state: dict[str, Any] = {}
    while len(records) < args.max_games:
        size = min(args.games, args.max_games - len(records))
        seeds = [args.seed + len(records) + i for i in range(size)]
        batch, interrupted, spent = run_games(config, seeds, args)
        records += batch
        seconds += spent
        if interrupted or any(r.error for r in batch):
            return records, interrupted, seconds, state
        state = status(watch(records), args.tolerance, planned, lo)
        if state["decided"]:
            break
    return records, False, seconds, state


def check_card_kind(args: argparse.Namespace) -> None:
    """--cards TYPE must name a component type of the game."""
    if getattr(args, "cards", None) is None:
        return
    game = load(args.game, args.option, args.variant, args.expansions)
    types = sorted({c.type for c in game.components})
    if args.cards not in types:
        raise CliError(f"--cards {args.cards}: the game's card kinds are {', '.join(types)}")


def run_simulate(args: argparse.Namespace) -> int:
    """Play the games, print the summary (or JSON), write --out and --plot; 1 when a rule failed."""
    if args.games < 1:
        raise CliError("--games must be at least 1")
    out = check_out_path(args.out) if args.out else None
    plot_dir = Path(args.plot) if args.plot else None
    if plot_dir is not None:
        from tabula.balance.plots import check_plotting

        check_plotting()
    note, failure = default_bots(
        args, args.max_games if getattr(args, "until_decided", False) else args.games
    )
    decided: dict[str, Any] | None = None
    config, name, players = config_from(args, announce=failure is None)  # a failed game builds nothing
    check_card_kind(args)
    if failure is not None:
        records, interrupted, seconds = [failure], False, 0.0
    elif getattr(args, "until_decided", False):
        records, interrupted, seconds, decided = play_until_decided(
            config, args, simulate_watch, -1 / max(players - 1, 1)
        )
    else:
        records, interrupted, seconds = run_games(config, [args.seed + i for i in range(args.games)], args)
    failed = [r for r in records if r.error]
    if failed:
        report_failure(config, failed[0], args.seed)
        if not failed[0].in_playout:  # a playout's world is no position of the real game
            print(record_failure(config, failed[0]), file=sys.stderr)
        return 1
    head = {**header(config, name, players, args.seed, note), "cards_kind": args.cards}
    data = summarize(records, head, seconds, interrupted, args.cards)
    if decided is not None:
        data["until_decided"] = decided
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(summary_lines(data, records[0].names if records else [])))
    if out is not None:
        write_out(out, records)
    if plot_dir is not None and records:
        from tabula.balance.plots import simulate_plots

        page = simulate_plots(plot_dir, data, records)
        if not args.json:
            print(f"\nplots: {page}")
    return EXIT_INTERRUPTED if interrupted else 0


def add_run_options(p: argparse.ArgumentParser) -> None:
    """Flags shared by simulate and compare: players, games, seed, bots, limits, jobs, Ray."""
    p.add_argument("--players", type=count(min=1), help="number of players (default: the game's minimum)")
    p.add_argument("--games", type=count(min=1), default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=seed, default=0, help="seed of game 0; game i uses seed+i (default 0)")
    p.add_argument(
        "--max-decisions",
        type=count(min=1),
        default=100_000,
        help="stop a game after this many decisions (default 100000)",
    )
    p.add_argument(
        "--jobs",
        type=count(min=1),
        metavar="N",
        help="worker processes (default: all cores; 1: this process)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run the games as Ray tasks: a local Ray, or the cluster at ADDRESS (pip install -e '.[ray]')",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--plot", metavar="DIR", help="write PNG plots and an index.html page into DIR")
    p.add_argument(
        "--backend",
        choices=["python", "native"],
        default=None,
        help="native (the default): the games run in compiled C where the native backend holds the "
        "game and a C compiler is found, else on Python (asked for by name, or with --debug, one "
        "line says why); python: always Python",
    )


def add_bot_options(p: argparse.ArgumentParser) -> None:
    kinds = "; ".join(f"{k}: {v}" for k, v in BOT_KINDS.items())
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SEAT=KIND[:BUDGET]",
        help=f"the bot at a seat (0-based, or 'all'); without any --bot every seat gets the strongest bot "
        f"whose cost fits the run (said in the output), with one the other seats play at random. {kinds}. "
        "BUDGET: playouts (300) or CPU seconds per decision (0.25s); search bots also take :depth=N and "
        ":rollout=greedy; any bot takes :concede (it may offer or accept a concession)",
    )
    p.add_argument(
        "--rotate-bots",
        action="store_true",
        help="rotate the bots over the seats from game to game (game i moves every bot i seats on)",
    )


def add_simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    add_run_options(p)
    add_bot_options(p)
    add_until_options(p)
    p.add_argument("--out", metavar="FILE", help="one row per game: FILE.jsonl, FILE.csv or FILE.parquet")
    p.add_argument(
        "--cards",
        metavar="TYPE",
        help="the per-card tables for one card kind only (a component type of the game, e.g. order)",
    )
