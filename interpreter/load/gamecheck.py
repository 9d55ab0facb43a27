"""The checks of a merged game folder, in order (the `load` stage's last gate before the DSL).

First the shape of every section (schema/game.py: S001-S003); once the shape is valid, what the
fields cannot express (gamelimits.py: sizes, seat names, definition names), the values against
the types the game declares (declared.py), and names that look alike (names.py). This module
composes them so that the schema package never imports the checks that read its models: imports
go one way, checks -> schema.
"""

from __future__ import annotations

from tabula.interpreter.base.source import Report
from tabula.interpreter.load.declared import check_declared
from tabula.interpreter.load.gamelimits import check_game_limits
from tabula.interpreter.load.names import check_names
from tabula.interpreter.load.positions import GameSource
from tabula.interpreter.load.schema.game import GameDef, validate_game_shape


def validate_game(source: GameSource, report: Report) -> GameDef | None:
    """Validate a merged game folder; every problem (all at once) goes to `report`."""
    game = validate_game_shape(source, report)
    if game is not None:
        check_game_limits(game, source, report)
        check_declared(source, report)
        check_names(source, report)
    return game
