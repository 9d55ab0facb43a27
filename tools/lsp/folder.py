"""A game folder as the editor sees it: which folder and kind a file belongs to, and its check with the
editor's unsaved texts in place of the files on disk, as diagnostics grouped by file.

The game's files are checked as `tabula check` checks them (`check_game`: load, packs, schema,
parse, check and compile, then the setup run once for each player count), so the codes, places and
hints are `check`'s. An open variant or expansion file is checked as the game with that pack; an open
scenario file is read and validated as `tabula verify` reads it (its cases are not run). Nothing is
written to disk and the compile cache is not used.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tabula.interpreter.base.source import Diagnostic, Report, Span
from tabula.interpreter.load.positions import YamlDoc
from tabula.interpreter.load.unsaved import Parsed, texts_in_place_of_files
from tabula.interpreter.load.yamlsource import load_yaml_file
from tabula.interpreter.loading import Checked, check_game
from tabula.lsp.names import Index, build_index

Kind = Literal["game", "variant", "expansion", "scenario"]
_PACK_FOLDERS: dict[str, Kind] = {"variants": "variant", "expansions": "expansion"}


def place_of(path: Path) -> tuple[Path, Kind] | None:
    """The game folder a YAML file belongs to and what the file is, or None for a file of no game
    (a folder is a game's when one of its `*.yaml` files has a `game:` section)."""
    if path.suffix != ".yaml":
        return None
    for ancestor in path.parents:
        if ancestor.name == "scenarios":
            return (ancestor.parent, "scenario") if is_game_folder(ancestor.parent) else None
    parent = path.parent
    if parent.name in _PACK_FOLDERS and is_game_folder(parent.parent):
        return parent.parent, _PACK_FOLDERS[parent.name]
    return (parent, "game") if is_game_folder(parent) else None


_GAME_SECTION = re.compile(r"^game[ \t]*:", re.MULTILINE)
_GAME_FOLDERS: set[Path] = set()  # folders found to be games (a game folder stays one)


def is_game_folder(folder: Path) -> bool:
    """True when a `*.yaml` file directly in `folder` has a top-level `game:` section."""
    if folder in _GAME_FOLDERS:
        return True
    for f in folder.glob("*.yaml"):
        try:
            found = _GAME_SECTION.search(f.read_text(encoding="utf-8", errors="replace")) is not None
        except OSError:
            continue
        if found:
            _GAME_FOLDERS.add(folder)
            return True
    return False


@dataclass
class Memo:
    """What one check keeps for the next: the files' parsed YAML and the DSL texts' names, keyed by
    text and place (an edit parses only what it changed)."""

    yaml: Parsed = field(default_factory=dict)
    dsl: dict[Any, Any] = field(default_factory=dict)

    def trim(self, most: int = 50_000) -> None:
        """Forget everything when too much is kept (texts of earlier edits pile up)."""
        if len(self.dsl) + 100 * len(self.yaml) > most:
            self.yaml.clear()
            self.dsl.clear()


@dataclass
class FolderCheck:
    """One check of a game folder: diagnostics by file (absolute paths), the names' index and the
    merged data they were read from (`fresh`: from this check's texts, not kept from an earlier one)."""

    diagnostics: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    index: Index = field(default_factory=Index)
    data: dict[str, Any] = field(default_factory=dict)
    fresh: bool = False
    checked: Checked | None = None

    def names_from(self, earlier: FolderCheck | None) -> None:
        """Keep the names of `earlier` when this check could not read the game (a YAML file broken
        while typing): completion and navigation go on with the last names known."""
        if not self.fresh and earlier is not None:
            self.index, self.data = earlier.index, earlier.data

    def add(self, d: Diagnostic, fallback: Path) -> None:
        """File `d` under the file its span names (a diagnostic without a place under `fallback`)."""
        file = Path(d.span.file).absolute() if d.span is not None else fallback
        if d.span is None:
            d = Diagnostic(d.severity, d.code, d.message, Span.point(str(fallback), 1, 1), d.hint)
        self.diagnostics.setdefault(file, []).append(d)


def check_folder(
    folder: Path, texts: Mapping[Path, str], open_files: list[Path], memo: Memo | None = None
) -> FolderCheck:
    """Check `folder` with `texts` in place of the files they name; `open_files` (of this folder) are
    the packs and scenarios checked besides the game."""
    folder = folder.absolute()
    memo = memo if memo is not None else Memo()
    result = FolderCheck()
    main_file = next(iter(sorted(folder.glob("*.yaml"))), folder / "game.yaml")
    checked = check_game(folder, texts=texts, parsed=memo.yaml)
    result.checked = checked
    for d in checked.report.diagnostics:
        result.add(d, main_file)
    if checked.game is not None:
        for d in _setup_problems(checked):
            result.add(d, main_file)
    if checked.source is not None:
        result.index = build_index(checked.source, memo.dsl, _scenario_docs(folder, texts, memo))
        result.data, result.fresh = checked.source.data, True
    for path in open_files:
        place = place_of(path)
        if place is None or place[0] != folder or place[1] == "game":
            continue
        if place[1] == "scenario":
            problems = _scenario_problems(path, texts, memo)
        else:
            problems = _pack_problems(path, place[1], texts, memo)
        for d in problems:
            result.add(d, path)
    return result


def _scenario_docs(folder: Path, texts: Mapping[Path, str], memo: Memo) -> list[YamlDoc]:
    """The game's scenario files as read (their uses of the game's names count as references)."""
    docs = []
    with texts_in_place_of_files(texts, memo.yaml):
        for path in sorted(folder.glob("scenarios/**/*.yaml")):
            doc = load_yaml_file(path, Report())
            if doc is not None:
                docs.append(doc)
    return docs


def _setup_problems(checked: Checked) -> list[Diagnostic]:
    """`tabula check` runs the setup once for each player count: its run-time errors, as diagnostics."""
    from tabula.interpreter.base.source import AuthorError
    from tabula.interpreter.engine import Engine
    from tabula.interpreter.run.runtime import GameRuntimeError

    game = checked.game
    assert game is not None
    engine = Engine(game)
    for players in range(game.min_players, game.max_players + 1):
        try:
            engine.new_game(players, 0)
        except GameRuntimeError as err:
            span = err.span if isinstance(err.span, Span) else None
            return [Diagnostic("error", err.code or "R001", err.message, span)]
        except AuthorError as err:
            return err.report.diagnostics
    return []


def _pack_problems(path: Path, kind: Kind, texts: Mapping[Path, str], memo: Memo) -> list[Diagnostic]:
    """The game checked with this pack: the diagnostics that point into the pack file."""
    folder = path.parent.parent
    variant = str(path) if kind == "variant" else None
    expansions = [str(path)] if kind == "expansion" else []
    checked = check_game(folder, variant, expansions, texts, memo.yaml)
    mine = str(path.absolute())
    return [
        d for d in checked.report.diagnostics if d.span is None or str(Path(d.span.file).absolute()) == mine
    ]


def _scenario_problems(path: Path, texts: Mapping[Path, str], memo: Memo) -> list[Diagnostic]:
    """A scenario file read, validated and expanded into its cases, as `tabula verify` reads it."""
    from tabula.interpreter.scenarios.files import load_cases

    with texts_in_place_of_files(texts, memo.yaml):
        return load_cases(path).diagnostics
