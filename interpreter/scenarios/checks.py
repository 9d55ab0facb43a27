"""Boundary checks of a scenario file's values, called before each value is used: pack references
by `Run.load` (runner.py), zones and `given` values by `GivenWriter` (given.py).

A scenario names packs (confined to the scenario's folder, the game's folder and, under a
`scenarios` folder, the folder holding it: a scenario never reads a file elsewhere; S006), zones
(a zone reference, not any expression, of a player in the game; R108, the code of a `given` zone
that is not a zone), and values written into the game (plain values: a `given` entry is one line
of DSL, so a line break would smuggle in statements; S006). Each problem is an `AuthorError`
located in the file. (`given.active` is checked by GivenWriter: R107.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import AuthorError, Report
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import PlainOrigin, parse_expr
from tabula.interpreter.load.positions import YamlDoc, YamlPath, span_for
from tabula.interpreter.model.game import CompiledGame

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _fail(
    doc: YamlDoc, path: YamlPath, code: str, message: str, hint: str | None = None, key: bool = False
) -> AuthorError:
    report = Report()
    report.error(code, message, span_for(doc, path, key=key), hint)
    return AuthorError(report)


def pack_ref(doc: YamlDoc, path: YamlPath, ref: str, scenario_dir: Path, game_folder: Path) -> str:
    """A pack a scenario names: a name shipped with the game, or a file inside the scenario's folder,
    the game's folder, or (for a file under a folder named `scenarios`) the folder holding that one.

    Returns the name, or the pack file's resolved path.
    """
    if "/" not in ref and "\\" not in ref and not ref.endswith(".yaml") and ref not in (".", ".."):
        return ref
    here, game = scenario_dir.resolve(), game_folder.resolve()
    # a path from the scenario's folder may end in it or, under a folder named `scenarios`, in the
    # folder holding that one (a project's own packs); a path from the game's folder ends in it
    holder = next((p for p in (here, *here.parents) if p.name == "scenarios"), None)
    tries = [(here / ref, [here, *([holder.parent] if holder is not None else [])]), (game / ref, [game])]
    for raw, roots in tries:
        candidate = raw.resolve()
        if any(candidate.is_relative_to(root) for root in roots) and candidate.is_file():
            return str(candidate)
    inside = any(raw.resolve().is_relative_to(root) for raw, roots in tries for root in roots)
    message = (
        f"no pack file '{ref}' in the scenario's folder or the game's folder"
        if inside
        else f"'{ref}' is outside the scenario's folder and the game's folder"
        + (" (and the folder holding its scenarios folder)" if holder is not None else "")
    )
    hint = "name a pack shipped with the game, or a pack file next to the scenario or inside the game"
    raise _fail(doc, path, "S006", message, hint)


def zone_ref(doc: YamlDoc, path: YamlPath, game: CompiledGame, text: str) -> str:
    """`zone` or `zone(player)`: a `given.zones` key must name a zone (any other value would be read
    as a zone's number). Returns the zone's name."""
    node = parse_expr(text, PlainOrigin(doc.file), Report())
    head = node.func if isinstance(node, ast.Call) else node
    if not isinstance(head, ast.Name) or (head.id not in game.zones and head.id not in game.zone_families):
        zones = ", ".join(sorted({*game.zones, *game.zone_families})) or "none"
        hint = f"write a zone, or zone(player): {zones}"
        raise _fail(doc, path, "R108", f"'{text}' is not a zone", hint, key=True)
    return head.id


def zone_instance(
    doc: YamlDoc, path: YamlPath, game: CompiledGame, st: dict[str, Any], name: str, zone: Any
) -> int:
    """The zone instance a `given.zones` key evaluated to: one of zone `name`'s, for a player in the game."""
    layouts = game.zone_layouts
    owner = game.zone_owner[zone] if isinstance(zone, int) and 0 <= zone < len(layouts) else None
    if (
        isinstance(zone, bool)
        or not isinstance(zone, int)
        or not 0 <= zone < len(layouts)
        or (layouts[zone].family or layouts[zone].name) != name
        or (owner is not None and owner >= len(st["names"]))
    ):
        raise _fail(doc, path, "R108", f"this is not a zone of a player in the game ({name})", key=True)
    return zone


def given_values(doc: YamlDoc, given: Any, base: YamlPath = ("given",)) -> None:
    """Every reference and value written by `given` (at `base` in the file) is one line, every value
    plain data, every mark a name."""
    for section in ("counters", "vars"):
        for key, value in (getattr(given, section) or {}).items():
            path: YamlPath = (*base, section, key)
            if "\n" in str(key) or "\r" in str(key):
                raise _fail(doc, path, "S006", "a reference in 'given' is one line", key=True)
            _plain(doc, path, value)
    for component, marks in (given.marks or {}).items():
        _marks(doc, (*base, "marks", component), marks)
    for board, filled in (getattr(given, "boards", None) or {}).items():
        for symbol, entry in filled.legend.items():
            _marks(doc, (*base, "boards", board, "legend", symbol, "marks"), entry.marks)
        for i, cell in enumerate(filled.cells):
            _marks(doc, (*base, "boards", board, "cells", i, "marks"), cell.marks)


def _marks(doc: YamlDoc, at: YamlPath, marks: dict[str, Any]) -> None:
    for mark, value in marks.items():
        path = (*at, mark)
        if not _NAME.fullmatch(str(mark)):
            raise _fail(doc, path, "S006", f"{str(mark)!r} is not a mark name", key=True)
        _plain(doc, path, value)


def _plain(doc: YamlDoc, path: YamlPath, value: Any) -> None:
    if isinstance(value, list):
        for item in value:
            _plain(doc, path, item)
    elif isinstance(value, dict):
        raise _fail(doc, path, "S006", "a value in 'given' is a number, text, true/false, none or a list")
    elif isinstance(value, str) and ("\n" in value or "\r" in value):
        raise _fail(doc, path, "S006", "a value in 'given' is one line", "write one value per entry")
