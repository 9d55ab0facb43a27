"""Pydantic models of the `presentation` section (docs/presentation.md; `load` stage, schema/).

How screens show the game; the rules never read it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabula.interpreter.load.schema.common import Dsl, StrictModel


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


class ZoneLook(StrictModel):
    """How a zone's contents are laid out."""

    group_by: str | None = Field(
        default=None, description="A property: contents shown in groups by its value."
    )
    under: str | None = Field(
        default=None,
        description="'ZONE.MARK': draw each component under the one of ZONE (same owner) named by its MARK.",
    )


class ScorePart(StrictModel):
    """One named part of the final score (`p` bound)."""

    label: str = Field(description="The part's name, e.g. 'Majorities'.")
    value: Dsl = Field(description="The points of player p from this part.")


class PresentationDef(StrictModel):
    """The `presentation` section: what screens show and how; the rules never read it."""

    seat_colours: list[str] = Field(default=[], description="A colour per seat, in seat order.")
    colours: dict[str, str] = Field(
        default={}, description="Value (a symbol, a property value) -> colour (a CSS colour name or #rrggbb)."
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
