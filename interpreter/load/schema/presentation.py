"""Pydantic models of the `presentation` section (docs/presentation.md; `load` stage, schema/).

How screens show the game; the rules never read it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabula.interpreter.load.schema.common import ChoiceId, Dsl, StrictModel


class ShownValue(StrictModel):
    """A row computed by an expression (`p` bound to the player in a player's panel)."""

    label: str = Field(description="The row's label.")
    value: Dsl = Field(description="The expression shown.")


class ShownGroup(StrictModel):
    """A titled group of rows in a player's panel or on the table."""

    title: str = Field(description="The group's title.")
    show: list[str | ShownValue] = Field(
        default=[], description="Counter, var or zone names, or {label, value} rows, in order."
    )


class SideLook(StrictModel):
    """How one terrain of a tile's sides is drawn on its picture (`components.TYPE.sides`)."""

    colour: str = Field(description="A colour word, #rrggbb or a key of `colours`.")
    draw: Literal["ground", "area", "line"] = Field(
        default="ground",
        description="ground: the tile's background; area: a region from its sides (a city); line: a"
        " line from each side to the middle (a road).",
    )


class ComponentLook(StrictModel):
    """How the components of one type are drawn (`self` is the component)."""

    title: str | None = Field(default=None, description="Title template, e.g. '{self.name}' (the default).")
    colour: Dsl | None = Field(
        default=None,
        description="Expression whose value picks the colour (a colour word, a player, a symbol).",
    )
    badges: list[str] = Field(
        default=[], description="Templates drawn as small badges; one that renders blank is left out."
    )
    text: str | None = Field(
        default=None, description="Template of the card's text (default: its 'text' property, if any)."
    )
    image: Dsl | None = Field(
        default=None, description="Expression whose value is a key of `images`: the picture drawn on it."
    )
    rotation: Dsl | None = Field(
        default=None, description="Expression: degrees clockwise the component (its picture) is turned by."
    )
    mirror: Dsl | None = Field(
        default=None,
        description="Expression: true when its picture is drawn mirrored (east and west swapped), then"
        " turned; default for a tile type with `mirror: true`: its turn mark is 4 or more (hex 6).",
    )
    shape: Dsl | None = Field(
        default=None, description="Expression: a list of [x, y] squares, drawn on it as a small grid."
    )
    sides: dict[str, SideLook] = Field(
        default={},
        description="A tile type's picture drawn from each instance's sides: terrain -> how it is drawn"
        " (an `image` is drawn over it).",
    )
    at: Dsl | None = Field(
        default=None,
        description="Expression: where on its board cell it stands (n ne e se s sw w nw c), drawn as a"
        " token there on the cell's picture; none: in a row at the cell's foot.",
    )


class ZoneLook(StrictModel):
    """How a zone's contents are laid out."""

    group_by: str | None = Field(
        default=None, description="A property: contents shown in groups by its value."
    )
    under: str | None = Field(
        default=None,
        description="'ZONE.MARK': draw each component under the one of ZONE (same owner) named by its MARK.",
    )
    notes: list[str] = Field(
        default=[],
        description="Per-player list vars whose i-th item is written on the zone's i-th card, hidden "
        "or not (what its owner was told about it); the vars are not listed again.",
    )


class ScorePart(StrictModel):
    """One named part of the final score (`p` bound)."""

    label: str = Field(description="The part's name, e.g. 'Majorities'.")
    value: Dsl = Field(description="The points of player p from this part.")


class ChoiceLabel(StrictModel):
    """How the choices of a `choose` decision read (`choice` is the offered value, `p` who decides),
    or those of an action (its parameters bound, `p` who decides)."""

    prompt: str | None = Field(
        default=None,
        description="The decision's prompt, or its beginning ('Build on which site'); * stands for any text.",
    )
    action: str | None = Field(
        default=None, description="Instead of `prompt`: an action, whose choices read as `label` says."
    )
    label: str = Field(description="Template of each choice's label, e.g. '{choice.name}: {choice.vp} VP'.")
    none: str = Field(
        default="", description="The label of an optional decision's 'none' choice (plain text): 'decline'."
    )


class PieceDef(StrictModel):
    """The piece an action's choices put on a board cell: previewed there, turned, before the choice."""

    piece: Dsl = Field(description="Expression: the component placed (read once a decision, `p` bound).")
    rotation: Dsl | None = Field(
        default=None,
        description="Expression: the degrees clockwise a choice turns it (the action's parameters bound).",
    )
    mirror: Dsl | None = Field(
        default=None,
        description="Expression: true when a choice lays it mirrored, then turned (the action's parameters"
        " bound).",
    )


class PresentationDef(StrictModel):
    """The `presentation` section: what screens show and how; the rules never read it."""

    seat_colours: list[str] = Field(default=[], description="A colour per seat, in seat order.")
    colours: dict[str, str] = Field(
        default={}, description="Value (a symbol, a property value) -> colour (a CSS colour name or #rrggbb)."
    )
    images: dict[str, str] = Field(
        default={}, description="Value -> an image file of the game's folder (for a component's `image`)."
    )
    labels: dict[str, str] = Field(
        default={}, description="Counter, var, zone, mark, action or symbol name -> the label shown."
    )
    player: list[ShownGroup] = Field(default=[], description="Groups of each player's panel.")
    table: list[ShownGroup] = Field(
        default=[], description="Groups of the table (global counters, vars, zones)."
    )
    bookkeeping: list[str] = Field(
        default=[], description="Counters, vars and zones never shown on screens (still in views)."
    )
    summary: str | None = Field(default=None, description="One-line template per player (`p` bound).")
    marks: dict[str, Literal["player", "component"]] = Field(
        default={}, description="Mark name -> what its values are, so screens show them by name."
    )
    components: dict[str, ComponentLook] = Field(default={}, description="Component type -> how it is drawn.")
    zones: dict[str, ZoneLook] = Field(default={}, description="Zone -> how its contents are laid out.")
    score: list[ScorePart] = Field(default=[], description="The named parts of the final score.")
    score_rest: str | None = Field(
        default=None, description="Label of the score the parts leave over (e.g. points scored during play)."
    )
    choices: list[ChoiceLabel] = Field(
        default=[], description="Labels of the choices of `choose` decisions, by the decision's prompt."
    )
    layout: Layout | None = Field(
        default=None,
        description="Boards drawn from data (docs/presentation.md); without it, the panels only.",
    )
    pieces: dict[str, PieceDef] = Field(
        default={}, description="Action -> the piece its choices put on a board cell, previewed turned there."
    )


class LayoutArea(StrictModel):
    """One place on a board: a shape at a position holding a zone, a counter, a var, a value or nothing."""

    title: str | None = Field(default=None, description="The place's name, drawn at its top.")
    zone: str | None = Field(
        default=None, description="A zone drawn here (the player's own on a player board)."
    )
    where: dict[str, ChoiceId] = Field(
        default={}, description="Only the zone's components whose property or mark has this value."
    )
    counter: str | None = Field(default=None, description="A counter drawn here (its keys as chips).")
    keys: list[str] = Field(default=[], description="Only these keys of a keyed counter.")
    var: str | None = Field(default=None, description="A var drawn here.")
    value: Dsl | None = Field(
        default=None, description="An expression drawn here (`p` bound on a player board)."
    )
    at: list[float] = Field(
        min_length=2, max_length=2, description="[x, y]: the top left corner, in cells from the board's."
    )
    size: list[float] = Field(
        default=[1, 1], min_length=2, max_length=2, description="[width, height] in cells."
    )
    shape: Literal["rect", "round", "circle"] = Field(default="round", description="The place's outline.")
    image: str | None = Field(
        default=None,
        description="An image file of the game's folder drawn in the place (images/gate.svg; svg, png, jpg,"
        " gif, webp, up to 64 KB); without it, or when it is missing, the shape and colour.",
    )
    colour: str | None = Field(
        default=None, description="Fill: a colour word, #rrggbb or a key of `colours`."
    )
    stack: int = Field(
        default=12, ge=1, description="More components than this collapse into stacks by title, with counts."
    )
    detail: Literal["full", "short"] = Field(
        default="full", description="'short': components show title and badges, their text on hover."
    )
    choice: ChoiceId | None = Field(
        default=None, description="Clicking the place makes the choice with this id or argument, when legal."
    )


class Board(StrictModel):
    """A board drawn as SVG: places on a grid of cells."""

    width: float = Field(default=12, gt=0, description="Width in cells.")
    height: float = Field(default=6, gt=0, description="Height in cells.")
    cell: int = Field(default=80, ge=20, le=400, description="The size of a cell in pixels at full width.")
    areas: list[LayoutArea] = Field(default=[], description="The places, drawn in order (later ones on top).")


class Layout(StrictModel):
    """Boards drawn from data: the table's and one per player (each player's tableau)."""

    table: Board | None = Field(default=None, description="The shared board, drawn above the table's groups.")
    player: Board | None = Field(
        default=None, description="Each player's board, drawn atop the player's panel."
    )


PresentationDef.model_rebuild()
