"""Pydantic models of the YAML game format and of scenarios (the `load` stage, after packs apply).

Input: plain data with positions (`GameSource` / `YamlDoc`, load/positions.py). Output: a frozen
`GameDef` (or `Scenario`), or None with every problem in the Report at once.

The models mirror docs/language.md §1, §4, §5 (game sections: game.py, the `presentation` section:
presentation.py) and §6 (scenarios: scenario.py) one to one, on the strict base of common.py. DSL
conditions, expressions and effects are kept as plain `str`: the DSL parser runs in a later stage.
errors.py turns pydantic's errors into located diagnostics.

Invariants: every model forbids unknown keys (a misspelt key is an error with a did-you-mean, never
silently ignored), is frozen, and validates strictly: YAML already gives typed values, so `"3"` is
not silently accepted for an integer. Every pydantic error becomes a Diagnostic at the YAML node it
is about: S001 unknown key (at the key), S002 missing key (at the parent's key), S003 wrong type or
value (at the value). What the fields cannot express is checked after, by load/gamelimits.py and
load/declared.py (load/gamecheck.py runs the three in order); those import this package, never the
other way round.
"""
