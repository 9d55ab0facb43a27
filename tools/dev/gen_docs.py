"""Generate docs/reference.md, the language reference, from the engine's own tables.

    python -m tabula.dev.gen_docs          write docs/reference.md
    python -m tabula.dev.gen_docs --check  exit 1 if docs/reference.md is not what would be written

Sources: builtin functions from
`tabula.interpreter.compile.python.expressions.builtins.doc_entries()` and `AGGREGATES`; engine
names and component attributes from `tabula.interpreter.compile.python.expressions.names`;
statements from the table `STATEMENTS` below, checked against the grammar's `-> *_stmt` aliases (a
statement added to the grammar without an entry here, or an entry the grammar no longer has, is an
error); error codes from the `"E101"`-style string literals in interpreter/, with the message
written next to them."""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tabula.interpreter.compile.python.expressions import builtins, names

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference.md"
GRAMMAR = ROOT / "grammar" / "tabula.lark"
ENGINE = ROOT / "interpreter"


# ---------------------------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatementDoc:
    """One statement of the DSL: its grammar rule, syntax, meaning and an example."""

    rule: str  # the grammar alias (`-> gain_stmt`) or rule name (`if_stmt:`)
    syntax: str
    meaning: str
    example: str


STATEMENTS: list[StatementDoc] = [
    StatementDoc(
        "let_stmt",
        "let NAME = EXPR",
        "binds a local name for the rest of the block (and the blocks nested in it)",
        "let best = max(strength(c) for c in table)",
    ),
    StatementDoc(
        "set_stmt",
        "set TARGET = EXPR | set TARGET += EXPR | set TARGET -= EXPR",
        "writes a var, a counter, a mark (`c.mark`) or a local; `+=`/`-=` on a counter respect its "
        "min/max, `=` does not; engine names (`round`, `turn`, ...) cannot be set",
        "set leader = winner",
    ),
    StatementDoc(
        "gain_stmt",
        "gain N COUNTER",
        "the counter (written `name` or `name(args)`) rises by N >= 0; above its max is an error",
        "gain 1 tricks(winner)",
    ),
    StatementDoc(
        "pay_stmt",
        "pay N COUNTER",
        "the counter falls by N >= 0; below its min (default 0) is an error, so guard it with a condition",
        "pay 2 coins(me)",
    ),
    StatementDoc(
        "take_stmt",
        "take N from COUNTER to COUNTER",
        "moves min(N, what the source holds) units from one counter to another",
        "take 1 from supply to coins(p)",
    ),
    StatementDoc(
        "move_stmt",
        "move X to ZONE [top | bottom]",
        "X is a component, a list of components, a zone (all its components) or none (nothing "
        "moves); default: the bottom (end) of the zone",
        "move c to table",
    ),
    StatementDoc(
        "draw_stmt",
        "draw N from ZONE to ZONE",
        "moves the first N components of a zone to the bottom of another (fewer if it runs out)",
        "draw 2 from deck to hand(p)",
    ),
    StatementDoc(
        "shuffle_stmt",
        "shuffle ZONE",
        "shuffles a zone with the game's seeded generator",
        "shuffle deck",
    ),
    StatementDoc(
        "reveal_stmt",
        "reveal X [to P] [until EVENT]",
        "makes components (one, a list or a whole zone) visible to everyone, or with `to` to these "
        "players only (a player or a list), until they move into a zone that is not public; with "
        "`until`, also until the game emits EVENT or its moment passes (`turn_end`, `round_end`)",
        "reveal top(hand(q)) to p until turn_end",
    ),
    StatementDoc(
        "conceal_stmt",
        "conceal X",
        "undoes `reveal`: the components follow their zone's visibility again (every grant ends)",
        "conceal c",
    ),
    StatementDoc(
        "hide_stmt",
        "hide X from P",
        "ends what `reveal` showed these players (a player or a list) of the components; the others "
        "keep theirs (revealed to everyone: to the other players only); their zone's visibility is "
        "unchanged",
        "hide hand(me) from others_from(me)",
    ),
    StatementDoc(
        "choose_stmt",
        'choose NAME from LIST [by PLAYER] [prompt "text {expr}"] [optional]',
        "asks a player to pick one value of the list (even when there is only one) and binds it; "
        "the decider defaults to `me`, else `p`; `optional` adds the choice `none`; an empty list "
        "is an error",
        'choose c from hand(p) by p prompt "Play a card"',
    ),
    StatementDoc(
        "window_stmt",
        "window PLAYER: ACTION, ACTION, ...",
        "offers the player every legal choice of the listed actions, again after each one, until "
        "an action with `closes_window: true` is chosen or nothing is legal",
        "window p: play, pass_turn",
    ),
    StatementDoc(
        "run_stmt",
        "run PROCEDURE(ARGS)",
        "runs a procedure with its parameters bound; `me` is passed along",
        "run score_trick(winner)",
    ),
    StatementDoc(
        "run_hook_stmt",
        "run COMPONENT.HOOK(ARGS)",
        "runs the body the component's own card gives for a hook its type declares (`self` is the "
        "component); nothing when the card gives none",
        "run b.on_completion(p)",
    ),
    StatementDoc(
        "emit_stmt",
        "emit EVENT(KEY=EXPR, ...)",
        "fires an event: each trigger `on: EVENT` whose `where` holds runs, with the keys bound",
        "emit card_played(p=me, card=c)",
    ),
    StatementDoc(
        "log_stmt",
        'log "text {expr}"',
        "adds a line to the game log; `{expr}` is replaced by its value (players show as seat numbers)",
        'log "trick {round} goes to {top_card.name}"',
    ),
    StatementDoc(
        "end_game_stmt",
        "end_game",
        "the game ends now; only `flow.finish` still runs, then scoring",
        "end_game",
    ),
    StatementDoc(
        "declare_winner_stmt",
        "declare_winner PLAYERS",
        "the game ends now and these players (one or a list) win; `flow.finish` and scoring are skipped",
        "declare_winner [p]",
    ),
    StatementDoc("pass_stmt", "pass", "does nothing", "pass"),
    StatementDoc(
        "if_stmt",
        "if COND: ... elif COND: ... else: ...",
        "runs the first branch whose condition holds; a one-statement body may follow the colon",
        'if best > 20: log "a strong trick"',
    ),
    StatementDoc(
        "for_stmt",
        "for NAME in LIST [where COND]: ...",
        "runs the body for each item (the list is copied when the loop starts)",
        "for q in players: draw 5 from deck to hand(q)",
    ),
    StatementDoc(
        "simultaneous_stmt",
        "simultaneous NAME in PLAYERS: ...",
        "every player of the list answers the body's `choose ... by NAME` in secret, asked in turn; "
        "the answers are hidden from the others until the last player is done, then revealed together",
        "simultaneous q in players: choose c from hand(q) by q",
    ),
    StatementDoc(
        "repeat_stmt",
        "repeat N: ...",
        "runs the body N times",
        "repeat 2: draw 1 from deck to hand(p)",
    ),
    StatementDoc(
        "while_stmt",
        "while COND: ...",
        "runs the body while the condition holds (bounded by the step budget)",
        "while count(hand(p)) < 5: draw 1 from deck to hand(p)",
    ),
]


