"""Rules options: their declared types, and the values checked wherever they enter.

Stage: check (the declarations, right after schema validation) and load (values given to `load_game`,
`Engine.new_game`, a pack's `options:`). An option is declared in the `options:` section:

    options:
      tricks:         {default: 5, min: 1, max: 12, description: Number of tricks}
      petition_sizes: {default: "2", choices: ["2", "2,3", "3"]}
      surrender:      {default: true}
      colour:         {type: str, default: red}

`type` is `bool`, `int` or `str`; without it the option has its default's type. `min` and `max`
bound an `int` option; `choices` lists the only values allowed (for any type). A value of another
type is refused with the reason (`tricks=true`, `tricks=-4`), never converted silently: YAML gives
typed values, so a scenario writes `tricks: 3`, and a string option's value is quoted (`"3"`).

Text a person typed (`--option tricks=3` on the command line) arrives as `OptionText` and is read
as the option's type: `true`/`false` for a bool, an integer for an int, the text itself for a str.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report, Span, did_you_mean

OptionValue = bool | int | str
TYPES = ("bool", "int", "str")
_TYPE_WORDS = {"bool": "true or false", "int": "an integer", "str": "a string"}
_BOOL_TEXT = {"true": True, "false": False}


class OptionText(str):
    """A value typed by a person (a command line, a web form): read as the option's declared type."""


@dataclass(frozen=True)
class OptionSpec:
    """One declared rules option: its type, default, bounds or allowed values, and description."""

    name: str
    type: str
    default: OptionValue
    description: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[OptionValue, ...] | None = None

    def type_text(self) -> str:
        """The type as `tabula options` shows it: `int`, `int >= 1`, `int 1..12`, `str: '2' | '2,3'`."""
        if self.choices is not None:
            return f"{self.type}: " + " | ".join(show_value(c) for c in self.choices)
        if self.type == "int" and self.min is not None and self.max is not None:
            return f"int {self.min}..{self.max}"
        if self.type == "int" and self.min is not None:
            return f"int >= {self.min}"
        if self.type == "int" and self.max is not None:
            return f"int <= {self.max}"
        return self.type

    def expected(self) -> str:
        """What a value must be, in words (for "must be X, not Y")."""
        if self.choices is not None:
            return "one of " + ", ".join(show_value(c) for c in self.choices)
        words = _TYPE_WORDS[self.type]
        if self.type == "int":
            if self.min is not None and self.max is not None:
                return f"an integer from {self.min} to {self.max}"
            if self.min is not None:
                return f"an integer of at least {self.min}"
            if self.max is not None:
                return f"an integer of at most {self.max}"
        return words

    def problem(self, value: Any) -> str | None:
        """Why `value` is not a value of this option, or None when it is."""
        if not has_type(value, self.type):
            return f"option '{self.name}' must be {self.expected()}, not {describe(value)}"
        if self.choices is not None and value not in self.choices:
            return f"option '{self.name}' must be {self.expected()}, not {describe(value)}"
        if self.type == "int" and abs(value) >= 10**limits.MAX_INT_DIGITS:
            digits = limits.MAX_INT_DIGITS
            return (
                f"option '{self.name}' must be {self.expected()} of at most {digits} digits, not a longer one"
            )
        if self.type == "int" and (
            (self.min is not None and value < self.min) or (self.max is not None and value > self.max)
        ):
            return f"option '{self.name}' must be {self.expected()}, not {value}"
        return None

    def read(self, text: str) -> Any:
        """A value typed as text, read as this option's type (unreadable text is returned unchanged)."""
        raw = text.strip()
        if self.type == "bool":
            return _BOOL_TEXT.get(raw.lower(), raw)
        if self.type == "int":
            try:  # a text of more than 4,300 digits is refused by Python: it stays text, O002
                return int(raw)
            except ValueError:
                return raw
        return text

    def as_json(self) -> dict[str, Any]:
        """The declaration as plain data (`tabula options --json`)."""
        data: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        if self.choices is not None:
            data["choices"] = list(self.choices)
        data["description"] = self.description
        return data


