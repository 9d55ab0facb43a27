"""Helpers shared by the subcommands: rules options and numbers from the command line (argparse
types), loading, exit codes of author errors, error text and JSON output.

Every front end reports author mistakes the same way: an `AuthorError` is already rendered text; a
`GameRuntimeError` is shown as `file:line:col: error: message` with the source snippet and caret that
`tabula.interpreter.base.source.render` draws, so a rule that fails while playing points at its line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabula.interpreter.base.source import AuthorError, Diagnostic, render
from tabula.interpreter.base.terminal import safe, safe_json
from tabula.interpreter.load.options import OptionText

if TYPE_CHECKING:  # the engine is imported when a game is loaded: `tabula --help` needs none of it
    from tabula.interpreter.model.game import CompiledGame
    from tabula.interpreter.run.runtime import GameRuntimeError


class CliError(Exception):
    """A mistake in how the tool was called (exit code 2, message on stderr, no traceback)."""


# Diagnostics about the call itself rather than a file: an unknown game, a player count the game does
# not support, a pack that is not there or of the other kind, and (unlocated) options from --option.
CALL_CODES = frozenset({"G001", "G002", "V000", "V005", "V006"})
CALL_CODES_UNLOCATED = frozenset({"O001", "O002"})


def is_call_error(err: AuthorError) -> bool:
    """Whether every error of an AuthorError is about the command line (exit 2), not a file (exit 1)."""
    errors = err.report.errors
    return bool(errors) and all(
        d.code in CALL_CODES or (d.code in CALL_CODES_UNLOCATED and d.span is None) for d in errors
    )


def parse_option(text: str) -> tuple[str, OptionText]:
    """`KEY=VALUE`; VALUE is text, read as the option's declared type when the game is loaded
    (`tricks=3`, `surrender_allowed=false`, `petition_sizes=2,3`); quotes around it are dropped."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return key.strip(), OptionText(value)


class Once(argparse.Action):
    """An option given at most once (`--variant`): a second one is a bad call naming both, not a
    silent override of the first."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        earlier = getattr(namespace, self.dest, None)
        if earlier is not None:
            raise argparse.ArgumentError(
                self, f"given twice ({earlier!r} and {values!r}): a game is played with one variant"
            )
        setattr(namespace, self.dest, values)


def count(min: int = 0) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `min` (`--games -1` is refused as what it is)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
        if value < min:
            raise argparse.ArgumentTypeError(f"must be at least {min}, not {value}")
        return value

    parse.__name__ = f"count(min={min})"
    return parse


seed = count(min=0)
"""An argparse type: a random seed (a whole number, 0 or more)."""


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    """A diagnostic as plain data (`--json`): severity, code, message, file, line, col, ..., hint."""
    data: dict[str, Any] = {"severity": d.severity, "code": d.code, "message": d.message}
    if d.span is not None:
        s = d.span
        data.update(file=s.file, line=s.line, col=s.col, end_line=s.end_line, end_col=s.end_col)
    data["hint"] = d.hint
    return data


def print_json(data: Any) -> None:
    """`data` as JSON on stdout (control and bidi characters as JSON escapes, read back unchanged)."""
    print(safe_json(json.dumps(data, indent=2, ensure_ascii=False)))


def options_dict(pairs: list[tuple[str, Any]] | None) -> dict[str, Any]:
    """The `--option` pairs as a dict (a later value for the same key wins)."""
    return dict(pairs or [])


def load(
    game: str,
    pairs: list[tuple[str, Any]] | None,
    variant: str | None = None,
    expansions: list[str] | None = None,
) -> CompiledGame:
    """Load a bundled game or a game folder with the chosen rules options."""
    from tabula.interpreter.engine import load_game

    return load_game(game, options_dict(pairs) or None, variant, tuple(expansions or ()))


def chosen_options(game: CompiledGame, pairs: list[tuple[str, Any]] | None) -> dict[str, Any]:
    """The `--option` values as the loaded game read them (typed: `tricks=3` is the number 3)."""
    return {key: game.options[key] for key in options_dict(pairs)}


def runtime_error_text(err: GameRuntimeError) -> str:
    """`file:line:col: error: message` (`error[R002]` when a budget or limit was exceeded), then the
    snippet with a caret when the span is known."""
    level = f"error[{err.code}]" if err.code else "error"  # R002/R003: the budget or the limit
    if err.span is None:
        return f"{level}: {safe(err.message)}"
    span = err.span
    headline = f"{safe(span.file)}:{span.line}:{span.col}: {level}: {safe(err.message)}"
    snippet = render(Diagnostic("error", err.code or "runtime", err.message, span)).splitlines()[1:]
    return "\n".join([headline, *snippet])
