"""What a finished game is worth measuring, in the game's own terms: its score parts and its numbers.

`score_parts` evaluates every part of the game's `presentation.score` (`{label, value}`, p bound) for
each player on the final state, plus `score_rest` (what the parts leave of the score) when the game
names it. `scored_with` reads, for each card a player holds at the end, the points of that player's
score that depend on it. `end_values` reads every counter (`name`, or `name.key` for counters with
keys) and every var that holds a number at the end: per player, and for the table. Booleans, texts,
players and components are not numbers and are left out. They are read from the true state after
the game, for the designer; no player's view is involved.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State, clone
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


def scored_with(engine: Engine, st: State, held: list[list[tuple[int, str]]]) -> list[dict[str, float]]:
    """Per player, for the components `held[p]` (component, row key) in that player's zones at the end:
    the points of the player's final score that depend on each, summed by row key.

    A card's points are the score minus the score recomputed with that one card taken out of play: out
    of its zone (-1, as if never dealt) and with every mark back at its declared default, so a flag
    such as `completed` or a list such as `active_for` no longer speaks for it (a card whose ability
    is active by a mark stops counting with it). Everything else stays: a part that counts a zone
    counts one card fewer, a majority may change hands. Points kept in counters during play do not
    depend on a card at the end and are not counted; a score that cannot be read without the card
    leaves it out (not guessed). Copies alike (one name, one unordered zone, the same marks, both
    revealed or not) are worth the same and are computed once."""
    g = engine.game
    if g.score is None:
        return [{} for _ in held]
    work = clone(st)
    out: list[dict[str, float]] = [{} for _ in held]
    ordered = [layout.ordered for layout, _ in g.zone_instances()]
    names = [comp.name for comp in g.components]
    for p, cards in enumerate(held):
        try:
            full = _score(engine, work, p)
        except GameRuntimeError:
            continue
        alike: dict[str, Any] = {}
        for c, key in cards:
            z = work["loc"][c]
            marks = [work["m"][m][c] for m in g.marks]
            same = None if ordered[z] else repr((z, names[c], work["rv"][c], marks))
            if same is not None and same in alike:
                without = alike[same]
            else:
                without = _without(engine, work, c, p)
                if same is not None:
                    alike[same] = without
            if _is_number(without) and _is_number(full):
                out[p][key] = out[p].get(key, 0) + full - without
    return out


def _score(engine: Engine, st: State, p: int) -> Any:
    """Player p's score on `st`, evaluated anew (a new Runtime: its memo holds the state before)."""
    rt = Runtime(engine.game, st)
    rt.loc = {"p": p}
    return rt.evaluate(engine.game.score, engine.game.score_span)


def _without(engine: Engine, work: State, c: int, p: int) -> Any:
    """Player p's score with component `c` out of play and its marks at their defaults (None where it
    cannot be read); `work` is as it was after."""
    defaults = engine.game.marks
    z = work["loc"][c]
    zone = work["z"][z]
    work["z"][z] = [x for x in zone if x != c]
    work["loc"][c] = -1
    marks = {m: work["m"][m][c] for m in defaults}
    for m, default in defaults.items():
        work["m"][m][c] = default  # values are never changed in place: sharing is safe
    try:
        without = _score(engine, work, p)
    except GameRuntimeError:
        without = None
    work["z"][z], work["loc"][c] = zone, z
    for m, value in marks.items():
        work["m"][m][c] = value
    return without
