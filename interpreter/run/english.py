"""English for display text: a count with its noun (`plural`) and a noun with its article (`article`).

Stage: run (the builtins `plural(n, word)` and `article(word)` of run/builtins.py call these). Game
text is English; these are the usual rules, and a game that needs another form says it: `plural(n,
'die', 'dice')`. Nothing here knows a game's words.
"""

from __future__ import annotations

from typing import Any

_SIBILANT = ("s", "x", "z", "ch", "sh")
_VOWELS = "aeiou"
# words whose first letter is a vowel but whose first sound is not, and the other way round
_A_BEFORE = ("uni", "use", "usu", "uti", "eu", "one", "once", "ubi")
_AN_BEFORE = ("hour", "heir", "hone", "hono")  # a silent h: an hour, an heir, an honest ...


def plural_of(word: str) -> str:
    """`box` -> `boxes`, `city` -> `cities`, `card` -> `cards` (the last word of a phrase)."""
    lower = word.lower()
    if not lower or not lower[-1].isalpha():
        return word
    if lower.endswith(_SIBILANT):
        return word + "es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def counted(n: Any, word: Any, plural: Any = None) -> str:
    """`1 box`, `0 boxes`, `3 dice` (with `plural` given): the count, then its noun's form."""
    noun = str(word)
    if n == 1 and not isinstance(n, bool):
        return f"{n} {noun}"
    return f"{n} {str(plural) if plural is not None else plural_of(noun)}"


def with_article(word: Any) -> str:
    """`an apple`, `a pear`, `an hour`, `a unit`: the indefinite article by the first sound."""
    text = str(word)
    lower = text.lower()
    if lower.startswith(_AN_BEFORE):
        return f"an {text}"
    # a `u` before one consonant and a vowel sounds `you` (a unit, a usual, a Uranium; an Urban)
    you = len(lower) > 2 and lower[0] == "u" and lower[1] not in _VOWELS and lower[2] in _VOWELS
    vowel = lower[:1] in tuple(_VOWELS) and not lower.startswith(_A_BEFORE) and not you
    return f"{'an' if vowel else 'a'} {text}"
