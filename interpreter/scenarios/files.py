"""Scenario files: finding them, resolving the game they name, and expanding a file into its cases.

A scenario file is a `*.yaml` file with a top-level `scenario:` key, or any `*.yaml` inside a folder
named `scenarios` (below the folder searched). One file holds one case, or several: `cases:` (each
a named variation whose keys replace the file's, and whose `given` adds to the file's, key by key)
and `examples:` (a table of parameters in the manner of a Gherkin scenario outline: each row's
values replace `<name>` in the file's text). With both, every case runs with every row. Each case
gets its own `YamlDoc`: the merged data with every position mapped back to where the text was
written, so errors stay located.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import AuthorError, Diagnostic, Report, did_you_mean, render_report
from tabula.interpreter.engine import BUNDLED
from tabula.interpreter.load.positions import YamlDoc, YamlPath, span_for
from tabula.interpreter.load.schema.scenario import Scenario, validate_scenario
from tabula.interpreter.load.yamlsource import load_yaml_file

SCENARIO_KEY = re.compile(r"^scenario[ \t]*:", re.MULTILINE)
PLACEHOLDER = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")
MULTI = ("cases", "examples")  # the keys that make one file several cases


# ------------------------------------------------------------------ finding files


def find_scenarios(paths: list[str]) -> list[Path]:
    """Scenario files under the given files, folders or bundled game names, in a stable order."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists() and (BUNDLED / raw).is_dir():
            p = BUNDLED / raw
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            out.extend(f for f in _yaml_files(p) if is_scenario_file(f, p))
    return out


