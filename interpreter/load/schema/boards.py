"""Pydantic models of the `boards` section (docs/language.md §1.1; `load` stage, schema/).

A board is a square grid, a hex grid (axial coordinates) or a graph of named spaces joined by edges.
Loading (load/boards.py) turns each into components and zones, so the rest of the engine reads
cells and spaces as it reads cards.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from tabula.interpreter.load.schema.common import OPEN, StrictModel

Coordinate = Annotated[list[int], Field(min_length=2, max_length=2)]
MarkValue = Annotated[dict[str, Any] | bool | int | str | list[Any] | None, OPEN]


class HoldsDef(StrictModel):
    """A zone on every cell or space: `on_<board>(c)`, or the name given."""

    zone: str | None = Field(default=None, description="The zone family's name (default: on_BOARD).")
    visibility: Literal["public", "owner", "hidden"] = Field(
        default="public", description="Who sees what lies on a cell: public, owner or hidden."
    )
    ordered: bool = Field(default=False, description="Keep order, as a stack (index 0 is the top).")
    max: int | None = Field(
        default=None, ge=1, description="The most components a cell may hold (max: 1, a single piece; R016)."
    )


class SpaceDef(StrictModel):
    """A named space of a graph board."""

    at: Coordinate = Field(description="Where it is drawn: [x, y] (also its x and y properties).")


class BoardDef(StrictModel):
    """A board: its kind, its shape, the marks of its cells and what they hold."""

    kind: Literal["square", "hex", "graph"] = Field(
        description="square (a grid), hex (axial coordinates q, r as x, y) or graph (named spaces and edges)."
    )
    size: Coordinate | None = Field(
        default=None, description="square and hex: [width, height] in cells (x from 0, y from 0)."
    )
    mask: list[str] | None = Field(
        default=None,
        description="square and hex: rows of '#' (a cell) and '.' (none), the first row y = 0.",
    )
    diagonal: bool = Field(default=False, description="square: eight neighbours instead of four.")
    grows: bool = Field(
        default=False,
        description="square and hex, with holds: no size; cells are added where things are placed "
        "(the cell at [0, 0] first, then the empty cells round each cell that holds something).",
    )
    max_cells: int | None = Field(
        default=None,
        ge=1,
        description="A board that grows: the most cells it may have (default 1000; more is R003).",
    )
    spaces: dict[str, SpaceDef] = Field(default={}, description="graph: space name -> {at: [x, y]}.")
    edges: list[dict[str, Any]] = Field(
        default=[],
        description="graph: {from: A, to: B, ...properties}; each edge is a component of type BOARD_edge.",
    )
    per: Literal["player"] | None = Field(default=None, description="'player': one board per player.")
    marks: dict[str, MarkValue] = Field(default={}, description="Marks of every cell or space.")
    edge_marks: dict[str, MarkValue] = Field(
        default={}, description="graph: marks of every edge (owner: none)."
    )
    holds: HoldsDef | None = Field(default=None, description="A zone on every cell or space.")
