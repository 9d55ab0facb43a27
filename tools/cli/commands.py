"""The table of `tabula`'s subcommands: each one's help line, where its arguments are defined and the
function that runs it, both named as `module:function` and imported only when that subcommand runs.

Why names and not functions: `tabula --help` and `tabula --version` must start in a blink, and most
subcommands' modules import the engine, the bots, the statistics or the web app. `tabula --help`
lists every subcommand from this table alone; `tabula SUB ...` (and `tabula SUB --help`) imports
SUB's argument definitions, and its module when it runs. The arguments of the commands that live in
tabula.cli are defined here; simulate, compare, rules and serve define theirs beside their code.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Any, NamedTuple

SubParsers = argparse._SubParsersAction  # the object `add_subparsers` returns
Handler = Callable[[argparse.Namespace], int]
GAME_HELP = "a bundled game name or a game folder"
JSON_HELP = "print the result as JSON"


class Command(NamedTuple):
    help: str
    run: str  # module:function, called with the parsed arguments; returns the exit code
    arguments: str  # module:function, adding the subcommand's arguments to its parser
    description: str | None = None  # the first line of `tabula SUB --help` (default: the help line)
    common: bool = True  # takes --option, --variant and --with
    # draws its own screen (rich) and escapes the game's texts itself; every other command's stdout and
    # stderr go through the terminal sanitiser (tabula.interpreter.base.terminal)
    screen: bool = False


def named(ref: str) -> Any:
    """The object `module:function` names (the module imported now)."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def lazy(ref: str) -> Handler:
    """A subcommand's handler imported when it runs: `tabula check` need not import the play
    screen, the web app or the bots (a warm start is mostly imports)."""

    def handler(args: argparse.Namespace) -> int:
        run: Handler = named(ref)
        return run(args)

    return handler


def common_options() -> argparse.ArgumentParser:
    from tabula.common import Once, parse_option

    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--option",
        action="append",
        type=parse_option,
        metavar="KEY=VALUE",
        default=[],
        help="set a rules option (VALUE is a YAML scalar); repeatable",
    )
    parent.add_argument(
        "--variant", action=Once, metavar="NAME", help="a variant shipped with the game, or a pack file"
    )
    parent.add_argument(
        "--with",
        dest="expansions",
        action="append",
        default=[],
        metavar="EXPANSION",
        help="an expansion shipped with the game, or a pack file; repeatable",
    )
    return parent


def add_stub(sub: SubParsers[argparse.ArgumentParser], name: str, command: Command) -> None:
    """A subcommand that will not run: its name and help line, for `tabula --help`."""
    sub.add_parser(name, help=command.help)


def add_full(sub: SubParsers[argparse.ArgumentParser], name: str, command: Command) -> None:
    """The subcommand about to run, with all its arguments."""
    parser = sub.add_parser(
        name,
        help=command.help,
        description=command.description or command.help,
        parents=[common_options()] if command.common else [],
    )
    parser.set_defaults(run=lazy(command.run))
    named(command.arguments)(parser)


# ------------------------------------------------------------------ arguments defined here


def bot_spec(text: str) -> str:
    """A --bot value checked at parse time (tabula.bots.spec), in canonical form."""
    from tabula.bots.spec import BotSpecError, parse_bot_spec

    try:
        return parse_bot_spec(text).text
    except BotSpecError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def play_arguments(p: argparse.ArgumentParser) -> None:
    from tabula.common import count, seed
    from tabula.interpreter.base.limits import MAX_DECISIONS

    p.add_argument("game", metavar="GAME", help=GAME_HELP)
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
        "--max-decisions",
        type=count(min=1),
        default=MAX_DECISIONS,
        help=f"stop the game after this many decisions, yours and the bots' (default {MAX_DECISIONS})",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        help="write the game as a scenario file (at its end, or on quit)",
    )


def verify_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders, or game names")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument(
        "--backend",
        choices=["python", "native"],
        default="python",
        help="the engine backend (a scenario's paused, watched and logged states run on Python)",
    )


def game_arguments(p: argparse.ArgumentParser) -> None:
    """GAME and --json: variants, options."""
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)


def check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP + " (diagnostics included)")
    p.add_argument(
        "--native",
        action="store_true",
        help="also list every construct the native backend does not hold yet (file:line:col)",
    )


def coverage_arguments(p: argparse.ArgumentParser) -> None:
    from tabula.common import count, seed

    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--games", type=count(min=0), default=0, help="also play this many random games")
    p.add_argument("--players", type=count(min=1), help="players in the random games (default: the minimum)")
    p.add_argument("--seed", type=seed, default=1, help="seed of the first random game")
    p.add_argument("--json", action="store_true", help=JSON_HELP)


def compile_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--dump", metavar="DIR", required=True, help="folder to write GAME.py into")


def schema_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", nargs="?", choices=["game", "scenario", "pack"], default="game")


