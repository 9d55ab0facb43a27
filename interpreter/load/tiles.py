"""Tiles as data: a component type's `sides:` checked, and the mark of a laid tile's rotation made.

Stage: load (after `for:` instances are made, before the schema). A component type declaring
`sides: {property: sides, joins: joins, mark: turn, mirror: false, count: 4}` has instances whose
property `sides` lists their sides in the fixed order `SIDE_NAMES` gives (square: n e s w,
clockwise from north; hex: e se sw w nw ne, clockwise from east), each a text or a number; `joins`,
when named, lists the groups of sides joined inside a tile (`[[n, s], [e], [w]]`). With `parts:`
(`{road: [field, road, field]}`) each side is split into 2 or 3 parts named `n1 n n2` (`part_names`)
and `joins` names parts. The type gets the mark `turn` (initial 0) unless it declares it: a laid
tile's rotation is plain data in the state.
Every problem is C011 at the instance's property (docs/language.md §1.1, *Tiles*).
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import Report
from tabula.interpreter.load.positions import GameSource, YamlPath, span_for

SIDE_NAMES = {4: ("n", "e", "s", "w"), 6: ("e", "se", "sw", "w", "nw", "ne")}


def part_names(count: int, per: int) -> tuple[str, ...]:
    """The names of a tile's parts clockwise: its sides (per 1), or each side's parts, `n1 n n2`
    (per 3) or `n1 n2` (per 2), the first clockwise first."""
    sides = SIDE_NAMES[count]
    if per == 1:
        return sides
    middle = ("",) if per == 3 else ()
    return tuple(f"{k}{tail}" for k in sides for tail in ("1", *middle, "2"))


def _parts(raw: Any) -> tuple[dict[str, list[Any]] | None, int]:
    """`parts:` when it reads (a mapping of lists, all 2 or all 3 long) and the parts a side."""
    if not (isinstance(raw, dict) and raw and all(isinstance(v, list) for v in raw.values())):
        return None, 1
    lengths = {len(v) for v in raw.values()}
    per = lengths.pop() if len(lengths) == 1 else 0
    return (dict(raw), per) if per in (2, 3) else (None, 1)


def sides_spec(tdef: Any) -> dict[str, Any] | None:
    """A component type's `sides:` with its defaults, or None (no sides, or not a mapping)."""
    raw = tdef.get("sides") if isinstance(tdef, dict) else None
    if not isinstance(raw, dict):
        return None
    count = raw.get("count", 4)
    parts, per = _parts(raw.get("parts"))
    return {
        "property": str(raw.get("property", "sides")),
        "joins": None if raw.get("joins") is None else str(raw["joins"]),
        "mark": str(raw.get("mark", "turn")),
        "mirror": bool(raw.get("mirror", False)),
        "count": count if count in SIDE_NAMES else 4,
        "parts": parts,
        "per": per,
    }


def expand_tiles(source: GameSource, report: Report) -> None:
    """Give each tile type its rotation mark and check its instances' sides (C011)."""
    comps = source.data.get("components")
    if not isinstance(comps, dict):
        return
    for tname, tdef in comps.items():
        spec = sides_spec(tdef)
        if spec is None:
            continue
        raw = tdef["sides"].get("parts")
        if raw is not None and spec["parts"] is None:
            _error(
                source,
                report,
                ("components", str(tname), "sides", "parts"),
                f"'parts' gives each terrain the parts of its side, all 2 or all 3 long, got {raw!r}",
                "parts: {road: [field, road, field]}",
            )
            continue
        marks = tdef.setdefault("marks", {})
        if isinstance(marks, dict):
            marks.setdefault(spec["mark"], 0)
        props = tdef.get("properties")
        if isinstance(props, dict):
            props.setdefault(spec["property"], "list")
            if spec["joins"] is not None:
                props.setdefault(spec["joins"], "list")
        defaults = tdef.get("defaults") if isinstance(tdef.get("defaults"), dict) else {}
        for i, inst in enumerate(tdef.get("instances") or []):
            if isinstance(inst, dict):
                _check(source, report, ("components", str(tname), "instances", i), {**defaults, **inst}, spec)


def _check(
    source: GameSource, report: Report, at: YamlPath, inst: dict[str, Any], spec: dict[str, Any]
) -> None:
    n, names = spec["count"], SIDE_NAMES[spec["count"]]
    parts = part_names(n, spec["per"])
    prop = spec["property"]
    sides = inst.get(prop)
    listed = sides if isinstance(sides, list) and len(sides) == n else None
    if listed is None or not all(isinstance(s, str | int) and not isinstance(s, bool) for s in listed):
        example = ", ".join(["road", "field"] * (n // 2))
        _error(
            source,
            report,
            (*at, prop),
            f"a tile's '{prop}' is a list of its {n} sides ({' '.join(names)}), got {sides!r}",
            f"{prop}: [{example}]",
        )
    joins = inst.get(spec["joins"]) if spec["joins"] else None
    if joins is None:
        return
    seen: list[str] = []
    groups = isinstance(joins, list) and all(isinstance(g, list) for g in joins)
    flat = [s for g in joins for s in g] if groups else None
    for s in flat if flat is not None else [None]:
        if s not in parts or s in seen:
            what = "named twice" if s in seen else "not a side"
            _error(
                source,
                report,
                (*at, str(spec["joins"])),
                f"'{spec['joins']}' lists groups of sides joined inside the tile; {s!r} is {what}",
                f"{spec['joins']}: [[{parts[0]}, {parts[2]}], [{parts[1]}]] (sides: {' '.join(parts)})",
            )
            return
        seen.append(str(s))


def _error(source: GameSource, report: Report, at: YamlPath, message: str, hint: str) -> None:
    report.error("C011", message, span_for(source, at), hint)
