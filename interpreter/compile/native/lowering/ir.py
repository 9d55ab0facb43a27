"""The typed intermediate form between the checked AST and the C generator.

Stage: compile (native). Every expression carries its static type, one of the few the native state
can hold as a machine integer: `int`, `bool`, `player`, `comp` (a component id), `sym` (an enum
symbol, numbered in the game's symbol table), `zone` (a zone instance), and the lists a loop or an
aggregate walks (`list[comp]`, `list[player]`). `None` is one reserved integer (NONE in the C
prelude) wherever a player or a component may be absent. State reads name their slot in the flat
layout (slots.py); nothing here is C text yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabula.interpreter.base.source import Span

INT, BOOL, PLAYER, COMP, SYM, ZONE = "int", "bool", "player", "comp", "sym", "zone"
COMPS, PLAYERS, ANY_LIST = "list[comp]", "list[player]", "list[any]"
SCALARS = (INT, BOOL, PLAYER, COMP, SYM)
# a tile feature's [cell, side] pair (cell << 20 | the side's symbol) and a feature (a list of
# pairs, interned: one number per distinct list while native code runs, lowering/tiles.py); words
# a list may hold and a function may take, never kept in the state
PAIR, FEAT = "pair", "feat"
WORDS = (*SCALARS, PAIR, FEAT)


class Expr:
    """A typed expression (each subclass has a `ty`)."""

    ty: str


@dataclass(frozen=True)
class Lit(Expr):
    value: int  # an int, a bool as 0/1, a symbol's number, a player, a component
    ty: str


@dataclass(frozen=True)
class NoneV(Expr):
    ty: str


@dataclass(frozen=True)
class Local(Expr):
    name: str
    ty: str


@dataclass(frozen=True)
class CallerMe(Expr):
    """The running effect's `me` where its C function has one (an action's, a procedure's, a
    trigger's), else none: what `run` and `emit` pass on, as Python copies `me` from the frame."""

    ty: str = "player"


@dataclass(frozen=True)
class Slot(Expr):
    """A state word: `base` plus `index` (None: the base alone), e.g. a var, a counter, a mark."""

    base: str  # a layout name (slots.py) or a number
    index: Expr | None
    ty: str


@dataclass(frozen=True)
class Table(Expr):
    """A constant table of the game indexed by a value: a property column, a constant mapping."""

    name: str
    key: Expr
    ty: str


@dataclass(frozen=True)
class ZoneLen(Expr):
    zone: Expr
    ty: str = INT


@dataclass(frozen=True)
class Unary(Expr):
    op: str  # "-" or "!"
    operand: Expr
    ty: str


@dataclass(frozen=True)
class Bin(Expr):
    op: str  # + - * // % == != < <= > >= && ||
    left: Expr
    right: Expr
    ty: str


@dataclass(frozen=True)
class Cond(Expr):
    test: Expr
    then: Expr
    otherwise: Expr
    ty: str


@dataclass(frozen=True)
class CallF(Expr):
    """A DSL function specialised for its argument types (`name` is the C function)."""

    name: str
    args: tuple[Expr, ...]
    ty: str


@dataclass(frozen=True)
class MinMax(Expr):
    op: str  # "min" or "max" of two or more scalars
    args: tuple[Expr, ...]
    ty: str


@dataclass(frozen=True)
class Agg(Expr):
    """`kind(elt for var in src where cond default d)`: max, min, sum, count, first, any, all."""

    kind: str
    var: str
    src: Expr  # a zone, a component type's list, or the players
    elt: Expr | None
    cond: Expr | None
    default: Expr | None
    ty: str


@dataclass(frozen=True)
class Source(Expr):
    """What a loop walks: `kind` zone (expr a zone), type (a component type's ids), players,
    const (a constant list: the table `name`), clockwise (the players from expr), others (the
    other players, from the one left of expr) or range (expr to upper, upper excluded)."""

    kind: str
    expr: Expr | None
    name: str
    ty: str
    upper: Expr | None = None


def elem(ty: str) -> str:
    """The type of a list's items (`list[comp]` -> comp)."""
    return ty[5:-1] if ty.startswith("list[") else ty


@dataclass(frozen=True)
class Picked(Expr):
    """`[elt for v in src where cond]`: a list value (`elt` None: the items themselves); given to
    `move`, the items chosen before any moves; with `by`, `distinct(elt for v in src by key)`."""

    var: str
    src: Source
    cond: Expr | None
    ty: str = COMPS
    elt: Expr | None = None
    by: Expr | None = None  # distinct's key: the first item of each key is kept


