"""Values checked against the types their game declares (second half of the `load` stage).

The schema checks the shape of every section, but some values are typed by the game itself: a
component's properties (`properties: {rank: int, suit: symbol}`), a var's or a mark's `initial` (its `type:`)
and a rules option's default (options.py). These checks run on the merged game after the packs are
applied, so a pack that adds a card with `cost: cheap` is reported in the pack, at the value.

S004 is a value of another type than declared; `none` (YAML `null`, or `none` as a var's initial
value) is a value of every type.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.source import Report, did_you_mean
from tabula.interpreter.load.options import check_declarations, describe
from tabula.interpreter.load.positions import GameSource, YamlPath, span_for

_WORDS = {
    "int": "an integer",
    "bool": "true or false",
    "str": "a string",
    "symbol": "a symbol of an enum",
    "list": "a list",
    "player": "a seat number (0, 1, ...)",
    "players": "a list",
    "components": "a list",
}


def check_declared(source: GameSource, report: Report) -> None:
    """Report (S004, O003) every value that disagrees with the type its game declares for it."""
    data = source.data
    symbols = {str(s) for values in (data.get("enums") or {}).values() for s in values or ()}

    def span_of(path: YamlPath) -> Any:
        return span_for(source, path)

    check_declarations(data.get("options"), report, span_of)
    for type_name, ctype in (data.get("components") or {}).items():
        properties = ctype.get("properties") or {}
        # a type's defaults are checked where they are written, an instance's own values at the instance
        holders: list[tuple[YamlPath, dict[str, Any]]] = [
            (("components", type_name, "defaults"), ctype.get("defaults") or {})
        ]
        for i, instance in enumerate(ctype.get("instances") or ()):
            holders.append((("components", type_name, "instances", i), instance))
        for base, instance in holders:
            for prop, declared in properties.items():
                if prop not in instance:
                    continue
                value = instance[prop]
                if not fits(value, declared, symbols):
                    path: YamlPath = (*base, prop)
                    report.error(
                        "S004",
                        f"property '{prop}' of {instance.get('name', type_name)} must be "
                        f"{_WORDS.get(declared, declared)}, not {describe(value)}",
                        span_of(path),
                        _hint(value, declared, symbols) or f"'{type_name}' declares {prop}: {declared}",
                    )
    for name, var in (data.get("vars") or {}).items():
        _initial(var, f"var '{name}'", ("vars", name), report, symbols, span_of)
    for type_name, ctype in (data.get("components") or {}).items():
        for name, mark in (ctype.get("marks") or {}).items():
            if isinstance(mark, dict):  # declared with its type: {initial: none, type: component}
                _initial(
                    mark, f"mark '{name}'", ("components", type_name, "marks", name), report, symbols, span_of
                )


def _initial(
    decl: dict[str, Any], what: str, path: YamlPath, report: Report, symbols: set[str], span_of: Any
) -> None:
    """S004 when the initial value of a var or a mark declared with a type is not of that type."""
    declared = decl.get("type")
    # YAML has no `none`; the DSL does, and an initial value written `none` means none.
    initial = None if decl.get("initial") == "none" else decl.get("initial")
    if declared and not fits(initial, declared, symbols):
        report.error(
            "S004",
            f"the initial value of {what} must be {_WORDS.get(declared, declared)}, "
            f"not {describe(decl['initial'])}",
            span_of((*path, "initial")),
            _hint(decl["initial"], declared, symbols) or f"'{path[-1]}' is declared type: {declared}",
        )


def _hint(value: Any, declared: str, symbols: set[str]) -> str | None:
    if declared == "symbol" and isinstance(value, str):
        return did_you_mean(value, symbols) or "a symbol is a value of one of the game's enums"
    return None


def fits(value: Any, declared: str, symbols: set[str]) -> bool:
    """Whether a YAML value is a value of a declared property or var type."""
    if value is None or declared in ("any", "component"):
        return True
    if declared in ("int", "player"):
        return isinstance(value, int) and not isinstance(value, bool) and (declared == "int" or value >= 0)
    if declared == "bool":
        return isinstance(value, bool)
    if declared == "str":
        return isinstance(value, str)
    if declared == "symbol":
        return isinstance(value, str) and (not symbols or value in symbols)
    if declared in ("list", "players", "components"):
        return isinstance(value, list)
    return True
