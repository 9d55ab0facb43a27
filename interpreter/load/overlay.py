"""Variants and expansions: packs of data applied onto a loaded game before it is checked.

Stage: load (after the game folder is merged, before schema validation). A pack is one YAML file:

    pack: short-game                 # its name
    kind: variant                    # variant (changes the game) or expansion (adds to it)
    description: One round fewer.
    game: my-game                    # optional: the game id it is written for
    options: {short_game: true}      # new defaults for rules options
    add:     {PATH: value, ...}      # new entries: mapping keys, or items appended to a list
    replace: {PATH: value, ...}      # existing entries, replaced whole
    remove:  [PATH, ...]             # existing entries, removed

A PATH is dotted keys from the top of the game, where a list item is selected by its `name` or
`id`: `flow.rounds.count`, `components.card.instances[C7]`, `flow.end_checks[early_end]`.
Every reference must exist (adding: the parent must exist and the key must not). Two packs that
replace or remove the same thing, or add the same id, are an error naming both places. Positions
are kept: an error inside a pack's DSL is reported in the pack's file, like any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import Report, Span, did_you_mean
from tabula.interpreter.load.options import OptionSpec, declared_specs, describe, hint_for
from tabula.interpreter.load.packfiles import find_pack
from tabula.interpreter.load.packtypes import PackDef, common_kind, is_open, kind_of, mismatch, show
from tabula.interpreter.load.positions import GameSource, YamlDoc, YamlPath, span_for
from tabula.interpreter.load.schema.errors import validate_document
from tabula.interpreter.load.yamlsource import load_yaml_file

_SEGMENT = re.compile(r"([^.\[\]]+)(?:\[([^\]]+)\])?")
PACK_KEYS = {"pack", "kind", "description", "game", "options", "add", "replace", "remove"}
_A = {"variant": "a variant", "expansion": "an expansion"}
_FLAG = {"variant": "--variant", "expansion": "--with"}  # how a command line gives each kind
_KEY = {"variant": "variant", "expansion": "with"}  # and a scenario


@dataclass
class Pack:
    """A loaded pack file."""

    name: str
    kind: str
    description: str
    doc: YamlDoc
    file: Path


@dataclass
class _Claims:
    """Who changed what, to report two packs changing the same entry."""

    changed: dict[YamlPath, Span | None] = field(default_factory=dict)


def resolve_pack(game_folder: Path, ref: str, kind: str, report: Report) -> Path | None:
    """The file of a pack named on a command line or in a scenario, or None with the reason reported:
    a pack file that does not exist (V005), a name shipped as the other kind (V006), or no such name."""
    path = find_pack(game_folder, ref, kind)
    if path is not None:
        return path
    shipped = ", ".join(name for name, k, _, _ in list_packs(game_folder) if k == kind) or "none"
    if ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref:
        report.error(
            "V005",
            f"no pack file '{ref}'",
            None,
            f"a path is relative to the current folder; {kind}s shipped by name: {shipped}",
        )
        return None
    other = "expansion" if kind == "variant" else "variant"
    if find_pack(game_folder, ref, other) is not None:
        report.error(
            "V006",
            f"'{ref}' is {_A[other]} of {game_folder.name}, not {_A[kind]}",
            None,
            f"give it with {_FLAG[other]} {ref} (in a scenario: {_KEY[other]}: {ref})",
        )
        return None
    report.error("V000", f"no {kind} named '{ref}' for {game_folder.name}", None, f"{kind}s: {shipped}")
    return None


def load_packs(
    game_folder: Path, variant: str | None, expansions: tuple[str, ...] | list[str], report: Report
) -> list[Pack]:
    """The variant and the expansions, loaded in the order they apply; problems go to `report`."""
    packs = []
    wanted = [*([(variant, "variant")] if variant else []), *((e, "expansion") for e in expansions)]
    for ref, given_as in wanted:
        path = resolve_pack(game_folder, ref, given_as, report)
        pack = load_pack(path, report) if path is not None else None
        if pack is None:
            continue
        if pack.kind != given_as:
            report.error(
                "V006",
                f"this pack is {_A[pack.kind]}, but it was given as {_A[given_as]}",
                span_for(pack.doc, ["kind"]) or span_for(pack.doc, ["pack"]),
                f"give it with {_FLAG[pack.kind]} {ref} (in a scenario: {_KEY[pack.kind]}: {ref})",
            )
            continue
        packs.append(pack)
    return packs


def list_packs(game_folder: Path) -> list[tuple[str, str, str, Path]]:
    """(name, kind, description, file) of every pack a game ships."""
    out = []
    for folder in ("variants", "expansions"):
        for f in sorted((game_folder / folder).glob("*.yaml")):
            doc = load_yaml_file(f, Report())
            data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
            out.append(
                (
                    str(data.get("pack", f.stem)),
                    str(data.get("kind", folder[:-1])),
                    first_line(data.get("description")),
                    f,
                )
            )
    return out


def first_line(description: Any) -> str:
    """The first line of a pack's description ('' when it is missing or blank)."""
    lines = str(description).strip().splitlines() if description is not None else []
    return lines[0] if lines else ""


