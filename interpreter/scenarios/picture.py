"""A scenario's `given.boards`: a board filled from a picture (rows of symbols and a legend) or by
coordinates (docs/language.md §6.2).

`quilt(Ann): {picture: ["XX.", ".X."], legend: {X: {marks: {filled: true}}}}` writes the legend's
marks on every cell drawn with X, and `holds:` makes the cell's zone hold exactly those components
(a bare name takes the next copy not yet placed, cell by cell, as in `zones`). '.' leaves a cell
as it is, and stands for a hole of the board's mask. A row of the wrong length, a symbol the legend
lacks, a symbol on a hole and a board or player that is not there are errors at the row, the
symbol or the key (R113-R115), all at once with the rest of the `given`.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from tabula.interpreter.base.source import Report, Span, did_you_mean
from tabula.interpreter.load.positions import YamlPath
from tabula.interpreter.load.schema.scenario import BoardGiven, CellGiven
from tabula.interpreter.model.boards import BoardTable
from tabula.interpreter.run import boards
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime
from tabula.interpreter.scenarios.context import Context


class GivenWriter(Protocol):
    """What a board's picture writes through (given.py's GivenWriter, which calls this module)."""

    ctx: Context
    base: YamlPath
    report: Report

    def set_mark(self, cid: int, mark: str, value: Any, path: YamlPath) -> None: ...

    def fill_zone(self, zone: int, names: list[str], path: YamlPath) -> None: ...


LEAVE = "."
_REF = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*([^()]*?)\s*\))?\s*$")


def write_board(writer: GivenWriter, text: str, given: BoardGiven) -> None:
    """Write one `given.boards` entry; problems go to `writer.report`."""
    path: YamlPath = (*writer.base, "boards", text)
    found = _board(writer, text, path)
    if found is None:
        return
    table, copy = found
    if table.geometry.grows:
        _write_grown(writer, table, given, path)
        return
    for y, row in enumerate(given.picture):
        for x, symbol in _symbols(writer, table, given, row, (*path, "picture", y), y):
            entry = given.legend[symbol]
            _write_cell(writer, table, copy, table.geometry.index(x, y), entry, (*path, "legend", symbol))
    for i, cell in enumerate(given.cells):
        index = table.geometry.index(cell.at[0], cell.at[1])
        if index < 0:
            writer.report.error(
                "R114",
                f"[{cell.at[0]}, {cell.at[1]}] is no cell of the board '{table.name}'",
                writer.ctx.span((*path, "cells", i, "at")),
                _size_hint(table),
            )
            continue
        _write_cell(writer, table, copy, index, cell, (*path, "cells", i))


def _write_grown(writer: GivenWriter, table: BoardTable, given: BoardGiven, path: YamlPath) -> None:
    """A board that grows is given cell by cell, by coordinates: each cell named is added."""
    if given.picture:
        writer.report.error(
            "R114",
            f"the board '{table.name}' grows: it has no rows to draw",
            writer.ctx.span((*path, "picture"), key=True),
            "name its cells by coordinates: cells: [{at: [0, 0], holds: [...]}]",
        )
        return
    rt = Runtime(writer.ctx.game, writer.ctx.st)
    for i, cell in enumerate(given.cells):
        try:
            index = boards.add_cell(rt, table, cell.at[0], cell.at[1])
        except GameRuntimeError as err:
            writer.report.error("R114", err.message, writer.ctx.span((*path, "cells", i, "at")))
            return
        _write_cell(writer, table, 0, index, cell, (*path, "cells", i))


def _board(writer: GivenWriter, text: str, path: YamlPath) -> tuple[BoardTable, int] | None:
    """The board a key names (`wall`, `quilt(Ann)`) and which copy, or None after an error."""
    tables = writer.ctx.game.boards.tables
    names: list[str] = writer.ctx.st["names"]
    m = _REF.match(text)
    table = tables.get(m.group(1)) if m else None
    if m is None or table is None:
        wanted = m.group(1) if m else text
        writer.report.error(
            "R113",
            f"'{wanted}' is not a board of {writer.ctx.game.name}",
            writer.ctx.span(path, key=True),
            did_you_mean(wanted, list(tables)) or f"boards: {', '.join(tables) or 'none'}",
        )
        return None
    player = m.group(2)
    if table.per_player and player not in names:
        writer.report.error(
            "R113",
            f"the board '{table.name}' is one per player: which player's?"
            if not player
            else f"'{player}' is not a player of this scenario",
            writer.ctx.span(path, key=True),
            f"write {table.name}(PLAYER); players: {', '.join(names)}",
        )
        return None
    if not table.per_player and player:
        writer.report.error(
            "R113",
            f"the board '{table.name}' is one for all players",
            writer.ctx.span(path, key=True),
            f"write {table.name}",
        )
        return None
    return table, names.index(player) if player else 0


def _symbols(
    writer: GivenWriter, table: BoardTable, given: BoardGiven, row: str, path: YamlPath, y: int
) -> list[tuple[int, str]]:
    """The (x, symbol) of a picture row's cells to write; errors for what cannot be written."""
    geo = table.geometry
    width, height = _extent(table)
    if y >= height or len(row) != width:
        writer.report.error(
            "R114",
            f"row {y + 1} of the picture has {len(row)} symbols, the board '{table.name}' is {width} wide"
            if y < height
            else f"the picture has more than {height} rows: the board '{table.name}' is {height} high",
            writer.ctx.span(path),
            _size_hint(table),
        )
        return []
    out: list[tuple[int, str]] = []
    for x, symbol in enumerate(row):
        if symbol == LEAVE:
            continue
        if symbol not in given.legend:
            writer.report.error(
                "R115",
                f"'{symbol}' is not in the legend",
                _symbol_span(writer, path, x),
                f"the legend has: {', '.join(given.legend) or 'nothing'}; '.' leaves a cell as it is",
            )
        elif geo.index(x, y) < 0:
            writer.report.error(
                "R114",
                f"[{x}, {y}] is a hole of the board '{table.name}': draw it '.'",
                _symbol_span(writer, path, x),
            )
        else:
            out.append((x, symbol))
    return out


