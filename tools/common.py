"""Helpers shared by the subcommands: rules options from the command line, loading, error text.

Every front end reports author mistakes the same way: an `AuthorError` is already rendered text; a
`GameRuntimeError` is shown as `file:line:col: error: message` with the source snippet and caret that
`tabula.interpreter.source.render` draws, so a rule that fails while playing points at its line.
"""

from __future__ import annotations

import argparse
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from tabula.interpreter.engine import load_game
from tabula.interpreter.model import CompiledGame
from tabula.interpreter.runtime import GameRuntimeError
from tabula.interpreter.source import Diagnostic, render


class CliError(Exception):
    """A mistake in how the tool was called (exit code 1, message on stderr, no traceback)."""


def parse_option(text: str) -> tuple[str, Any]:
    """`KEY=VALUE` with VALUE read as a YAML scalar (`3`, `true`, `red`, `"quoted text"`)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        value = YAML(typ="safe", pure=True).load(raw) if raw.strip() else None
    except YAMLError as err:
        raise argparse.ArgumentTypeError(f"option {key!r}: {raw!r} is not a YAML value ({err})") from err
    return key.strip(), value


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
    return load_game(game, options_dict(pairs) or None, variant, tuple(expansions or ()))


def runtime_error_text(err: GameRuntimeError) -> str:
    """`file:line:col: error: message`, then the snippet with a caret when the span is known."""
    if err.span is None:
        return f"error: {err.message}"
    span = err.span
    headline = f"{span.file}:{span.line}:{span.col}: error: {err.message}"
    snippet = render(Diagnostic("error", "runtime", err.message, span)).splitlines()[1:]
    return "\n".join([headline, *snippet])
