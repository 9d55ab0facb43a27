"""Static types and lexical scopes used while checking and compiling DSL code.

Types are short strings: `int`, `bool`, `str` (symbols and text), `player`, `comp`, `zone`, `none`,
`any`, and `list[T]`. They are used to catch author mistakes (a number where a zone is needed) and to
give each choice a stable id (a component's name, a player's name, a number).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ANY = "any"
INT = "int"
BOOL = "bool"
STR = "str"
PLAYER = "player"
COMP = "comp"
ZONE = "zone"
NONE = "none"
WINDOW_PROMPT = "choose an action"  # the prompt of every window decision, on both backends


def list_of(t: str) -> str:
    return f"list[{t}]"


def elem(t: str) -> str:
    """The element type of a list or zone type; `any` when unknown."""
    if t == ZONE:
        return COMP
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return ANY


def is_listish(t: str) -> bool:
    return t in (ANY, ZONE) or t.startswith("list[")


def join(a: str, b: str) -> str:
    """The type of a value that may come from either branch."""
    if a == b:
        return a
    if a == NONE:
        return b
    if b == NONE:
        return a
    if a.startswith("list[") and b.startswith("list["):
        return list_of(join(elem(a), elem(b)))
    return ANY


def type_of_value(v: object) -> str:
    """The static type of a constant from YAML."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, str):
        return STR
    if v is None:
        return NONE
    if isinstance(v, list):
        t = NONE
        for x in v:
            t = join(t, type_of_value(x))
        return list_of(ANY if t == NONE else t)
    return ANY


@dataclass
class Scope:
    """Names visible in one piece of DSL code: locals with their types, and what `self` is."""

    locals: dict[str, str] = field(default_factory=dict)
    where: str = ""  # a description for messages: "action 'buy'", "procedure 'build'"
    py: dict[str, str] = field(default_factory=dict)  # names that are Python locals: parameters, loop vars
    # names that stand for a known fragment of code: (source, type) — a literal (a component whose
    # ability is being specialised) or an inlined function's argument
    known: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Python variables known to hold one particular component, whose static properties then fold
    static: dict[str, Any] = field(default_factory=dict)
    # names not known yet where this code runs, with why (a choice's variable inside its prompt)
    pending: dict[str, str] = field(default_factory=dict)

    def child(self) -> Scope:
        return Scope(
            dict(self.locals),
            self.where,
            dict(self.py),
            dict(self.known),
            dict(self.static),
            dict(self.pending),
        )


_WORDS = {
    "int": "number",
    "bool": "true/false value",
    "str": "text or symbol",
    "comp": "component",
    "none": "none",
    "any": "value",
}


def a(t: str) -> str:
    """A type for messages, with its article: 'a number', 'a component', 'a list of players'."""
    if t.startswith("list["):
        inner = a(t[5:-1]).split(" ", 1)[1]
        return f"a list of {inner}s" if not inner.endswith("s") else f"a list of {inner}"
    word = _WORDS.get(t, t)
    if word == "none":
        return "none"
    return ("an " if word[0] in "aeiou" else "a ") + word


VAR_TYPES = {
    "int": INT,
    "player": PLAYER,
    "component": COMP,
    "str": STR,
    "symbol": STR,
    "bool": "bool",
    "any": ANY,
    "list": list_of(ANY),
    "players": list_of(PLAYER),
    "components": list_of(COMP),
}
"""The static type of each type name a game may write for a var or a parameter."""

# the `visible_to:` words that are the `visibility:` words under other names (anything else is an
# expression over players: compile/layout.py visibility_of, run/audience.py)
AUDIENCE_WORDS = {"all": "public", "none": "hidden", "owner": "owner", "others": "others"}


OK, CHECK, WRONG = "ok", "check", "wrong"
_KIND = {INT: INT, PLAYER: INT, COMP: INT, BOOL: BOOL, STR: STR}  # what a value is at run time


def store_verdict(want: str, got: str) -> str:
    """Whether a value of static type `got` fits a var declared `want`: OK (proved by the types),
    CHECK (only the value can tell: players and components are numbers at run time, and `any` is
    anything) or WRONG (no value of that type fits). `none` fits every var."""
    if want == ANY or got in (NONE, want) or (want == INT and got == PLAYER):
        return OK
    if got == ANY:
        return CHECK
    if want.startswith("list["):
        if not got.startswith("list["):
            return WRONG
        return store_verdict(elem(want), elem(got))
    if got.startswith("list[") or got == ZONE or _KIND.get(want) != _KIND.get(got):
        return WRONG
    return CHECK


def may_hold_components(t: str) -> bool:
    """Whether a value of static type `t` may be (or contain) a component id: a component, a list
    of them, or a value whose type the checker does not know."""
    return COMP in t or ANY in t
