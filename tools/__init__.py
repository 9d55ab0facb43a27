"""Tabula's command-line tools: `tabula check | play | simulate | verify | coverage | variants | options |
schema | trace` (see `tabula.cli.main` and docs/cli.md).

Modules: `cli` (argument parsing, dispatch, exit codes and error reporting), `common` (loading games
with rules options, argparse types for numbers, which errors are bad calls, located runtime errors,
JSON), `info` (check, variants, options, coverage, schema), `screen` (a player's view of a state as
text or `rich` panels), `play` (a person at the terminal against random bots), `simulate` (random
playouts and their statistics), `verify` (running scenario files through
`tabula.interpreter.scenarios`) and `traces` (recorded random games).
"""

__version__ = "0.1.0"
