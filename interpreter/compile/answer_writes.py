"""Writes that depend on an answer inside a simultaneous step (warning W007).

Stage: compile. A simultaneous step asks its players one after the other on the same state; the
answers stay hidden until the last one is in. A write that runs, inside the step, only for some
answers (under an `if` or a `while` whose test comes after a `choose`) changes the state while
later players are still to answer: a move changes zone sizes that others see, a counter or a var
its public value. Such a write is found here from the body's shape alone: a statement is
answer-dependent when it sits under an `if` reached after a `choose`, or in a `while` loop that
asks. Marks are not flagged (a component in a zone others cannot see has its marks blanked in
their view: marking, then moving after the step, is the way to keep an answer secret), nor are
procedures run from the step (their bodies are not followed), nor writes that run whatever the
answer (each player's `move c to picked(q)`: the sizes change alike for every answer).
"""

from __future__ import annotations

from tabula.interpreter.dsl import ast

_WRITES = (ast.Move, ast.Draw, ast.Shuffle, ast.Gain, ast.Pay, ast.Take, ast.Reveal, ast.Conceal, ast.Hide)


def asks(stmts: ast.Block | None) -> bool:
    """True when a block holds a `choose`, at any depth."""
    for s in stmts or ():
        if isinstance(s, ast.Choose):
            return True
        if isinstance(s, ast.If) and (any(asks(b) for _, b in s.branches) or asks(s.otherwise)):
            return True
        if isinstance(s, (ast.For, ast.Repeat, ast.While)) and asks(s.body):
            return True
    return False


def answer_writes(body: ast.Block, step_var: str) -> list[ast.Stmt]:
    """The statements of a simultaneous step's body that write public state only for some answers."""
    found: list[ast.Stmt] = []
    _visit(body, False, False, {step_var}, found)
    return found


def _visit(
    block: ast.Block | None, seen: bool, guarded: bool, local: set[str], found: list[ast.Stmt]
) -> bool:
    """Walk `block`: `seen` once a question was asked before, `guarded` under an answer's test;
    `local` names the step's own locals (writing them shows nobody anything). Returns `seen` after."""
    for s in block or ():
        if isinstance(s, ast.Choose):
            seen = True
            local.add(s.var)
        elif isinstance(s, ast.Let):
            local.add(s.name)
        elif isinstance(s, ast.If):
            for _, b in s.branches:
                seen = _visit(b, seen, guarded or seen, local, found) or seen
            seen = _visit(s.otherwise, seen, guarded or seen, local, found) or seen
        elif isinstance(s, (ast.For, ast.Repeat, ast.While)):
            looped = seen or asks(s.body)
            if isinstance(s, ast.For):
                local.add(s.var)
            again = isinstance(s, ast.While) and looped
            seen = _visit(s.body, looped, guarded or again, local, found) or seen
        elif guarded and _public_write(s, local):
            found.append(s)
    return seen


def _public_write(s: ast.Stmt, local: set[str]) -> bool:
    """A write others may see: a zone change, a counter, or a var that is not a local of the step."""
    if isinstance(s, _WRITES):
        return True
    if isinstance(s, ast.Set):
        if isinstance(s.target, ast.Name):
            return s.target.id not in local
        return not isinstance(s.target, ast.Attr)
    return False
