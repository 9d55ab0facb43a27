"""Stage load: YAML text with positions, bounds, the schema and its limits, packs (variants and
expansions) and rules options -> checked plain data. Imports base."""
