"""The terminal sanitiser (interpreter/base/terminal.py) and the diagnostics it guards."""

from __future__ import annotations

import io
import json
import re

from tabula.interpreter.base.source import Diagnostic, Span, register_source, render
from tabula.interpreter.base.terminal import SafeStream, raw_stream, safe, safe_json, shorten

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
HOSTILE = "X\n\x1b[2J\x1b]0;title\x07\x9b\x7f\u202eevil\u2066\u200e\u061c\t."


def test_safe_escapes_controls_and_bidi() -> None:
    assert safe(HOSTILE) == (
        "X\\x0a\\x1b[2J\\x1b]0;title\\x07\\x9b\\x7f\\u202eevil\\u2066\\u200e\\u061c\\x09."
    )
    assert safe(HOSTILE, lines=True).startswith("X\n\\x1b[2J") and "\t." in safe(HOSTILE, lines=True)
    assert safe(safe(HOSTILE)) == safe(HOSTILE)  # an escape is printable
    assert safe("Café ☃ 漢字 \u05d0") == "Café ☃ 漢字 \u05d0"  # letters of any script pass


def test_shorten_cuts_long_texts_with_their_length() -> None:
    assert shorten("short") == "short"
    long = "n" * 900_000
    assert shorten(long) == "n" * 200 + "… (900,000 characters)"
    assert not RAW.search(shorten("\x1b" * 1000))


def test_safe_stream_and_json() -> None:
    raw = io.StringIO()
    stream = SafeStream(raw)
    assert stream.write("a\x1b[2Jb\n") == 7
    assert raw.getvalue() == "a\\x1b[2Jb\n" and raw_stream(stream) is raw  # type: ignore[arg-type]
    text = safe_json(json.dumps({"name": HOSTILE}, indent=2, ensure_ascii=False))
    assert not RAW.search(text) and json.loads(text) == {"name": HOSTILE}  # read back unchanged


def test_a_diagnostic_shows_the_file_and_message_escaped_with_the_caret_under_it() -> None:
    register_source("<esc>", "name: \x1b[2Jevil here\n")
    d = Diagnostic("error", "Y001", "bad \u202e\x1b]0;t\x07", Span("<esc>", 1, 7, 1, 11), "hint \x1b")
    out = render(d)
    assert not RAW.search(out)
    assert out.splitlines() == [
        "<esc>:1:7: error[Y001]: bad \\u202e\\x1b]0;t\\x07",
        "  |",
        "1 | name: \\x1b[2Jevil here",
        "  |       ^^^^^^^",  # under `\x1b[2J`, as it is shown
        "  = hint: hint \\x1b",
    ]
