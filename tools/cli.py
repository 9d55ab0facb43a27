"""The `tabula` command: argument parsing, dispatch to the subcommands, and error reporting.

Subcommands: `check` (load and compile a game, run its setup for every player count, print warnings),
`play` (`tabula.play`), `serve` (`tabula.serve`), `simulate` (`tabula.simulate`), `verify`
(`tabula.verify`) and `schema` (the JSON Schema of game or scenario files). Exit codes: 0 success, 1 an
author error (rendered diagnostics, or `file:line:col: error: message` for a rule that failed while
running), a failed scenario or a bad call, 2 bad arguments (argparse), 70 an internal error (a short
message; `--debug` shows the traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from importlib import metadata

from tabula.common import CliError, load, parse_option, runtime_error_text
from tabula.interpreter.engine import Engine, find_game
from tabula.interpreter.overlay import list_packs
from tabula.interpreter.runtime import GameRuntimeError
from tabula.interpreter.schema import game_json_schema, scenario_json_schema
from tabula.interpreter.source import AuthorError, Diagnostic, render
from tabula.play import run_play
from tabula.simulate import run_simulate
from tabula.verify import run_verify

Handler = Callable[[argparse.Namespace], int]
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE
FALLBACK_VERSION = "0.1.0"  # when the package metadata is not installed


def version() -> str:
    try:
        return metadata.version("tabula")
    except metadata.PackageNotFoundError:
        return FALLBACK_VERSION


# ------------------------------------------------------------------ check and schema


def run_check(args: argparse.Namespace) -> int:
    """Load the game, run its setup once for each player count, print `ok: ...` and the warnings."""
    game = load(args.game, args.option, args.variant, args.expansions)
    engine = Engine(game)
    for players in range(game.min_players, game.max_players + 1):
        engine.new_game(players, 0)
    packs = f" with {', '.join(game.packs)}" if game.packs else ""
    print(
        f"ok: {game.name}{packs} ({len(game.components)} components, {len(game.zones)} zones, "
        f"{len(game.actions)} actions)"
    )
    warnings: list[Diagnostic] = list(getattr(game, "check_warnings", []))
    for d in warnings:
        print()
        print(render(d))
    if warnings:
        print(f"\n{len(warnings)} warning{'s' if len(warnings) != 1 else ''}")
    return 0


def run_variants(args: argparse.Namespace) -> int:
    """List the variants and expansions a game ships."""
    packs = list_packs(find_game(args.game))
    if not packs:
        print("no variants or expansions")
    for name, kind, description, _ in packs:
        print(f"{name:24} {kind:10} {description}")
    return 0


def run_coverage(args: argparse.Namespace) -> int:
    """Rules coverage of a game's scenarios (and of random games with --games)."""
    from tabula.interpreter.coverage import measure, render

    report = measure(args.game, args.games, args.players, args.seed, args.variant, tuple(args.expansions))
    print(render(report))
    failed = [r for r in report.scenarios if not r.passed]
    if failed:
        print(f"\n{len(failed)} scenario(s) failed: run `tabula verify` for details", file=sys.stderr)
    return 1 if failed else 0


def run_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of game files or scenario files."""
    schema = game_json_schema() if args.kind == "game" else scenario_json_schema()
    print(json.dumps(schema, indent=2))
    return 0


# ------------------------------------------------------------------ parser


def common_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--option",
        action="append",
        type=parse_option,
        metavar="KEY=VALUE",
        default=[],
        help="set a rules option (VALUE is a YAML scalar); repeatable",
    )
    parent.add_argument("--variant", metavar="NAME", help="a variant shipped with the game, or a pack file")
    parent.add_argument(
        "--with",
        dest="expansions",
        action="append",
        default=[],
        metavar="EXPANSION",
        help="an expansion shipped with the game, or a pack file; repeatable",
    )
    return parent


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, handler: Handler, help_text: str
) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, help=help_text, description=help_text, parents=[common_options()])
    parser.set_defaults(run=handler)
    return parser


def add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "play", run_play, "play a game at the terminal against random bots")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
    p.add_argument("--seed", type=int, help="random seed (default: a fresh one, shown on screen)")
    p.add_argument("--bot", choices=["random"], default="random", help="the bots' strategy")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument("--names", help="player names in seat order, comma-separated")


def add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "simulate", run_simulate, "random playouts and their statistics")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
    p.add_argument("--games", type=int, default=100, help="number of playouts (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of game 0; game i uses seed+i (default 0)")
    p.add_argument(
        "--max-decisions",
        type=int,
        default=100_000,
        help="stop a playout after this many decisions (default 100000)",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


def add_trace(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tabula.traces import run_trace

    p = sub.add_parser(
        "trace",
        help="record random games, or replay recorded ones to see whether the rules' behaviour moved",
        description="record random games (seed, choices, a state hash per decision), or replay them",
    )
    p.set_defaults(run=run_trace)
    tsub = p.add_subparsers(dest="trace_command", required=True, metavar="record|check")
    rec = tsub.add_parser("record", help="record random games", parents=[common_options()])
    rec.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    rec.add_argument("--players", type=int, nargs="+", required=True, help="player counts (one file each)")
    rec.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    rec.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    rec.add_argument("--max-decisions", type=int, default=5000, help="stop a game after this many")
    rec.add_argument("--out", required=True, help="a folder (one file per player count) or a .jsonl.gz")
    chk = tsub.add_parser("check", help="replay trace files and report where they diverge")
    chk.add_argument("files", nargs="+", metavar="FILE", help="trace files (.jsonl.gz)")
    chk.add_argument("--first", type=int, help="replay only the first N games of each file")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabula", description="Tabula: rules-as-data board games.")
    parser.add_argument("--version", action="version", version=f"tabula {version()}")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = add_command(sub, "check", run_check, "load and check a game")
    check.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    add_play(sub)
    add_simulate(sub)
    verify = add_command(sub, "verify", run_verify, "run scenario files")
    verify.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    coverage = add_command(
        sub, "coverage", run_coverage, "which rules the scenarios (and random games) exercise"
    )
    coverage.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    coverage.add_argument("--games", type=int, default=0, help="also play this many random games")
    coverage.add_argument("--players", type=int, help="players in the random games (default: the minimum)")
    coverage.add_argument("--seed", type=int, default=1, help="seed of the first random game")
    variants = add_command(sub, "variants", run_variants, "list the variants and expansions a game ships")
    variants.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    add_trace(sub)
    from tabula.serve.command import add_serve

    add_serve(sub, [common_options()])
    schema = add_command(sub, "schema", run_schema, "print the JSON Schema of game or scenario files")
    schema.add_argument("kind", nargs="?", choices=["game", "scenario"], default="game")
    return parser


# ------------------------------------------------------------------ main


def dispatch(args: argparse.Namespace) -> int:
    """Run the subcommand; author errors and bad calls become messages and exit code 1."""
    handler: Handler = args.run
    try:
        return handler(args)
    except AuthorError as err:
        print(str(err), file=sys.stderr)
    except GameRuntimeError as err:
        print(runtime_error_text(err), file=sys.stderr)
    except CliError as err:
        print(f"tabula {args.command}: {err}", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tabula` console command; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return dispatch(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`tabula simulate ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as err:
        if args.debug:
            raise
        print(
            f"tabula: internal error: {type(err).__name__}: {err} (run with --debug for the traceback)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
