"""A small Language Server Protocol client for the tests: `tabula lsp` as a subprocess, JSON-RPC over
its stdin and stdout (Content-Length framing), the server's notifications kept as they arrive."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

TIMEOUT = 60.0  # a check of a whole game on a busy machine


class Client:
    """Speaks to one `tabula lsp` process; `notifications` holds what it published, in order."""

    def __init__(self, root: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tabula", "lsp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.root = root
        self.next_id = 0
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.responses: dict[int, dict[str, Any]] = {}
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            self.inbox.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        """Send a request and wait for its answer (its result; an error fails the test)."""
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        message = self._until(lambda: self.responses.get(ident))
        assert "error" not in message, message["error"]
        return message.get("result")

    def _pump(self, timeout: float) -> None:
        message = self.inbox.get(timeout=timeout)
        if "id" in message and "method" not in message:
            self.responses[message["id"]] = message
        elif "id" in message:  # a request from the server (registrations, configuration): accept it
            self.send({"id": message["id"], "result": None})
        else:
            self.notifications.append(message)

    def _until(self, found: Any) -> Any:
        deadline = time.monotonic() + TIMEOUT
        while (result := found()) is None:
            left = deadline - time.monotonic()
            assert left > 0, f"no answer from tabula lsp; stderr: {self.stderr()}"
            try:
                self._pump(min(left, 1.0))
            except queue.Empty:
                assert self.process.poll() is None, f"tabula lsp stopped: {self.stderr()}"
        return result

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(running)"
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")

    def diagnostics(self, path: Path, after: int = 0) -> tuple[int, list[dict[str, Any]]]:
        """The first diagnostics published for `path` after the first `after` notifications, with
        the number of notifications seen then (to wait for the next one)."""
        uri = path.as_uri()

        def published() -> tuple[int, list[dict[str, Any]]] | None:
            for i, n in enumerate(self.notifications[after:], start=after):
                if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri:
                    return i + 1, n["params"]["diagnostics"]
            return None

        result: tuple[int, list[dict[str, Any]]] = self._until(published)
        return result

    # ------------------------------------------------------------------ the session

    def initialize(self) -> dict[str, Any]:
        result: dict[str, Any] = self.request(
            "initialize", {"processId": None, "rootUri": self.root.as_uri(), "capabilities": {}}
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text}},
        )

    def change(self, path: Path, text: str, version: int) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [{"text": text}]},
        )

    def at(self, method: str, path: Path, line: int, character: int, **extra: Any) -> Any:
        """A request about a place: 0-based line and character, as the protocol counts them."""
        params = {"textDocument": {"uri": path.as_uri()}, "position": {"line": line, "character": character}}
        return self.request(method, {**params, **extra})

    def close(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
