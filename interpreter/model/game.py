"""The compiled game: everything the engine needs, with no YAML, pydantic or Lark objects inside.

Produced by `tabula.interpreter.compile.python.game`; read by the runtime and the engine.
Components, zones and counters are laid out as small integers so that the game state can be flat
lists of ints.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.base.limits import WORK_BUDGET
from tabula.interpreter.base.source import Span
from tabula.interpreter.load.options import OptionSpec
from tabula.interpreter.model.boards import BoardIndex

# a generated function of the game: f(rt), where rt is the running `run.runtime.Runtime` (Any here:
# the model is the contract between compile and run, and sits below both)
Closure = Callable[[Any], Any]
Ability = Callable[..., Any]  # generated f(rt, self, p, *rest) for component abilities


@dataclass
class Component:
    """One physical component: an id, its name, a unique key, its type, its properties and its printed
    text (an instance's `text:`, for screens only: no rule reads it)."""

    id: int
    name: str
    key: str
    type: str
    props: dict[str, Any]
    text: str = ""


@dataclass
class ZoneLayout:
    """A zone definition and where its instances sit in the state's zone list."""

    name: str
    per_player: bool
    visibility: str  # public | owner | others | hidden | to:zones:NAME (a `visible_to:` expression)
    ordered: bool
    base: int  # index of its first instance in state["z"]
    span: Span | None = None
    family: str | None = None  # a zone keyed by an enum: its name as written (`discard`) ...
    key: str | None = None  # ... and this zone's symbol (`red`); `name` is then `discard(red)`
    max: int | None = None  # the most components it may hold (`max:`; a move beyond is R016)
    size_visibility: str = "public"  # who knows how many components it holds (as `visibility`)

    def index(self, player: int | None) -> int:
        return self.base + (player or 0) if self.per_player else self.base

    def ref(self, owner: str | None) -> str:
        """The zone instance as the DSL writes it: `deck`, `hand(Ann)`, `discard(red)`,
        `discard(Ann, red)` (`owner`: the player's name, None for a global zone)."""
        if owner is None:
            return self.name
        if self.family is not None:
            return f"{self.family}({owner}, {self.key})"
        return f"{self.name}({owner})"


@dataclass
class CounterLayout:
    """A counter definition and where its instances sit in the state's counter list."""

    name: str
    per_player: bool
    keys: list[str]  # enum symbols, or [] for a plain counter
    base: int
    initial: dict[str, int] | int
    min: int | None
    max: int | None
    visibility: str = "public"  # public | owner | others | hidden | to:SECTION:NAME: who sees its value

    @property
    def width(self) -> int:
        return len(self.keys) or 1


@dataclass
class VarLayout:
    name: str
    per_player: bool
    initial: Any
    type: str
    visibility: str = "public"  # public | owner | others | hidden | to:SECTION:NAME: who sees its value


@dataclass
class ActionDef:
    """A compiled action: its parameters (name, enumerator), condition, label and effect block."""

    index: int
    name: str
    params: list[tuple[str, Closure, str]]  # (name, values enumerator, element type)
    when: Closure | None
    when_span: Span | None
    block: int
    label: tuple[Any, ...] | None
    closes_window: bool
    span: Span | None
    guard: Closure | None = None  # the conjuncts of `when` that use no parameter: tested once
    options: Closure | None = None  # generated: every legal argument list, with `me` in rt.loc
    # for "why not?": each `and`-conjunct of `when` (span, test, sides of a comparison or None)
    conditions: list[tuple[Span | None, Closure, tuple[Any, Any] | None]] = field(default_factory=list)
    param_spans: list[Span | None] = field(default_factory=list)
    param_names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.param_names = [name for name, _, _ in self.params]


@dataclass
class TriggerDef:
    """A trigger: the event it waits for, its block, and (for a component type's trigger) the type."""

    id: str
    event: str
    block: int
    component_type: str | None = None
    span: Span | None = None


@dataclass
class EndCheckDef:
    id: str
    when: Closure
    block: int  # its `do` effect followed by the ending step
    mode: str
    test: Ability | None = None  # generated f(rt, p, me): the condition, with no locals dict


@dataclass
class ValueDef:
    """A value with modifiers: generated as `V_<name>(rt, *params)` (compile/modifiers.py)."""

    name: str
    params: list[str]


@dataclass
class RuleDef:
    """An extensible rule: generated as `R_<name>(rt, *params)` (compile/modifiers.py)."""

    name: str
    params: list[str]


@dataclass
class FlowDef:
    setup: int | None
    has_rounds: bool
    round_count: Closure | None
    round_first: Closure | None
    round_ends_when: Closure | None
    round_on_start: int | None
    round_on_end: int | None
    turn_player: Closure | None
    turn_skip_if: Closure | None
    phases: list[tuple[str, int]]
    turn_on_end: int | None
    finish: int | None


@dataclass
class CompiledGame:
    """A game ready to run."""

    id: str
    name: str
    folder: str
    min_players: int
    max_players: int
    seats: list[str]
    options: dict[str, Any]
    option_descriptions: dict[str, str]
    constants: dict[str, Any]
    enums: dict[str, list[str]]
    components: list[Component]
    by_type: dict[str, list[int]]
    zones: dict[str, ZoneLayout]
    counters: dict[str, CounterLayout]
    vars: dict[str, VarLayout]
    marks: dict[str, Any]  # mark name -> default value
    mark_types: dict[str, list[str]]  # mark name -> component types having it
    # mark name -> its static type (declared, its default's, or `comp` when the rules give it only
    # components: see the game compiler's _components_in_any); views hide the components it names
    mark_kinds: dict[str, str] = field(default_factory=dict)
    public_marks: set[str] = field(default_factory=set)  # marks declared `visibility: public`
    zone_layouts: list[ZoneLayout] = field(default_factory=list)  # per zone instance
    zone_owner: list[int | None] = field(default_factory=list)  # per zone instance
    zone_families: dict[str, list[str]] = field(default_factory=dict)  # keyed zone -> its keys
    boards: BoardIndex = field(default_factory=BoardIndex)  # declared boards (model/boards.py)
    counter_count: int = 0
    # counters a rule may write past their min/max (`set C = e`, either end of a `take`); None: unknown
    counters_set: set[str] | None = None
    # each block's generated function f(rt, frame) (None for the bodies that only coverage counts)
    blocks: list[Any] = field(default_factory=list)
    window_actions: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # (block, pc) -> actions
    decision_points: dict[tuple[int, int], int] = field(default_factory=dict)  # (block, resume pc) -> its pc
    block_pcs: dict[int, int] = field(default_factory=dict)  # resumable block -> its number of pcs
    actions: dict[str, ActionDef] = field(default_factory=dict)
    action_list: list[ActionDef] = field(default_factory=list)
    triggers: dict[str, list[TriggerDef]] = field(default_factory=dict)
    end_checks: list[EndCheckDef] = field(default_factory=list)
    # generated f(rt) -> bool: every end check tested in order, each that newly holds pushed
    fire_end_checks: Callable[..., bool] | None = None
    values: dict[str, ValueDef] = field(default_factory=dict)
    rules: dict[str, RuleDef] = field(default_factory=dict)
    flow: FlowDef | None = None
    score: Closure | None = None
    tiebreak: list[Closure] = field(default_factory=list)
    score_span: Span | None = None
    lowest_wins: bool = False  # scoring.ranking: lowest (the tiebreaks stay higher-is-better)
    main_block: int = 0
    names: dict[str, Span | None] = field(default_factory=dict)
    snippets: Any = None  # compiles extra DSL text (scenarios, explain) against this game's names
    check_warnings: list[Any] = field(default_factory=list)
    packs: list[str] = field(default_factory=list)  # the variant and expansions applied
    option_specs: dict[str, OptionSpec] = field(default_factory=dict)  # declared types of the options
    # the variant and expansions it was loaded with (the native backend reads the data again)
    load_refs: tuple[str | None, tuple[str, ...]] = (None, ())
    cache_key: str | None = None  # its compile cache key (the native backend keys its library on it)
    presentation: Any = None  # how screens show the game (tabula.interpreter.authoring.presentation)
    block_spans: dict[int, Span] = field(default_factory=dict)  # where each block's first statement is
    block_names: dict[int, tuple[str, str]] = field(default_factory=dict)  # (kind, name) of named blocks
    coverage: set[int] | None = None  # when measuring: the blocks that ran (instrumented compiles)
    module: Any = None  # the generated module (compile/python/module.py): namespace, source, line table
    # the static type of every local a block's frames may hold (to find component ids in a stack)
    block_local_types: dict[int, dict[str, str]] = field(default_factory=dict)
    # the `bots:` section as data, key -> (value, ScalarOrigin | None); compiled lazily by the bots
    bots: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    # counters' and vars' `guess:` as data, name -> (text, ScalarOrigin | None); compiled lazily by
    # determinisation (run/determinize.py)
    guesses: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    # `visible_to:` expressions as data, token (`to:zones:hand`, the layout's visibility) -> (text,
    # ScalarOrigin | None), and the function that evaluates one on a state for an owner (run/audience.py)
    audiences: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    audience_of: Callable[[CompiledGame, dict[str, Any], str, int | None], list[int]] | None = None
    work_budget: int = WORK_BUDGET  # units of work between two decisions (`limits: work_budget`)
    rule_blocks: int = 0  # blocks below this id are the game's own (later ones come from scenarios)

    @functools.cached_property
    def component_names(self) -> list[str]:
        """Each component's name, by id (choice ids read it for every component offered)."""
        return [c.name for c in self.components]

    def zone_instances(self) -> list[tuple[ZoneLayout, int | None]]:
        """Every zone instance in state order, with its owner (None for global zones).

        Per-player zones have `max_players` instances; seats beyond the game's player count stay
        empty, so the layout does not depend on the number of players.
        """
        out: list[tuple[ZoneLayout, int | None]] = []
        for z in sorted(self.zones.values(), key=lambda z: z.base):
            if z.per_player:
                out.extend((z, p) for p in range(self.max_players))
            else:
                out.append((z, None))
        return out