def grammar_statements(grammar: str) -> set[str]:
    """The statement rules of the grammar: every `-> x_stmt` alias and every rule named `x_stmt:`."""
    aliases = set(re.findall(r"->\s*(\w+_stmt)\b", grammar))
    rules = set(re.findall(r"^(\w+_stmt)\s*:", grammar, re.MULTILINE))
    return aliases | rules


def statement_problems(grammar: str) -> list[str]:
    """Differences between the grammar's statements and `STATEMENTS`."""
    documented = [s.rule for s in STATEMENTS]
    in_grammar = grammar_statements(grammar)
    problems = [
        f"statement '{r}' is in grammar/tabula.lark but not documented in tools/dev/gen_docs.py STATEMENTS"
        for r in sorted(in_grammar - set(documented))
    ]
    problems += [
        f"STATEMENTS documents '{r}', which grammar/tabula.lark does not have"
        for r in sorted(set(documented) - in_grammar)
    ]
    twice = sorted({r for r in documented if documented.count(r) > 1})
    problems += [f"STATEMENTS documents '{r}' twice" for r in twice]
    return problems


# ---------------------------------------------------------------------------------------------
# Names the engine defines
# ---------------------------------------------------------------------------------------------

ENGINE_NAMES: dict[str, str] = {
    "players": "every player, in seat order (players are seat numbers 0, 1, ...)",
    "num_players": "the number of players",
    "active": "the player whose turn it is (none before the first turn)",
    "round": "the current round, from 1 (0 before the first round and in games without `rounds`)",
    "turn": "the number of turns started so far (1 during the first turn)",
}

