"""Tabula's command-line tools: `tabula check | play | simulate | verify | schema` (see `tabula.cli`).

Modules: `cli` (argument parsing, dispatch and error reporting), `common` (loading games with rules
options, formatting located runtime errors), `screen` (a player's view of a state as text or `rich`
panels), `play` (a person at the terminal against random bots), `simulate` (random playouts and their
statistics) and `verify` (running scenario files through `tabula.interpreter.scenario`).
"""

__version__ = "0.1.0"