def load_pack(path: Path, report: Report) -> Pack | None:
    doc = load_yaml_file(path, report)
    if doc is None:
        return None
    data = doc.data
    if not isinstance(data, dict) or "pack" not in data:
        report.error(
            "V001",
            "a pack file starts with 'pack: <name>'",
            Span.point(str(path), 1, 1),
            "see docs/variants.md",
        )
        return None
    for key in data:
        if key not in PACK_KEYS:
            report.error(
                "V002",
                f"unknown key '{key}' in a pack",
                span_for(doc, [key], key=True),
                did_you_mean(str(key), PACK_KEYS) or f"keys: {', '.join(sorted(PACK_KEYS))}",
            )
    kind = str(data.get("kind", "variant"))
    if kind not in ("variant", "expansion"):
        report.error("V003", f"kind must be 'variant' or 'expansion', not '{kind}'", span_for(doc, ["kind"]))
    # V001-V004 say it in a pack's words; the schema checks the shapes of the rest (S003).
    bad = False
    if not isinstance(data["pack"], str) or not data["pack"].strip():
        report.error("V004", "'pack' must be the pack's name", span_for(doc, ["pack"]))
        bad = True
    for key in ("description", "game"):
        if data.get(key) is not None and not isinstance(data[key], str):
            report.error("V004", f"'{key}' must be text", span_for(doc, [key]))
            bad = True
    if bad:
        return None
    rest = {k: v for k, v in data.items() if k in PACK_KEYS and k != "kind"}
    if (
        validate_document(
            PackDef, YamlDoc(doc.file, rest, doc.value_origin, doc.key_span, doc.value_span), report
        )
        is None
    ):
        return None
    return Pack(str(data["pack"]), kind, str(data.get("description") or ""), doc, path)


def parse_path(text: str) -> list[tuple[str, str | None]] | None:
    """`a.b[x].c` -> [(a, None), (b, x), (c, None)]; None if malformed."""
    parts: list[tuple[str, str | None]] = []
    for raw in text.split("."):
        m = _SEGMENT.fullmatch(raw.strip())
        if m is None:
            return None
        parts.append((m.group(1), m.group(2)))
    return parts


def _item_index(items: list[Any], selector: str) -> int | None:
    for i, item in enumerate(items):
        if isinstance(item, dict) and selector in (str(item.get("name")), str(item.get("id"))):
            return i
    return None