CONTEXT_NAMES: list[tuple[str, str]] = [
    (
        "me",
        "the deciding player in actions (`when`, `params`, `do`) and in procedures run from them; "
        "the turn's player in phases, `turn.on_end` and end checks",
    ),
    (
        "p",
        "the turn's player in phases, `turn.skip_if`, `turn.on_end` and end checks; the player "
        "being scored in `scoring`; the player an ability works for in component abilities",
    ),
    ("self", "the component, in a component type's `active`, `modifiers`, `allow`, `deny` and `triggers`"),
]

ATTRIBUTES: dict[str, str] = {
    "name": "the component's name (`H5`)",
    "key": "its unique key: the name, or `name#n` when several components share the name",
    "type": "its component type",
    "id": "its number",
    "zone": "the zone it lies in",
    "holder": "the player whose zone holds it, or none",
}

NAMED_LOOKUPS: list[tuple[str, str, str]] = [
    ("option(NAME)", "the value of a rules option", "option(tricks)"),
    (
        "value(NAME, ARGS...)",
        "a derived value (`values:`): its base plus the modifiers of active components",
        "value(hand_size, p)",
    ),
    (
        "rule(NAME, ARGS...)",
        "an extensible predicate (`rules:`): (base or any allow) and not any deny",
        "rule(may_play, p, c)",
    ),
]


def name_problems() -> list[str]:
    """Engine names or attributes that the code defines and this file does not document (or back)."""
    where = "tools/dev/gen_docs.py and interpreter/compile/python/expressions/names.py disagree"
    problems = [f"engine name '{n}': {where}" for n in sorted(set(names.SPECIAL_NAMES) ^ set(ENGINE_NAMES))]
    problems += [f"attribute '.{n}': {where}" for n in sorted(set(names.BUILTIN_ATTRS) ^ set(ATTRIBUTES))]
    return problems


# ---------------------------------------------------------------------------------------------
# Error codes
# ---------------------------------------------------------------------------------------------

CODE = re.compile(r"^[CDEGOPRSTVWY]\d{3}$")
STAGES: dict[str, str] = {
    "Y": "YAML files (loading, syntax, merging the files of a folder)",
    "S": "schema (the shape of the YAML: sections, keys, types)",
    "D": "DSL syntax",
    "E": "names, arguments and targets in the DSL",
    "T": "types in the DSL",
    "C": "components",
    "O": "rules options",
    "V": "variants and expansions (pack files, docs/variants.md)",
    "G": "finding a game, number of players",
    "P": "the presentation section (how screens show the game)",
    "R": "running: a rule past the work budget or a size limit (R002, R003), a rule that met a value "
    "it cannot use (R004-R014); scenarios (R001, R1xx): a step that cannot be carried out, or a rule "
    "that failed while one ran",
    "W": "warnings about a game that runs: definitions nothing uses, triggers on events nothing emits, "
    "names that look alike or hold invisible characters",
}


