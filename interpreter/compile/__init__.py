"""Stages check + compile: checked game data and DSL ASTs -> a CompiledGame. The check and the code
generation share one walk; what depends on the target language lives in one sub-folder per target
(`python/` today), what does not beside it: the reader of the game's data with its positions
(`reader.py`), the layouts of components, zones, counters and vars (`layout.py`) and the analysis of
which effects can stop for a decision (`suspend.py`)."""
