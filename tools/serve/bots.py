"""The bots of `tabula serve`: one function, `pick`, so that other strategies plug in by their kind.

A bot decides from the seat's view only. `random` picks uniformly among the legal choices with a
generator seeded by the seat and its view, so the same position gives the same move (a saved game
replays exactly) and no hidden information can steer it.
"""

from __future__ import annotations

import hashlib
import json
import random

from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State

HUMAN = "human"
BOT_KINDS = ("random",)
SEAT_KINDS = (HUMAN, *BOT_KINDS)


def pick(engine: Engine, state: State, seat: int, kind: str = "random") -> str:
    """The choice id the bot of `kind` at `seat` makes now (it must be that seat's decision)."""
    if kind not in BOT_KINDS:
        raise ValueError(f"no bot of kind '{kind}' (bots: {', '.join(BOT_KINDS)})")
    view = engine.view(state, seat)
    ids: list[str] = view["dec"]["ids"]
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()
    return random.Random(f"{kind}:{seat}:{digest}").choice(ids)