@dataclass(frozen=True)
class Flat(Expr):
    """`flatten([elt for var in src where cond])` of lists: their items, list after list."""

    var: str
    src: Source
    cond: Expr | None
    elt: Expr
    ty: str


@dataclass(frozen=True)
class Region(Expr):
    """`region(var for var in src where cond)`: the cells reached from the seeds `src` that pass
    `cond`, through neighbours that pass it, in id order (the walk's C tests them as it goes)."""

    var: str
    src: Source
    cond: Expr | None
    ty: str = COMPS


@dataclass(frozen=True)
class ListLit(Expr):
    """`[a, b]`: a list value of scalars (`[]` is `list[any]`, which fits any list)."""

    items: tuple[Expr, ...]
    ty: str


@dataclass(frozen=True)
class ListTable(Expr):
    """A constant list per key: a list property of a component (`c.adds`), as slices of one array."""

    name: str
    key: Expr
    ty: str


class Stmt:
    """A statement; `line` is its DSL position (file:line), for the C comments."""


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Assign(Stmt):
    """`set x = value` of a local (a `let` of this block or an enclosing one)."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Store(Stmt):
    """`set` of a var or a mark slot (checked to fit the declared type at build time)."""

    target: Slot
    value: Expr


@dataclass(frozen=True)
class Counter(Stmt):
    """`gain`/`pay`/`set` of a counter: `op` is +, - or =, with its bounds."""

    target: Slot
    op: str  # + - = ; +! and -! (gain, pay) also fail on a negative amount
    amount: Expr
    lo: int | None
    hi: int | None


@dataclass(frozen=True)
class Move(Stmt):
    """`move X to Z`: `kind` one (a component or none), zone (a zone's contents) or type."""

    kind: str
    what: Expr
    dest: Expr
    top: bool


@dataclass(frozen=True)
class Draw(Stmt):
    count: Expr
    src: Expr
    dest: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    """`reveal X` (value 1) or `conceal X` (0): `kind` one (a component or none), zone or list;
    `reveal X to P` and `hide X from P` give or end P's grants (run/support.py reveal_to, hide_from)."""

    kind: str
    what: Expr
    value: int
    who: Expr | Source | None = None  # `reveal X to P` / `hide X from P`: the players P
    how: str = "set"  # "set" rv to value; "grant" (reveal ... to) or "hide" (hide ... from) P's bits
    until: str | None = None  # `reveal X [to P] until EVENT`: the grant ends at EVENT (the state's `ru`)


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class For(Stmt):
    var: str
    src: Source
    cond: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class While(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Take(Stmt):
    """`take N from A to B`: at most what A holds moves from counter word A to B."""

    amount: Expr
    source: Slot
    dest: Slot


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: tuple[Stmt, ...]


@dataclass(frozen=True)
class RunP(Stmt):
    """`run name(args)` of a procedure that cannot wait: a C call (`name` names its specialisation);
    the first argument is the caller's `me` (NoneV where it has none)."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Window(Stmt):
    """A window: at a phase's top level (`site` None: its state converts to plain data as it is),
    or inside a block (`site`: its index among the game's inner windows; prelude.py `pick_action`
    takes its answer from the segment's queue, or stops there)."""

    player: Expr
    actions: tuple[int, ...]  # indexes into the game's action list
    site: int | None = None


@dataclass(frozen=True)
class Choose(Stmt):
    """`choose var from src by who [optional]` inside an effect: site `site` (slots: its kind and
    type for the bridge). Native code takes the answer from the segment's queue, or stops there
    (prelude.py `pick`)."""

    var: str
    src: Source
    by: Expr
    optional: bool
    site: int
    ty: str


@dataclass(frozen=True)
class RunHook(Stmt):
    """`run c.hook(args)`: `name` is the C dispatcher (one per hook and argument types) that runs
    the body of c's card, if it has one; the first argument is the caller's `me`."""

    name: str
    target: Expr
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Listener:
    """One trigger of an event, for its dispatcher: `proc` is its body (a procedure of me, then
    self and p for a component's, then the emitted arguments); `test` its `where` (and its type's
    `active`), with `self` and `p` walked over `members` and the seats unless pinned."""

    proc: str
    comp: bool
    members: tuple[int, ...]
    test: Expr | None
    self_pin: Expr | None
    p_pin: Expr | None
    units: int  # charged to the work budget when it fires (triggers.FIRING and its `do`'s weight)


@dataclass(frozen=True)
class Dispatch:
    """The C function an `emit` calls (one per event and argument types): every test first, the
    work budget charged, then the firing triggers' bodies in declaration order."""

    params: tuple[tuple[str, str], ...]  # me, then the emitted arguments
    listeners: tuple[Listener, ...]


@dataclass(frozen=True)
class End(Stmt):
    """`end_game` (winners None) or `declare_winner W` (a player, or a list of players): the game
    ends now, as an end check ending it immediately; declared winners skip `flow.finish`."""

    winners: Expr | None


@dataclass(frozen=True)
class Nothing(Stmt):
    """A statement with no effect on play (a log line: logs are written by the Python backend)."""


@dataclass(frozen=True)
class Emitted(Stmt):
    """`emit EVENT(...)`: the grants given `until` EVENT end (run/support.py end_grants), then `then`
    (the call of the event's dispatcher, or nothing when no trigger listens)."""

    event: str
    then: Stmt


MORE_ARGS = 6
"""Parameters past the second an action may have natively (runtime/tabula.h `X.more`)."""


@dataclass(frozen=True)
class Action:
    index: int
    name: str
    param: tuple[str, Source] | None  # the first parameter and its values
    when: Expr | None
    body: tuple[Stmt, ...]
    closes: bool
    param2: tuple[str, Source] | None = None  # the second (its values may use the first)
    guard: Expr | None = None  # the conjuncts of the condition naming no parameter (`when` the rest)
    more: tuple[tuple[str, Source], ...] = ()  # the third parameter on (each may use those before)

    @property
    def params(self) -> tuple[tuple[str, Source], ...]:
        """Every parameter in order, with its values."""
        return tuple(p for p in (self.param, self.param2) if p is not None) + self.more


@dataclass(frozen=True)
class Phase:
    before: tuple[Stmt, ...]
    window: Window | None
    after: tuple[Stmt, ...]


@dataclass(frozen=True)
class EndCheck:
    """An end check: its test (with p and me the active player), its effect and its mode
    (immediately, after_turn or final_turns)."""

    id: str
    when: Expr
    body: tuple[Stmt, ...]
    mode: str


@dataclass
class Program:
    """A whole game in the typed form: the flow's parts, actions, scoring and the functions used."""

    setup: tuple[Stmt, ...] | None = None
    round_count: Expr | None = None
    round_first: Expr | None = None
    ends_when: Expr | None = None
    round_on_start: tuple[Stmt, ...] | None = None
    round_on_end: tuple[Stmt, ...] | None = None
    turn_player: Expr | None = None
    skip_if: Expr | None = None
    end_checks: list[EndCheck] | None = None
    turn_on_end: tuple[Stmt, ...] | None = None
    phases: list[Phase] | None = None
    finish: tuple[Stmt, ...] | None = None
    actions: list[Action] | None = None
    score: Expr | None = None
    tiebreak: list[Expr] | None = None
    evaluate: Expr | None = None  # the bots' `bots: evaluate:` (p bound), where the typed form holds it
    functions: dict[str, tuple[list[tuple[str, str]], Expr]] | None = None  # C name -> params, body
    procedures: dict[str, tuple[list[tuple[str, str]], tuple[Stmt, ...]]] | None = None  # the same
    hooks: dict[str, tuple[list[tuple[str, str]], list[tuple[list[int], str]]]] | None = None
    # hook dispatcher -> its params, and for each body the components that carry it and its procedure
    sites: list[tuple[str, str]] | None = None  # per choose site: the value's type and word kind
    views: dict[str, object] | None = None  # for views.py: each choice site's literal prompt, ...
    windows: list[Window] | None = None  # the windows inside blocks, by site
    dispatchers: dict[str, Dispatch] | None = None  # an event's C dispatcher per argument types
    # the events grants are given `until` (`turn_end` and `round_end` first); empty: no `ru` words
    until_events: list[str] | None = None


class Unsupported(Exception):
    """A construct the native form cannot hold (yet), at `span`."""

    def __init__(self, what: str, span: Span | None, hint: str | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.span = span
        self.hint = hint


def comparable(a: str, b: str) -> bool:
    """May values of types `a` and `b` be compared with == (numbers and seats together; none with
    anything; a list of unknown items with any list)?"""
    ints = {INT, PLAYER}
    lists = a.startswith("list[") and b.startswith("list[") and ANY_LIST in (a, b)
    return a == b or "none" in (a, b) or (a in ints and b in ints) or lists
