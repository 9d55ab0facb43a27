"""The DSL's abstract syntax tree: frozen dataclasses, one per grammar alias, each with a span.

Built by `tabula.interpreter.dsl.parser` (which never evaluates anything) and read by the checker and the
compiler. Spans are absolute positions in the author's YAML file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabula.interpreter.base.source import Span


@dataclass(frozen=True)
class Node:
    """Base of every node: where it was written."""

    span: Span = field(compare=False, repr=False)


# ------------------------------------------------------------------ expressions


@dataclass(frozen=True)
class Expr(Node):
    """Base of expression nodes."""


@dataclass(frozen=True)
class Number(Expr):
    value: int


@dataclass(frozen=True)
class String(Expr):
    value: str


@dataclass(frozen=True)
class Bool(Expr):
    value: bool


@dataclass(frozen=True)
class NoneLit(Expr):
    pass


@dataclass(frozen=True)
class Name(Expr):
    id: str


@dataclass(frozen=True)
class Call(Expr):
    func: Expr
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Generator(Node):
    """`elt for var in iter [where cond] [default dflt] [by key]`, used by aggregates and list
    comprehensions (`by`: distinct's key, the first item of each key is kept)."""

    elt: Expr
    var: str
    iter: Expr
    cond: Expr | None
    default: Expr | None
    by: Expr | None = None


@dataclass(frozen=True)
class CallGen(Expr):
    func: Expr
    gen: Generator


@dataclass(frozen=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Index(Expr):
    obj: Expr
    key: Expr


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class ListComp(Expr):
    gen: Generator


@dataclass(frozen=True)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True)
class And(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Or(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class In(Expr):
    item: Expr
    container: Expr
    negated: bool


@dataclass(frozen=True)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class CondExpr(Expr):
    test: Expr
    then: Expr
    otherwise: Expr


# ------------------------------------------------------------------ statements


@dataclass(frozen=True)
class Stmt(Node):
    """Base of statement nodes."""


Block = tuple[Stmt, ...]


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Set(Stmt):
    target: Expr
    op: str
    value: Expr


@dataclass(frozen=True)
class Gain(Stmt):
    amount: Expr
    target: Expr


@dataclass(frozen=True)
class Pay(Stmt):
    amount: Expr
    target: Expr


@dataclass(frozen=True)
class Take(Stmt):
    amount: Expr
    source: Expr
    dest: Expr


@dataclass(frozen=True)
class Move(Stmt):
    what: Expr
    dest: Expr
    place: str


@dataclass(frozen=True)
class Draw(Stmt):
    count: Expr
    source: Expr
    dest: Expr


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    what: Expr
    to: Expr | None = None  # `reveal X to P`: to these players only (a player or a list)
    until: str | None = None  # `reveal X ... until EVENT`: the grant ends when EVENT is emitted or passes


@dataclass(frozen=True)
class Conceal(Stmt):
    what: Expr


@dataclass(frozen=True)
class Hide(Stmt):
    """`hide X from P`: ends what `reveal` showed these players (a player or a list) of X."""

    what: Expr
    who: Expr


@dataclass(frozen=True)
class Choose(Stmt):
    var: str
    options: Expr
    by: Expr | None
    prompt: str | None
    optional: bool
    prompt_span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Window(Stmt):
    player: Expr
    actions: tuple[str, ...]
    action_spans: tuple[Span, ...] = field(compare=False, repr=False)


@dataclass(frozen=True)
class Run(Stmt):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class RunHook(Stmt):
    """`run c.hook(args)`: the hook of component c's own card (nothing when the card gives none)."""

    target: Expr
    hook: str
    args: tuple[Expr, ...]
    hook_span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Emit(Stmt):
    event: str
    kwargs: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True)
class Log(Stmt):
    text: str
    text_span: Span | None = field(default=None, compare=False, repr=False)  # the string literal


@dataclass(frozen=True)
class EndGame(Stmt):
    pass


@dataclass(frozen=True)
class DeclareWinner(Stmt):
    who: Expr


@dataclass(frozen=True)
class Pass(Stmt):
    pass


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True)
class For(Stmt):
    var: str
    iter: Expr
    cond: Expr | None
    body: Block


@dataclass(frozen=True)
class Simultaneous(Stmt):
    """`simultaneous q in L:` - each player of L answers the body's `choose ... by q` in secret;
    the answers are revealed together when the last one is in."""

    var: str
    iter: Expr
    body: Block


@dataclass(frozen=True)
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass(frozen=True)
class While(Stmt):
    cond: Expr
    body: Block
