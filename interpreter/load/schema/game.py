"""Pydantic models of a game file's sections (docs/language.md §1, §4, §5; `load` stage, schema/).

`GameDef` is a whole game folder's merged sections; the `presentation` section's models are in
presentation.py. `validate_game_shape` checks a merged folder against it (S001-S003); the checks
that come after it are run by load/gamecheck.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report
from tabula.interpreter.base.types import AUDIENCE_WORDS
from tabula.interpreter.load.positions import GameSource
from tabula.interpreter.load.schema.boards import BoardDef
from tabula.interpreter.load.schema.common import OPEN, Dsl, StrictModel
from tabula.interpreter.load.schema.errors import Where, validate
from tabula.interpreter.load.schema.presentation import PresentationDef

Per = Literal["player"] | None
Visibility = Literal["public", "owner", "others", "hidden"]
PropertyType = Literal["int", "str", "bool", "list", "symbol", "any"]
EndMode = Literal["immediately", "after_turn", "final_turns"]
VISIBLE_TO = (
    "Who sees it, as an expression over players re-evaluated as the state changes: all, none, owner, "
    "others (the visibility words under other names), or a player or a list of players, with owner "
    "bound for a per-player one (`[owner] + allies(owner)`, a var holding a team). Not with visibility."
)


class PlayerCount(StrictModel):
    """How many players the game supports."""

    min: int = Field(ge=1, le=limits.MAX_PLAYERS, description="Fewest players.")
    max: int = Field(ge=1, le=limits.MAX_PLAYERS, description=f"Most players (at most {limits.MAX_PLAYERS}).")

    @model_validator(mode="after")
    def _min_not_above_max(self) -> PlayerCount:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class GameInfo(StrictModel):
    """The `game` section: identity and player counts."""

    id: str = Field(description="The game's id; by convention the folder name.")
    name: str | None = Field(default=None, description="Display name.")
    players: PlayerCount = Field(description="Supported player counts, e.g. {min: 2, max: 4}.")
    seats: list[str] = Field(
        default=[], description="Default player names in seat order (P1, P2, ... otherwise)."
    )
    description: str | None = Field(default=None, description="Free text for people; ignored by the engine.")


class OptionDef(StrictModel):
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


class TriggerDef(StrictModel):
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
    for_: dict[str, str | list[str | int | bool]] | None = Field(
        default=None,
        alias="for",
        description="Generate one instance per combination: property -> 2..10, a list, or an enum or "
        "constant list by name; {property} in the name and other plain values is replaced.",
    )
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


class HookDecl(StrictModel):
    """A hook of a component type: each instance may give a body, run with `run c.name(args)`."""

    params: list[str | dict[str, str]] = Field(
        default=[], description="Parameter names, each optionally typed: [p: player, r]."
    )
    description: str | None = Field(default=None, description="What the hook is for.")


VarType = Literal[
    "int", "bool", "str", "symbol", "player", "component", "list", "players", "components", "any"
]


class MarkDef(StrictModel):
    """A mark declared with its type: `site: {initial: none, type: component}`."""

    initial: Any = Field(default=None, description="Start value on every component of the type.")
    type: VarType | None = Field(
        default=None,
        description="What it holds: views hide the components a mark of type component or components names.",
    )
    visibility: Literal["public"] | None = Field(
        default=None,
        description="'public': every player may see what it holds. A mark of type any (or list) that a "
        "rule may give a component must say so, or declare the type component or components (T011).",
    )


MarkValue = Annotated[MarkDef | bool | int | str | list[Any] | None, OPEN]
"""A mark's default (`height: 0`), or its declaration (`site: {initial: none, type: component}`)."""


