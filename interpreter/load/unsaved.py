"""An editor's unsaved texts in place of the files on disk, for the stages that read files (`load`).

`tabula lsp` checks a game folder as the editor shows it: within `texts_in_place_of_files`, every
file the mapping names is read as its text there (`yamlsource.load_yaml_file`, and `source_text`
for the other readers); nothing is written. The same block may keep each file's parsed YAML between
checks, keyed by its name and text, so that a check after an edit parses only the edited file (the
parse is about a third of a check). The state is a context variable, so a check in one thread never
sees another's texts.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabula.interpreter.base.source import Diagnostic

# (file, text) -> the parsed document (pickled: later stages change what they are given) and the
# diagnostics its parse reported
Parsed = dict[tuple[str, str], tuple[bytes, list[Diagnostic]]]


@dataclass(frozen=True)
class _Editor:
    texts: dict[str, str]
    parsed: Parsed | None


_EDITOR: ContextVar[_Editor | None] = ContextVar("unsaved_texts", default=None)


@contextmanager
def texts_in_place_of_files(texts: Mapping[Path, str], parsed: Parsed | None = None) -> Iterator[None]:
    """Within the block, every file `texts` names is read as its text there instead of from disk;
    `parsed`, when given, keeps the files' parsed YAML for the next block given the same dict."""
    token = _EDITOR.set(_Editor({str(Path(p).absolute()): t for p, t in texts.items()}, parsed))
    try:
        yield
    finally:
        _EDITOR.reset(token)


def unsaved_text(path: Path) -> str | None:
    """The text given in place of `path`, if any."""
    editor = _EDITOR.get()
    return editor.texts.get(str(path.absolute())) if editor is not None else None


def source_text(path: Path) -> str:
    """A file's text as the stages read it: the text given in place of it, else the file's (UTF-8)."""
    unsaved = unsaved_text(path)
    return unsaved if unsaved is not None else path.read_text(encoding="utf-8")


def recall(file: str, text: str) -> tuple[Any, list[Diagnostic]] | None:
    """The document parsed from `text` at an earlier check (a fresh copy), with its diagnostics."""
    editor = _EDITOR.get()
    kept = editor.parsed.get((file, text)) if editor is not None and editor.parsed is not None else None
    return (pickle.loads(kept[0]), kept[1]) if kept is not None else None  # our own bytes, from keep()


def remembering() -> bool:
    """True when parsed documents are kept (within a block given `parsed`)."""
    editor = _EDITOR.get()
    return editor is not None and editor.parsed is not None


def keep(file: str, text: str, doc: Any, diagnostics: list[Diagnostic]) -> None:
    """Keep the document parsed from `text` for the next check."""
    editor = _EDITOR.get()
    if editor is not None and editor.parsed is not None:
        editor.parsed[(file, text)] = (pickle.dumps(doc), list(diagnostics))
