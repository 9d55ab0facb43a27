"""The `tabula` command: argument parsing, dispatch to the subcommands, and error reporting.

Subcommands: `check`, `variants`, `options`, `coverage`, `schema` (`tabula.cli.info`), `play`
(`tabula.play.command`), `serve` (`tabula.serve`), `simulate` (`tabula.balance.simulate`), `compare`
(`tabula.balance.compare`), `verify` (`tabula.cli.verify`), `rules` (`tabula.cli.rules`) and `trace`
(`tabula.dev.traces`). Exit codes
(docs/cli.md): 0 success; 1 an author error in a file (rendered diagnostics, or
`file:line:col: error: message` for a rule that failed while running) or a failed scenario; 2 a bad
call (argparse errors, `CliError`, an unknown game, pack or rules option, an option value of the
wrong type, an unsupported player count); 70 an internal error (a short message; `--debug` shows the
traceback); 130 interrupted; 141 the reader of the output went away.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import metadata

from tabula.cli.info import run_check, run_compile, run_coverage, run_options, run_schema, run_variants
from tabula.common import (
    CliError,
    count,
    diagnostic_json,
    is_call_error,
    parse_option,
    print_json,
    runtime_error_text,
    seed,
)
from tabula.interpreter.base.source import AuthorError, Diagnostic, Span
from tabula.interpreter.run.runtime import GameRuntimeError

Handler = Callable[[argparse.Namespace], int]


def lazy(module: str, name: str) -> Handler:
    """A subcommand's handler imported when it runs: `tabula check` need not import the play
    screen, the web app or the bots (a warm start is mostly imports)."""

    def handler(args: argparse.Namespace) -> int:
        import importlib

        run: Handler = getattr(importlib.import_module(module), name)
        return run(args)

    return handler


run_play = lazy("tabula.play.command", "run_play")
run_simulate = lazy("tabula.balance.simulate", "run_simulate")
run_verify = lazy("tabula.cli.verify", "run_verify")
EXIT_OK = 0
EXIT_FAILED = 1  # an author error in a file, a rule that failed while running, a failed scenario
EXIT_USAGE = 2  # a bad call: argparse errors, CliError, an unknown game, pack or option (is_call_error)
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE
FALLBACK_VERSION = "0.1.0"  # when the package metadata is not installed


def version() -> str:
    try:
        return metadata.version("tabula")
    except metadata.PackageNotFoundError:
        return FALLBACK_VERSION


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


def bot_spec(text: str) -> str:
    """A --bot value checked at parse time (tabula.bots), in canonical form."""
    from tabula.bots import BotSpecError, parse_bot_spec

    try:
        return parse_bot_spec(text).text
    except BotSpecError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "play", run_play, "play a game at the terminal against random bots")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=count(min=1), help="number of players (default: the game's minimum)")
    p.add_argument("--seed", type=seed, help="random seed (default: a fresh one, shown on screen)")
    p.add_argument(
        "--bot",
        type=bot_spec,
        default="random",
        metavar="KIND[:BUDGET]",
        help="the bots' strategy: random (default), greedy, mcts or ismcts, e.g. ismcts:0.5s",
    )
    p.add_argument("--seat", type=count(min=0), default=0, help="your seat, 0-based (default 0)")
    p.add_argument("--names", help="player names in seat order, comma-separated")
    p.add_argument(
        "--record",
        metavar="FILE",
        help="write the game as a scenario file (at its end, or on quit)",
    )


def add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tabula.balance.simulate import add_simulate_arguments

    p = add_command(sub, "simulate", run_simulate, "games between bots and their statistics")
    add_simulate_arguments(p)


def add_compare(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tabula.balance.compare import add_compare_arguments, run_compare

    p = add_command(sub, "compare", run_compare, "two configurations of a game on the same seeds, compared")
    add_compare_arguments(p)


def add_trace(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tabula.dev.traces import run_trace

    p = sub.add_parser(
        "trace",
        help="record random games, or replay recorded ones to see whether the rules' behaviour moved",
        description="record random games (seed, choices, a state hash per decision), or replay them",
    )
    p.set_defaults(run=run_trace)
    tsub = p.add_subparsers(dest="trace_command", required=True, metavar="record|check")
    rec = tsub.add_parser("record", help="record random games", parents=[common_options()])
    rec.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    rec.add_argument(
        "--players", type=count(min=1), nargs="+", required=True, help="player counts (one file each)"
    )
    rec.add_argument("--games", type=count(min=1), default=200, help="games per player count (default 200)")
    rec.add_argument("--seed", type=seed, default=1, help="seed of the first game (default 1)")
    rec.add_argument("--max-decisions", type=count(min=1), default=5000, help="stop a game after this many")
    rec.add_argument("--out", required=True, help="a folder (one file per player count) or a .jsonl.gz")
    chk = tsub.add_parser("check", help="replay trace files and report where they diverge")
    chk.add_argument("files", nargs="+", metavar="FILE", help="trace files (.jsonl.gz)")
    chk.add_argument("--first", type=count(min=1), help="replay only the first N games of each file")


def add_bench(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tabula.dev.bench import run_bench

    p = add_command(sub, "bench", run_bench, "how fast the engine plays a game (CPU time), against a commit")
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=count(min=1), nargs="+", help="player counts (default 2 3 4)")
    p.add_argument(
        "--games", type=count(min=1), default=20, help="random games per player count (default 20)"
    )
    p.add_argument("--against", metavar="REF", help="also measure this git commit and show the ratio")
    p.add_argument("--rounds", type=count(min=1), default=3, help="alternate runs per side, best kept")
    p.add_argument(
        "--instructions",
        action="store_true",
        help="count machine instructions per decision instead (valgrind): steady on a busy machine",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")


def add_info(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    json_help = "print the result as JSON"
    check = add_command(sub, "check", run_check, "load and check a game")
    check.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    check.add_argument("--json", action="store_true", help=json_help + " (diagnostics included)")
    coverage = add_command(
        sub, "coverage", run_coverage, "which rules the scenarios (and random games) exercise"
    )
    coverage.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    coverage.add_argument("--games", type=count(min=0), default=0, help="also play this many random games")
    coverage.add_argument(
        "--players", type=count(min=1), help="players in the random games (default: the minimum)"
    )
    coverage.add_argument("--seed", type=seed, default=1, help="seed of the first random game")
    coverage.add_argument("--json", action="store_true", help=json_help)
    variants = add_command(sub, "variants", run_variants, "list the variants and expansions a game ships")
    variants.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    variants.add_argument("--json", action="store_true", help=json_help)
    options = add_command(
        sub, "options", run_options, "list a game's rules options: name, type, default, description"
    )
    options.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    options.add_argument("--json", action="store_true", help=json_help)
    compile_ = add_command(
        sub, "compile", run_compile, "compile a game; write its generated Python for reading"
    )
    compile_.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    compile_.add_argument("--dump", metavar="DIR", required=True, help="folder to write GAME.py into")
    schema = add_command(sub, "schema", run_schema, "print the JSON Schema of game, scenario or pack files")
    schema.add_argument("kind", nargs="?", choices=["game", "scenario", "pack"], default="game")


# the subcommands whose argument definitions import much (bots, statistics, the web app): defined
# in full only when they are the command being run (or none is: `tabula --help`)
HEAVY = {
    "simulate": "games between bots and their statistics",
    "compare": "two configurations of a game on the same seeds, compared",
    "serve": "play a game in the browser (people and bots, undo, history, save/load, live reload)",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; `command` (the subcommand about to run) spares defining the
    arguments of the heavy subcommands that will not run."""
    parser = argparse.ArgumentParser(
        prog="tabula",
        description="Tabula: rules-as-data board games.",
        epilog="exit codes: 0 ok, 1 an author error or a failed rule or scenario, 2 a bad call "
        "(see docs/cli.md)",
    )
    parser.add_argument("--version", action="version", version=f"tabula {version()}")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="compile games afresh, without the compile cache (also TABULA_NO_CACHE=1)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    full = {name for name in HEAVY if command in (None, name)}
    for name, help_text in HEAVY.items():
        if name not in full:
            sub.add_parser(name, help=help_text)
    add_play(sub)
    if "simulate" in full:
        add_simulate(sub)
    if "compare" in full:
        add_compare(sub)
    verify = add_command(sub, "verify", run_verify, "run scenario files")
    verify.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders, or game names")
    verify.add_argument("--json", action="store_true", help="print the results as JSON")
    add_info(sub)
    from tabula.cli.rules import add_rules

    add_rules(sub, common_options())
    add_trace(sub)
    add_bench(sub)
    if "serve" in full:
        from tabula.serve.command import add_serve

        add_serve(sub, [common_options()])
    return parser