class SidesDef(StrictModel):
    """Tiles with sides: each instance's sides, joined across tiles laid side by side."""

    property: str = Field(
        default="sides",
        description="The property listing each instance's sides: n e s w (hex: e se sw w nw ne), "
        "each a text or a number (a terrain).",
    )
    joins: str | None = Field(
        default=None,
        description="The property listing the groups of sides joined inside a tile ([[n, s], [e]]); "
        "without it, a tile's equal sides are joined.",
    )
    mark: str = Field(default="turn", description="The mark holding a laid tile's rotation (made, 0).")
    mirror: bool = Field(default=False, description="Mirrored tiles are rotations too (4..7, 6..11).")
    count: Literal[4, 6] = Field(default=4, description="4 sides (a square board) or 6 (a hex board).")
    parts: dict[str, list[str | int]] | None = Field(
        default=None,
        description="Sides split into 2 or 3 parts, clockwise: the parts of a side of each terrain "
        "({road: [field, road, field]}; another terrain is that many parts of itself), named n1 n n2 "
        "(n1 n2 for 2 parts), so that a feature may follow a part of a side (a field beside a road).",
    )


class ComponentType(StrictModel):
    """A component type: its properties, mutable marks, abilities and instances."""

    sides: SidesDef | None = Field(
        default=None, description="Tiles: each instance's sides and their rotations (docs/language.md §1.1)."
    )

    properties: dict[str, PropertyType] = Field(default={}, description="Property name -> type.")
    marks: dict[str, MarkValue] = Field(
        default={},
        description="Mutable per-component values: each its default, or {initial, type, visibility}.",
    )
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


