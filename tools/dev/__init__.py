"""The project's own tooling: benchmarks, traces of random games, doc generation and the golden
diagnostics."""
