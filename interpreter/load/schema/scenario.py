"""Pydantic models of a scenario file (docs/language.md §6; `load` stage, schema/).

A scenario is a rulebook example as data: a game, a given position, choices, and conditions that
must hold. `validate_scenario` checks one file (S001-S003).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema, model_validator

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report
from tabula.interpreter.load.positions import YamlDoc
from tabula.interpreter.load.schema.common import ChoiceId, Dsl, StrictModel, scalar_as_text
from tabula.interpreter.load.schema.errors import Where, validate

Names = list[Annotated[str, BeforeValidator(scalar_as_text), WithJsonSchema({"type": ["string", "number"]})]]
"""Component names or keys (`Temple`, `Road#2`); a YAML number is taken as its text."""


class CellGiven(StrictModel):
    """What a scenario writes on one cell of a board: marks, and what its `holds` zone holds."""

    marks: dict[str, Any] = Field(default={}, description="Mark -> value, written on the cell.")
    holds: Names = Field(
        default=[], description="The cell's zone (`holds:`) holds exactly these components, in order."
    )


class CellAt(CellGiven):
    """One cell named by its coordinates."""

    at: Annotated[list[int], Field(min_length=2, max_length=2)] = Field(
        description="The cell's [x, y] (x from 0, the first column; y from 0, the first row)."
    )


class BoardGiven(StrictModel):
    """A board (or one player's copy of it) filled by a picture and/or by coordinates."""

    picture: list[str] = Field(
        default=[],
        description="Rows of symbols, the first row y = 0, one symbol a cell ('.': leave the cell as it "
        "is, and a mask's hole); each other symbol is a key of `legend`.",
    )
    legend: dict[str, CellGiven] = Field(
        default={}, description="Symbol (one character) -> what each cell drawn with it gets."
    )
    cells: list[CellAt] = Field(default=[], description="Cells by coordinates: {at: [x, y], marks, holds}.")


class GivenState(StrictModel):
    """State a scenario writes: at the start (`given`) or between two choices (a `given` step)."""

    counters: dict[str, Any] = Field(
        default={}, description="Counter reference -> value, e.g. 'money(Ann)': 10."
    )
    vars: dict[str, Any] = Field(default={}, description="Variable reference -> value.")
    zones: dict[str, Names] = Field(
        default={}, description="Zone reference -> exactly these components, in order (index 0 = top)."
    )
    marks: dict[str, dict[str, Any]] = Field(default={}, description="Component name -> mark -> value.")
    top: dict[str, Names] = Field(
        default={},
        description="Zone reference -> these components on top, in order (the next draws); the rest stays.",
    )
    next_shuffle: dict[str, Names] = Field(
        default={},
        description="Zone reference -> after its next shuffle the zone starts with these, in order.",
    )
    boards: dict[str, BoardGiven] = Field(
        default={},
        description="Board (`wall`, or `quilt(Ann)` for one player's copy) -> a picture with its legend "
        "and/or cells by coordinates (written after `top`, before `marks`).",
    )


class Given(GivenState):
    """What a scenario writes into a freshly set-up game, and where in the flow it starts."""

    start: str | None = Field(
        default=None,
        description="Stop before this phase of the first turn ('turn': its first phase; "
        "'game_end': run flow.finish and scoring on the given state).",
    )
    active: str | None = Field(default=None, description="The player whose turn it is (a player's name).")
    round: int | None = Field(default=None, ge=1, description="The round number (games with rounds).")
    turn: int | None = Field(default=None, ge=1, description="The turn number.")


ChoiceIds = ChoiceId | list[ChoiceId]


class WhenStep(StrictModel):
    """A scenario step written as a mapping. In one step: `check`, `expect_legal`, `expect_illegal`,
    then `choose`; with `probe` they look at the position after the probed choices, which is then
    rolled back. `{check, at}` waits for an event or a phase; `{given}` writes state."""

    by: str | None = Field(default=None, description="The player expected to decide.")
    choose: ChoiceId | None = Field(default=None, description="The choice's stable id.")
    probe: ChoiceIds | None = Field(
        default=None, description="Choices tried on a copy of the game, rolled back after the step."
    )
    expect_legal: ChoiceIds | None = Field(default=None, description="Choice ids that must be legal now.")
    expect_illegal: ChoiceIds | None = Field(
        default=None, description="Choice ids that must not be legal now."
    )
    check: list[Dsl] | Dsl | None = Field(
        default=None, description="DSL conditions (one or a list) that must hold at this point."
    )
    at: str | None = Field(
        default=None,
        description="Check when this event next fires, before this phase next starts, or at a moment "
        "of the flow: round_end (after rounds.on_end), round_start, game_end (before flow.finish); "
        "`event:NAME` / `phase:NAME` / `flow:NAME` say which.",
    )
    where: Dsl | None = Field(
        default=None, description="With `at`: the first firing whose arguments make this hold."
    )
    given: GivenState | None = Field(default=None, description="State written here, between two choices.")

    @model_validator(mode="after")
    def _does_something(self) -> WhenStep:
        acts = [self.choose, self.probe, self.expect_legal, self.expect_illegal, self.check, self.given]
        if all(a is None for a in acts):
            raise ValueError(
                "a step needs 'choose', 'probe', 'expect_legal', 'expect_illegal', 'check' or 'given'"
            )
        if self.given is not None and any(a is not None for a in acts[:-1]):
            raise ValueError("a 'given' step stands alone: put the choices and checks in their own steps")
        if self.at is not None and (self.check is None or any(a is not None for a in acts[:4])):
            raise ValueError("'at' goes with 'check' alone: {check: ..., at: EVENT}")
        if self.where is not None and self.at is None:
            raise ValueError("'where' goes with 'at': {check: ..., at: EVENT, where: CONDITION}")
        if self.probe is not None and self.choose is not None:
            raise ValueError("a step either probes or chooses, not both")
        return self


Tag = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]