def trace_arguments(p: argparse.ArgumentParser) -> None:
    from tabula.common import count, seed

    tsub = p.add_subparsers(dest="trace_command", required=True, metavar="record|check")
    rec = tsub.add_parser("record", help="record random games", parents=[common_options()])
    rec.add_argument("game", metavar="GAME", help=GAME_HELP)
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


def bench_arguments(p: argparse.ArgumentParser) -> None:
    from tabula.common import count

    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument(
        "--players",
        type=count(min=1),
        nargs="+",
        help="player counts (default: those of 2 3 4 the game allows)",
    )
    p.add_argument(
        "--games", type=count(min=1), default=20, help="random games per player count (default 20)"
    )
    p.add_argument("--against", metavar="REF", help="also measure this git commit and show the ratio")
    p.add_argument(
        "--backend",
        choices=["python", "native"],
        default="native",
        help="the engine backend to measure (default native where the game is held and a C compiler is "
        "found, else python: one line says why)",
    )
    p.add_argument(
        "--against-backend",
        choices=["python", "native"],
        help="also measure this backend in the same run and show the ratio (e.g. --backend native "
        "--against-backend python)",
    )
    p.add_argument(
        "--search",
        metavar="BOT",
        help="measure a search bot instead (e.g. ismcts:0.1s): its playouts a decision at fixed positions "
        "(every 5th decision of the random games, 10 a game)",
    )
    p.add_argument("--rounds", type=count(min=1), default=3, help="alternate runs per side, best kept")
    p.add_argument(
        "--instructions",
        action="store_true",
        help="count machine instructions per decision instead (valgrind): steady on a busy machine",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")


# ------------------------------------------------------------------ the table

HERE = "tabula.cli.commands"
INFO = "tabula.cli.info"
COMMANDS: dict[str, Command] = {  # in the order `tabula --help` lists them
    "play": Command(
        "play a game at the terminal against random bots",
        "tabula.play.command:run_play",
        f"{HERE}:play_arguments",
        screen=True,
    ),
    "simulate": Command(
        "games between bots and their statistics",
        "tabula.balance.simulate:run_simulate",
        "tabula.balance.simulate:add_simulate_arguments",
    ),
    "compare": Command(
        "two configurations of a game on the same seeds, compared",
        "tabula.balance.compare:run_compare",
        "tabula.balance.compare:add_compare_arguments",
    ),
    "verify": Command("run scenario files", "tabula.cli.verify:run_verify", f"{HERE}:verify_arguments"),
    "check": Command("load and check a game", f"{INFO}:run_check", f"{HERE}:check_arguments"),
    "coverage": Command(
        "which rules the scenarios (and random games) exercise",
        f"{INFO}:run_coverage",
        f"{HERE}:coverage_arguments",
    ),
    "variants": Command(
        "list the variants and expansions a game ships", f"{INFO}:run_variants", f"{HERE}:game_arguments"
    ),
    "options": Command(
        "list a game's rules options: name, type, default, description",
        f"{INFO}:run_options",
        f"{HERE}:game_arguments",
    ),
    "compile": Command(
        "compile a game; write its generated Python for reading",
        f"{INFO}:run_compile",
        f"{HERE}:compile_arguments",
    ),
    "schema": Command(
        "print the JSON Schema of game, scenario or pack files",
        f"{INFO}:run_schema",
        f"{HERE}:schema_arguments",
    ),
    "rules": Command(
        "a card reference from the data: numbers, text, abilities, where each is defined",
        "tabula.cli.rules:run_rules",
        "tabula.cli.rules:rules_arguments",
    ),
    "trace": Command(
        "record random games, or replay recorded ones to see whether the rules' behaviour moved",
        "tabula.dev.traces:run_trace",
        f"{HERE}:trace_arguments",
        "record random games (seed, choices, a state hash per decision), or replay them",
        common=False,
    ),
    "bench": Command(
        "how fast the engine plays a game (CPU time), against a commit",
        "tabula.dev.bench:run_bench",
        f"{HERE}:bench_arguments",
    ),
    "soak": Command(
        "many random games, each checked as played: saves, views, clones, replays, against Python",
        "tabula.dev.soak:run_soak",
        "tabula.dev.soak:soak_arguments",
        common=False,
    ),
    "serve": Command(
        "play a game in the browser (people and bots, undo, history, save/load, live reload)",
        "tabula.serve.command:run_serve",
        "tabula.serve.command:serve_arguments",
        "play a game in the browser: a local web app for people and bots",
        screen=True,
    ),
    "lsp": Command(
        "a Language Server Protocol server on stdio: diagnostics, completion, hover, definitions",
        "tabula.lsp.command:run_lsp",
        "tabula.lsp.command:lsp_arguments",
        "a Language Server Protocol server on stdin/stdout for game, pack and scenario files "
        "(the editor starts it: docs/editors.md)",
        common=False,
        screen=True,  # stdout carries JSON-RPC: no terminal sanitiser
    ),
}
