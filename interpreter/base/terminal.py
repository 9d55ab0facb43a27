"""Text on its way to a terminal: the one sanitiser every front end uses.

A game's names and texts, a player's name and a file's lines are written by whoever wrote the game or
the call. Printed raw, an ESC or a C1 control starts a terminal sequence (clear the screen, set the
window title, write the clipboard on some terminals), a carriage return overwrites what is shown, and a
bidi control reorders what follows it, so the text read is not the text written. `safe` shows each of
these as an escape (`\\x1b`, `\\u202e`); `shorten` cuts a long text for a one-line output and says how
long it was; `SafeStream` sanitises everything written to a stream (the command line's stdout and
stderr). Escaping is idempotent: an escape is made of printable characters only.
"""

from __future__ import annotations

import re
from typing import TextIO

# C0 (but newline and tab, kept by `lines=True`), DEL, C1, and the bidi controls: the embeddings and
# overrides (U+202A-202E), the isolates (U+2066-2069), the marks LRM, RLM (U+200E/200F) and ALM (U+061C).
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
_UNSAFE_LINES = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
BIDI_CONTROLS = frozenset(
    chr(c) for c in [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)
"""The bidi controls `safe` escapes (a name holding one is warned about: W004)."""

SHORT_TEXT = 200
"""Characters of a name or text a one-line output shows before cutting it (`shorten`)."""


def escape_char(ch: str) -> str:
    """One character as an escape: `\\x1b` below U+0100, `\\u202e` above."""
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escaped(match: re.Match[str]) -> str:
    return escape_char(match.group())


def safe(text: str, lines: bool = False) -> str:
    """`text` with every control and bidi character escaped; `lines=True` keeps newlines and tabs
    (multi-line output), otherwise they are escaped too (a name, a one-line message)."""
    return (_UNSAFE_LINES if lines else _UNSAFE_LINE).sub(_escaped, text)


def shorten(text: str, limit: int = SHORT_TEXT) -> str:
    """`text` made safe for one line, cut after `limit` characters with an ellipsis and its length."""
    if len(text) <= limit:
        return safe(text)
    return f"{safe(text[:limit])}… ({len(text):,} characters)"


def safe_json(text: str) -> str:
    """JSON text with every control and bidi character as a JSON escape (`\\u001b`), which a reader
    reads back as the same character (they only occur inside strings, where an escape is valid)."""
    return _UNSAFE_LINES.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def raw_stream(stream: TextIO) -> TextIO:
    """The stream under a `SafeStream` (for a front end that draws its own terminal sequences, as a
    progress bar does); any other stream as it is."""
    return stream.raw if isinstance(stream, SafeStream) else stream


class SafeStream:
    """A text stream that passes everything written through `safe` (newlines and tabs kept) to
    `raw`; every other attribute (`isatty`, `fileno`, `encoding`, ...) is the raw stream's."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        """Write `text` made safe; returns the length of `text`, as `TextIO.write` does."""
        self.raw.write(safe(text, lines=True))
        return len(text)

    def writelines(self, lines: list[str]) -> None:
        """Write each line made safe."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self.raw, name)
