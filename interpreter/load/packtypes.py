"""What a pack file may hold, and the types of the values it adds and replaces (the `load` stage).

`PackDef` is the shape of a pack file (its JSON Schema is `tabula schema pack`). The values a pack
writes into the game are validated twice: against the game's schema, after the packs are applied
(with the pack's positions, so errors point into the pack), and here, against what they replace.
Where the schema leaves a value open (`constants`, a var's `initial`, a mark's default: any YAML
value), the value already there declares the type: a constant that is a number in the game must stay
a number (`replace: {constants.starting_money: twenty-two}` is V030, at `twenty-two`), the items of
a list stay of its items' kind, and a mapping's entries of its entries' kind. A rules option keeps
the type the game declares for it (O002).
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field

from tabula.interpreter.load.options import show_value
from tabula.interpreter.load.positions import YamlPath
from tabula.interpreter.load.schema.common import OPEN
from tabula.interpreter.load.schema.game import GameDef

Value = bool | int | str


class PackDef(BaseModel):
    """A variant or an expansion: one YAML file applied onto a game before it is checked."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    pack: str = Field(description="The pack's name (what --variant / --with take).")
    kind: Literal["variant", "expansion"] = Field(
        default="variant", description="variant (changes the game) or expansion (adds to it)."
    )
    description: str | None = Field(default=None, description="Its first line is shown by `tabula variants`.")
    game: str | None = Field(default=None, description="The id of the game the pack is written for.")
    options: dict[str, Value] = Field(default={}, description="Rules option -> its new default.")
    add: dict[str, Any] = Field(
        default={}, description="PATH -> new entries: keys of a mapping, or items appended to a list."
    )
    replace: dict[str, Any] = Field(default={}, description="PATH -> the entry's new value, whole.")
    remove: list[str] = Field(default=[], description="PATHs of entries removed.")


def pack_json_schema() -> dict[str, Any]:
    """JSON Schema of a pack file (for editors)."""
    schema = PackDef.model_json_schema()
    # A PATH is dotted keys with optional [name] selectors: flow.rounds.count, instances[C7].cost.
    path = {"pattern": r"^[^.\[\]]+(\[[^\]]+\])?(\.[^.\[\]]+(\[[^\]]+\])?)*$"}
    for key in ("add", "replace"):
        schema["properties"][key]["propertyNames"] = path
    schema["properties"]["remove"]["items"].update(path)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


# ------------------------------------------------------------------ open values


def is_open(path: YamlPath) -> bool:
    """Whether the game's schema accepts any value at `path` (so the game's own value gives the type)."""
    annotation: Any = GameDef
    for segment in path:
        if get_origin(annotation) is Annotated and OPEN in get_args(annotation)[1:]:
            return True  # a mark's default, or its declaration
        annotation = _unwrap(annotation)
        if annotation is Any:
            return True
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(segment))
            if field is None:
                return False  # an extra key (a component's property): typed by `properties:`
            annotation = field.annotation
        elif get_origin(annotation) is dict:
            annotation = get_args(annotation)[1]
        elif get_origin(annotation) is list:
            annotation = get_args(annotation)[0]
        else:
            return False
    if get_origin(annotation) is Annotated and OPEN in get_args(annotation)[1:]:
        return True
    return _unwrap(annotation) is Any


def _unwrap(annotation: Any) -> Any:
    while True:
        if get_origin(annotation) is Annotated:
            annotation = get_args(annotation)[0]
        elif get_origin(annotation) in (Union, types.UnionType):
            arms = [a for a in get_args(annotation) if a is not type(None)]
            if len(arms) != 1:
                return annotation
            annotation = arms[0]
        else:
            return annotation


def kind_of(value: Any) -> str:
    """A YAML value's kind in words: 'a number', 'a string', 'true or false', 'a list', 'a mapping'."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a mapping" if isinstance(value, dict) else "empty"


def common_kind(values: list[Any]) -> Any:
    """A value standing for all of `values` when they are all of one kind (the first), else None."""
    present = [v for v in values if v is not None]
    if present and len({kind_of(v) for v in present}) == 1:
        return present[0]
    return None


def mismatch(template: Any, value: Any) -> tuple[tuple[str | int, ...], Any, Any] | None:
    """Where `value` leaves the kind of `template` (a value of the game): (sub-path, the game's value
    there, the pack's value there), or None.

    Empty is a value of every kind; a list's items are compared with the list's common item kind, a
    mapping's entries with the template's entry of the same key (or its common entry kind)."""
    if template is None or value is None:
        return None
    if kind_of(template) != kind_of(value):
        return (), template, value
    if isinstance(value, list):
        item = common_kind(template)
        for i, v in enumerate(value):
            found = mismatch(item, v) if item is not None else None
            if found is not None:
                return (i, *found[0]), found[1], found[2]
    if isinstance(value, dict):
        shared = common_kind(list(template.values()))
        for k, v in value.items():
            found = mismatch(template.get(k, shared), v)
            if found is not None:
                return (k, *found[0]), found[1], found[2]
    return None


def show(value: Any) -> str:
    """A game value for a hint: scalars as written, containers by their kind and size."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"a mapping of {len(value)} entries"
    return show_value(value)
