"""Stages check + compile: checked game data and DSL ASTs -> a CompiledGame. The check and the code
generation share one walk; what depends on the target language lives in one sub-folder per target
(`python/` today), what does not (static types of scopes, the suspension analysis) beside it."""
