"""Colour words and `#rrggbb` colours, as the presentation names them (docs/presentation.md).

Stage: authoring. Read by presentation.py (a game's `colours`, seat colours, places' colours) and
maplayout.py (a map's edge coloured by its `colour` property), which presentation.py imports in turn.
"""

from __future__ import annotations

import re

NAMED_COLOURS = {
    "black": "#222222",
    "white": "#f4f1e8",
    "grey": "#8a8a8a",
    "gray": "#8a8a8a",
    "silver": "#c0c0c0",
    "red": "#c0392b",
    "maroon": "#7b241c",
    "orange": "#e67e22",
    "gold": "#d4ac0d",
    "yellow": "#f1c40f",
    "beige": "#e8dcc0",
    "tan": "#c8a97e",
    "brown": "#8b5a2b",
    "olive": "#808000",
    "green": "#27ae60",
    "teal": "#138d75",
    "cyan": "#48c9b0",
    "blue": "#2e86de",
    "navy": "#1f3a93",
    "purple": "#8e44ad",
    "magenta": "#c2185b",
    "pink": "#f1948a",
}
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def colour_hex(word: str) -> str | None:
    """`#rrggbb` for a colour word or a hex colour; None if it is neither."""
    text = str(word).strip()
    if HEX.match(text):
        return text.lower()
    return NAMED_COLOURS.get(text.lower())
