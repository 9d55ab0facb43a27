"""Tabula: a rules-as-data game interpreter (YAML game definitions + a small DSL).

One folder per stage, in the order they may import each other (a lower one never imports a higher
one): `base` < `load` < `dsl` < `model` < `run` < `compile` < `authoring` < `engine` (the public
API: `load_game`, `Engine`) < `scenarios`. docs/ARCHITECTURE.md opens with the map.
"""
