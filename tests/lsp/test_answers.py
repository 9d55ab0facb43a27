"""The answers' plain parts: the word under the cursor, completion after a dot, and columns between
characters and the protocol's UTF-16 units."""

from __future__ import annotations

import pytest

from tabula.interpreter.base.source import Span
from tabula.lsp.answers import completions, word_at
from tabula.lsp.names import Index


def test_the_word_under_the_cursor_includes_its_last_column() -> None:
    line = "    move c to table"
    assert word_at(line, line.index("table") + 1) == ("table", 15)
    assert word_at(line, len(line) + 1) == ("table", 15)  # just after it, as a cursor at the end
    assert word_at(line, 5) == ("move", 5)
    assert word_at("   ", 2) is None


def test_after_a_dot_only_attributes_marks_and_properties_are_offered() -> None:
    index = Index()
    index.declare("hand", "zone", Span("g.yaml", 1, 1, 1, 5), ("zones", "hand"))
    index.declare(
        "rank", "property of card", Span("g.yaml", 2, 1, 2, 5), ("components", "card", "properties", "rank")
    )
    dotted = {i.label for i in completions(index, "    set c.ra", 13)}
    assert "rank" in dotted and "zone" in dotted and "hand" not in dotted
    plain = {(i.label, i.kind) for i in completions(index, "    move c to ha", 17)}
    assert ("hand", "zone") in plain and ("shuffle", "builtin") not in plain and ("count", "builtin") in plain


@pytest.mark.slow  # imports pygls: about 2 s on a busy machine
def test_the_locals_of_the_entry_above_the_cursor_are_offered() -> None:
    lines = [
        "  other:",
        "    do: let far = 1",
        "  play:",
        "    params: {c: hand(me), n: [1, 2]}",
        "    do: |",
        "      let best = max(strength(x) for x in hand(me))",
        "      for q in players:",
        "        gain 1 b",
    ]
    found = {i.label for i in completions(Index(), lines[-1], 15, lines) if i.kind == "local"}
    assert found == {"c", "n", "best", "x", "q"}


def test_columns_count_astral_characters_as_two_utf16_units() -> None:
    pytest.importorskip("pygls", reason="tabula lsp needs the lsp extra (pygls): pip install -e '.[lsp]'")
    from tabula.lsp.server import from_utf16, to_utf16

    line = "a: '🂡' + x"
    col = line.index("x") + 1
    assert to_utf16(line, col) == col  # one more unit for the card, one less for 1-based
    assert from_utf16(line, to_utf16(line, col)) == col - 1
    assert to_utf16("abc", 3) == 2 and from_utf16("abc", 2) == 2
