"""Pydantic errors -> diagnostics at YAML positions (`load` stage, schema/).

`validate` runs any model over data loaded with positions and reports every error at once, at the
YAML node it is about: S001 unknown key (at the key, with a did-you-mean or the allowed keys), S002
missing key (at the parent's key, with the field's description), S003 wrong type or value (at the
value). Union errors are resolved to the member the input was meant for (or merged into one "must
be A or B"), and the diagnostics come in file order, once each. Generic over the model: the game,
scenario and pack models all go through here.
"""

from __future__ import annotations

import re
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from tabula.interpreter.base.source import Diagnostic, Report, Span, did_you_mean
from tabula.interpreter.load.options import describe as _describe
from tabula.interpreter.load.positions import GameSource, YamlDoc, YamlPath, span_for

_M = TypeVar("_M", bound=BaseModel)


@dataclass(frozen=True)
class Where:
    """Positions and wording for one validation run (`label` names the folder or file)."""

    positions: GameSource | YamlDoc
    is_game: bool
    label: str


def validate(model: type[_M], data: Any, where: Where, report: Report) -> _M | None:
    """Validate `data` against `model`; every problem (all at once, in file order) goes to `report`."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        for diagnostic in _diagnostics(model, data, exc.errors(), where):
            report.add(diagnostic)
        return None


def validate_document(model: type[_M], doc: YamlDoc, report: Report) -> _M | None:
    """Validate one YAML file against a model (a pack file, ...); every problem goes to `report`."""
    return validate(model, doc.data, Where(doc, False, doc.file), report)


@dataclass(frozen=True)
class _Error:
    """A pydantic error with its `loc` turned into a YAML path.

    `tags` are the union-member segments removed from `loc` (position in `path`, tag), which
    pydantic inserts to say which member of a union failed (pydantic#7500). `alternatives` is set
    when the errors of all members of a union were merged into one "must be A or B".
    """

    err: ErrorDetails
    path: YamlPath
    tags: tuple[tuple[int, str], ...]
    on_key: bool
    alternatives: tuple[str, ...] = ()


def _diagnostics(
    model: type[BaseModel], data: Any, errors: list[ErrorDetails], where: Where
) -> list[Diagnostic]:
    cleaned = _resolve_unions([_clean(err, data) for err in errors], 0)
    seen: set[tuple[str, str, Span | None]] = set()
    result: list[Diagnostic] = []
    for error in cleaned:
        diagnostic = _to_diagnostic(error, model, where)
        key = (diagnostic.code, diagnostic.message, diagnostic.span)
        if key not in seen:
            seen.add(key)
            result.append(diagnostic)
    # Pydantic reports in field-declaration order; authors read files top to bottom.
    return sorted(result, key=_position_key)


def _position_key(diagnostic: Diagnostic) -> tuple[int, str, int, int]:
    span = diagnostic.span
    return (0, "", 0, 0) if span is None else (1, span.file, span.line, span.col)


def _clean(err: ErrorDetails, data: Any) -> _Error:
    """Walk `loc` through the data: segments that are not keys or indices there are union tags."""
    node, path, tags, on_key = data, [], [], False
    loc = err["loc"]
    for i, segment in enumerate(loc):
        if segment == "[key]":
            on_key = True
        elif _has_child(node, segment):
            node = node[segment]
            path.append(segment)
        elif i == len(loc) - 1 and err["type"] == "missing":
            path.append(segment)
        else:
            tags.append((len(path), str(segment)))
    return _Error(err, tuple(path), tuple(tags), on_key)


def _has_child(node: Any, segment: str | int) -> bool:
    if isinstance(node, dict):
        return segment in node
    return isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node)


def _resolve_unions(errors: list[_Error], level: int) -> list[_Error]:
    """Keep the errors of the union member the input was meant for, or merge them into one.

    A member whose errors lie deeper than the union itself accepted the input's shape (a mapping
    given to `str | Step` is meant as a `Step`); if no member did, the value simply has the wrong
    type, reported once as "must be A or B".
    """
    groups: dict[tuple[int, YamlPath], dict[str, list[_Error]]] = {}
    for error in errors:
        if len(error.tags) > level:
            position, tag = error.tags[level]
            groups.setdefault((position, error.path[:position]), {}).setdefault(tag, []).append(error)
    result: list[_Error] = []
    done: set[tuple[int, YamlPath]] = set()
    for error in errors:
        if len(error.tags) <= level:
            result.append(error)
            continue
        group_key = (error.tags[level][0], error.path[: error.tags[level][0]])
        if group_key in done:
            continue
        done.add(group_key)
        result.extend(_resolve_group(groups[group_key], group_key[0], level))
    return result


def _resolve_group(members: dict[str, list[_Error]], position: int, level: int) -> list[_Error]:
    entered = [errs for errs in members.values() if any(_entered(e, position) for e in errs)]
    if entered:
        return _resolve_unions(min(entered, key=len), level + 1)
    first = next(iter(members.values()))[0]
    expected = [_expected(errs[0].err) or "something else" for errs in members.values()]
    unique = tuple(dict.fromkeys(expected))
    return [_Error(first.err, first.path[:position], (), False, unique)]


def _entered(error: _Error, position: int) -> bool:
    # Errors below the union, or a validator's complaint about the value itself (not its type),
    # show that this member accepted the value's shape.
    return len(error.path) > position or error.on_key or error.err["type"] not in _EXPECTED


def _to_diagnostic(error: _Error, model: type[BaseModel], where: Where) -> Diagnostic:
    kind = error.err["type"]
    if kind == "extra_forbidden" and not error.alternatives:
        return _unknown_key(error, model, where)
    if kind == "missing" and not error.alternatives:
        return _missing_key(error, model, where)
    return _wrong_value(error, where)


def _unknown_key(error: _Error, model: type[BaseModel], where: Where) -> Diagnostic:
    key, parent = error.path[-1], error.path[:-1]
    owner = _model_at(model, error.err["loc"][:-1])
    fields = list(owner.model_fields) if owner is not None else []
    noun = "section" if where.is_game and not parent else "key"
    place = f" in '{_dotted(parent)}'" if parent else ""
    hint = did_you_mean(str(key), fields)
    if hint is None and fields:
        hint = f"expected one of: {', '.join(fields)}"
    span = span_for(where.positions, error.path, key=True)
    return Diagnostic("error", "S001", f"unknown {noun} '{key}'{place}", span, hint)


def _missing_key(error: _Error, model: type[BaseModel], where: Where) -> Diagnostic:
    key, parent = error.path[-1], error.path[:-1]
    noun = "section" if where.is_game and not parent else "key"
    place = f" in '{_dotted(parent)}'" if parent else ""
    owner = _model_at(model, error.err["loc"][:-1])
    field = owner.model_fields.get(str(key)) if owner is not None else None
    hint = None
    if field is not None and field.description:
        hint = f"'{key}': {field.description[0].lower()}{field.description[1:].rstrip('.')}"
    if where.is_game and not parent:
        hint = f"add a '{key}:' section to one of the files in {where.label}"
    span = span_for(where.positions, parent, key=True)
    return Diagnostic("error", "S002", f"missing required {noun} '{key}'{place}", span, hint)


def _wrong_value(error: _Error, where: Where) -> Diagnostic:
    err, path = error.err, error.path
    if error.on_key:
        return _wrong_key(error, where)
    subject = f"'{_dotted(path)}'" if path else ("the game" if where.is_game else "the scenario")
    expected = _join_alternatives(error.alternatives) if error.alternatives else _expected(err)
    if expected is not None:
        message = f"{subject} must be {expected}, not {_describe(err['input'])}"
    else:
        message = f"{subject}: {_plain_message(err)}"
    hint: str | None = None
    if err["type"] == "literal_error" and isinstance(err["input"], str):
        hint = did_you_mean(err["input"], _literal_options(err))
    return Diagnostic("error", "S003", message, span_for(where.positions, path), hint)


def _wrong_key(error: _Error, where: Where) -> Diagnostic:
    key, parent = error.path[-1], error.path[:-1]
    message = f"key {key!r} in '{_dotted(parent)}' must be {_expected(error.err) or 'valid'}"
    hint = f"write the key in quotes: '{key}':" if isinstance(key, int) else None
    return Diagnostic("error", "S003", message, span_for(where.positions, error.path, key=True), hint)


_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "a whole number",
    "string_type": "a string",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "float_type": "a number",
    "float_parsing": "a number",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "none_required": "empty",
}
_BOUNDS = {
    "greater_than_equal": ("ge", "at least"),
    "greater_than": ("gt", "greater than"),
    "less_than_equal": ("le", "at most"),
    "less_than": ("lt", "less than"),
}


def _expected(err: ErrorDetails) -> str | None:
    """What the value should have been, in words, when the error type says so."""
    kind, ctx = err["type"], err.get("ctx", {})
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind == "literal_error":
        return f"one of {ctx.get('expected', '')}"
    if kind in _BOUNDS:
        bound, words = _BOUNDS[kind]
        return f"{words} {ctx.get(bound)}"
    return None


def _plain_message(err: ErrorDetails) -> str:
    # Our own validators raise ValueError; pydantic prefixes their message.
    return re.sub(r"^(Value error|Assertion failed), ", "", err["msg"])


def _literal_options(err: ErrorDetails) -> list[str]:
    return re.findall(r"'([^']*)'", str(err.get("ctx", {}).get("expected", "")))


def _join_alternatives(options: Sequence[str]) -> str:
    return options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"


def _dotted(path: YamlPath) -> str:
    """`('flow', 'turn', 'phases', 0, 'do')` -> `flow.turn.phases[0].do`."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


