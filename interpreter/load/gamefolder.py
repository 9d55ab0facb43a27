"""A game folder's `*.yaml` files merged into one `GameSource` (the `load` stage, after yamlsource.py).

Each file is read by `yamlsource.load_yaml_file`; its top-level sections are merged into one
mapping: mapping sections merge their keys, list sections concatenate, and every position recorded
for a file is copied under the merged path (a concatenated list's indices shifted), so later stages
point into the file that wrote the value. A key (or a non-mergeable section) written twice is Y003,
naming both places; an empty file is the warning Y006, a file that is not a mapping of sections Y004.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import Report, Span
from tabula.interpreter.load.positions import GameSource, YamlDoc, YamlPath
from tabula.interpreter.load.yamlsource import load_yaml_file


def load_game_folder(folder: Path, report: Report) -> GameSource | None:
    """Load and merge every `*.yaml` directly in `folder` (sorted by name; subfolders are ignored).

    Mapping sections merge their keys, list sections concatenate; a key (or a non-mergeable
    section) defined twice is error Y003 naming both places. Returns None when a file could not be
    loaded, so later stages do not report the symptoms of a half-read game.
    """
    if not folder.is_dir():
        report.error("Y000", f"game folder not found: {folder}", None)
        return None
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    if not files:
        report.error("Y000", f"no *.yaml files in {folder}", None)
        return None
    source = GameSource(folder, {}, [])
    complete = True
    for file in files:
        doc = load_yaml_file(file, report)
        if doc is None:
            complete = False
            continue
        source.docs.append(doc)
        _merge_doc(source, doc, report)
    return source if complete else None


def _merge_doc(source: GameSource, doc: YamlDoc, report: Report) -> None:
    if doc.data is None:
        report.warning("Y006", "empty file (ignored)", Span.point(doc.file, 1, 1))
        return
    if not isinstance(doc.data, dict):
        report.error(
            "Y004",
            "a game file must be a mapping of sections",
            doc.value_span.get(()),
            hint="start every top-level line with a section name, e.g. 'components:'",
        )
        return
    groups = _paths_by_entry(doc)
    for section, value in doc.data.items():
        _merge_section(source, doc, groups, section, value, report)


def _merge_section(
    source: GameSource,
    doc: YamlDoc,
    groups: dict[YamlPath, list[YamlPath]],
    section: str,
    value: Any,
    report: Report,
) -> None:
    if value is None and section in source.data:
        return  # an empty `section:` in one file adds nothing to the same section elsewhere
    if source.data.get(section, ...) is None:
        # The section was left empty in an earlier file: this file's content takes its place.
        del source.data[section]
        for positions in (source.key_span, source.value_span):
            positions.pop((section,), None)
    if section not in source.data:
        # Copy containers: later files extend the merged section, never the first file's data.
        if isinstance(value, dict):
            value = dict(value)
        elif isinstance(value, list):
            value = list(value)
        source.data[section] = value
        for prefix, paths in groups.items():
            if prefix[:1] == (section,):
                _copy_positions(source, doc, paths, 0)
        return
    existing = source.data[section]
    if isinstance(existing, dict) and isinstance(value, dict):
        for key, entry in value.items():
            if key in existing:
                _report_redefined(source, doc, (section, key), report)
                continue
            existing[key] = entry
            _copy_positions(source, doc, groups.get((section, key), []), 0)
    elif isinstance(existing, list) and isinstance(value, list):
        offset = len(existing)
        existing.extend(value)
        for index in range(len(value)):
            _copy_positions(source, doc, groups.get((section, index), []), offset)
    else:
        _report_redefined(source, doc, (section,), report)


def _paths_by_entry(doc: YamlDoc) -> dict[YamlPath, list[YamlPath]]:
    """Every recorded path of `doc`, grouped by its first two elements (section, entry)."""
    groups: dict[YamlPath, list[YamlPath]] = defaultdict(list)
    for path in {*doc.value_span, *doc.key_span, *doc.value_origin}:
        if path:
            groups[path[:2]].append(path)
    return groups


def _copy_positions(source: GameSource, doc: YamlDoc, paths: list[YamlPath], offset: int) -> None:
    # `offset` shifts the list index of a concatenated section's entries (second path element).
    for path in paths:
        target = path
        if offset and len(path) >= 2 and isinstance(path[1], int):
            target = (path[0], path[1] + offset, *path[2:])
        if path in doc.key_span:
            source.key_span.setdefault(target, doc.key_span[path])
        if path in doc.value_span:
            source.value_span.setdefault(target, doc.value_span[path])
        if path in doc.value_origin:
            source.value_origin.setdefault(target, doc.value_origin[path])


def _report_redefined(source: GameSource, doc: YamlDoc, path: YamlPath, report: Report) -> None:
    first = source.key_span.get(path)
    where = f"{first.file}:{first.line}:{first.col}" if first else "another file"
    name = ".".join(str(part) for part in path)
    what = f"section '{name}'" if len(path) == 1 else f"'{name}'"
    hint = (
        "only mapping and list sections can be split over several files"
        if len(path) == 1
        else "a section may be split over several files, but each entry must be defined only once"
    )
    report.error("Y003", f"{what} is already defined at {where}", doc.key_span.get(path), hint=hint)
