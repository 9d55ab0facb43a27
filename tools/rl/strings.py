"""Every string a game can offer as a choice: the string universe of the stable action index.

A choice id of a string value is the string itself. Strings reach the DSL from the game's data
(enum symbols, constants and the keys of constant maps, component names, keys, types and
properties, rules options, initial values of vars and marks) and from string literals written in
its DSL code ('Statue'). The first group is read from the compiled game; the literals are found by
parsing every string scalar of the game's YAML files (the folder's own and the variant and
expansion packs in use) as DSL and collecting the string literals of those that parse. Text that is
not DSL (prompts, descriptions) does not parse and adds nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from tabula.interpreter.base.source import Report
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import PlainOrigin, parse_block, parse_expr
from tabula.interpreter.load.packfiles import find_pack
from tabula.interpreter.model.game import CompiledGame


def _leaves(value: Any) -> Iterator[str]:
    """Every string in a plain-data value, map keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                yield k
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)


def data_strings(game: CompiledGame) -> set[str]:
    """The strings held by the compiled game's data."""
    out: set[str] = set()
    for symbols in game.enums.values():
        out.update(symbols)
    out.update(_leaves(game.constants))
    out.update(_leaves(game.options))
    for comp in game.components:
        out.update((comp.name, comp.key, comp.type))
        out.update(_leaves(comp.props))
    for var in game.vars.values():
        out.update(_leaves(var.initial))
    out.update(_leaves(list(game.marks.values())))
    for counter in game.counters.values():
        out.update(counter.keys)
    return out


def source_files(game: CompiledGame, variant: str | None, expansions: Iterable[str]) -> list[Path]:
    """The YAML files a loaded game was made from: its folder's own and the packs applied."""
    folder = Path(game.folder)
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    refs = [*([(variant, "variant")] if variant else []), *((e, "expansion") for e in expansions)]
    for ref, kind in refs:
        pack = find_pack(folder, ref, kind)
        if pack is not None:
            files.append(pack)
    return files


def _string_nodes(node: Any, out: set[str]) -> None:
    if isinstance(node, ast.String):
        out.add(node.value)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            _string_nodes(getattr(node, f.name), out)
    elif isinstance(node, (list, tuple)):
        for item in node:
            _string_nodes(item, out)


def literal_strings(files: Iterable[Path]) -> set[str]:
    """The string literals of every YAML scalar in `files` that parses as a DSL block or expression."""
    out: set[str] = set()
    yaml = YAML(typ="safe", pure=True)
    for path in files:
        try:
            data = yaml.load(path.read_text(encoding="utf-8"))
        except (OSError, YAMLError):
            continue  # the game loaded, so this cannot happen short of a file changed meanwhile
        for text in _leaves(data):
            if "'" not in text and '"' not in text:
                continue  # no literal to find: skip the parse
            for parse in (parse_block, parse_expr):
                report = Report()
                node = parse(text, PlainOrigin(str(path)), report)
                if node is not None and not report.diagnostics:
                    _string_nodes(node, out)
                    break
    return out


def game_strings(game: CompiledGame, files: Iterable[Path]) -> list[str]:
    """The string universe: data strings and DSL literals, sorted (so file layout does not matter)."""
    return sorted(data_strings(game) | literal_strings(files))