# ------------------------------------------------------------------ main


def dispatch(args: argparse.Namespace) -> int:
    """Run the subcommand; author errors become messages and exit code 1, bad calls exit code 2."""
    handler: Handler = args.run
    as_json = bool(getattr(args, "json", False))
    try:
        return handler(args)
    except AuthorError as err:
        code = EXIT_USAGE if is_call_error(err) else EXIT_FAILED
        if as_json:
            print_failure(err.report.diagnostics)
        else:
            print(str(err), file=sys.stderr)
        return code
    except GameRuntimeError as err:
        if as_json:
            span = err.span if isinstance(err.span, Span) else None
            print_failure([Diagnostic("error", err.code or "runtime", err.message, span)])
        else:
            print(runtime_error_text(err), file=sys.stderr)
        return EXIT_FAILED
    except CliError as err:
        print(f"tabula {args.command}: {err}", file=sys.stderr)
        return EXIT_USAGE


def print_failure(diagnostics: Sequence[Diagnostic]) -> None:
    """`--json` output of a command that stopped on author errors."""
    print_json(
        {
            "ok": False,
            "errors": [diagnostic_json(d) for d in diagnostics if d.severity == "error"],
            "warnings": [diagnostic_json(d) for d in diagnostics if d.severity == "warning"],
        }
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tabula` console command; returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    # the first word that is not an option is the subcommand (tabula's own options take no value)
    command = next((w for w in words if not w.startswith("-")), None)
    args = build_parser(command).parse_args(words)
    if args.no_cache:
        from tabula.interpreter.compile.python import cache

        cache.disable()
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
