"""Which effects can stop for a decision: a call-graph fixpoint over procedures, triggers and hooks.

Stage: compile. A statement can suspend when it is a `choose` or a `window`, runs a procedure that can
suspend, runs a hook one of whose bodies (any card's) can suspend, emits an event one of whose
triggers can suspend, or holds such a statement in a body. Only
effects that can suspend need resumable frames (steps.py); everything else runs as straight Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabula.interpreter.dsl import ast


@dataclass
class Suspension:
    """The answer for one game. `procedures`: name -> body; `triggers`: event -> trigger bodies."""

    procedures: dict[str, ast.Block] = field(default_factory=dict)
    triggers: dict[str, list[ast.Block]] = field(default_factory=dict)
    suspending: set[str] = field(default_factory=set)  # procedures that can suspend
    events: set[str] = field(default_factory=set)  # events with a trigger that can suspend
    hooks: dict[str, list[ast.Block]] = field(default_factory=dict)  # hook name -> every card's body
    hook_suspending: set[str] = field(default_factory=set)  # hooks with a body that can suspend
    # event -> (a trigger's id, the names its `where` reads at every emit): a game-wide trigger
    # tests its `where` at each emit of its event, so an emit must pass those arguments
    reads: dict[str, list[tuple[str, set[str]]]] = field(default_factory=dict)

    def solve(self) -> None:
        changed = True
        while changed:
            changed = False
            for name, body in self.procedures.items():
                if name not in self.suspending and self.block(body):
                    self.suspending.add(name)
                    changed = True
            for event, bodies in self.triggers.items():
                if event not in self.events and any(self.block(b) for b in bodies):
                    self.events.add(event)
                    changed = True
            for hook, bodies in self.hooks.items():
                if hook not in self.hook_suspending and any(self.block(b) for b in bodies):
                    self.hook_suspending.add(hook)
                    changed = True

    def block(self, stmts: ast.Block | None) -> bool:
        return any(self.stmt(s) for s in stmts or ())

    def stmt(self, s: ast.Stmt) -> bool:
        if isinstance(s, (ast.Choose, ast.Window)):
            return True
        if isinstance(s, ast.Run):
            return s.name in self.suspending
        if isinstance(s, ast.RunHook):
            return s.hook in self.hook_suspending
        if isinstance(s, ast.Emit):
            return s.event in self.events
        if isinstance(s, ast.If):
            return any(self.block(b) for _, b in s.branches) or self.block(s.otherwise)
        if isinstance(s, (ast.For, ast.Repeat, ast.While, ast.Simultaneous)):
            return self.block(s.body)
        return False
