"""What the presentation says of an action's choices (docs/presentation.md, `choices` by action and
`pieces`): each choice's label with the action's parameters bound (`claim:n` reads `a follower on
the city, north`), and the piece a placement puts on a board cell with the degrees each choice turns
it, so the page previews it there. Read on the seat's seat states like every value of the
presentation: a piece hidden from the seat is not sent, and a label it may not know keeps the id.
"""

from __future__ import annotations

from typing import Any, Protocol

from tabula.interpreter.authoring.display import render, value_on
from tabula.interpreter.authoring.presentation import Presentation
from tabula.interpreter.model.game import CompiledGame


class _Builder(Protocol):
    """What these rules read of the page being built (board.py's builder, which calls them)."""

    g: CompiledGame
    pres: Presentation
    states: tuple[dict[str, Any], dict[str, Any]]  # the seat states (seat_states)

    def card(self, cid: int) -> Any: ...


class Decision(Protocol):
    """The decision on the page (board.py's Decision) whose choices these rules name and turn."""

    player: int
    choices: list[Any]
    pieces: dict[str, Any]


def _actions(b: _Builder, dec: Decision) -> list[tuple[Any, dict[str, Any]]]:
    """Each choice of a window decision with its action and arguments by name (empty otherwise)."""
    full = b.states[0]["dec"]  # the seat's own decision, kept whole in its seat states
    if full is None or full.get("k") == "choose" or len(full.get("v") or []) != len(dec.choices):
        return []
    out = []
    for value in full["v"]:
        act = b.g.action_list[value[0]]
        out.append((act, {**dict(zip(act.param_names, value[1], strict=False)), "p": dec.player}))
    return out


def action_labels(b: _Builder, dec: Decision) -> None:
    """The presentation's label (`choices: [{action, label}]`) for each choice of those actions."""
    if not any(c.action for c in b.pres.choices):
        return
    for choice, (act, local) in zip(dec.choices, _actions(b, dec), strict=False):
        look = b.pres.action_look(act.name)
        if look is None or choice.given:
            continue
        shown = render(b.g, look.label, b.states, local, labels=b.pres.labels)
        if shown.known and not shown.error and shown.text.strip():
            choice.label, choice.given = shown.text.strip(), True


def place_pieces(b: _Builder, dec: Decision) -> None:
    """The piece each action of `pieces` places (when the seat sees it) and each choice's turn."""
    if not b.pres.pieces:
        return
    for choice, (act, local) in zip(dec.choices, _actions(b, dec), strict=False):
        look = b.pres.pieces.get(act.name)
        if look is None:
            continue
        if act.name not in dec.pieces:
            shown, cid = value_on(b.g, look.piece, b.states, {"p": dec.player})
            if not shown.known or not isinstance(cid, int) or isinstance(cid, bool):
                continue  # hidden from the seat, or no piece: the choices stay plain
            dec.pieces[act.name] = b.card(cid)
        if look.rotation is not None:
            shown, turn = value_on(b.g, look.rotation, b.states, local)
            if shown.known and isinstance(turn, int) and not isinstance(turn, bool):
                choice.rotation = turn % 360
        if look.mirror is not None:
            shown, flip = value_on(b.g, look.mirror, b.states, local)
            choice.mirror = shown.known and flip is True
