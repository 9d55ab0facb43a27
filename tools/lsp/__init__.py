"""`tabula lsp`: a Language Server Protocol server for game, pack and scenario files (docs/editors.md)."""
