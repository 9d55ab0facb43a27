"""Schema-stage checks of a validated game that pydantic fields cannot express: the total number of
components, the work budget, seat names, and definition names that must be identifiers before
anything compiles them.

Called by `gamecheck.validate_game` once the game's shape is valid; every problem is a located
diagnostic (S004 sizes, S005 seat names, S007 the work budget, C005 names), so the compiler never
sees a game too large to lay out or a name that is not one (it would become an identifier in
generated code).
"""

from __future__ import annotations

import keyword
from typing import TYPE_CHECKING

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report
from tabula.interpreter.load.positions import GameSource, span_for

if TYPE_CHECKING:
    from tabula.interpreter.load.schema.game import GameDef

# Sections whose keys are names the rules use (the compiler checks the same list, later).
NAMED_SECTIONS = (
    "vars",
    "counters",
    "zones",
    "functions",
    "constants",
    "procedures",
    "components",
    "actions",
    "values",
    "rules",
    "enums",
)


def check_game_limits(game: GameDef, source: GameSource, report: Report) -> None:
    """Report a game too large for its limits, bad seat names and names that are not identifiers."""
    _component_total(game, source, report)
    _work_budget(game, source, report)
    _seat_names(game, source, report)
    _definition_names(source, report)


def _component_total(game: GameDef, source: GameSource, report: Report) -> None:
    seats = game.game.players.max
    per_type = {
        name: sum(i.copies for i in ctype.instances) * (seats if ctype.per_player else 1)
        for name, ctype in game.components.items()
    }
    total = sum(per_type.values())
    if total <= limits.MAX_COMPONENTS:
        return
    biggest = max(per_type, key=lambda name: per_type[name])
    report.error(
        "S004",
        f"the game has {total} components, more than the {limits.MAX_COMPONENTS} a game may have",
        span_for(source, ("components", biggest), key=True),
        f"'{biggest}' makes {per_type[biggest]} (instances x copies"
        + (f" x {seats} seats, as it is per_player)" if game.components[biggest].per_player else ")"),
    )


def _work_budget(game: GameDef, source: GameSource, report: Report) -> None:
    budget = game.limits.work_budget if game.limits is not None else None
    if budget is None or 0 < budget <= limits.MAX_WORK_BUDGET:
        return
    report.error(
        "S007",
        f"a work budget of {budget}: it must be from 1 to {limits.MAX_WORK_BUDGET}",
        span_for(source, ("limits", "work_budget")),
        f"the default is {limits.WORK_BUDGET} units between two decisions; the limit keeps every "
        "decision to a few seconds",
    )


def _seat_names(game: GameDef, source: GameSource, report: Report) -> None:
    seats = game.game.seats
    for i, name in enumerate(seats):
        path = ("game", "seats", i)
        if not name.strip() or len(name) > limits.MAX_NAME_CHARS:
            message = f"a seat name must be text of 1 to {limits.MAX_NAME_CHARS} characters"
            report.error("S005", message, span_for(source, path))
        elif name in seats[:i]:
            hint = "choice ids and logs name players by name"
            report.error("S005", f"two seats are named '{name}'", span_for(source, path), hint)


def _definition_names(source: GameSource, report: Report) -> None:
    for section in NAMED_SECTIONS:
        entries = source.data.get(section)
        for name in entries if isinstance(entries, dict) else ():
            if name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_"):
                continue
            report.error(
                "C005",
                f"{name!r} is not a valid name",
                span_for(source, (section, name), key=True),
                f"'{name}' is a reserved word"
                if keyword.iskeyword(name)
                else "use letters, digits and '_', starting with a letter",
            )