def _yaml_files(root: Path) -> Iterator[Path]:
    """`*.yaml` files under `root`, sorted, skipping hidden folders and virtualenvs."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")
        )
        for name in sorted(files):
            if name.endswith(".yaml"):
                yield Path(folder) / name


def is_scenario_file(f: Path, root: Path) -> bool:
    """Inside a folder named `scenarios` below `root`, or a file with a top-level `scenario:` key.

    Folder names above `root` do not count (a checkout may itself be called `scenarios`)."""
    if "scenarios" in f.relative_to(root).parts[:-1]:
        return True
    try:
        return SCENARIO_KEY.search(f.read_text(encoding="utf-8", errors="replace")) is not None
    except OSError:
        return False


# ------------------------------------------------------------------ the game a scenario names


def is_path_ref(ref: str) -> bool:
    """Is a `game:` reference written as a path (`./x`, `../x`, `x/y`, absolute) rather than a name?"""
    return ref in (".", "..") or "/" in ref or "\\" in ref or Path(ref).is_absolute()


def game_folder(doc: YamlDoc, ref: str, scenario_file: Path) -> Path:
    """The game folder of `game: ref`: the bundled game of that name, or a path from the file's folder.

    A folder of the current directory never shadows a bundled game."""
    report = Report()
    span = span_for(doc, ["game"])
    if is_path_ref(ref):
        folder = (scenario_file.parent / ref).resolve()
        if folder.is_dir():
            return folder
        report.error("G001", f"no game folder at '{ref}' (from {scenario_file.parent})", span)
        raise AuthorError(report)
    if (BUNDLED / ref).is_dir():
        return (BUNDLED / ref).resolve()
    names = sorted(d.name for d in BUNDLED.iterdir() if d.is_dir() and not d.name.startswith("_"))
    hint = did_you_mean(ref, names) or f"bundled games: {', '.join(names)}"
    if (scenario_file.parent / ref).is_dir():
        hint = f"to use the folder beside this file, write it as a path: game: ./{ref}"
    report.error("G001", f"no bundled game named '{ref}'", span, hint)
    raise AuthorError(report)


# ------------------------------------------------------------------ cases


@dataclass
class Case:
    """One runnable case of a scenario file."""

    title: str
    path: Path
    doc: YamlDoc  # the case's view of the file: merged data, positions where the text was written
    spec: Scenario
    line: int = 1
    tags: list[str] = field(default_factory=list)


@dataclass
class Loaded:
    """A scenario file read and expanded; `error` (rendered) when it could not be."""

    path: Path
    title: str
    cases: list[Case] = field(default_factory=list)
    error: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)  # those `error` renders (tabula lsp)


def load_cases(path: Path) -> Loaded:
    """Read, validate and expand one scenario file; never raises for author errors."""
    report = Report()
    doc = load_yaml_file(path, report)
    # a loading error (a number of 5,000 digits, an alias bomb) stops before the schema repeats it
    spec = validate_scenario(_first_row(doc), report) if doc is not None and not report.has_errors else None
    if doc is None or spec is None:
        return Loaded(path, path.stem, error=render_report(report), diagnostics=report.diagnostics)
    _unused_file_keys(doc, spec, report)
    docs = _case_docs(doc, spec)
    rows = _rows(doc, spec, report)
    if report.has_errors:
        return Loaded(path, spec.scenario, error=render_report(report), diagnostics=report.diagnostics)
    cases: list[Case] = []
    for case_name, case_doc, line in docs:
        for row_index, row in rows:
            cases.extend(_case(path, case_doc, case_name, row_index, row, line, report))
    if report.has_errors:
        return Loaded(path, spec.scenario, error=render_report(report), diagnostics=report.diagnostics)
    _unique_titles(cases)
    return Loaded(path, spec.scenario, cases, diagnostics=report.diagnostics)


def _case(
    path: Path,
    doc: YamlDoc,
    case_name: str | None,
    row_index: int | None,
    row: dict[str, Any] | None,
    line: int,
    report: Report,
) -> list[Case]:
    template = str(doc.data.get("scenario", ""))
    if row is not None:
        line = _line(doc, ("examples", row_index)) if row_index is not None else line
        doc = substitute(doc, row)
    spec = validate_scenario(doc, report)
    if spec is None:
        return []
    title = spec.scenario
    if case_name is not None:
        title = f"{title} ({case_name})"
    if row is not None and not any(f"<{k}>" in template for k in row):
        # a title without placeholders names the row by its values
        title = f"{title} [{', '.join(f'{k}={dsl_text(v)}' for k, v in row.items())}]"
    return [Case(title, path, doc, spec, line, list(spec.tags))]


def _first_row(doc: YamlDoc) -> YamlDoc:
    """The file as its first example row makes it (the file itself without `examples`), so a
    placeholder may stand for a value of any type (`players: <n>`) when the file is validated.
    Every row is validated again on its own."""
    rows = doc.data.get("examples") if isinstance(doc.data, dict) else None
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], dict):
        return doc
    return substitute(doc, rows[0], keep_examples=True)


def _unused_file_keys(doc: YamlDoc, spec: Scenario, report: Report) -> None:
    """R111: the file's own `when`, `then` or `expect_end` that every case replaces would never run.

    A file with `cases:` runs its cases only; what they do not replace they inherit. A key of the
    file that every case replaces is a main example nobody runs, so it is refused (located), never
    skipped silently: written as a case of its own, it runs and is counted."""
    raw = doc.data.get("cases")
    if not spec.cases or not isinstance(raw, list):
        return
    for key in ("when", "then", "expect_end"):
        if key in doc.data and all(isinstance(c, dict) and key in c for c in raw):
            report.error(
                "R111",
                f"every case replaces the file's '{key}', so it would never run",
                span_for(doc, [key], key=True),
                "make the file's own example a case of its own (- name: ...), or remove it",
            )


def _unique_titles(cases: list[Case]) -> None:
    seen: dict[str, int] = {}
    for case in cases:
        n = seen.get(case.title, 0) + 1
        seen[case.title] = n
        if n > 1:
            case.title = f"{case.title} #{n}"


def _line(doc: YamlDoc, path: YamlPath) -> int:
    span = span_for(doc, list(path))
    return span.line if span is not None else 1


# ------------------------------------------------------------------ cases: merging


def _case_docs(doc: YamlDoc, spec: Scenario) -> list[tuple[str | None, YamlDoc, int]]:
    """(case name, the case's doc, its line) for each case; the file itself when it has none."""
    if not spec.cases:
        return [(None, _without(doc, MULTI, keep=("examples",)), _line(doc, ("scenario",)))]
    return [(case.name, merge_case(doc, i), _line(doc, ("cases", i))) for i, case in enumerate(spec.cases)]


def merge_case(doc: YamlDoc, index: int) -> YamlDoc:
    """The file's data with case `index` merged in: its keys replace the file's, its `given` sections
    add to the file's key by key, its `tags` add to the file's. Positions follow the text."""
    case: dict[str, Any] = doc.data["cases"][index]
    data = {k: v for k, v in doc.data.items() if k != "cases"}
    replaced: list[YamlPath] = []
    for key, value in case.items():
        if key == "name":
            continue
        if key == "given" and isinstance(data.get("given"), dict) and isinstance(value, dict):
            given = dict(data["given"])
            for section, entries in value.items():
                if isinstance(entries, dict) and isinstance(given.get(section), dict):
                    given[section] = {**given[section], **entries}
                    replaced.extend(("given", section, k) for k in entries)
                else:
                    given[section] = entries
                    replaced.append(("given", section))
            data["given"] = given
        elif key == "tags" and isinstance(data.get("tags"), list) and isinstance(value, list):
            data["tags"] = [*data["tags"], *(t for t in value if t not in data["tags"])]
        else:
            data[key] = value
            replaced.append((key,))
    prefix: YamlPath = ("cases", index)

    def where(path: YamlPath) -> YamlPath | None:
        if path[:2] == prefix:
            rest = path[2:]
            return rest if rest and rest[0] not in ("name", "tags") else None
        if path[:1] == ("cases",) or any(path[: len(r)] == r for r in replaced):
            return None
        return path

    return _remap(doc, data, where)


def _without(doc: YamlDoc, keys: tuple[str, ...], keep: tuple[str, ...] = ()) -> YamlDoc:
    drop = tuple(k for k in keys if k not in keep)
    data = {k: v for k, v in doc.data.items() if k not in drop} if isinstance(doc.data, dict) else doc.data
    return _remap(doc, data, lambda p: None if p[:1] and p[0] in drop else p)


def _remap(doc: YamlDoc, data: Any, where: Callable[[YamlPath], YamlPath | None]) -> YamlDoc:
    out = YamlDoc(doc.file, data)
    for src, dst in ((doc.value_origin, out.value_origin), (doc.key_span, out.key_span)):
        for path, value in src.items():
            new = where(path)
            if new is not None:
                dst[new] = value  # type: ignore[assignment]
    for path, span in doc.value_span.items():
        new = where(path)
        if new is not None:
            out.value_span[new] = span
    return out


# ------------------------------------------------------------------ examples: the outline's table


def _rows(doc: YamlDoc, spec: Scenario, report: Report) -> list[tuple[int | None, dict[str, Any] | None]]:
    """The example rows (checked: same columns in every row, each column used by a placeholder)."""
    if not spec.examples:
        return [(None, None)]
    used = set(PLACEHOLDER.findall(_all_text({k: v for k, v in doc.data.items() if k != "examples"})))
    columns = list(spec.examples[0])
    for i, row in enumerate(spec.examples):
        for key in row:
            if key not in used:
                hint = did_you_mean(key, used) or "write <" + key + "> where the value goes"
                report.error(
                    "R106",
                    f"examples[{i}] gives '{key}', but no <{key}> in the file uses it",
                    span_for(doc, ["examples", i, key], key=True),
                    hint,
                )
        missing = [c for c in columns if c not in row] + [c for c in row if c not in columns]
        if missing:
            report.error(
                "R106",
                f"examples[{i}] has not the same columns as examples[0] ({', '.join(missing)})",
                span_for(doc, ["examples", i]),
            )
    return list(enumerate(spec.examples))


def _all_text(data: Any) -> str:
    if isinstance(data, str):
        return data + "\n"
    if isinstance(data, dict):
        return "".join(str(k) + "\n" + _all_text(v) for k, v in data.items())
    if isinstance(data, list):
        return "".join(_all_text(v) for v in data)
    return ""


def substitute(doc: YamlDoc, row: dict[str, Any], keep_examples: bool = False) -> YamlDoc:
    """`doc` with each `<name>` of `row` replaced: inside text by the value's DSL text; a whole
    value `<name>` by the value itself (a number stays a number, a list a list: `players: <names>`).
    Keys are substituted too. `examples` is dropped, or kept as written with `keep_examples`."""
    moved: dict[YamlPath, YamlPath] = {}
    changed: set[YamlPath] = set()
    inside: list[tuple[YamlPath, YamlPath]] = []

    def text(s: str) -> str:
        return PLACEHOLDER.sub(lambda m: dsl_text(row[m[1]]) if m[1] in row else m[0], s)

    def walk(value: Any, old: YamlPath, new: YamlPath) -> Any:
        moved[old] = new
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            for k, v in value.items():
                key = text(k) if isinstance(k, str) else k
                out[key] = walk(v, (*old, k), (*new, key))
            return out
        if isinstance(value, list):
            return [walk(v, (*old, i), (*new, i)) for i, v in enumerate(value)]
        if isinstance(value, str):
            whole = PLACEHOLDER.fullmatch(value)
            result: Any = row[whole[1]] if whole and whole[1] in row else text(value)
            if result != value:
                changed.add(new)
            if isinstance(result, list):  # an error inside the row's list points at the placeholder
                inside.extend((new, sub) for sub in _inner_paths(result, new))
            return result
        return value

    top = {k: v for k, v in doc.data.items() if k != "examples"}
    data = walk(top, (), ())
    if keep_examples and "examples" in doc.data:
        data["examples"] = doc.data["examples"]
    out = _remap(doc, data, lambda p: moved.get(p, p if keep_examples and p[:1] == ("examples",) else None))
    for path in changed:
        out.value_origin.pop(path, None)  # offsets inside a substituted text no longer line up
    for holder, path in inside:
        if holder in out.value_span:
            out.value_span[path] = out.value_span[holder]
    return out


def _inner_paths(value: list[Any], base: YamlPath) -> Iterator[YamlPath]:
    for i, item in enumerate(value):
        yield (*base, i)
        if isinstance(item, list):
            yield from _inner_paths(item, (*base, i))


def dsl_text(v: Any) -> str:
    """A value as DSL text: `true`, `none`, `3`, `[a, b]`, a symbol or name as written."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(dsl_text(x) for x in v) + "]"
    return str(v)