# ---------------------------------------------------------------------------------------------
# Model lookup along a pydantic `loc` (for the allowed keys and descriptions in hints)
# ---------------------------------------------------------------------------------------------


def _model_at(model: type[BaseModel], loc: Sequence[str | int]) -> type[BaseModel] | None:
    """The model class validating the node at `loc` (union tags included), if it is a model."""
    current: Any = model
    for segment in loc:
        current = _step(_unwrap(current), segment)
        if current is None:
            return None
    current = _unwrap(current)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _step(annotation: Any, segment: str | int) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        field = annotation.model_fields.get(str(segment))
        return field.annotation if field is not None else None
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is dict:
        return args[0] if segment == "[key]" else args[1]
    if origin is list:
        return args[0]
    if _is_union(annotation):
        return next((arm for arm in args if _tag_names(segment, _unwrap(arm))), None)
    return None


def _tag_names(tag: str | int, annotation: Any) -> bool:
    """Whether a union tag in a `loc` names this member (`Step`, `function-after[check(), Step]`)."""
    name = getattr(annotation, "__name__", None)
    return name is not None and (tag == name or str(tag).endswith(f", {name}]"))


def _unwrap(annotation: Any) -> Any:
    """Strip `Annotated[...]` and `X | None` down to the type that validates the value."""
    while True:
        if get_origin(annotation) is Annotated:
            annotation = get_args(annotation)[0]
            continue
        if _is_union(annotation):
            arms = [arm for arm in get_args(annotation) if arm is not type(None)]
            if len(arms) == 1:
                annotation = arms[0]
                continue
        return annotation


def _is_union(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType)
