"""Tabula's tools: the `tabula` command line (docs/cli.md) and what it runs, above the interpreter.

Folders in the order they may import each other (a lower one never imports a higher one): `common`
(loading games with rules options, argparse types, exit codes of author errors, error text, JSON) <
`bots` (random, greedy and search bots, by name) < `play` (a person at the terminal; the board one
seat sees) < `balance` (games between bots and their statistics), `serve` (the browser app) and `rl`
(OpenSpiel and PettingZoo adapters) < `dev` (benchmarks, traces, doc generation) < `cli` (the command
table, parsing and dispatch, and the small commands that tell about a game). `pytest_plugin` runs
scenario files under pytest.
"""

__version__ = "0.1.0"  # the version when the package metadata is not installed (`tabula --version`)