# Codes whose message is built elsewhere: what the message says.
NOTES: dict[str, str] = {
    "W003": "the hint gives the code points of both names (U+0421 U+0031 against U+0043 U+0031)",
    "O002": "the option's name, what it must be (its type, bounds or choices) and what it was given",
    "Y001": "the YAML parser's complaint, in words, often with a hint (tabs, an unclosed quote or bracket)",
    "Y005": "also: the document expands to too many values (nested aliases)",
    "D004": "a condition or effect longer than 20,000 characters, nested more than 64 deep, or with "
    "statement blocks nested more than 16 deep (docs/language.md, Limits)",
    "S001": "a misspelt or misplaced key; the hint names the closest allowed key",
    "S002": "a required key or section is missing",
    "S003": "`'{path}' must be {what}, not {value}`: a value of the wrong type, or not an allowed word",
    "R004": "a rule met a value of the wrong kind (a text compared with a number, a list indexed by a text), "
    "in the DSL's words, at the rule's line",
    "R005": "no such entry: a list position or a mapping key that is not there",
    "R006": "division by zero",
    "R007": "functions or effects calling each other too deeply (unbounded recursion?)",
    "R001": "a scenario step that cannot be carried out (the game is over, another player decides, an "
    "illegal choice), or a rule that failed while a scenario ran (the runtime's message, at the rule's line)",
    "R008": "a player was needed ('choose ... by', `declare_winner`) and the value is no player of the game",
    "R009": "a counter's rules refuse a write: below its `min`, above its `max`, or a negative amount to "
    "`gain` or `pay` (at the statement; check time catches what the static types can, E117)",
    "R010": "a stored value is not of the var's or counter's declared type (at the `set`)",
    "R011": "a `choose` among no values: guard the action or the effect with a condition",
    "R012": "the flow cannot go on: every player's turn is skipped (`turn.skip_if`), or the flow takes "
    "10,000 steps without running a phase",
    "R013": "a saved game whose frame is at no place its effect can resume from (a save made by another "
    "version of the game)",
    "R014": "an expression that failed its check was run (never in a game that checks clean)",
    "R111": "a scenario's `given.start` names a phase the game never reaches in its first turn (it ended, "
    "or the phase was skipped)",
    "R112": "a scenario's fixed shuffle order names a component that is no longer in the zone when it is "
    "shuffled",
    "R016": "a `move` or `draw` would put more components in a zone than its `max:` (a board's `holds: "
    "{max: 1}`), or a scenario's `given` lists more for it",
    "R113": "a scenario's `given.boards` names no board of the game, a per-player board without its "
    "player (`quilt(Ann)`) or a player not in the scenario, or `holds` on a board whose cells hold nothing",
    "R114": "a picture row of the wrong length or too many rows (at the row), a cell off the board, or a "
    "symbol drawn on a hole of the mask",
    "R115": "a picture symbol the legend lacks, at the symbol",
    "R002": "the work budget: more than 2,000,000 steps of work without a decision (loop iterations, "
    "frames, DSL function calls, comprehension elements, items read or built), or the game's own "
    "`limits: work_budget`, at the rule's line",
    "S007": "`limits: work_budget` is not from 1 to 20,000,000 (ten times the default budget)",
    "R003": "a size limit: a list of more than 100,000 items, a text of more than 100,000 characters "
    "or a number of more than 4,000 digits (computed or kept), or a state whose values hold more than "
    "1,000,000 list items, 1,000,000 characters or 100,000 digits in all (docs/language.md, Limits), "
    "at the rule's line",
}


@dataclass(frozen=True)
class ErrorDoc:
    code: str
    severity: str
    message: str
    files: tuple[str, ...]


