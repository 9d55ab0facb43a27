"""What a running scenario shares with its parts: the game, the state, positions in the file, and
evaluating the file's DSL text (conditions, `set` statements) against the game.

Player names are usable in every expression of a scenario, with `game_over`, `winners`, `legal`,
`scores` and `shown` (`[Ann, 'V5'] in shown`: may Ann see component V5 now? model/view.py
`visible_to`). A failed comparison reports the values of both sides, players and components by name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import AuthorError, Report, Span
from tabula.interpreter.base.types import ANY, BOOL, INT, PLAYER, STR, elem, list_of
from tabula.interpreter.dsl.parser import PlainOrigin, TextOrigin
from tabula.interpreter.engine import Engine
from tabula.interpreter.load.positions import YamlDoc, YamlPath, span_for
from tabula.interpreter.model.choices import value_id
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError, Runtime

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Context:
    """One scenario case being run: its file, game, engine, state and log."""

    def __init__(self, doc: YamlDoc, path: Path) -> None:
        self.doc = doc
        self.path = path
        self.log: list[dict[str, Any]] = []
        self.failures: list[str] = []
        self.game: CompiledGame
        self.engine: Engine
        self.st: State

    # ------------------------------------------------------------ positions
    def origin(self, path: YamlPath) -> TextOrigin:
        """Where the DSL text at `path` was written (exact columns inside it when known)."""
        o = self.doc.value_origin.get(tuple(path))
        if o is not None:
            return o  # type: ignore[return-value]
        sp = span_for(self.doc, list(path))
        return PlainOrigin(sp.file, sp.line, sp.col) if sp else PlainOrigin(str(self.path))

    def span(self, path: YamlPath, key: bool = False) -> Span | None:
        return span_for(self.doc, list(path), key=key)

    def where(self, path: YamlPath) -> str:
        """`file:line:col: ` of the node at `path` (for failure lines), or nothing."""
        sp = self.span(path)
        return f"{sp.file}:{sp.line}:{sp.col}: " if sp else ""

    # ------------------------------------------------------------ names
    def local_types(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        types = {name: PLAYER for name in self.st["names"]}
        types.update(game_over=BOOL, winners=list_of(PLAYER), legal=list_of(STR), scores=list_of(INT))
        types.update(shown=list_of(list_of(ANY)))
        types.update(extra or {})
        return types

    def locals(
        self, st: State, extra: dict[str, Any] | None = None, running: bool = False, text: str = ""
    ) -> dict[str, Any]:
        """The scenario's names on `st` (`scores` and `winners` only when `text` uses them: they run
        the game's scoring); `running`: inside a run (an `at` check), where no question is pending
        and the game is not over."""
        values: dict[str, Any] = {name: i for i, name in enumerate(st["names"])}
        over = not running and self.engine.is_terminal(st)
        words = set(WORD.findall(text))
        values.update(
            game_over=over,
            legal=[] if running else self.engine.legal_ids(st),
            winners=self.engine.winners(st) if over and "winners" in words else [],
            scores=self.engine.scores(st) if "scores" in words else [],
            shown=self.shown(st) if "shown" in words else [],
        )
        values.update(extra or {})
        return values

    def shown(self, st: State) -> list[list[Any]]:
        """[player, component name] of each component each player may see on `st`."""
        from tabula.interpreter.model.view import visible_to

        names = self.game.component_names
        seats, comps = range(len(st["names"])), range(len(names))
        return [[p, names[c]] for p in seats for c in comps if visible_to(self.game, st, c, p)]

    # ------------------------------------------------------------ DSL text
    def write(
        self,
        text: str,
        path: YamlPath,
        extra_types: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """Run DSL statements (a `given` write) on the state, outside any rule."""
        report = Report()
        block = self.game.snippets.block(text, self.origin(path), report, self.local_types(extra_types))
        if report.has_errors or block is None:
            raise AuthorError(report)
        rt = Runtime(self.game, self.st, self.log)
        rt.loc = self.locals(self.st, extra, text=text)
        self.game.blocks[block](rt, [block, 0, rt.loc])

    def holds(
        self, text: str, path: YamlPath, st: State, args: dict[str, Any] | None = None, running: bool = False
    ) -> str | None:
        """None when the condition holds on `st`; else what failed (with both sides' values).
        `args`: more names (an event's arguments, typed `any`)."""
        types = self.local_types({k: ANY for k in args or {}})
        origin = self.origin(path)
        report = Report()
        f = self.game.snippets.expr(text, origin, report, types)
        if report.has_errors or f is None:
            raise AuthorError(report)
        rt = Runtime(self.game, st)
        rt.loc = self.locals(st, args, running, text)
        if rt.evaluate(f, self.span(path)):
            return None
        detail = ""
        parts = self.game.snippets.compare_parts(text, origin, Report(), types)
        if parts is not None:
            rt.loc = self.locals(st, args, running, text)
            left, right = (self.show(st, g(rt), t) for g, t in parts)
            detail = f"  (left side is {left}, right side is {right})"
        return f"{text}{detail}"

    def check(
        self,
        conditions: list[str],
        base: YamlPath,
        single: bool = False,
        st: State | None = None,
        args: dict[str, Any] | None = None,
        running: bool = False,
        note: str = "",
    ) -> None:
        """Record a failure (`file:line:col: note condition (both sides)`) for each that does not hold."""
        for j, text in enumerate(conditions):
            path = base if single else (*base, j)
            failure = self.holds(text, path, st or self.st, args, running)
            if failure is not None:
                self.failures.append(f"{self.where(path)}{note}{failure}")

    def show(self, st: State, v: Any, t: str) -> str:
        """A value as an author reads it: players and components by name."""
        if isinstance(v, list):
            return "[" + ", ".join(self.show(st, x, elem(t)) for x in v) + "]"
        if isinstance(v, str):
            return repr(v)
        return value_id(self.game, st["names"], v, t)

    def error(self, message: str, path: YamlPath) -> GameRuntimeError:
        """A step that cannot be carried out, located at its line in the scenario file."""
        return GameRuntimeError(message, self.span(path), "R001")
