"""What a component's presentation draws rather than writes (docs/presentation.md, `components`):
its picture (a key of the presentation's `images`, over a tile's picture drawn from its sides), the
degrees it is turned by, where on a cell it stands, and its shape as squares. Read on the seat's
seat states like every value of the presentation: what depends on something hidden from the seat
is not drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabula.interpreter.authoring.display import value_on
from tabula.interpreter.authoring.presentation import Look, Presentation
from tabula.interpreter.base.types import COMP
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.run.knowledge import State
from tabula.play.faces import Card
from tabula.play.sides import sides_picture


def draw_look(
    g: CompiledGame, pres: Presentation, states: Sequence[State], drawn: tuple[Look, int], out: Card
) -> None:
    """Set `out`'s picture, turn and shape as the look draws component `cid` (drawn: (look, cid))."""
    look, cid = drawn
    local = {"self": cid}
    if look.image is not None:
        shown, value = value_on(g, look.image, states, local)
        if shown.known and value is not None:
            named = look.image[1] == COMP and isinstance(value, int)
            out.image = pres.images.get(g.components[value].name if named else str(value))
    if look.sides:  # a tile drawn from its sides, its picture (a cloister) over it
        out.image = sides_picture(g, look.sides, cid, out.image) or out.image
    if look.rotation is not None:
        shown, value = value_on(g, look.rotation, states, local)
        if shown.known and isinstance(value, int) and not isinstance(value, bool):
            out.rotation = value % 360
    out.mirror = mirrored(g, look, states, cid)
    if look.at is not None:
        shown, value = value_on(g, look.at, states, local)
        if shown.known and isinstance(value, str):
            out.at = value
    if look.shape is not None:
        shown, value = value_on(g, look.shape, states, local)
        if shown.known and isinstance(value, list):
            out.shape = [[int(v[0]), int(v[1])] for v in value if isinstance(v, list) and len(v) == 2]


def mirrored(g: CompiledGame, look: Look, states: Sequence[State], cid: int) -> bool:
    """Whether component `cid` is drawn mirrored: its look's `mirror`, else, for a tile type whose
    mirror images are rotations (`sides: {mirror: true}`), its turn mark at `count` or more (the
    rotations 4..7, hex 6..11, are the tile mirrored then turned: language.md)."""
    if look.mirror is not None:
        shown, value = value_on(g, look.mirror, states, {"self": cid})
        return shown.known and value is True
    spec = g.boards.tiles.get(g.components[cid].type)
    if spec is None or not spec.mirror:
        return False
    turns = [(st["m"].get(spec.mark) or [None] * (cid + 1))[cid] for st in states]
    turn = turns[0]
    return all(t == turn for t in turns) and isinstance(turn, int) and turn >= spec.count