class _Applier:
    def __init__(self, source: GameSource, report: Report) -> None:
        self.src = source
        self.report = report
        self.claims = _Claims()
        # the types the game declares for its options, before any pack changes a default
        self.option_specs: dict[str, OptionSpec] = declared_specs(source.data.get("options"))

    # -- addressing
    def locate(self, text: str, span: Span | None, *, parent_only: bool = False) -> YamlPath | None:
        """The merged path a PATH names (for add: the container); errors are reported at `span`."""
        segs = parse_path(text)
        if not segs:
            self.report.error(
                "V010", f"malformed path '{text}'", span, "write keys with dots: flow.rounds.count"
            )
            return None
        node: Any = self.src.data
        path: list[str | int] = []
        for key, selector in segs:
            if not isinstance(node, dict) or key not in node:
                options = list(node) if isinstance(node, dict) else []
                where = ".".join(str(p) for p in path) or "the game"
                self.report.error(
                    "V011",
                    f"'{key}' does not exist in {where}",
                    span,
                    did_you_mean(key, [str(o) for o in options]),
                )
                return None
            node = node[key]
            path.append(key)
            if selector is not None:
                if not isinstance(node, list):
                    self.report.error("V012", f"'{key}' is not a list: [{selector}] selects nothing", span)
                    return None
                i = _item_index(node, selector)
                if i is None:
                    names = [str(x.get("name", x.get("id"))) for x in node if isinstance(x, dict)]
                    self.report.error(
                        "V013",
                        f"no item named '{selector}' in {'.'.join(map(str, path))}",
                        span,
                        did_you_mean(selector, names),
                    )
                    return None
                node = node[i]
                path.append(i)
        return tuple(path)

    def node(self, path: YamlPath) -> Any:
        node: Any = self.src.data
        for k in path:
            node = node[k]
        return node

    def shift_claims(self, path: YamlPath, removed: Any) -> None:
        """After a list item is removed: its claim keeps its name, later items' claims move down one."""
        list_path, index = path[:-1], path[-1]
        assert isinstance(index, int)
        ident = removed.get("name", removed.get("id")) if isinstance(removed, dict) else index
        n = len(list_path)
        moved: dict[YamlPath, Span | None] = {}
        for key, span in self.claims.changed.items():
            at = key[n] if key[:n] == list_path and len(key) > n else None
            if isinstance(at, int) and at >= index:
                new = (
                    (*list_path, f"removed:{ident}", *key[n + 1 :])
                    if at == index
                    else (*list_path, at - 1, *key[n + 1 :])
                )
                moved[new] = span
            else:
                moved[key] = span
        self.claims.changed = moved

    def claim(self, path: YamlPath, span: Span | None) -> bool:
        for other, other_span in self.claims.changed.items():
            if other[: len(path)] == path or path[: len(other)] == other:
                where = (
                    f"{other_span.file}:{other_span.line}:{other_span.col}" if other_span else "another pack"
                )
                same = other_span is not None and span is not None and other_span.file == span.file
                message = (
                    "this entry is changed twice in one pack" if same else "two packs change the same entry"
                )
                self.report.error("V020", message, span, f"it is also changed at {where}")
                return False
        self.claims.changed[path] = span
        return True

    # -- positions
    def drop_positions(self, prefix: YamlPath) -> None:
        n = len(prefix)
        for table in (self.src.value_origin, self.src.key_span, self.src.value_span):
            for k in [k for k in table if k[:n] == prefix]:
                del table[k]

    def shift_positions(self, list_path: YamlPath, start: int, delta: int) -> None:
        """Renumber the positions of list items after a removal."""
        n = len(list_path)

        def shifted(key: YamlPath) -> YamlPath | None:
            if key[:n] == list_path and len(key) > n:
                index = key[n]
                if isinstance(index, int) and index >= start:
                    return (*list_path, index + delta, *key[n + 1 :])
            return None

        self.src.value_origin = {shifted(k) or k: v for k, v in self.src.value_origin.items()}
        self.src.key_span = {shifted(k) or k: v for k, v in self.src.key_span.items()}
        self.src.value_span = {shifted(k) or k: v for k, v in self.src.value_span.items()}

    def copy_positions(self, doc: YamlDoc, from_path: YamlPath, to_path: YamlPath) -> None:
        n = len(from_path)

        def moved(key: YamlPath) -> YamlPath | None:
            return (*to_path, *key[n:]) if key[:n] == from_path else None

        for k, origin in doc.value_origin.items():
            if (new := moved(k)) is not None:
                self.src.value_origin[new] = origin
        for k, span in doc.key_span.items():
            if (new := moved(k)) is not None:
                self.src.key_span[new] = span
        for k, span in doc.value_span.items():
            if (new := moved(k)) is not None:
                self.src.value_span[new] = span

    # -- types
    def check_value(self, pack: Pack, doc_path: YamlPath, path: YamlPath, template: Any, value: Any) -> None:
        """V030 / O002: a value of another kind than the game's value (or declared type) it replaces."""
        if len(path) == 3 and path[0] == "options" and path[2] == "default":
            self.option_allows(str(path[1]), value, span_for(pack.doc, list(doc_path)))
            return
        if not is_open(path):
            return  # the game's schema checks it, at the pack's positions, once the packs are applied
        found = mismatch(template, value)
        if found is None:
            return
        sub, theirs, ours = found
        where = str(doc_path[-1]) + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in sub)
        self.report.error(
            "V030",
            f"'{where}' must be {kind_of(theirs)}, like the game's value, not {describe(ours)}",
            span_for(pack.doc, [*doc_path, *sub]),
            f"the game has {show(theirs)} here; a pack keeps the type of what it replaces or extends",
        )

    def option_allows(self, name: str, value: Any, span: Span | None) -> bool:
        spec = self.option_specs.get(name)
        problem = spec.problem(value) if spec is not None else None
        if spec is not None and problem is not None:
            self.report.error("O002", problem, span, hint_for(spec))
            return False
        return True

    # -- operations
    def add(self, pack: Pack, text: str, value: Any) -> None:
        doc_path: YamlPath = ("add", text)
        span = span_for(pack.doc, list(doc_path), key=True)
        head, _, last = text.rpartition(".")
        key_seg = parse_path(last)
        target = self.locate(head, span) if head else ()
        if target is None:
            return
        if not key_seg:
            self.report.error("V010", f"malformed path '{text}'", span)
            return
        key, selector = key_seg[0]
        if selector is not None:
            self.report.error(
                "V014",
                "add to a list by naming the list, not an item",
                span,
                f"write {head + '.' if head else ''}{key}",
            )
            return
        container = self.node(target)
        if not isinstance(container, dict):
            self.report.error("V012", f"'{head}' is not a mapping", span)
            return
        if key not in container:
            # a new entry of an open value (a constant's mapping) takes the kind of its siblings
            siblings = common_kind(list(container.values())) if is_open(target) else None
            self.check_value(pack, doc_path, (*target, key), siblings, value)
            container[key] = value
            self.copy_positions(pack.doc, doc_path, (*target, key))
            self.claim((*target, key), span)
            return
        existing = container[key]
        if isinstance(existing, list) and isinstance(value, list):
            self.check_value(pack, doc_path, (*target, key), existing, value)
            for i, item in enumerate(value):
                ident = item.get("name", item.get("id")) if isinstance(item, dict) else None
                item_span = span_for(pack.doc, [*doc_path, i])
                if ident is not None and _item_index(existing, str(ident)) is not None:
                    self.report.error(
                        "V021",
                        f"'{ident}' already exists in {text}",
                        item_span,
                        "use 'replace:' to change it",
                    )
                    continue
                existing.append(item)
                self.copy_positions(pack.doc, (*doc_path, i), (*target, key, len(existing) - 1))
                self.claim((*target, key, len(existing) - 1), item_span)
            return
        if isinstance(existing, dict) and isinstance(value, dict):
            self.check_value(pack, doc_path, (*target, key), existing, value)
            for k, v in value.items():
                item_span = span_for(pack.doc, [*doc_path, k], key=True)
                if k in existing:
                    self.report.error(
                        "V021", f"'{text}.{k}' already exists", item_span, "use 'replace:' to change it"
                    )
                    continue
                existing[k] = v
                self.copy_positions(pack.doc, (*doc_path, k), (*target, key, k))
                self.claim((*target, key, k), item_span)
            return
        self.report.error("V021", f"'{text}' already exists", span, "use 'replace:' to change it")

    def replace(self, pack: Pack, text: str, value: Any) -> None:
        doc_path: YamlPath = ("replace", text)
        span = span_for(pack.doc, list(doc_path), key=True)
        path = self.locate(text, span)
        if path is None or not self.claim(path, span):
            return
        parent = self.node(path[:-1]) if path else None
        if parent is None:
            self.report.error("V015", "the whole game cannot be replaced", span)
            return
        self.check_value(pack, doc_path, path, parent[path[-1]], value)
        parent[path[-1]] = value
        self.drop_positions(path)
        self.copy_positions(pack.doc, doc_path, path)

    def remove(self, pack: Pack, text: str, index: int) -> None:
        span = span_for(pack.doc, ["remove", index])
        path = self.locate(text, span)
        if path is None or not self.claim(path, span):
            return
        parent = self.node(path[:-1])
        self.drop_positions(path)
        if isinstance(parent, list):
            assert isinstance(path[-1], int)
            removed = parent[path[-1]]
            del parent[path[-1]]
            self.shift_positions(path[:-1], path[-1] + 1, -1)
            self.shift_claims(path, removed)
        else:
            del parent[path[-1]]

    def options(self, pack: Pack, options: dict[str, Any]) -> None:
        declared = self.src.data.get("options") or {}
        for name, value in options.items():
            span = span_for(pack.doc, ["options", name], key=True)
            if name not in declared:
                self.report.error(
                    "V016", f"unknown rules option '{name}'", span, did_you_mean(name, declared)
                )
                continue
            if not self.claim(("options", name), span):
                continue
            if not self.option_allows(name, value, span_for(pack.doc, ["options", name])):
                continue
            entry = declared[name]
            if isinstance(entry, dict):
                entry["default"] = value
            else:
                declared[name] = {"default": value}
            self.copy_positions(pack.doc, ("options", name), ("options", name, "default"))

    def apply(self, pack: Pack) -> None:
        data = pack.doc.data
        game_id = str((self.src.data.get("game") or {}).get("id", ""))
        if data.get("game") is not None and str(data["game"]) != game_id:
            self.report.error(
                "V004", f"this pack is for '{data['game']}', not '{game_id}'", span_for(pack.doc, ["game"])
            )
            return
        self.options(pack, data.get("options") or {})
        for i, text in enumerate(data.get("remove") or []):
            self.remove(pack, str(text), i)
        for text, value in (data.get("replace") or {}).items():
            self.replace(pack, str(text), value)
        for text, value in (data.get("add") or {}).items():
            self.add(pack, str(text), value)


def apply_packs(source: GameSource, packs: list[Pack], report: Report) -> None:
    """Apply packs in order onto a merged game (in place)."""
    applier = _Applier(source, report)
    for pack in packs:
        applier.apply(pack)
