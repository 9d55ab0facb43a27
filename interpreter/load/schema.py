"""Pydantic models of the YAML game format and of scenarios (second half of the `load` stage).

Input: plain data with positions (`GameSource` / `YamlDoc` from `tabula.interpreter.load.yamlsource`).
Output: a frozen `GameDef` (or `Scenario`), or None with every problem in the Report at once.

The models mirror docs/language.md §1, §4, §5 (game sections) and §6 (scenarios) one to one. DSL
conditions, expressions and effects are kept as plain `str`: the DSL parser runs in a later stage.

Invariants: every model forbids unknown keys (a misspelt key is an error with a did-you-mean, never
silently ignored), is frozen, and validates strictly: YAML already gives typed values, so `"3"` is
not silently accepted for an integer. Every pydantic error becomes a Diagnostic at the YAML node it
is about: S001 unknown key (at the key), S002 missing key (at the parent's key), S003 wrong type or
value (at the value).
"""

from __future__ import annotations

import re
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Diagnostic, Report, Span, did_you_mean
from tabula.interpreter.load.options import describe as _describe
from tabula.interpreter.load.positions import GameSource, YamlDoc, YamlPath, span_for


def _scalar_as_text(value: Any) -> Any:
    # YAML reads `when: true`, `count: 3` or a choice id `- 3` as bool / int; the DSL wants the text.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


_DSL_JSON = {"type": ["string", "number", "boolean"]}

Dsl = Annotated[str, BeforeValidator(_scalar_as_text), WithJsonSchema(_DSL_JSON)]
"""DSL text (a condition, an expression or statements); a YAML number or boolean is taken as its text."""

ChoiceId = Annotated[str, BeforeValidator(_scalar_as_text), WithJsonSchema(_DSL_JSON)]
"""A choice's stable id (`A1`, `3`, `act:x,y`); a YAML number is taken as its text."""

