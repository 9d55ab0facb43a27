"""What a finished game is worth measuring, in the game's own terms: its score parts and its numbers.

`score_parts` evaluates every part of the game's `presentation.score` (`{label, value}`, p bound) for
each player on the final state, plus `score_rest` (what the parts leave of the score) when the game
names it. `end_values` reads every counter (`name`, or `name.key` for counters with keys) and every
var that holds a number at the end: per player, and for the table. Booleans, texts, players and
components are not numbers and are left out. They are read from the true state after the game,
for the designer; no player's view is involved.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime

NUMERIC_VAR_TYPES = ("int", "float", "number")


def score_parts(engine: Engine, st: State) -> list[dict[str, float]]:
    """Each player's score parts (label -> value), the rest of the score under `score_rest`."""
    g = engine.game
    pres = g.presentation
    n = st["t"]["n"]
    out: list[dict[str, float]] = [{} for _ in range(n)]
    if not pres.score:
        return out
    rt = Runtime(g, st)
    totals = engine.scores(st)
    for p in range(n):
        rt.loc = {"p": p}
        for part in pres.score:
            try:
                value = rt.evaluate(part.value[0], None)
            except GameRuntimeError:
                continue  # a part that cannot be read on this state is left out, not guessed
            if _is_number(value):
                out[p][part.label] = value
        if pres.score_rest and len(out[p]) == len(pres.score):
            out[p][pres.score_rest] = totals[p] - sum(out[p].values())
    return out


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def end_values(engine: Engine, st: State) -> tuple[list[dict[str, float]], dict[str, float]]:
    """(per player, table): every counter and every var holding a number, by name."""
    g = engine.game
    n = st["t"]["n"]
    players: list[dict[str, float]] = [{} for _ in range(n)]
    table: dict[str, float] = {}
    for c in g.counters.values():
        for k in range(c.width):
            name = f"{c.name}.{c.keys[k]}" if c.keys else c.name
            if c.per_player:
                for p in range(n):
                    players[p][name] = int(st["c"][c.base + p * c.width + k])
            else:
                table[name] = int(st["c"][c.base + k])
    for name, var in g.vars.items():
        if var.type not in NUMERIC_VAR_TYPES:
            continue
        value = st["v"][name]
        if var.per_player:
            for p in range(n):
                if _is_number(value[p]):
                    players[p][name] = value[p]
        elif _is_number(value):
            table[name] = value
    return players, table
