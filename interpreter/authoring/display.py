"""Evaluating a game's presentation for one seat: templates, colours and score parts as text.

Every expression runs on the seat's two seat states (`tabula.interpreter.run.knowledge`), never on the
true state alone: a value is shown only when both agree, so nothing hidden from the seat can show
through a computed value. Failures never escape: an expression that fails shows `!` and its message
is kept (`Shown.error`) so a designer can see which part of the presentation is wrong.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabula.interpreter.authoring.colours import colour_hex
from tabula.interpreter.authoring.presentation import DEFAULT_SEATS, Presentation, Template
from tabula.interpreter.base.types import COMP, PLAYER, elem
from tabula.interpreter.model.game import Closure, CompiledGame
from tabula.interpreter.run.knowledge import State
from tabula.interpreter.run.runtime import Runtime

UNKNOWN = "?"
FAILED = "!"
PALETTE = ["#b9770e", "#1abc9c", "#5d6d7e", "#a04000", "#7d3c98", "#2874a6", "#b03a2e", "#239b56"]


@dataclass(frozen=True)
class Shown:
    """A rendered value: its text, whether the seat may know it, an error, the player it names."""

    text: str
    known: bool = True
    error: str | None = None
    player: int | None = None


def show_value(
    game: CompiledGame,
    names: list[str],
    value: Any,
    vtype: str,
    blank: bool = False,
    labels: dict[str, str] | None = None,
    marks: dict[str, Any] | None = None,
) -> str:
    """A value in words: players and components by name, symbols by their label, lists joined by commas.

    With `blank`, none and false read as nothing. With the state's `marks`, a cell of a board that
    grows reads as its coordinates (`x=2, y=-1`): its name is only the order it was added in."""
    if value is None or value == "none":
        return "" if blank else "none"
    if isinstance(value, bool):
        return ("yes" if value else "") if blank else ("yes" if value else "no")
    if isinstance(value, list):
        if not value:
            return "" if blank else "none"
        return ", ".join(show_value(game, names, v, elem(vtype), blank, labels, marks) for v in value)
    if isinstance(value, int):
        if vtype == COMP and 0 <= value < len(game.components):
            return grown_cell(game, marks, value) or game.components[value].name
        if vtype == PLAYER and 0 <= value < len(names):
            return names[value]
    if isinstance(value, str) and labels is not None and value in symbols(game):
        return labels.get(value) or value.replace("_", " ")
    return str(value)


def grown_cell(game: CompiledGame, marks: dict[str, Any] | None, cid: int) -> str | None:
    """Cell `cid` of a board that grows as its coordinates, `x=2, y=-1` (None: no such cell, or
    not added yet); its x and y are public marks of the state (`marks`)."""
    at = game.boards.cell_of.get(cid)
    if at is None or marks is None or not game.boards.tables[at[0]].geometry.grows:
        return None
    xs, ys = marks.get("x"), marks.get("y")
    if not isinstance(xs, list) or not isinstance(ys, list) or cid >= len(xs) or xs[cid] is None:
        return None
    return f"x={xs[cid]}, y={ys[cid]}"


def symbols(game: CompiledGame) -> set[str]:
    """Every enum symbol of the game."""
    return {s for values in game.enums.values() for s in values}


def evaluate(game: CompiledGame, f: Closure, st: State, local: dict[str, Any]) -> Any:
    rt = Runtime(game, st)
    rt.loc = dict(local)
    return f(rt)


def value_on(
    game: CompiledGame,
    typed: tuple[Closure, str],
    states: Sequence[State],
    local: dict[str, Any],
    labels: dict[str, str] | None = None,
) -> tuple[Shown, Any]:
    """(shown, raw value) of one typed expression on the seat states; the raw value is None if unknown."""
    f, vtype = typed
    try:
        values = [evaluate(game, f, st, local) for st in states]
    except Exception as err:  # a presentation mistake must never stop a screen
        return Shown(FAILED, False, _message(err)), None
    if any(v != values[0] for v in values[1:]):
        return Shown(UNKNOWN, False), None
    value = values[0]
    player = value if vtype == PLAYER and isinstance(value, int) and not isinstance(value, bool) else None
    text = show_value(game, states[0]["names"], value, vtype, False, labels, states[0]["m"])
    return Shown(text, True, None, player), value


def render(
    game: CompiledGame,
    tpl: Template,
    states: Sequence[State],
    local: dict[str, Any],
    blank: bool = False,
    labels: dict[str, str] | None = None,
) -> Shown:
    """A template's text on the seat states (`?` for each part the seat may not know).

    With `blank`, a template with a part that is none or false renders as nothing (a badge left out);
    symbols read by their `labels`."""
    out: list[str] = []
    known, error, players = True, None, []
    for part in tpl.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        f, vtype = part
        try:
            values = [evaluate(game, f, st, local) for st in states]
        except Exception as err:
            out.append(FAILED)
            known, error = False, error or _message(err)
            continue
        if any(v != values[0] for v in values[1:]):
            out.append(UNKNOWN)
            known = False
            continue
        if vtype == PLAYER and isinstance(values[0], int) and not isinstance(values[0], bool):
            players.append(values[0])
        text = show_value(game, states[0]["names"], values[0], vtype, blank, labels, states[0]["m"])
        if blank and not text:
            return Shown("", known, error)  # a badge with a blank part is left out
        out.append(text)
    single = players[0] if len(players) == 1 and len(tpl.parts) == 1 else None
    return Shown("".join(out), known, error, single)


def colour_of(pres: Presentation, game: CompiledGame, value: Any, vtype: str) -> str | None:
    """A colour for a value: a seat's colour for a player, the colour table, a colour word, a palette."""
    if value is None or isinstance(value, bool):
        return None
    if vtype == PLAYER and isinstance(value, int):
        return pres.seat_colour(value)
    if vtype == COMP and isinstance(value, int) and 0 <= value < len(game.components):
        value = game.components[value].name
    text = str(value)
    if text in pres.colours:
        return pres.colours[text]
    return colour_hex(text) or PALETTE[zlib.crc32(text.encode()) % len(PALETTE)]


def seat_colour(pres: Presentation | None, seat: int) -> str:
    if pres is None:
        return DEFAULT_SEATS[seat % len(DEFAULT_SEATS)]
    return pres.seat_colour(seat)


def _message(err: Exception) -> str:
    text = getattr(err, "message", None) or str(err) or type(err).__name__
    return str(text)
