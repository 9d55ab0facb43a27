"""The names of a game folder for an editor: where each is declared, and every place it is used.

Input: the merged game data with its positions (`load.positions.GameSource`), as `check_game` read
it (the editor's unsaved texts included). Output: an `Index`: declarations (name -> kind, span, the
declaring entry) from the named sections, the component types' instances, marks and properties and
the enums' values; uses, from every DSL text of the game parsed into its AST (`dsl/ast.py`: each
node has its span in the YAML file), the names it reads, calls, runs or lists in a `window`.

Why parse again rather than keep the compiler's trees: the index is wanted even when a stage before
the compiler failed (a name's uses while the schema is broken), and parsing is cheap beside checking.
A local (`let`, a parameter, a loop variable) that shares a declared name counts as a use of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.base.source import Report, Span
from tabula.interpreter.dsl import ast
from tabula.interpreter.dsl.parser import PlainOrigin, TextOrigin, parse_block, parse_expr, parse_template
from tabula.interpreter.load.positions import GameSource, ScalarOrigin, YamlDoc, YamlPath

# section -> the kind of name each of its keys declares
SECTIONS = {
    "options": "option",
    "constants": "constant",
    "enums": "enum",
    "components": "component type",
    "boards": "board",
    "zones": "zone",
    "counters": "counter",
    "vars": "var",
    "functions": "function",
    "procedures": "procedure",
    "actions": "action",
    "values": "value",
    "rules": "rule",
}
# keys whose texts are prose or labels, never DSL
_PROSE = {"description", "name", "title", "label", "text", "prompt", "seats", "id", "colour", "colours"}
_NOT_DSL = {"game", "scenario", "tags"}  # sections (and scenario files' keys) without DSL


@dataclass(frozen=True)
class Declaration:
    """A declared name: its kind, where its name is written, and the path of its entry in the data."""

    name: str
    kind: str
    span: Span
    path: YamlPath


@dataclass
class Index:
    """Declarations by name (a name may be declared more than once: a card and a zone), and uses."""

    declarations: dict[str, list[Declaration]] = field(default_factory=dict)
    uses: dict[str, list[Span]] = field(default_factory=dict)

    def declare(self, name: str, kind: str, span: Span | None, path: YamlPath) -> None:
        if span is not None:
            self.declarations.setdefault(name, []).append(Declaration(name, kind, span, path))

    def use(self, name: str, span: Span) -> None:
        if name in self.declarations:
            self.uses.setdefault(name, []).append(span)

    def at(self, file: str, line: int, col: int) -> str | None:
        """The declared name written at `file`:`line`:`col` (1-based), as a declaration or a use."""
        for name, decls in self.declarations.items():
            if any(_inside(d.span, file, line, col) for d in decls):
                return name
        for name, spans in self.uses.items():
            if any(_inside(s, file, line, col) for s in spans):
                return name
        return None


def _inside(span: Span, file: str, line: int, col: int) -> bool:
    return span.file == file and span.line == line and span.col <= col <= span.end_col


def build_index(
    source: GameSource, parsed: dict[Any, Any] | None = None, others: Sequence[YamlDoc] = ()
) -> Index:
    """Every declaration of `source`, then every use of a declared name in its DSL texts and those of
    the `others` documents (scenario files). `parsed` keeps parse results between calls (keyed by the
    text and where it is written)."""
    index = Index()
    _declarations(source, index)
    cache = parsed if parsed is not None else {}
    docs: list[GameSource | YamlDoc] = [source, *others]
    for doc in docs:
        _uses(doc, index, cache)
    _drop_declaring_uses(index)
    return index


def _uses(doc: GameSource | YamlDoc, index: Index, cache: dict[Any, Any]) -> None:
    for path, origin in doc.value_origin.items():
        value = _value_at(doc.data, path)
        if isinstance(value, str) and _may_be_dsl(path, value):
            key = (value, origin.file, origin.line, origin.col)
            if key not in cache:
                cache[key] = _parse_any(value, origin)
            for name, span in cache[key]:
                index.use(name, span)


def _declarations(source: GameSource, index: Index) -> None:
    data, key_span, value_span = source.data, source.key_span, source.value_span
    for section, kind in SECTIONS.items():
        entries = data.get(section)
        if not isinstance(entries, dict):
            continue
        for name, entry in entries.items():
            index.declare(str(name), kind, key_span.get((section, name)), (section, name))
            if section == "enums" and isinstance(entry, list):
                for i, value in enumerate(entry):
                    index.declare(
                        str(value),
                        f"value of enum {name}",
                        value_span.get((section, name, i)),
                        (section, name, i),
                    )
            if section == "components" and isinstance(entry, dict):
                _component_names(source, str(name), entry, index)


def _component_names(source: GameSource, type_name: str, entry: dict[str, Any], index: Index) -> None:
    base: YamlPath = ("components", type_name)
    for part, kind in (("marks", "mark"), ("properties", "property")):
        for key in entry.get(part) or {}:
            index.declare(
                str(key),
                f"{kind} of {type_name}",
                source.key_span.get((*base, part, key)),
                (*base, part, key),
            )
    for i, instance in enumerate(entry.get("instances") or []):
        if isinstance(instance, dict) and isinstance(instance.get("name"), str):
            path = (*base, "instances", i)
            index.declare(instance["name"], f"{type_name}", source.value_span.get((*path, "name")), path)


def _value_at(data: Any, path: YamlPath) -> Any:
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
            continue
        if not (isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)):
            return None
        data = data[part]
    return data


def _may_be_dsl(path: YamlPath, value: str) -> bool:
    keys = [p for p in path if isinstance(p, str)]
    return bool(value.strip()) and path[0] not in _NOT_DSL and not (keys and keys[-1] in _PROSE)


def _parse_any(text: str, scalar: ScalarOrigin) -> list[tuple[str, Span]]:
    """The names a DSL text uses: read as an expression, else as an effect, else as a template."""
    origin: TextOrigin = scalar  # type: ignore[assignment]  # frozen: its file is read-only (compile/reader.py)
    node: Any = parse_expr(text, origin, Report())
    if node is None:
        node = parse_block(text, origin, Report())
    if node is None and "{" in text:
        node = parse_template(text, origin, Report())
    return list(_names_in(node)) if node is not None else []


def _names_in(node: Any) -> Iterator[tuple[str, Span]]:
    """Every name an AST reads: a `Name`, an attribute's name, a `run`'s procedure, a `window`'s actions."""
    if isinstance(node, tuple | list):
        for item in node:
            yield from _names_in(item)
        return
    if not isinstance(node, ast.Node):
        return
    if isinstance(node, ast.Name):
        yield node.id, node.span
    elif isinstance(node, ast.Attr):
        s = node.span
        yield node.name, Span(s.file, s.end_line, max(s.end_col - len(node.name), 1), s.end_line, s.end_col)
    elif isinstance(node, ast.Window):
        yield from zip(node.actions, node.action_spans, strict=False)
    elif isinstance(node, ast.Log):  # `log "... {expr} ..."`: read as the compiler reads it
        at = node.text_span or node.span
        yield from _names_in(parse_template(node.text, PlainOrigin(at.file, at.line, at.col + 1), Report()))
    elif isinstance(node, ast.Run):
        s = node.span  # `run NAME(...)`: the name follows the keyword
        yield node.name, Span(s.file, s.line, s.col + 4, s.line, s.col + 4 + len(node.name))
    for f in dataclasses.fields(node):
        if f.name != "span":
            yield from _names_in(getattr(node, f.name))


def _drop_declaring_uses(index: Index) -> None:
    """A declaration's own text (an enum value, a card's name) parsed as a name is no use of it."""
    declared = {d.span for decls in index.declarations.values() for d in decls}
    for name, spans in index.uses.items():
        index.uses[name] = [s for s in spans if s not in declared]