def _template(node: ast.expr) -> str:
    """A message expression as a readable pattern: f"unknown name '{name}'" -> unknown name '{name}'."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_template(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return "{" + _placeholder(node.value) + "}"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _template(node.left) + _template(node.right)
    return "{" + _placeholder(node) + "}"


def _placeholder(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return "..."


def _severity(call: ast.Call, args: Sequence[ast.expr]) -> str:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "warning":
        return "warning"
    first = args[0] if args else None
    if isinstance(first, ast.Constant) and first.value in ("error", "warning"):
        return str(first.value)
    return "error"


def error_codes(root: Path = ENGINE) -> list[ErrorDoc]:
    """Every diagnostic code written as a literal argument of a call in the engine, with its message."""
    found: dict[tuple[str, str, str], list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            args = node.args
            for i, arg in enumerate(args):
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and CODE.match(arg.value):
                    # the message follows the code, or (GameRuntimeError(message, span, code)) comes first
                    text = args[i + 1] if i + 1 < len(args) else args[0]
                    message = _template(text) if len(args) > 1 else ""
                    message = " ".join(message.split())
                    files = found.setdefault((arg.value, message, _severity(node, args)), [])
                    if rel not in files:
                        files.append(rel)
    docs = [ErrorDoc(code, sev, message, tuple(files)) for (code, message, sev), files in found.items()]
    return sorted(docs, key=lambda d: (d.code, d.message))


# ---------------------------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _code(text: str) -> str:
    return "`" + _cell(text) + "`"


def render() -> str:
    """The text of docs/reference.md."""
    out: list[str] = [
        "# Tabula language reference",
        "",
        "<!-- Generated by `python -m tabula.dev.gen_docs` from the engine's tables; "
        "do not edit by hand. -->",
        "",
        "The reference lists what the engine defines: statements, builtin functions, names and error "
        "codes. [language.md](language.md) explains the game format and how the pieces fit together; "
        "[tutorial.md](tutorial.md) builds a game step by step.",
        "",
        "## Statements",
        "",
        "Effects are blocks of statements, one per line; a block is indented under a line ending in `:`.",
        "",
        "| Statement | Meaning | Example |",
        "|---|---|---|",
    ]
    for s in STATEMENTS:
        out.append(f"| {_code(s.syntax)} | {_cell(s.meaning)} | {_code(s.example)} |")
    out += [
        "",
        "## Builtin functions",
        "",
        "| Function | Meaning | Example |",
        "|---|---|---|",
    ]
    for syntax, doc, example in builtins.doc_entries():
        out.append(f"| {_code(syntax)} | {_cell(doc)} | {_code(example)} |")
    aggregates = ", ".join(f"`{a}`" for a in sorted(builtins.AGGREGATES))
    out += [
        "",
        "### Generators",
        "",
        f"A `for` generator can be written inside {aggregates}: "
        "`f(EXPR for NAME in LIST [where COND] [default EXPR])`. `default` is the value of `max` and `min` "
        "over nothing (otherwise none). `list(...)` exists only in this form; `[EXPR for NAME in LIST "
        "where COND]` is the same list. One generator has one `for`: nest them as "
        "`sum(sum(c.rank for c in won(q)) for q in players)`.",
        "",
        "### Options, values and rules",
        "",
        "| Form | Meaning | Example |",
        "|---|---|---|",
    ]
    for syntax, doc, example in NAMED_LOOKUPS:
        out.append(f"| {_code(syntax)} | {_cell(doc)} | {_code(example)} |")
    out += [
        "",
        "## Names",
        "",
        "### Engine names (read-only)",
        "",
        "| Name | Value |",
        "|---|---|",
    ]
    for name in sorted(ENGINE_NAMES):
        out.append(f"| `{name}` | {_cell(ENGINE_NAMES[name])} |")
    out += [
        "",
        "### Names bound by context",
        "",
        "| Name | Where and what |",
        "|---|---|",
    ]
    for name, doc in CONTEXT_NAMES:
        out.append(f"| `{name}` | {_cell(doc)} |")
    out += [
        "",
        "### Component attributes",
        "",
        "`c.NAME` reads a property or a mark of component `c`; when no property or mark has that name, "
        "these are defined for every component:",
        "",
        "| Attribute | Value |",
        "|---|---|",
    ]
    for name in sorted(ATTRIBUTES):
        out.append(f"| `.{name}` | {_cell(ATTRIBUTES[name])} |")
    out += [
        "",
        "## Diagnostic codes",
        "",
        "Every message of `tabula check` (and of a scenario that cannot run) carries a code. "
        "`{...}` stands for a part of the message that depends on the game.",
        "",
    ]
    docs = error_codes()
    for prefix, stage in STAGES.items():
        rows = [d for d in docs if d.code.startswith(prefix)]
        if not rows:
            continue
        out += [f"### {prefix}: {stage}", "", "| Code | Severity | Message | Raised in |"]
        out.append("|---|---|---|---|")
        for d in rows:
            files = ", ".join(f"`{f}`" for f in d.files)
            out.append(f"| {d.code} | {d.severity} | {_code(d.message)} | {files} |")
        notes = [(code, note) for code, note in sorted(NOTES.items()) if code.startswith(prefix)]
        if notes:
            out.append("")
            out += [f"- {code}: {_cell(note)}" for code, note in notes if any(d.code == code for d in rows)]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def problems() -> list[str]:
    """Everything that keeps the reference from being complete."""
    found = statement_problems(GRAMMAR.read_text(encoding="utf-8")) + name_problems()
    known = set(STAGES)
    found += [f"code {d.code} has no section in STAGES" for d in error_codes() if d.code[0] not in known]
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tabula.dev.gen_docs", description="Write docs/reference.md."
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/reference.md is stale")
    args = parser.parse_args(argv)
    issues = problems()
    if issues:
        for issue in issues:
            print(f"gen_docs: {issue}", file=sys.stderr)
        return 1
    text = render()
    rel = REFERENCE.relative_to(ROOT)
    if args.check:
        current = REFERENCE.read_text(encoding="utf-8") if REFERENCE.exists() else ""
        if current != text:
            print(f"{rel} is stale: run `python -m tabula.dev.gen_docs`", file=sys.stderr)
            return 1
        print(f"{rel} is up to date")
        return 0
    REFERENCE.write_text(text, encoding="utf-8")
    print(f"wrote {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
