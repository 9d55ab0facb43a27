"""A declared board as the engine reads it: its geometry and the components of its cells and edges.

Built by compile/layout.py from the `boards` section (load/boards.py made the components and
computed the geometry); read by the spatial builtins (run/boards.py) and the screens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.load.boards import Geometry


@dataclass
class BoardTable:
    """One board: its geometry, and per copy (one per seat for `per: player`, else one) the
    component id of each cell and of each edge, by index."""

    name: str
    geometry: Geometry
    per_player: bool
    cells: list[list[int]]
    edges: list[list[int]] = field(default_factory=list)
    zone: str | None = None  # the zone family of `holds:` (`on_BOARD`)
    cell_zones: list[list[int]] = field(default_factory=list)  # per copy, per cell: its zone instance


@dataclass
class TileSpec:
    """A component type whose instances are tiles with sides (`sides:` of a component type): the
    property holding each instance's sides (in the order n e s w, or e se sw w nw ne on a hex
    board), the property of the groups of sides joined inside a tile (None: equal sides are
    joined), the mark holding a placed tile's rotation, whether mirrors count as rotations, and
    the number of sides."""

    prop: str
    joins: str | None
    mark: str
    mirror: bool
    count: int
    parts: dict[str, list[Any]] | None = None  # terrain -> its parts, clockwise (`parts:`)
    per: int = 1  # parts a side: 1, or the length of the lists of `parts`

    @property
    def size(self) -> int:
        """How many parts a tile lists once its sides are split: count * per."""
        return self.count * self.per


@dataclass
class BoardIndex:
    """Every board of a game, and where each cell and edge component sits."""

    tables: dict[str, BoardTable] = field(default_factory=dict)
    cell_of: dict[int, tuple[str, int, int]] = field(default_factory=dict)  # id -> (board, copy, index)
    edge_of: dict[int, tuple[str, int, int]] = field(default_factory=dict)  # id -> (board, copy, index)
    zone_of_cell: dict[int, int] = field(default_factory=dict)  # cell id -> its zone instance
    tiles: dict[str, TileSpec] = field(default_factory=dict)  # component type -> its sides
    growing: dict[int, tuple[str, int]] = field(default_factory=dict)  # zone of a cell of a board
    # that grows -> (board, cell index): a move there adds the cells round it (run/boards.py grow)

    def cell_id(self, board: str, copy: int, index: int) -> int | None:
        """The component of cell `index` of that copy of the board (None for -1)."""
        return None if index < 0 else self.tables[board].cells[copy][index]