Per = Literal["player"] | None
Visibility = Literal["public", "owner", "hidden"]
PropertyType = Literal["int", "str", "bool", "list", "symbol", "any"]
EndMode = Literal["immediately", "after_turn", "final_turns"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ---------------------------------------------------------------------------------------------
# Game sections (docs/language.md §1, §4, §5)
# ---------------------------------------------------------------------------------------------


class PlayerCount(_Model):
    """How many players the game supports."""

    min: int = Field(ge=1, le=limits.MAX_PLAYERS, description="Fewest players.")
    max: int = Field(ge=1, le=limits.MAX_PLAYERS, description=f"Most players (at most {limits.MAX_PLAYERS}).")

    @model_validator(mode="after")
    def _min_not_above_max(self) -> PlayerCount:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class GameInfo(_Model):
    """The `game` section: identity and player counts."""

    id: str = Field(description="The game's id; by convention the folder name.")
    name: str | None = Field(default=None, description="Display name.")
    players: PlayerCount = Field(description="Supported player counts, e.g. {min: 2, max: 4}.")
    seats: list[str] = Field(
        default=[], description="Default player names in seat order (P1, P2, ... otherwise)."
    )
    description: str | None = Field(default=None, description="Free text for people; ignored by the engine.")


class OptionDef(_Model):
    """A named rules option; a variant or a scenario sets it."""

    default: bool | int | str = Field(description="Value when no variant sets the option.")
    type: Literal["bool", "int", "str"] | None = Field(
        default=None, description="bool, int or str (default: the type of `default`)."
    )
    min: int | None = Field(default=None, description="Smallest allowed value of an int option.")
    max: int | None = Field(default=None, description="Largest allowed value of an int option.")
    choices: list[bool | int | str] | None = Field(
        default=None, description="The only values allowed, e.g. ['2', '2,3', '3']."
    )
    description: str | None = Field(default=None, description="What the option changes.")


class TriggerDef(_Model):
    """`whenever EVENT happens [where COND]: EFFECT`, for the game, a component type or one card."""

    id: str | None = Field(default=None, description="A name for the trigger, used in logs and errors.")
    on: str = Field(description="The event name (as in `emit name(...)`).")
    where: Dsl | None = Field(default=None, description="Condition on the event's arguments.")
    do: Dsl = Field(description="Effect run when the event happens and `where` holds.")


class InstanceDef(BaseModel):
    """One instance of a component type; any extra key (source, notes, ...) is kept as a property.

    An instance may carry its own abilities (the same keys as its type, active under the type's
    `active`), bodies for the hooks its type declares, and its printed text."""

    model_config = ConfigDict(extra="allow", frozen=True, strict=True)

    name: str = Field(description="The component's name; also its choice id.")
    copies: int = Field(
        default=1,
        ge=1,
        le=limits.MAX_COPIES,
        description=f"Makes this many components of that name (at most {limits.MAX_COPIES}).",
    )
    text: str | None = Field(default=None, description="The card's printed text (never read by the rules).")
    modifiers: dict[str, Dsl | list[Dsl]] = Field(
        default={}, description="This card's own modifiers: value name -> '+N', '*N' or '+expr'."
    )
    allow: dict[str, Dsl] = Field(default={}, description="This card's own allows: rule name -> condition.")
    deny: dict[str, Dsl] = Field(default={}, description="This card's own denies: rule name -> condition.")
    triggers: list[TriggerDef] = Field(default=[], description="This card's own triggers (self and p bound).")
    hooks: dict[str, Dsl] = Field(
        default={}, description="Hook name (declared by the type) -> effect run by `run c.hook(args)`."
    )


class HookDecl(_Model):
    """A hook of a component type: each instance may give a body, run with `run c.name(args)`."""

    params: list[str | dict[str, str]] = Field(
        default=[], description="Parameter names, each optionally typed: [p: player, r]."
    )
    description: str | None = Field(default=None, description="What the hook is for.")


class ComponentType(_Model):
    """A component type: its properties, mutable marks, abilities and instances."""

    properties: dict[str, PropertyType] = Field(default={}, description="Property name -> type.")
    marks: dict[str, Any] = Field(default={}, description="Mutable per-component values with their defaults.")
    per_player: bool = Field(
        default=False, description="One copy of every instance per seat; `owner` = that seat."
    )
    active: Dsl | None = Field(
        default=None, description="Condition (self, p bound): is the ability working for p?"
    )
    modifiers: dict[str, Dsl | list[Dsl]] = Field(
        default={}, description="Value name -> '+N', '*N' or '+expr' (or a list of them) while active."
    )
    allow: dict[str, Dsl] = Field(
        default={}, description="Rule name -> condition that also allows it while active."
    )
    deny: dict[str, Dsl] = Field(
        default={}, description="Rule name -> condition that denies it while active."
    )
    triggers: list[TriggerDef] = Field(default=[], description="Triggers run with self and p while active.")
    hooks: dict[str, HookDecl] = Field(
        default={}, description="Hook name -> its parameters; instances give the bodies."
    )
    defaults: dict[str, Any] = Field(
        default={}, description="Property values of every instance that does not give its own."
    )
    instances: list[InstanceDef] = Field(default=[], description="The components of this type.")


class ZoneDef(_Model):
    """A place components can be: a hand, a deck, a market, a supply."""

    per: Per = Field(default=None, description="'player' for one zone per player; absent for a global zone.")
    visibility: Visibility = Field(description="Who sees the contents: public, owner or hidden.")
    ordered: bool = Field(default=False, description="Keep order (index 0 is the top).")


class CounterDef(_Model):
    """An integer quantity, global or per player, optionally one per enum symbol."""

    per: Per = Field(default=None, description="'player' for one counter per player.")
    keys: str | None = Field(default=None, description="An enum name: one counter per symbol.")
    initial: int | dict[str, int] = Field(default=0, description="Start value, or symbol -> start value.")
    min: int | None = Field(default=0, description="Lowest allowed value (default 0; null for none).")
    max: int | None = Field(default=None, description="Highest allowed value (default: none).")


class VarDef(_Model):
    """A variable holding any JSON value, global or per player."""

    per: Per = Field(default=None, description="'player' for one variable per player.")
    initial: Any = Field(default=None, description="Start value.")
    type: (
        Literal["int", "bool", "str", "symbol", "player", "component", "list", "players", "components", "any"]
        | None
    ) = Field(
        default=None, description="What it holds (used for choice ids and to hide components in views)."
    )


class _WithParams(_Model):
    """Definitions that take parameters."""

    params: list[str | dict[str, str]] = Field(
        default=[], description="Parameter names, each optionally typed: [p: player, n]."
    )

    @field_validator("params")
    @classmethod
    def _each_name_once(cls, params: list[str | dict[str, str]]) -> list[str | dict[str, str]]:
        names = [name for param in params for name in ([param] if isinstance(param, str) else param)]
        twice = next((name for i, name in enumerate(names) if name in names[:i]), None)
        if twice is not None:
            raise ValueError(f"parameter '{twice}' is declared twice")
        return params


class FunctionDef(_WithParams):
    """A pure, named expression."""

    expr: Dsl = Field(description="The expression.")


class ProcedureDef(_WithParams):
    """A named effect, called with `run name(args)`."""

    do: Dsl = Field(description="The statements.")


class ActionDef(_Model):
    """An action a `window` statement offers to a player."""

    params: dict[str, Dsl] = Field(
        default={}, description="Parameter -> list expression; each value is one choice."
    )
    cost: dict[str, Dsl] = Field(
        default={}, description="Counter -> amount: must be affordable to offer the action, paid first."
    )
    when: Dsl | None = Field(default=None, description="Condition for the action to be legal.")
    do: Dsl = Field(description="The effect of choosing the action.")
    label: str | None = Field(default=None, description="Display template, e.g. 'use {sym}'.")
    closes_window: bool = Field(default=False, description="Choosing it ends the window.")


class ValueDef(_WithParams):
    """A derived value that active components modify (+N before *N)."""

    base: Dsl = Field(description="The unmodified value.")


class RuleDef(_WithParams):
    """An extensible predicate that active components allow or deny."""

    base: Dsl = Field(description="The condition before allows and denies.")


class RoundsDef(_Model):
    """Round structure; without it, turns repeat until the game ends."""

    count: Dsl | None = Field(default=None, description="Number of rounds (unbounded if absent).")
    first: Dsl | None = Field(default=None, description="Who starts each round.")
    ends_when: Dsl | None = Field(default=None, description="Checked before each turn; true ends the round.")
    on_start: Dsl | None = Field(default=None, description="Effect at the start of each round.")
    on_end: Dsl | None = Field(
        default=None, description="Effect at the end of each round (not after an early end)."
    )


class PhaseDef(_Model):
    """One phase of a turn."""

    id: str = Field(description="The phase's name (used by scenarios' `given.start`).")
    do: Dsl = Field(description="The phase's effect; `p` and `active` are the turn's player.")


class TurnDef(_Model):
    """What a turn is: whose it is, when it is skipped, its phases."""

    player: Dsl | None = Field(default=None, description="Without rounds: who takes the next turn.")
    skip_if: Dsl | None = Field(default=None, description="Condition with p bound: the turn is skipped.")
    phases: list[PhaseDef] = Field(default=[], description="Run in order.")
    on_end: Dsl | None = Field(default=None, description="Effect at the end of each turn.")


class EndCheck(_Model):
    """A game-end condition, evaluated after every decision and every turn."""

    id: str = Field(description="The check's name.")
    when: Dsl = Field(description="The condition.")
    do: Dsl | None = Field(default=None, description="Effect run once, when the check first holds.")
    end: EndMode = Field(description="immediately, after_turn, or final_turns (each other player once).")


class FlowDef(_Model):
    """The game's flow: setup, rounds, turns, end checks, finish."""

    setup: Dsl | None = Field(default=None, description="Effect run once at the start.")
    rounds: RoundsDef | None = Field(default=None, description="Round structure (optional).")
    turn: TurnDef = Field(description="The turn structure.")
    end_checks: list[EndCheck] = Field(default=[], description="Game-end conditions.")
    finish: Dsl | None = Field(default=None, description="Effect run once when the game ends.")


class ScoringDef(_Model):
    """How the winner is found when the game ends without `declare_winner`."""

    score: Dsl = Field(description="Expression with p bound; higher is better.")
    tiebreak: list[Dsl] = Field(default=[], description="Compared in order; still tied means a shared win.")


class BotsDef(_Model):
    """How bots judge a position they cannot play to the end (read by `tabula simulate --bot`)."""

    evaluate: Dsl | None = Field(
        default=None,
        description="Expression with p bound: how well player p stands (higher is better); "
        "default: the score.",
    )
    scale: int | float = Field(
        default=10,
        gt=0,
        description="A difference in `evaluate` worth a clear advantage (search bots turn differences "
        "into win chances with tanh(difference / scale)).",
    )


# ---------------------------------------------------------------------------------------------
# Presentation (docs/presentation.md): how screens show the game; never read by the rules
# ---------------------------------------------------------------------------------------------


class ShownValue(_Model):
    """A row computed by an expression (`p` bound to the player in a player's panel)."""

    label: str = Field(description="The row's label.")
    value: Dsl = Field(description="The expression shown.")


class ShownGroup(_Model):
    """A titled group of rows in a player's panel or on the table."""

    title: str = Field(description="The group's title.")
    show: list[str | ShownValue] = Field(
        default=[], description="Counter, var or zone names, or {label, value} rows, in order."
    )


class ComponentLook(_Model):
    """How the components of one type are drawn (`self` is the component)."""

    title: str | None = Field(default=None, description="Title template, e.g. '{self.name}' (the default).")
    colour: Dsl | None = Field(
        default=None,
        description="Expression whose value picks the colour (a colour word, a player, a symbol).",
    )
    badges: list[str] = Field(
        default=[], description="Templates drawn as small badges; one that renders blank is left out."
    )
    text: str | None = Field(
        default=None, description="Template of the card's text (default: its 'text' property, if any)."
    )


class ZoneLook(_Model):
    """How a zone's contents are laid out."""

    group_by: str | None = Field(
        default=None, description="A property: contents shown in groups by its value."
    )
    under: str | None = Field(
        default=None,
        description="'ZONE.MARK': draw each component under the one of ZONE (same owner) named by its MARK.",
    )


class ScorePart(_Model):
    """One named part of the final score (`p` bound)."""

    label: str = Field(description="The part's name, e.g. 'Majorities'.")
    value: Dsl = Field(description="The points of player p from this part.")


class PresentationDef(_Model):
    """The `presentation` section: what screens show and how; the rules never read it."""

    seat_colours: list[str] = Field(default=[], description="A colour per seat, in seat order.")
    colours: dict[str, str] = Field(
        default={}, description="Value (a symbol, a property value) -> colour (a CSS colour name or #rrggbb)."
    )
    labels: dict[str, str] = Field(
        default={}, description="Counter, var, zone, mark, action or symbol name -> the label shown."
    )
    player: list[ShownGroup] = Field(default=[], description="Groups of each player's panel.")
    table: list[ShownGroup] = Field(
        default=[], description="Groups of the table (global counters, vars, zones)."
    )
    bookkeeping: list[str] = Field(
        default=[], description="Counters, vars and zones never shown on screens (still in views)."
    )
    summary: str | None = Field(default=None, description="One-line template per player (`p` bound).")
    marks: dict[str, Literal["player", "component"]] = Field(
        default={}, description="Mark name -> what its values are, so screens show them by name."
    )
    components: dict[str, ComponentLook] = Field(default={}, description="Component type -> how it is drawn.")
    zones: dict[str, ZoneLook] = Field(default={}, description="Zone -> how its contents are laid out.")
    score: list[ScorePart] = Field(default=[], description="The named parts of the final score.")
    score_rest: str | None = Field(
        default=None, description="Label of the score the parts leave over (e.g. points scored during play)."
    )


class LimitsDef(_Model):
    """The `limits` section: the game's own work budget (docs/language.md, section 9)."""

    work_budget: int | None = Field(
        default=None,
        description=(
            f"Units of work between two decisions (default {limits.WORK_BUDGET:,}, at most "
            f"{limits.MAX_WORK_BUDGET:,})."
        ),
    )


class GameDef(_Model):
    """A whole game definition: the merged sections of a game folder."""

    game: GameInfo = Field(description="Identity and player counts.")
    options: dict[str, OptionDef] = Field(default={}, description="Named rules options.")
    constants: dict[str, Any] = Field(default={}, description="Any YAML value, read by name in the DSL.")
    enums: dict[str, list[str]] = Field(
        default={}, description="Symbol sets; each symbol is a bare name in the DSL."
    )
    components: dict[str, ComponentType] = Field(
        default={}, description="Component types and their instances."
    )
    zones: dict[str, ZoneDef] = Field(default={}, description="Where components can be.")
    counters: dict[str, CounterDef] = Field(default={}, description="Integer quantities.")
    vars: dict[str, VarDef] = Field(default={}, description="Variables holding any JSON value.")
    functions: dict[str, FunctionDef] = Field(default={}, description="Pure named expressions.")
    procedures: dict[str, ProcedureDef] = Field(default={}, description="Named effects.")
    actions: dict[str, ActionDef] = Field(default={}, description="Actions offered by `window` statements.")
    triggers: list[TriggerDef] = Field(default=[], description="Game-wide triggers.")
    values: dict[str, ValueDef] = Field(default={}, description="Derived values with modifiers.")
    rules: dict[str, RuleDef] = Field(default={}, description="Extensible predicates.")
    flow: FlowDef | None = Field(default=None, description="Setup, rounds, turns, end checks, finish.")
    scoring: ScoringDef | None = Field(default=None, description="Final scoring.")
    bots: BotsDef | None = Field(default=None, description="How bots evaluate positions.")
    limits: LimitsDef | None = Field(default=None, description="The game's own work budget.")
    presentation: PresentationDef | None = Field(
        default=None, description="How screens show the game (tabula play, tabula serve)."
    )


# ---------------------------------------------------------------------------------------------
# Scenarios (docs/language.md §6)
# ---------------------------------------------------------------------------------------------

Names = list[Annotated[str, BeforeValidator(_scalar_as_text), WithJsonSchema({"type": ["string", "number"]})]]
"""Component names or keys (`Temple`, `Road#2`); a YAML number is taken as its text."""


class GivenState(_Model):
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


class WhenStep(_Model):
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
        description="Check when this event next fires or before this phase next starts "
        "(`event:NAME` / `phase:NAME` when a name is both).",
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


class _ScenarioParts(_Model):
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
        default=[], description="Several cases of one example, each run and reported on its own."
    )
    examples: list[dict[str, Scalar]] = Field(
        default=[],
        description="A table of parameters: each row is a case; its values replace <name> in the text.",
    )


