"""What a seat's board draws together and what it leaves out, by generic rules (docs/presentation.md,
"What screens leave out"): identical-looking cards of an unordered zone as one entry with a count,
in groups by colour; the notes a zone's owner was given about each card (`notes:`), written on it;
a simultaneous step's status naming who still has to answer; a choice's id in words.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.authoring.display import grown_cell
from tabula.interpreter.authoring.presentation import Presentation
from tabula.interpreter.model.game import CompiledGame
from tabula.play.faces import Card
from tabula.play.layout import DrawnBoard


def group_alike(cards: list[Card]) -> list[Card]:
    """An unordered zone's visible cards that look alike (title, colour, badges, text) as one entry
    with a count, the entries in groups by colour then by title; hidden cards stay as they are."""
    shown: list[Card] = []
    seen: dict[tuple[Any, ...], Card] = {}
    for card in cards:
        if card.hidden or card.under:
            shown.append(card)
            continue
        look = (card.title, card.colour, tuple(b.text for b in card.badges), card.text)
        if look in seen:
            seen[look].count += card.count
            seen[look].ids = [*seen[look].ids, *card.ids]
        else:
            seen[look] = card
            shown.append(card)
    colours = {c.colour: i for i, c in reversed(list(enumerate(shown)))}  # colour by first sight
    return sorted(shown, key=lambda c: (c.hidden, colours.get(c.colour, 0), c.title))


def status_line(flow_rounds: bool, view: dict[str, Any]) -> str:
    """`round 2 | turn 7 | active: Ann (you) | phase action`, or `game over`; in a simultaneous step,
    who still has to answer (`waiting for Ann (you), Bob`: everyone answers at once)."""
    t = view["t"]
    names: list[str] = view["names"]
    viewer = view["viewer"]
    parts = [f"round {t['round']}"] if flow_rounds else []
    parts.append(f"turn {t['turn']}")
    active, dec, sim = t["active"], view["dec"], t.get("sim")

    def who(p: int) -> str:
        return names[p] + (" (you)" if p == viewer else "")

    if dec is None:
        parts.append("game over")
    elif sim is not None:
        waiting = ", ".join(who(p) for p in sim["w"])
        parts.append(f"waiting for {waiting}" if waiting else "answers revealed")
    else:
        if active is not None:
            parts.append(f"active: {who(active)}")
        if dec["p"] != active:
            parts.append("you decide" if dec["p"] == viewer else f"{names[dec['p']]} decides")
    if t.get("phase_id") and dec is not None:
        parts.append(f"phase {t['phase_id']}")
    return " | ".join(parts)


def fold_setup(lines: list[str], hint: str = "") -> list[str]:
    """The log lines of the setup (the moves before the first decision: shuffles, deals) as one line;
    `hint` says where to read them in full."""
    if len(lines) <= 1:
        return lines
    return [f"setup: {len(lines)} moves before the first decision{hint}"]


def not_yet(initial: Any, value: Any) -> bool:
    """A number still at a negative start value: the game's "not yet" (turns left, before the count
    begins), bookkeeping rather than a value to show."""
    return isinstance(initial, int) and not isinstance(initial, bool) and initial < 0 and value == initial


def route_colours(g: CompiledGame, pres: Presentation, drawn: DrawnBoard | None) -> dict[int, str]:
    """Each edge of a map by its component: the colour its `colour` property names, in words (the
    terminal lists routes by name)."""
    out = {}
    for place in drawn.places if drawn is not None else []:
        if place.shape == "edge" and place.ids and 0 <= place.ids[0] < len(g.components):
            props = g.components[place.ids[0]].props
            colour = props.get("colour", props.get("color"))
            if colour is not None:
                out[place.ids[0]] = pres.label(str(colour))
    return out


def readable_id(
    g: CompiledGame, pres: Presentation, syms: set[str], cid: str, marks: dict[str, Any] | None = None
) -> str:
    """A window choice's id made readable with the presentation's labels (`use_symbol:buy_any` ->
    `use: buy any colour`); with the state's `marks`, a cell of a board that grows, named in the id
    by the order it was added in (`lay:land7`), by its coordinates (`lay: x=2, y=-1`), public marks.
    It shows nothing the id and the board do not."""
    action, sep, args = cid.partition(":")
    head = pres.label(action) if action in g.actions else action
    if not sep:
        return head
    words = [pres.label(a) if a in syms else _cells_at(g, a, marks) for a in args.split(",")]
    return f"{head}: {', '.join(words)}"


_GROWN: dict[int, tuple[CompiledGame, dict[str, int]]] = {}  # game -> its grown boards' cells by name


def _cells_at(g: CompiledGame, arg: str, marks: dict[str, Any] | None) -> str:
    """An argument naming cells of a board that grows (`land7`, a placement `land7+land9`) by their
    coordinates; any other as it is."""
    if marks is None or not any(t.geometry.grows for t in g.boards.tables.values()):
        return arg
    hit = _GROWN.get(id(g))
    if hit is None or hit[0] is not g:
        named = {
            g.components[c].name: c for t in g.boards.tables.values() if t.geometry.grows for c in t.cells[0]
        }
        hit = _GROWN[id(g)] = (g, named)
    parts = arg.split("+")
    found = [grown_cell(g, marks, hit[1][p]) if p in hit[1] else None for p in parts]
    if not any(found):
        return arg
    return " + ".join(f if f else p for f, p in zip(found, parts, strict=True))
