"""The `tabula` command: argument parsing, dispatch to the subcommands, and error reporting.

The subcommands and the modules that run them are listed in `tabula.cli.commands`; only the one
that runs is imported, so `tabula --help` and `tabula --version` start at once. Exit codes
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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from tabula.cli.commands import COMMANDS, Handler, add_full, add_stub

if TYPE_CHECKING:
    from tabula.interpreter.base.source import Diagnostic

EXIT_OK = 0
EXIT_FAILED = 1  # an author error in a file, a rule that failed while running, a failed scenario
EXIT_USAGE = 2  # a bad call: argparse errors, CliError, an unknown game, pack or option (is_call_error)
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


def version() -> str:
    from importlib import metadata

    try:
        return metadata.version("tabula")
    except metadata.PackageNotFoundError:
        from tabula import __version__

        return __version__


class VersionAction(argparse.Action):
    """`--version`: the version read only when asked for (reading package metadata takes time)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(f"tabula {version()}")
        parser.exit()


# ------------------------------------------------------------------ parser


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line: `command` (the subcommand about to run) is defined with all its
    arguments, the others by their name and help line only (see tabula.cli.commands)."""
    parser = argparse.ArgumentParser(
        prog="tabula",
        description="Tabula: rules-as-data board games.",
        epilog="exit codes: 0 ok, 1 an author error or a failed rule or scenario, 2 a bad call "
        "(see docs/cli.md)",
    )
    parser.add_argument("--version", action=VersionAction, help="show program's version number and exit")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="compile games afresh, without the compile cache (also TABULA_NO_CACHE=1)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, entry in COMMANDS.items():
        (add_full if name == command else add_stub)(sub, name, entry)
    return parser


# ------------------------------------------------------------------ main


def dispatch(args: argparse.Namespace) -> int:
    """Run the subcommand; author errors become messages and exit code 1, bad calls exit code 2."""
    from tabula.common import CliError, is_call_error, runtime_error_text
    from tabula.interpreter.base.source import AuthorError, Diagnostic, Span
    from tabula.interpreter.run.runtime import GameRuntimeError

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
    from tabula.common import diagnostic_json, print_json

    print_json(
        {
            "ok": False,
            "errors": [diagnostic_json(d) for d in diagnostics if d.severity == "error"],
            "warnings": [diagnostic_json(d) for d in diagnostics if d.severity == "warning"],
        }
    )


@contextmanager
def safe_output() -> Iterator[None]:
    """stdout and stderr through the terminal sanitiser while a command runs: a game's names, a file's
    lines and a player's name print with their control and bidi characters escaped."""
    from tabula.interpreter.base.terminal import SafeStream

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(out), SafeStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tabula` console command; returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    # the first word that is not an option is the subcommand (tabula's own options take no value)
    command = next((w for w in words if not w.startswith("-")), None)
    args = build_parser(command).parse_args(words)
    if args.no_cache:
        from tabula.interpreter.compile.python import cache

        cache.disable()
    from tabula.interpreter.loading import reuse_loaded

    with nullcontext() if COMMANDS[args.command].screen else safe_output():
        try:
            with reuse_loaded():  # a command asks for its game several times: loaded once
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