# ---------------------------------------------------------------------------------------------
# Validation: pydantic errors -> diagnostics at YAML positions
# ---------------------------------------------------------------------------------------------


def validate_game_shape(source: GameSource, report: Report) -> GameDef | None:
    """Validate a merged game folder's sections (S001-S003); every problem (all at once) goes to `report`."""
    return _validate(GameDef, source.data, _Where(source, True, str(source.folder)), report)


def validate_scenario(doc: YamlDoc, report: Report) -> Scenario | None:
    """Validate one scenario file; every problem (all at once) goes to `report`."""
    return _validate(Scenario, doc.data, _Where(doc, False, doc.file), report)


def validate_document(model: type[_M], doc: YamlDoc, report: Report) -> _M | None:
    """Validate one YAML file against a model (a pack file, ...); every problem goes to `report`."""
    return _validate(model, doc.data, _Where(doc, False, doc.file), report)


def game_json_schema() -> dict[str, Any]:
    """JSON Schema of a game file's sections (for editors); every file holds a subset of them."""
    schema = GameDef.model_json_schema()
    # A single file holds only some sections: nothing is required at the top level of a file.
    schema.pop("required", None)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def scenario_json_schema() -> dict[str, Any]:
    """JSON Schema of a scenario file (for editors)."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **Scenario.model_json_schema()}


_M = TypeVar("_M", bound=BaseModel)


@dataclass(frozen=True)
class _Where:
    """Positions and wording for one validation run (`label` names the folder or file)."""

    positions: GameSource | YamlDoc
    is_game: bool
    label: str


def _validate(model: type[_M], data: Any, where: _Where, report: Report) -> _M | None:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        for diagnostic in _diagnostics(model, data, exc.errors(), where):
            report.add(diagnostic)
        return None


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
    model: type[BaseModel], data: Any, errors: list[ErrorDetails], where: _Where
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


def _to_diagnostic(error: _Error, model: type[BaseModel], where: _Where) -> Diagnostic:
    kind = error.err["type"]
    if kind == "extra_forbidden" and not error.alternatives:
        return _unknown_key(error, model, where)
    if kind == "missing" and not error.alternatives:
        return _missing_key(error, model, where)
    return _wrong_value(error, where)


def _unknown_key(error: _Error, model: type[BaseModel], where: _Where) -> Diagnostic:
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


def _missing_key(error: _Error, model: type[BaseModel], where: _Where) -> Diagnostic:
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


def _wrong_value(error: _Error, where: _Where) -> Diagnostic:
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


def _wrong_key(error: _Error, where: _Where) -> Diagnostic:
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
