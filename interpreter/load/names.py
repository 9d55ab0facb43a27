"""Names that look alike: W003 for two names of a game that read the same, W004 for a name holding
an invisible, control or bidi character.

Stage: load (after the schema, beside the game limits). A game's names are the keys of its named
sections (`gamelimits.NAMED_SECTIONS`), its components' names, marks and properties, and its seats.
Latin `C1` and `C1` written with a Cyrillic Es, or `Cafe` written with a zero-width space, are
different names to the rules and the same name to whoever reads a log, a board or a diagnostic.
Both are warnings: a game may mean them, and nothing breaks.

The skeleton is a small version of Unicode's (UTS #39): NFKC, default-ignorable characters removed,
then the Cyrillic and Greek letters that are drawn like a Latin letter mapped to it. No library:
the two on PyPI that detect confusables give no skeleton to compare names by, and a table of the
common homoglyphs covers the scripts games are written in.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

from tabula.interpreter.base.source import Report, Span
from tabula.interpreter.base.terminal import BIDI_CONTROLS, shorten
from tabula.interpreter.load.gamelimits import NAMED_SECTIONS
from tabula.interpreter.load.positions import GameSource, span_for

Path_ = Sequence[str | int]

# Cyrillic and Greek letters drawn as a Latin one (UTS #39 confusables, the common part).
_CYRILLIC = "АВЕКМНОРСТХУЅІЈаеорсухѕіјԁԛԝһӏ"  # noqa: RUF001 (the look-alikes, on purpose)
_GREEK = "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧον"  # noqa: RUF001
_HOMOGLYPHS = str.maketrans(_CYRILLIC + _GREEK, "ABEKMHOPCTXYSIJaeopcyxsijdqwhl" + "ABEZHIKMNOPTYXov")


def is_invisible(ch: str) -> bool:
    """Whether `ch` draws nothing, reorders text or drives a terminal: a control (Cc: newline, ESC,
    the C1 controls), a format character (Cf: zero-width spaces and joiners, the bidi controls, the
    soft hyphen, ...) or a variation selector."""
    return unicodedata.category(ch) in ("Cc", "Cf") or ch in BIDI_CONTROLS or "\ufe00" <= ch <= "\ufe0f"


def skeleton(name: str) -> str:
    """What `name` looks like: NFKC, invisible characters removed, homoglyphs mapped to Latin."""
    normal = unicodedata.normalize("NFKC", name)
    return "".join(ch for ch in normal if not is_invisible(ch)).translate(_HOMOGLYPHS)


def code_points(name: str) -> str:
    """`U+0421 U+0031`: the code points of a (short) name, to tell apart two names that look alike."""
    return " ".join(f"U+{ord(ch):04X}" for ch in name[:40]) + (" ..." if len(name) > 40 else "")


def check_names(source: GameSource, report: Report) -> None:
    """W003 for a name that looks like another name of the game; W004 for one with invisible characters."""
    seen: dict[str, str] = {}
    for name, path in _names(source.data):
        hidden = sorted({ch for ch in name if is_invisible(ch)})
        if hidden:
            report.warning(
                "W004",
                f"the name '{shorten(name)}' holds invisible, control or bidi characters: "
                + ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip() for ch in hidden[:8]),
                _span(source, path),
                "it reads like another text: remove them",
            )
        key = skeleton(name)
        other = seen.setdefault(key, name)
        if other != name:
            report.warning(
                "W003",
                f"the name '{shorten(name)}' looks like '{shorten(other)}' and is another name",
                _span(source, path),
                f"{code_points(name)} against {code_points(other)}: rename one, or write both alike",
            )


def _span(source: GameSource, path: Path_) -> Span | None:
    """Where a name is written: its key, or the value of a seat or a component's `name`."""
    return span_for(source, path, key=path[-1] != "name" and not isinstance(path[-1], int))


def _names(data: dict[str, Any]) -> Iterator[tuple[str, Path_]]:
    """Every name of the game with the path it is written at (a key's path ends with the key)."""
    for section in NAMED_SECTIONS:
        entries = data.get(section)
        for name in entries if isinstance(entries, dict) else ():
            yield str(name), (section, name)
    seats = (data.get("game") or {}).get("seats")
    for i, seat in enumerate(seats if isinstance(seats, list) else ()):
        yield str(seat), ("game", "seats", i)
    components = data.get("components")
    for type_name, ctype in components.items() if isinstance(components, dict) else ():
        if not isinstance(ctype, dict):
            continue
        for part in ("marks", "properties"):
            for key in ctype.get(part) or {}:
                yield str(key), ("components", type_name, part, key)
        for i, instance in enumerate(ctype.get("instances") or ()):
            if isinstance(instance, dict) and isinstance(instance.get("name"), str):
                yield instance["name"], ("components", type_name, "instances", i, "name")
