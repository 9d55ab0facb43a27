"""What the server answers, as plain data: completion items, hover text, definitions and references.

Positions here are 1-based lines and columns counted in characters, as `Span`s are; server.py turns
them into the protocol's 0-based UTF-16 positions. A name is looked up in the folder's last check
(`FolderCheck.index`), and the builtins in the engine's own table (`BUILTINS`, which
docs/reference.md is generated from), so the editor documents what the checker accepts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import Span
from tabula.interpreter.compile.python.expressions.builtins import AGGREGATES, BUILTINS
from tabula.interpreter.compile.python.expressions.names import BUILTIN_ATTRS, SPECIAL_NAMES
from tabula.lsp.names import Declaration, Index

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# the words the engine binds (docs/reference.md: names the engine defines, and context names)
CONTEXT_NAMES = {"me": "the deciding player", "p": "the turn's or scored player", "self": "the component"}
_LOCAL = re.compile(r"\b(?:let|for|choose|simultaneous)\s+([A-Za-z_]\w*)")
_PARAMS = re.compile(r"\bparams:\s*(?:\{([^}]*)\}|\[([^\]]*)\])")
LOOKUPS = {"option": "option(NAME)", "value": "value(NAME, ARGS...)", "rule": "rule(NAME, ARGS...)"}
Lines = Callable[[str], list[str]]  # a file's lines, as the editor holds them


@dataclass(frozen=True)
class Item:
    """One completion: the text, what it is (`zone`, `builtin`, ...), a detail line and its doc."""

    label: str
    kind: str
    detail: str
    doc: str = ""


def word_at(line: str, col: int) -> tuple[str, int] | None:
    """The identifier of `line` under 1-based `col` (or just before it), and its first column."""
    for m in _WORD.finditer(line):
        if m.start() + 1 <= col <= m.end() + 1:
            return m.group(), m.start() + 1
    return None


def completions(index: Index, line: str, col: int, above: list[str] | None = None) -> list[Item]:
    """The names that may be written at `col` of `line`: after a dot the attributes, marks and
    properties of components; elsewhere the locals of the entry the cursor is in (`above`: the
    document's lines up to the cursor's), every declared name, builtin and engine name."""
    before = line[: col - 1]
    typed = re.search(r"[A-Za-z0-9_]*$", before)
    start = before[: len(before) - len(typed.group())] if typed else before
    if start.endswith("."):
        items = [Item(n, "attribute", f"component .{n}") for n in sorted(BUILTIN_ATTRS)]
        return items + [
            Item(d.name, d.kind.split()[0], d.kind)
            for decls in index.declarations.values()
            for d in decls
            if d.kind.startswith(("mark of", "property of"))
        ]
    items = [Item(n, "local", "a parameter or local name") for n in locals_above(above or [])]
    items += [Item(d.name, d.kind.split()[0], d.kind) for decls in index.declarations.values() for d in decls]
    items += [
        Item(b.name, "builtin", b.syntax, f"{b.doc}\n\nexample: `{b.example}`") for b in BUILTINS.values()
    ]
    items += [
        Item(a, "builtin", f"{a}(...)", "aggregate over a list or a generator")
        for a in AGGREGATES - BUILTINS.keys()
    ]
    items += [Item(n, "builtin", syntax, "a named lookup") for n, syntax in LOOKUPS.items()]
    items += [Item(n, "engine", "a name the engine defines") for n in sorted(SPECIAL_NAMES)]
    items += [Item(n, "engine", doc) for n, doc in CONTEXT_NAMES.items()]
    return _unique(items)


def locals_above(lines: list[str]) -> list[str]:
    """The parameters, `let`s and loop variables written in the YAML entry holding the last line: the
    lines up from it to the first one indented by at most two spaces (`  play:` in `actions:`)."""
    start = len(lines) - 1
    while start > 0 and len(lines[start]) - len(lines[start].lstrip()) > 2:
        start -= 1
    text = "\n".join(lines[start:])
    found = _LOCAL.findall(text)
    for braces, brackets in _PARAMS.findall(text):
        if braces:
            found += re.findall(r"([A-Za-z_]\w*)\s*:", braces)
        found += [m.group() for part in brackets.split(",") if (m := _WORD.search(part))]  # `[p: player, n]`
    return list(dict.fromkeys(found))


def _unique(items: list[Item]) -> list[Item]:
    seen: set[tuple[str, str]] = set()
    out = []
    for item in items:
        if (item.label, item.detail) not in seen:
            seen.add((item.label, item.detail))
            out.append(item)
    return out


def hover(index: Index, data: dict[str, Any], word: str, lines: Lines) -> str | None:
    """Markdown for `word`: a card's printed text and numbers, a builtin's signature and doc, or the
    line that declares a name."""
    decls = index.declarations.get(word, [])
    parts = [_declaration_text(d, data, lines) for d in decls]
    if word in BUILTINS and not decls:
        b = BUILTINS[word]
        parts.append(f"```\n{b.syntax}\n```\n{b.doc}\n\nexample: `{b.example}`")
    elif word in AGGREGATES and not decls:
        parts.append(f"```\n{word}(L)\n```\naggregate over a list or a generator (docs/reference.md)")
    elif word in SPECIAL_NAMES and not decls:
        parts.append(f"`{word}`: a name the engine defines (docs/reference.md)")
    return "\n\n---\n\n".join(parts) or None


def _declaration_text(d: Declaration, data: dict[str, Any], lines: Lines) -> str:
    where = f"{Path(d.span.file).name}:{d.span.line}"
    if d.path[0] == "components" and len(d.path) == 4 and d.path[2] == "instances":
        card = _entry(data, d.path)
        if isinstance(card, dict):
            numbers = ", ".join(f"{k}: {v}" for k, v in card.items() if k not in ("name", "text"))
            text = f"\n\n{card['text']}" if card.get("text") else ""
            return f"**{d.name}** ({d.kind}, {where}){text}\n\n{numbers}".rstrip()
    file_lines = lines(d.span.file)
    line = file_lines[d.span.line - 1].strip() if 0 < d.span.line <= len(file_lines) else d.name
    return f"{d.kind} **{d.name}** ({where})\n```yaml\n{line}\n```"


def _entry(data: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def definition(index: Index, word: str) -> list[Span]:
    """Where `word` is declared (a name may be declared more than once: a counter and an option)."""
    return [d.span for d in index.declarations.get(word, [])]


def references(index: Index, word: str, include_declaration: bool) -> list[Span]:
    """Every use of `word` in the game's DSL texts, in file order, and its declarations if asked."""
    spans = sorted(index.uses.get(word, []), key=lambda s: (s.file, s.line, s.col))
    return (definition(index, word) if include_declaration else []) + spans
