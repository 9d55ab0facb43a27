"""The documented maxima of every input Tabula accepts (docs/language.md, "Limits").

Each limit is checked where its input enters (the YAML loader, the DSL parser, the schema stage, the
engine's API, save validation) and exceeding it is a located diagnostic or a clear error, never a
crash, a hang or a huge allocation. The values are far above anything a real game needs (the
bundled games are listed beside each limit) and low enough that refusing is instant.
"""

from __future__ import annotations

# ---------------------------------------------------------------- YAML files (load/yamlsource.py)
MAX_FILE_BYTES = 1 << 20
"""Bytes in one YAML file (the largest bundled file has 27 KB)."""

MAX_YAML_MARKS = 25_000
"""Marks that can separate YAML values in one file (',', ':', '-', '[', '{' and line breaks), counted
before parsing: a bound on the parser's time that costs nothing (bundled files: at most 2,853)."""

MAX_YAML_VALUES = 50_000
"""Values in one YAML document after aliases are expanded (bundled files: about 1,000)."""

MAX_YAML_DEPTH = 64
"""Nesting of mappings and lists in one YAML document, aliases expanded (bundled files: 6)."""

MAX_INT_DIGITS = 20
"""Decimal digits of an integer written in a file: every 64-bit seed fits (Python's own limit for
reading an integer from text is 4,300 digits)."""

# ---------------------------------------------------------------- DSL text (dsl/parser.py)
MAX_DSL_CHARS = 20_000
"""Characters in one condition or effect (the longest bundled effect has 1,809)."""

MAX_DSL_DEPTH = 64
"""Nesting of one condition or effect: each operand, argument, list item or statement body is one
level deeper than what holds it, so a sum of 70 terms is 70 deep (bundled games: 18)."""

MAX_BLOCK_DEPTH = 16
"""Statement blocks nested inside each other (`if` in `for` in ...; bundled games: 4). Generated
code nests a Python block for each, and Python refuses more than 20 static blocks."""

# ---------------------------------------------------------------- game sizes (load/gamelimits.py)
MAX_PLAYERS = 100
"""`game.players.max`: every state holds one instance of each per-player zone, counter and
variable for each possible seat."""

MAX_COPIES = 1_000
"""`copies` of one instance."""

MAX_COMPONENTS = 20_000
"""Components in a game: instances x copies, times `players.max` for per-player types (the
bundled games have at most 201)."""

# ---------------------------------------------------------------- the API (validate.py)
SEED_BOUND = 1 << 64
"""Seeds are integers from 0 to 2**64 - 1: the generator keeps 64 bits, so a larger seed would
silently play the same game as a smaller one."""

MAX_NAME_CHARS = 100
"""Characters in a player's name."""

MAX_SAVE_BYTES = 16 << 20
"""Bytes of one save (states of the bundled games take about 10 KB)."""

# ---------------------------------------------------------------- games run by the tools
MAX_DECISIONS = 100_000
"""Decisions of one game run by `tabula play` and `tabula simulate` (`--max-decisions`) before it is
stopped as unfinished: a game whose rules never end it, or that only bots play, cannot run for ever."""

# ---------------------------------------------------------------- values in play (compile/budget.py)
WORK_BUDGET = 2_000_000
"""Units of work between two decisions (runtime.py, compile/budget.py), unless the game sets its own
(`limits: {work_budget: N}` in game.yaml). The bundled games use at most about 9,000."""

MAX_WORK_BUDGET = 10 * WORK_BUDGET
"""The most a game may set as its `work_budget` (S007 beyond it): a decision still takes seconds at most."""

MAX_LIST_ITEMS = 100_000
"""Items of one list a rule builds (the largest list of a bundled game holds a few hundred)."""

MAX_TEXT_CHARS = 100_000
"""Characters of one text a rule builds."""

MAX_NUMBER_DIGITS = 4_000
"""Decimal digits of a number a rule computes (checked as its bit length): every number a game
holds can be saved, printed and hashed (Python refuses to print integers of more than 4,300 digits)."""

MAX_NUMBER_BITS = int(MAX_NUMBER_DIGITS * 3.3219280948873626)

MAX_STATE_ITEMS = 1_000_000
"""List items in all the values of one state together (vars, marks, locals; every copy of a shared
list counted, as a save writes it). Measured when a value of more than 64 items, characters or
1,024 bits is stored (compile/budget.py `stored`)."""

MAX_STATE_CHARS = 1_000_000
"""Characters of text in all the values of one state together (measured likewise)."""

MAX_STATE_DIGITS = 100_000
"""Digits of the large numbers (of more than 9 digits) in all the values of one state together."""