class _ScenarioParts(StrictModel):
    """The keys a scenario file and each of its cases may set (a case's replace the file's)."""

    description: str | None = Field(default=None, description="Free text for people.")
    seed: int = Field(
        default=0, ge=0, lt=limits.SEED_BOUND, description="Seed of the random generator (0 to 2^64 - 1)."
    )
    options: dict[str, Any] = Field(default={}, description="Option name -> value.")
    variant: str | None = Field(default=None, description="A variant of the game (name or pack file).")
    with_: list[str] = Field(default=[], alias="with", description="Expansions (names or pack files).")
    when: list[ChoiceId | WhenStep] = Field(default=[], description="Choices by stable id, in order.")
    then: list[Dsl] = Field(default=[], description="DSL conditions that must all hold afterwards.")
    expect_end: bool | list[str] | None = Field(
        default=None,
        description="true: the game has ended; false: it has not; a list: it ended and these won.",
    )
    tags: list[Tag] = Field(
        default=[], description="Names that become pytest markers of the scenario's items (e.g. slow)."
    )


class Case(_ScenarioParts):
    """One case of a scenario file: its keys replace the file's; its `given` adds to the file's."""

    name: str = Field(description="The case's name (shown after the scenario's title).")
    players: list[str] | int | None = Field(default=None, description="Player names or a number.")
    given: Given | None = Field(default=None, description="Added to the file's `given`, key by key.")


Scalar = str | int | bool | None | list[Any]


class Scenario(_ScenarioParts):
    """A rulebook example as data: a game, a given position, choices, and conditions that must hold."""

    scenario: str = Field(description="The scenario's title.")
    game: str = Field(
        description="A bundled game name, or a path to a game folder relative to the scenario file "
        "(written ./x, ../x or absolute)."
    )
    players: list[str] | int = Field(description="Player names in seat order, or a number of players.")
    given: Given = Field(default=Given(), description="Written into a freshly set-up game.")
    cases: list[Case] = Field(
        default=[],
        description="Several cases of one example, each run and reported on its own; what a case does "
        "not replace it inherits (a when/then/expect_end every case replaces is error R111).",
    )
    examples: list[dict[str, Scalar]] = Field(
        default=[],
        description="A table of parameters: each row is a case; its values replace <name> in the text.",
    )


def validate_scenario(doc: YamlDoc, report: Report) -> Scenario | None:
    """Validate one scenario file; every problem (all at once) goes to `report`."""
    return validate(Scenario, doc.data, Where(doc, False, doc.file), report)


PLACEHOLDER = {"type": "string", "pattern": "^<[A-Za-z_][A-Za-z0-9_]*>$"}  # `<name>`: an examples column


def _placeholders_allowed(schema: dict[str, Any]) -> None:
    """Let every property of every object also be a placeholder: a scenario outline's `<name>`
    stands for any value (`players: <names>`, `seed: <seed>`), replaced row by row before the
    file is validated."""
    for node in [schema, *schema.get("$defs", {}).values()]:
        for name, prop in node.get("properties", {}).items():
            if name in ("examples", "scenario"):
                continue
            described = {"description": prop.pop("description")} if "description" in prop else {}
            node["properties"][name] = {**described, "anyOf": [prop, PLACEHOLDER]}


def scenario_json_schema() -> dict[str, Any]:
    """JSON Schema of a scenario file (for editors)."""
    schema = Scenario.model_json_schema()
    _placeholders_allowed(schema)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
