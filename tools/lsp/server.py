"""The Language Server Protocol over stdio (pygls): documents in, diagnostics and answers out.

A change to an open file schedules a check of its game folder after `delay` seconds without another
change (each new change restarts the wait), run in one worker thread so that requests are answered
meanwhile; a request that needs the folder's names waits for the check in flight. Each check
publishes the diagnostics of every file of the folder, and an empty list for a file that had some
before. Positions are converted between the protocol's 0-based UTF-16 units and the 1-based
characters of `Span`s.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from tabula.interpreter.base.source import Diagnostic, Span, split_lines
from tabula.lsp import answers
from tabula.lsp.folder import FolderCheck, Memo, check_folder, place_of

_KINDS = {
    "zone": lsp.CompletionItemKind.Variable,
    "counter": lsp.CompletionItemKind.Variable,
    "var": lsp.CompletionItemKind.Variable,
    "function": lsp.CompletionItemKind.Function,
    "procedure": lsp.CompletionItemKind.Function,
    "builtin": lsp.CompletionItemKind.Function,
    "value": lsp.CompletionItemKind.EnumMember,
    "rule": lsp.CompletionItemKind.Function,
    "action": lsp.CompletionItemKind.Method,
    "enum": lsp.CompletionItemKind.Enum,
    "component": lsp.CompletionItemKind.Class,
    "mark": lsp.CompletionItemKind.Field,
    "property": lsp.CompletionItemKind.Property,
    "attribute": lsp.CompletionItemKind.Property,
    "engine": lsp.CompletionItemKind.Keyword,
}
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


class TabulaServer(LanguageServer):
    """The server's state: the last check of each game folder, the checks in flight."""

    def __init__(self, version: str, delay: float) -> None:
        super().__init__("tabula", version, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.delay = delay
        self.checks: dict[Path, FolderCheck] = {}
        self.pending: dict[Path, asyncio.Task[None]] = {}
        self.published: dict[Path, set[Path]] = {}
        self.memo = Memo()
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="tabula-check")

    # ------------------------------------------------------------------ checks

    def open_texts(self) -> dict[Path, str]:
        """The open documents' texts by path: they replace the files on disk."""
        out = {}
        for uri, doc in self.workspace.text_documents.items():
            path = to_fs_path(uri)
            if path is not None:
                out[Path(path).absolute()] = doc.source
        return out

    def schedule(self, uri: str, delay: float) -> None:
        """Check the folder of `uri` after `delay` seconds, dropping a check that has not finished."""
        path = to_fs_path(uri)
        place = place_of(Path(path).absolute()) if path else None
        if place is None:
            return
        folder = place[0]
        old = self.pending.get(folder)
        if old is not None and not old.done():
            old.cancel()
        self.pending[folder] = asyncio.get_running_loop().create_task(self._check(folder, delay))

    async def _check(self, folder: Path, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        texts = self.open_texts()
        self.memo.trim()
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(
                self.worker, check_folder, folder, texts, list(texts), self.memo
            )
        except Exception:  # an engine bug: said in the editor's log, and the server goes on
            self.log(lsp.MessageType.Error, f"tabula: checking {folder} failed:\n{traceback.format_exc()}")
            return
        self.log(lsp.MessageType.Log, f"checked {folder} in {time.perf_counter() - started:.2f} s")
        result.names_from(self.checks.get(folder))
        self.checks[folder] = result
        self.publish(folder, result)

    def log(self, kind: lsp.MessageType, text: str) -> None:
        self.window_log_message(lsp.LogMessageParams(kind, text))

    async def latest(self, uri: str) -> FolderCheck | None:
        """The folder's check, once the one in flight (if any) has finished."""
        path = to_fs_path(uri)
        place = place_of(Path(path).absolute()) if path else None
        if place is None:
            return None
        folder = place[0]
        if folder not in self.checks and folder not in self.pending:
            self.schedule(uri, 0)
        while (task := self.pending.get(folder)) is not None and not task.done():
            await asyncio.wait([task])
        return self.checks.get(folder)

    def publish(self, folder: Path, result: FolderCheck) -> None:
        """Every file's diagnostics, and none for an open file or a file that had some at the last check."""
        before = self.published.get(folder, set())
        opened = {p for p in self.open_texts() if (place_of(p) or (None,))[0] == folder}
        for path in sorted(before | opened | set(result.diagnostics)):
            found = result.diagnostics.get(path, [])
            lines = self.lines(str(path))
            diagnostics = [to_lsp_diagnostic(d, lines) for d in found]
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(
                    uri=from_fs_path(str(path)) or str(path), diagnostics=diagnostics
                )
            )
        self.published[folder] = set(result.diagnostics)

    # ------------------------------------------------------------------ positions

    def lines(self, file: str) -> list[str]:
        """A file's lines: the open document's, else the disk's."""
        path = Path(file).absolute()
        uri = from_fs_path(str(path))
        doc = self.workspace.text_documents.get(uri) if uri else None
        if doc is not None:
            return split_lines(doc.source)
        try:
            return split_lines(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            return []

    def location(self, span: Span) -> lsp.Location:
        return lsp.Location(
            uri=from_fs_path(span.file) or span.file, range=to_range(span, self.lines(span.file))
        )

    def cursor(self, uri: str, position: lsp.Position) -> tuple[str, str, int]:
        """The file, the cursor's line and its 1-based column in characters."""
        doc = self.workspace.get_text_document(uri)
        lines = split_lines(doc.source)
        line = lines[position.line] if position.line < len(lines) else ""
        return str(Path(doc.path).absolute()), line, from_utf16(line, position.character) + 1


def from_utf16(line: str, units: int) -> int:
    """The index in characters of the `units`-th UTF-16 unit of `line`."""
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def to_utf16(line: str, col: int) -> int:
    """The UTF-16 units before 1-based character column `col` of `line`."""
    head = line[: max(col - 1, 0)]
    return len(head) + sum(1 for ch in head if ord(ch) > 0xFFFF) + max(col - 1 - len(head), 0)


def to_range(span: Span, lines: list[str]) -> lsp.Range:
    def at(line: int, col: int) -> lsp.Position:
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return lsp.Position(line=max(line - 1, 0), character=to_utf16(text, col))

    return lsp.Range(start=at(span.line, span.col), end=at(span.end_line, span.end_col))


def to_lsp_diagnostic(d: Diagnostic, lines: list[str]) -> lsp.Diagnostic:
    """A diagnostic as the protocol's: the same code, place and message, the hint after it."""
    assert d.span is not None  # FolderCheck.add places every diagnostic
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    return lsp.Diagnostic(
        range=to_range(d.span, lines),
        message=message,
        severity=_SEVERITY[d.severity],
        code=d.code,
        source="tabula",
    )


# ------------------------------------------------------------------ the features


def make_server(version: str, delay: float) -> TabulaServer:
    """A server with every feature registered."""
    server = TabulaServer(version, delay)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TabulaServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TabulaServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.delay)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: TabulaServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TabulaServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)  # the file on disk counts again

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    async def completion(ls: TabulaServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        check = await ls.latest(params.text_document.uri)
        _, line, col = ls.cursor(params.text_document.uri, params.position)
        doc = ls.workspace.get_text_document(params.text_document.uri)
        above = split_lines(doc.source)[: params.position.line + 1]
        items = answers.completions(check.index, line, col, above) if check is not None else []
        return lsp.CompletionList(is_incomplete=False, items=[_item(i) for i in items])

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: TabulaServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = await _word(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        check, word = found
        text = answers.hover(check.index, check.data, word, ls.lines)
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: TabulaServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
        found = await _word(ls, params.text_document.uri, params.position)
        return [ls.location(s) for s in answers.definition(found[0].index, found[1])] if found else []

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: TabulaServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        found = await _word(ls, params.text_document.uri, params.position)
        if found is None:
            return []
        spans = answers.references(found[0].index, found[1], params.context.include_declaration)
        return [ls.location(s) for s in spans]

    return server


async def _word(ls: TabulaServer, uri: str, position: lsp.Position) -> tuple[FolderCheck, str] | None:
    """The folder's check and the name under the cursor."""
    check = await ls.latest(uri)
    _, line, col = ls.cursor(uri, position)
    word = answers.word_at(line, col)
    return (check, word[0]) if check is not None and word is not None else None


def _item(item: answers.Item) -> lsp.CompletionItem:
    doc = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=item.doc) if item.doc else None
    return lsp.CompletionItem(
        label=item.label,
        kind=_KINDS.get(item.kind, lsp.CompletionItemKind.Text),
        detail=item.detail,
        documentation=doc,
    )