class ZoneDef(StrictModel):
    """A place components can be: a hand, a deck, a market, a supply."""

    per: Per = Field(default=None, description="'player' for one zone per player; absent for a global zone.")
    visible_to: Dsl | None = Field(default=None, description=VISIBLE_TO)  # before visibility: it reads it
    visibility: Visibility | None = Field(
        default=None,
        validate_default=True,
        description="Who sees the contents: public, owner, others (all but its owner) or hidden.",
    )
    size_visibility: Visibility = Field(
        default="public",
        description="Who knows how many components it holds (default public): owner, others or hidden "
        "for a secret count; whoever sees the contents knows the count, so it is public or the same "
        "word as visibility unless the contents are hidden.",
    )
    ordered: bool = Field(default=False, description="Keep order (index 0 is the top).")
    keys: str | None = Field(
        default=None,
        description="An enum name: one zone per symbol, written zone(key) or zone(p, key); or a board's "
        "name: one zone per cell, written zone(c).",
    )
    max: int | None = Field(
        default=None, ge=1, description="The most components it may hold at once (a move beyond: R016)."
    )

    @field_validator("visibility")
    @classmethod
    def _said_somewhere(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("visible_to") is None:
            raise PydanticCustomError("missing", "Field required")  # S002, as for any required key
        return value

    @model_validator(mode="after")
    def _others_has_an_owner(self) -> ZoneDef:
        if self.visible_to is not None and self.visibility is None:
            word = AUDIENCE_WORDS.get(str(self.visible_to).strip())
            if word is None and self.size_visibility != "public":
                raise ValueError(
                    f"size_visibility '{self.size_visibility}' with visible_to '{self.visible_to}': "
                    "whoever sees the contents knows their number; make the size public"
                )
            visibility = word or "public"
        else:
            visibility = self.visibility or "public"
        if visibility == "others" and self.per != "player":
            raise ValueError("visibility 'others' (everyone but the zone's owner) needs per: player")
        if self.size_visibility in ("owner", "others") and self.per != "player":
            raise ValueError(f"size_visibility '{self.size_visibility}' needs per: player")
        if self.size_visibility not in ("public", visibility) and visibility != "hidden":
            raise ValueError(
                f"size_visibility '{self.size_visibility}' with visibility '{visibility}': whoever "
                "sees the contents knows their number; make it public, the same word, or the contents hidden"
            )
        return self


class CounterDef(StrictModel):
    """An integer quantity, global or per player, optionally one per enum symbol."""

    per: Per = Field(default=None, description="'player' for one counter per player.")
    keys: str | None = Field(default=None, description="An enum name: one counter per symbol.")
    initial: int | dict[str, int] = Field(default=0, description="Start value, or symbol -> start value.")
    min: int | None = Field(default=0, description="Lowest allowed value (default 0; null for none).")
    max: int | None = Field(default=None, description="Highest allowed value (default: none).")
    visibility: Visibility = Field(
        default="public",
        description="Who sees its value: public, owner (its player alone), others (everyone but its "
        "player) or hidden (nobody). Views show a hidden value as unknown.",
    )
    visible_to: Dsl | None = Field(default=None, description=VISIBLE_TO)
    guess: Dsl | None = Field(
        default=None,
        description="What a bot takes a value it cannot see to be when it deals a hidden position "
        "(owner bound for a per-player counter; default: the initial value).",
    )

    @model_validator(mode="after")
    def _owner_needs_a_player(self) -> CounterDef:
        if AUDIENCE_WORDS.get(str(self.visible_to).strip()) in ("owner", "others") and self.per != "player":
            raise ValueError(f"visible_to '{self.visible_to}' needs per: player")
        if self.visibility in ("owner", "others") and self.per != "player":
            raise ValueError(f"visibility '{self.visibility}' needs per: player")
        return self


class VarDef(StrictModel):
    """A variable holding any JSON value, global or per player."""

    per: Per = Field(default=None, description="'player' for one variable per player.")
    initial: Any = Field(default=None, description="Start value.")
    type: VarType | None = Field(
        default=None, description="What it holds (used for choice ids and to hide components in views)."
    )
    visibility: Visibility | None = Field(
        default=None,
        description="Who sees its value: public, owner (its player alone), others (everyone but its "
        "player) or hidden (nobody); views show it as unknown to the others. 'public' also says every "
        "player may see what it holds: a var of type any (or list) that a rule may give a component "
        "must say so, or declare the type component or components (T011).",
    )
    visible_to: Dsl | None = Field(default=None, description=VISIBLE_TO)
    guess: Dsl | None = Field(
        default=None,
        description="What a bot takes a value it cannot see to be when it deals a hidden position "
        "(owner bound for a per-player var; default: the initial value).",
    )

    @model_validator(mode="after")
    def _owner_needs_a_player(self) -> VarDef:
        if AUDIENCE_WORDS.get(str(self.visible_to).strip()) in ("owner", "others") and self.per != "player":
            raise ValueError(f"visible_to '{self.visible_to}' needs per: player")
        if self.visibility in ("owner", "others") and self.per != "player":
            raise ValueError(f"visibility '{self.visibility}' needs per: player")
        return self


class _WithParams(StrictModel):
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

    let: dict[str, Dsl] = Field(
        default={},
        description="Local names, each bound once to its expression, in order (a later one may use an "
        "earlier one), for use in `expr`: {n: count(hand(p))}.",
    )
    expr: Dsl = Field(description="The expression.")


class ProcedureDef(_WithParams):
    """A named effect, called with `run name(args)`."""

    do: Dsl = Field(description="The statements.")


class ActionDef(StrictModel):
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


class RoundsDef(StrictModel):
    """Round structure; without it, turns repeat until the game ends."""

    count: Dsl | None = Field(default=None, description="Number of rounds (unbounded if absent).")
    first: Dsl | None = Field(default=None, description="Who starts each round.")
    ends_when: Dsl | None = Field(default=None, description="Checked before each turn; true ends the round.")
    on_start: Dsl | None = Field(default=None, description="Effect at the start of each round.")
    on_end: Dsl | None = Field(
        default=None, description="Effect at the end of each round (not after an early end)."
    )


class PhaseDef(StrictModel):
    """One phase of a turn."""

    id: str = Field(description="The phase's name (used by scenarios' `given.start`).")
    do: Dsl = Field(description="The phase's effect; `p` and `active` are the turn's player.")


class TurnDef(StrictModel):
    """What a turn is: whose it is, when it is skipped, its phases."""

    player: Dsl | None = Field(default=None, description="Without rounds: who takes the next turn.")
    skip_if: Dsl | None = Field(default=None, description="Condition with p bound: the turn is skipped.")
    phases: list[PhaseDef] = Field(default=[], description="Run in order.")
    on_end: Dsl | None = Field(default=None, description="Effect at the end of each turn.")


class EndCheck(StrictModel):
    """A game-end condition, evaluated after every decision and every turn."""

    id: str = Field(description="The check's name.")
    when: Dsl = Field(description="The condition.")
    do: Dsl | None = Field(default=None, description="Effect run once, when the check first holds.")
    end: EndMode = Field(description="immediately, after_turn, or final_turns (each other player once).")


class FlowDef(StrictModel):
    """The game's flow: setup, rounds, turns, end checks, finish."""

    setup: Dsl | None = Field(default=None, description="Effect run once at the start.")
    rounds: RoundsDef | None = Field(default=None, description="Round structure (optional).")
    turn: TurnDef = Field(description="The turn structure.")
    end_checks: list[EndCheck] = Field(default=[], description="Game-end conditions.")
    finish: Dsl | None = Field(default=None, description="Effect run once when the game ends.")


class ScoringDef(StrictModel):
    """How the winner is found when the game ends without `declare_winner`."""

    score: Dsl = Field(description="Expression with p bound; higher is better (see ranking).")
    ranking: Literal["highest", "lowest"] = Field(
        default="highest", description="Who wins: the highest score (default) or the lowest."
    )
    tiebreak: list[Dsl] = Field(
        default=[], description="Compared in order, higher is better; still tied means a shared win."
    )


class BotsDef(StrictModel):
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
    rollout_depth: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="How many decisions a search bot's random rollout plays before the evaluation "
        "is read (default 20; a bot's `depth=N` overrides it). A game whose `evaluate` reads "
        "progress well mid-game searches better with short rollouts.",
    )
    determinisations: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="How many determinisations greedy averages a decision over when its spec gives "
        "none (default 3; `greedy:N` overrides it). A game where one hidden card decides a move "
        "(Hanabi's play) needs more: with few worlds, a move that happened to pay in each looks safe.",
    )
    ladder: list[str] = Field(
        default=[],
        description="The default bots of `tabula simulate` and `compare` for this game, strongest "
        "first (bot specs: `[greedy, ismcts:200]`): each run takes the first whose cost fits its CPU "
        "allowance, random last (default: ismcts:200, greedy, greedy:1:depth=1, random). For a game "
        "where a cheaper bot plays better.",
    )
    concessions: list[str] = Field(
        default=[],
        description="Actions by which a player offers to concede: bots take them, or accept a "
        "concession, only when their seat's policy allows it (`--bot 1=random:concede`).",
    )
    cooperative: bool = Field(
        default=False,
        description="Every player shares one result (a cooperative game): bots raise the "
        "evaluation itself, and a finished game's score, instead of their lead over the others.",
    )
    deal: dict[str, Dsl] = Field(
        default={},
        description="Zone -> condition with c (a hidden component), q (the zone's player, none for "
        "a global zone) and i (a position): when a bot deals the cards it cannot see, a place of "
        "that zone gets a component that fits it where one is left. It may read only what every "
        "player saw (a clue given aloud).",
    )


class LimitsDef(StrictModel):
    """The `limits` section: the game's own work budget (docs/language.md, section 9)."""

    work_budget: int | None = Field(
        default=None,
        description=(
            f"Units of work between two decisions (default {limits.WORK_BUDGET:,}, at most "
            f"{limits.MAX_WORK_BUDGET:,})."
        ),
    )


class GameDef(StrictModel):
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
    boards: dict[str, BoardDef] = Field(
        default={}, description="Square and hex grids and graphs of spaces: their cells are components."
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


def validate_game_shape(source: GameSource, report: Report) -> GameDef | None:
    """Validate a merged game folder's sections (S001-S003); every problem (all at once) goes to `report`."""
    return validate(GameDef, source.data, Where(source, True, str(source.folder)), report)


def game_json_schema() -> dict[str, Any]:
    """JSON Schema of a game file's sections (for editors); every file holds a subset of them."""
    schema = GameDef.model_json_schema()
    # A single file holds only some sections: nothing is required at the top level of a file.
    schema.pop("required", None)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
