"""How one component is drawn, as plain data (`tabula.play.board` builds them, `tabula.play.layout`
places them on boards): a card with its title, colour, badges and text; a keyed counter's entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Badge:
    text: str
    colour: str | None = None


@dataclass
class Card:
    """One component as drawn; a hidden one has no name, key or text."""

    name: str
    key: str | None
    title: str
    colour: str | None = None
    badges: list[Badge] = field(default_factory=list)
    text: str = ""
    hidden: bool = False
    under: list[Card] = field(default_factory=list)
    count: int = 1  # hidden cards side by side are one entry
    ids: list[int] = field(default_factory=list)  # the components it stands for (a stack: all of them)
    # the presentation's picture of it (a data: address), turned `rotation` degrees clockwise, and
    # the squares of its `shape` ([x, y] each), drawn as a small grid
    image: str | None = None
    rotation: int = 0
    mirror: bool = False  # its picture drawn mirrored (east and west swapped), then turned
    shape: list[list[int]] = field(default_factory=list)
    at: str | None = None  # where on its board cell it stands (n ne e se s sw w nw c): a token there


@dataclass
class Entry:
    """One key of a keyed counter."""

    key: str
    label: str
    value: int
    colour: str | None = None


def merge_hidden(cards: list[Card]) -> list[Card]:
    """Hidden cards side by side become one entry with a count."""
    out: list[Card] = []
    for card in cards:
        if card.hidden and out and out[-1].hidden:
            out[-1].count += card.count
        else:
            out.append(card)
    return out
