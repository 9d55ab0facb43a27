"""A table's save file read back, with every path in it confined to the served game.

A save names its rules (`game.game`, `game.variant`, `game.expansions`, `game.options`) and its start
(`start.scenario`). Each is a path or a name that the server would read, and an error while reading a
file quotes its lines; a save comes from a request, so nothing in it may make the server read a file
outside the served game's folder:

- `game.game` must name the served game (its bundled name, the name it was served by, or a path to
  its folder); the save is then played on the served folder, and no other folder is ever opened;
- a variant or expansion is a pack *name* shipped in the game's folder (`variants/NAME.yaml`,
  `expansions/NAME.yaml` or `expansions/NAME/pack.yaml`), never a path;
- `start.scenario` is a file inside the game's folder or an upload of this server.

Every refusal is a `TableError` that names what was refused, never the content of any file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabula.serve.bots import HUMAN
from tabula.serve.model import GameSpec, SeatSpec, TableError
from tabula.serve.start import Start

SAVE_FORMAT = "tabula-table/1"
PACK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
MAX_SEATS = 100

Saved = tuple[GameSpec, list[SeatSpec], Start, list[str], list[str]]


def parse_save(data: Any, served: GameSpec, allowed: Callable[[Path], bool]) -> Saved:
    """A save file's parts, played on `served`'s folder; TableError saying what is wrong with it.
    `allowed(path)` says whether a scenario file may be a start (the game's folder, an upload)."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise TableError(f'not a saved table (a JSON object with "format": "{SAVE_FORMAT}")')
    try:
        game = data["game"]
        spec = GameSpec(
            _same_game(game["game"], served),
            _pack(game.get("variant"), served.folder(), "variant"),
            [str(_pack(e, served.folder(), "expansion")) for e in _list(game.get("expansions"))],
            dict(game.get("options") or {}),
        )
        seats = [SeatSpec(_text(s["name"]), _text(s.get("kind", HUMAN))) for s in _list(data["seats"])]
        start = Start.from_json(data["start"])
        choices = [_text(c) for c in _list(data["choices"])]
        hashes = [_text(h) for h in _list(data.get("hashes"))]
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise TableError(f"the save file is incomplete or damaged ({type(err).__name__}: {err})") from None
    if len(seats) != len(start.names) or len(seats) > MAX_SEATS:
        raise TableError(f"the save file has {len(seats)} seats but {len(start.names)} players")
    if start.scenario is not None and not _scenario_allowed(start.scenario, served.folder(), allowed):
        raise TableError(
            "the save starts from a scenario file that is neither in the game's folder nor uploaded"
            " to this server: start from that scenario (Scenario...) and play on"
        )
    return spec, seats, start, choices, hashes


def _same_game(ref: Any, served: GameSpec) -> str:
    """`served.game` when `ref` names the served game; TableError otherwise (nothing is read)."""
    text = _text(ref)
    folder = served.folder().resolve()
    if text in (served.game, folder.name) or _resolves_to(text, folder):
        return served.game
    shown = text if len(text) <= 60 and "/" not in text and "\\" not in text else "another game"
    raise TableError(f"this is a save of {shown}, not of {folder.name}: serve that game to load it")


def _resolves_to(text: str, folder: Path) -> bool:
    try:
        return Path(text).is_absolute() and Path(text).resolve() == folder
    except (OSError, ValueError):
        return False


def _pack(ref: Any, folder: Path, kind: str) -> str | None:
    """A pack name shipped in the game's folder (checked: a name, and its file inside the folder)."""
    if ref is None or ref == "":
        return None
    text = _text(ref)
    if not PACK_NAME.fullmatch(text) or Path(text).exists():
        raise TableError(f"the save's {kind} must be the name of one of the game's {kind}s")
    sub = folder / ("variants" if kind == "variant" else "expansions")
    for candidate in (sub / f"{text}.yaml", sub / text / "pack.yaml"):
        if candidate.is_file() and candidate.resolve().is_relative_to(folder.resolve()):
            return text
    raise TableError(f"the game has no {kind} named '{text}'")


def _scenario_allowed(path: str, folder: Path, allowed: Callable[[Path], bool]) -> bool:
    try:
        file = Path(path).resolve()
    except (OSError, ValueError):
        return False
    return file.is_file() and (file.is_relative_to(folder.resolve()) or allowed(file))


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a text, got {type(value).__name__}")
    return value


def _list(value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {type(value).__name__}")
    return value