def has_type(value: Any, type_name: str) -> bool:
    """Whether a value is of an option type (`True` is not an int here, as it is not in YAML)."""
    if type_name == "bool":
        return isinstance(value, bool)
    if type_name == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def type_of(value: Any) -> str | None:
    """The option type of a value, or None for a value no option can hold (a list, a float, null)."""
    return next((t for t in TYPES if has_type(value, t)), None)


def show_value(value: Any) -> str:
    """A value as it is written in YAML (strings quoted)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def describe(value: Any) -> str:
    """A value an author wrote, in words, for "must be X, not Y"."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return "the string '" + text.replace("\n", "\\n") + "'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


# ------------------------------------------------------------------ declarations


def declared_specs(section: Any) -> dict[str, OptionSpec]:
    """The specs of an `options:` section already validated by the schema (bad entries are skipped:
    `check_declarations` reports them)."""
    specs: dict[str, OptionSpec] = {}
    for name, entry in (section or {}).items() if isinstance(section, dict) else ():
        spec = _spec(str(name), entry)
        if spec is not None:
            specs[str(name)] = spec
    return specs


def _spec(name: str, entry: Any) -> OptionSpec | None:
    if not isinstance(entry, dict):
        entry = {"default": entry}
    default = entry.get("default")
    type_name = entry.get("type") or type_of(default)
    if type_name not in TYPES:
        return None
    choices = entry.get("choices")
    return OptionSpec(
        name,
        str(type_name),
        default,
        str(entry.get("description") or "").strip(),
        entry.get("min"),
        entry.get("max"),
        tuple(choices) if isinstance(choices, list) else None,
    )


def check_declarations(section: Any, report: Report, span_of: Any) -> None:
    """O003: a declaration whose parts disagree (a default of another type, outside its bounds or its
    choices; bounds on a non-integer; a choice of another type). `span_of(path)` locates a key."""
    for name, entry in (section or {}).items() if isinstance(section, dict) else ():
        if not isinstance(entry, dict):
            continue
        spec = _spec(str(name), entry)
        if spec is None:
            report.error(
                "O003",
                f"option '{name}' has no type: its default must be true/false, an integer or a string",
                span_of(("options", name, "default")),
                "or declare it, e.g. 'type: int'",
            )
            continue
        for key in ("min", "max"):
            if entry.get(key) is not None and spec.type != "int":
                report.error(
                    "O003",
                    f"'{key}' bounds an int option, and '{name}' is a {spec.type} option",
                    span_of(("options", name, key)),
                )
        for i, choice in enumerate(spec.choices or ()):
            if not has_type(choice, spec.type):
                report.error(
                    "O003",
                    f"a choice of the {spec.type} option '{name}' must be {_TYPE_WORDS[spec.type]}, "
                    f"not {describe(choice)}",
                    span_of(("options", name, "choices", i)),
                )
        problem = spec.problem(spec.default)
        if problem is not None:
            report.error("O003", f"the default of {problem}", span_of(("options", name, "default")))


# ------------------------------------------------------------------ values


def checked_values(
    specs: Mapping[str, OptionSpec],
    values: Mapping[str, Any] | None,
    report: Report,
    span: Span | None = None,
) -> dict[str, Any]:
    """The chosen values, text read as each option's type; O001 for an unknown option and O002 for a
    value the option does not allow go to `report` (at `span`, where the values were written)."""
    out: dict[str, Any] = {}
    for name, value in (values or {}).items():
        spec = specs.get(name)
        if spec is None:
            report.error(
                "O001",
                f"unknown rules option '{name}'",
                span,
                did_you_mean(name, specs) or f"options: {', '.join(specs) or 'none'}",
            )
            continue
        if isinstance(value, OptionText):
            value = spec.read(value)
        problem = spec.problem(value)
        if problem is not None:
            report.error("O002", problem, span, hint_for(spec))
            continue
        out[name] = value
    return out


def hint_for(spec: OptionSpec) -> str:
    """The hint of an O002: the declaration in short, and where the option is listed."""
    return f"{spec.name}: {spec.type_text()}, default {show_value(spec.default)} (see `tabula options`)"
