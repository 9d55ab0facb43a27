"""`python -m tabula.rl GAME`: the sizes of a game's stable action index and observation tensor.

Prints one line per player count (`--players N` for one), and with `--layout` the index's blocks:
the choose block, then each window action with its parameters' universes, first index and size.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tabula.common import parse_option
from tabula.interpreter.base.source import AuthorError
from tabula.rl.actions import DEFAULT_NUMBERS, UnindexedChoice
from tabula.rl.match import Ruleset, Setup


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tabula.rl", description=__doc__.splitlines()[0])
    ap.add_argument("game", help="a bundled game's name or a game folder")
    ap.add_argument("--players", type=int, help="one player count (default: every one)")
    ap.add_argument("--variant", default="")
    ap.add_argument("--with", dest="expansions", action="append", default=[], metavar="EXPANSION")
    ap.add_argument("--option", action="append", type=parse_option, metavar="KEY=VALUE")
    ap.add_argument("--max-number", type=int, default=DEFAULT_NUMBERS[1])
    ap.add_argument("--layout", action="store_true", help="list the index's blocks")
    args = ap.parse_args(argv)
    options = tuple(sorted(dict(args.option or []).items()))
    numbers = (DEFAULT_NUMBERS[0], args.max_number)
    try:
        rules = Ruleset.get(Setup(args.game, args.variant, tuple(args.expansions), options, numbers))
    except AuthorError as err:
        print(err, file=sys.stderr)
        return 1
    except (UnindexedChoice, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    try:
        print_sizes(rules, args.players, args.layout)
    except BrokenPipeError:
        # the reader went away (`python -m tabula.rl GAME | head`): stop quietly, as `tabula` does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return 0


def print_sizes(rules: Ruleset, players: int | None, layout: bool) -> None:
    from tabula.rl.encoding import Encoder  # needs numpy (the rl extra)

    g, index = rules.game, rules.index
    print(f"{g.name}: {index.size} distinct actions ({index.values.size} for choose decisions)")
    counts = [players] if players else list(range(g.min_players, g.max_players + 1))
    for n in counts:
        enc = Encoder(g, n)
        pieces = ", ".join(f"{name} {width}" for name, width in enc.pieces)
        print(f"{n} players: observation of {enc.size} numbers ({pieces})")
    if layout:
        for block, first, size in index.layout():
            print(f"  {first:>7} {size:>7}  {block}")


if __name__ == "__main__":
    sys.exit(main())
