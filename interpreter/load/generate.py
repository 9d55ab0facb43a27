"""Instances generated from ranges and products: `for:` on an instance (docs/language.md §1).

Stage: load (after packs are applied, before the schema). An instance with a `for:` mapping is a
template: each key is a property, each value the property's values (`2..10`, a list, or the name
of an enum or of a constant list); the template becomes one instance per combination (the product,
the first key outermost), each with those properties and with `{key}` in its other plain values
(its `name`, its `text`, its properties) replaced by the value: `name: "{colour}-{value}"`. A whole
value `"{value}"` keeps the value's type. The abilities and hook bodies (DSL) are copied as written.

Every generated instance's positions are the template's, a generated property's those of its
`for:` entry, so the checks after this stage point into the template (C009 for a `for:` that
cannot be read). The instances of the list keep their order, generated ones in the template's place.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report, did_you_mean
from tabula.interpreter.load.positions import GameSource, YamlPath, span_for

_RANGE = re.compile(r"^\s*(-?\d{1,9})\s*\.\.\s*(-?\d{1,9})\s*$")
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_DSL_KEYS = ("modifiers", "allow", "deny", "triggers", "hooks")  # copied as written, never filled

Binding = dict[str, Any]


def expand_generated(source: GameSource, report: Report) -> None:
    """Replace every `for:` instance of every component type by the instances it generates."""
    comps = source.data.get("components")
    if not isinstance(comps, dict):
        return
    for tname, tdef in comps.items():
        insts = tdef.get("instances") if isinstance(tdef, dict) else None
        if not isinstance(insts, list) or not any(isinstance(i, dict) and "for" in i for i in insts):
            continue
        base: YamlPath = ("components", tname, "instances")
        out: list[Any] = []
        origin: list[tuple[int, Binding | None]] = []
        for j, inst in enumerate(insts):
            if isinstance(inst, dict) and "for" in inst:
                for binding in _bindings(source, (*base, j), inst, report):
                    out.append(_instance(inst, binding))
                    origin.append((j, binding))
            else:
                out.append(inst)
                origin.append((j, None))
        _move_positions(source, base, origin)
        tdef["instances"] = out


def _bindings(source: GameSource, at: YamlPath, inst: dict[str, Any], report: Report) -> list[Binding]:
    """Each combination of the template's `for:` values, in order (none when one cannot be read)."""
    spec = inst["for"]
    if not isinstance(spec, dict) or not spec:
        _error(source, report, (*at, "for"), "'for' maps properties to their values: {value: 2..10}")
        return []
    columns: list[list[Any]] = []
    for key, raw in spec.items():
        values = _values(source, (*at, "for", key), raw, report)
        if values is None:
            return []
        if key in inst:
            _error(source, report, (*at, key), f"'{key}' is given by 'for' and by the instance", key=True)
            return []
        columns.append(values)
    total = math.prod(len(c) for c in columns)
    if total > limits.MAX_COMPONENTS:
        _error(
            source,
            report,
            (*at, "for"),
            f"'for' makes {total} instances, more than the {limits.MAX_COMPONENTS} components of a game",
        )
        return []
    return [dict(zip(spec, combo, strict=True)) for combo in itertools.product(*columns)]


def _values(source: GameSource, at: YamlPath, raw: Any, report: Report) -> list[Any] | None:
    """The values one `for:` entry stands for: `A..B` (whole numbers, both ends), a list, or the
    name of an enum or of a constant list."""
    if isinstance(raw, list) and raw and all(not isinstance(v, (dict, list)) for v in raw):
        return list(raw)
    if isinstance(raw, str):
        m = _RANGE.match(raw)
        if m:
            low, high = int(m[1]), int(m[2])
            if low <= high:
                return list(range(low, high + 1))
            _error(source, report, at, f"the range {raw} is empty", f"write {high}..{low}")
            return None
        named = _named_list(source, raw)
        if named is not None:
            return named
        lists = _list_names(source)
        hint = did_you_mean(raw, lists) or "a range 2..10, a list [a, b], or an enum or constant list by name"
        _error(source, report, at, f"'{raw}' is neither a range (2..10) nor an enum or a constant list", hint)
        return None
    _error(source, report, at, "a 'for' value is a range (2..10), a list of values, or an enum's name")
    return None


def _named_list(source: GameSource, name: str) -> list[Any] | None:
    for section in ("enums", "constants"):
        entries = source.data.get(section)
        value = entries.get(name) if isinstance(entries, dict) else None
        if isinstance(value, list) and value and all(not isinstance(v, (dict, list)) for v in value):
            return list(value)
    return None


def _list_names(source: GameSource) -> list[str]:
    return [
        str(name)
        for section in ("enums", "constants")
        for name, value in (source.data.get(section) or {}).items()
        if isinstance(value, list)
    ]


def _instance(template: dict[str, Any], binding: Binding) -> dict[str, Any]:
    """One generated instance: the template without `for`, its plain values filled, the binding's
    properties added."""
    out = {k: (v if k in _DSL_KEYS else _fill(v, binding)) for k, v in template.items() if k != "for"}
    out.update(binding)
    return out


def _fill(value: Any, binding: Binding) -> Any:
    if isinstance(value, str):
        whole = _FIELD.fullmatch(value)
        if whole and whole[1] in binding:
            return binding[whole[1]]
        return _FIELD.sub(lambda m: str(binding[m[1]]) if m[1] in binding else m[0], value)
    if isinstance(value, list):
        return [_fill(v, binding) for v in value]
    return value


def _move_positions(source: GameSource, base: YamlPath, origin: list[tuple[int, Binding | None]]) -> None:
    """Re-key the positions of the instances list: instance k takes those of the entry it came from
    (a generated property those of its `for:` entry); a filled text loses its inner offsets."""
    n = len(base)
    for table in (source.value_origin, source.key_span, source.value_span):
        old = {p: v for p, v in table.items() if p[:n] == base and len(p) > n}
        for p in old:
            del table[p]
        by_index: dict[int, list[tuple[YamlPath, Any]]] = {}
        for p, v in old.items():
            by_index.setdefault(p[n], []).append((p[n + 1 :], v))  # type: ignore[arg-type]
        for k, (j, binding) in enumerate(origin):
            for rest, v in by_index.get(j, []):
                new = _moved(rest, binding, table is source.value_origin)
                if new is not None:
                    table[(*base, k, *new)] = v


def _moved(rest: YamlPath, binding: Binding | None, origin: bool) -> YamlPath | None:
    """Where a position inside a template goes in one generated instance (None: nowhere)."""
    if binding is None or not rest:
        return rest
    if rest[0] == "for":
        return rest[1:] if len(rest) >= 2 else None  # a generated property: its `for:` entry
    if origin and rest[0] not in _DSL_KEYS:
        return None  # a filled text: offsets inside it no longer line up
    return rest


def _error(
    source: GameSource, report: Report, at: YamlPath, message: str, hint: str | None = None, key: bool = False
) -> None:
    report.error("C009", message, span_for(source, at, key=key), hint)
