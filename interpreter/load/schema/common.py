"""The strict base model and the DSL text types every schema model uses (`load` stage, schema/).

`StrictModel` forbids unknown keys, is frozen and validates strictly (see the package docstring).
`Dsl` and `ChoiceId` are text that YAML may have read as a number or a boolean.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, WithJsonSchema


def scalar_as_text(value: Any) -> Any:
    # YAML reads `when: true`, `count: 3` or a choice id `- 3` as bool / int; the DSL wants the text.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


_DSL_JSON = {"type": ["string", "number", "boolean"]}

Dsl = Annotated[str, BeforeValidator(scalar_as_text), WithJsonSchema(_DSL_JSON)]

OPEN = "open"
"""Metadata of a value the schema leaves open to the game (`Annotated[..., OPEN]`): a pack that
replaces it is held to the type of the value already there (packtypes.is_open)."""
"""DSL text (a condition, an expression or statements); a YAML number or boolean is taken as its text."""

ChoiceId = Annotated[str, BeforeValidator(scalar_as_text), WithJsonSchema(_DSL_JSON)]
"""A choice's stable id (`A1`, `3`, `act:x,y`); a YAML number is taken as its text."""


class StrictModel(BaseModel):
    """The base of every schema model: unknown keys forbidden, frozen, strict types."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