def _write_cell(
    writer: GivenWriter, table: BoardTable, copy: int, index: int, entry: CellGiven, path: YamlPath
) -> None:
    cid = table.cells[copy][index]
    for mark, value in entry.marks.items():
        writer.set_mark(cid, mark, value, (*path, "marks", mark))
    if entry.holds or "holds" in entry.model_fields_set:
        if not table.cell_zones:
            writer.report.error(
                "R113",
                f"the cells of the board '{table.name}' hold nothing",
                writer.ctx.span((*path, "holds"), key=True),
                "give the board a zone on every cell: holds: {}",
            )
            return
        writer.fill_zone(table.cell_zones[copy][index], [str(n) for n in entry.holds], (*path, "holds"))


def _symbol_span(writer: GivenWriter, path: YamlPath, x: int) -> Span | None:
    """The symbol's own column when the row is one line of the file, else the row."""
    origin = writer.ctx.doc.value_origin.get(tuple(path))
    if origin is None or "\n" in getattr(origin, "raw", "").rstrip("\n"):
        return writer.ctx.span(path)
    return Span.point(origin.file, origin.line, origin.col + x)


def _extent(table: BoardTable) -> tuple[int, int]:
    """The board's width and height in cells (a mask's holes included)."""
    coords = table.geometry.coords
    return 1 + max((x for x, _ in coords), default=-1), 1 + max((y for _, y in coords), default=-1)


def _size_hint(table: BoardTable) -> str:
    width, height = _extent(table)
    return (
        f"'{table.name}' is {width} x {height}: one symbol a cell, "
        f"x from 0 to {width - 1}, y from 0 to {height - 1}"
    )
