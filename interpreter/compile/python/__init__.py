"""The Python target of stage compile: checked DSL and game data -> one generated Python module and
its CompiledGame."""
