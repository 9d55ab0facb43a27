"""The web application of `tabula serve` (FastAPI): a JSON API per seat and the static page.

Every answer for a seat (`/api/seat/N...`) is built by `Table.board` from that seat's view and its
visible log; nothing else about the game is sent to the page but the game's public description
(`/api/info`: its name, seats, actions and scenario files). The save file (`/api/save`) and the
exported scenario (`/api/export`) are downloads for the designer that describe the whole game.

The page polls `/api/version`; that call also looks at the game's files and reloads the rules when
one of them changed (`Watcher`), so an edit in the editor shows up in the browser within a second.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.run.runtime import GameRuntimeError
from tabula.serve.bots import SEAT_KINDS
from tabula.serve.export import scenario_yaml
from tabula.serve.model import TableError
from tabula.serve.table import Table, seat_specs

STATIC = Path(__file__).resolve().parent / "static"
WATCH_EVERY = 0.5  # seconds between two looks at the game's files


class Watcher:
    """Notices when a game file (or the scenario the game started from) changes on disk."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lock = threading.Lock()
        self.last_look = 0.0
        self.seen = self.signature()

    def files(self) -> list[Path]:
        folder = self.table.spec.folder()
        found = sorted(folder.rglob("*.yaml"))
        if self.table.start.scenario:
            found.append(Path(self.table.start.scenario))
        return found

    def signature(self) -> dict[str, tuple[int, int]]:
        out = {}
        for f in self.files():
            try:
                stat = f.stat()
            except OSError:
                continue
            out[str(f)] = (stat.st_mtime_ns, stat.st_size)
        return out

    def check(self) -> bool:
        """Reload the rules if a file changed since the last look; True if it did."""
        with self.lock:
            now = time.monotonic()
            if now - self.last_look < WATCH_EVERY:
                return False
            self.last_look = now
            current = self.signature()
            if current == self.seen:
                return False
            self.seen = current
        self.table.reload()
        return True

    def rebase(self) -> None:
        """Forget the files' state (after a new start: the next look compares with now)."""
        with self.lock:
            self.seen = self.signature()


def create_app(table: Table) -> FastAPI:
    """The application serving `table`."""
    app = FastAPI(title="tabula serve", docs_url=None, redoc_url=None, openapi_url=None)
    watcher = Watcher(table)
    app.state.table = table
    app.state.watcher = watcher
    uploads = Path(tempfile.mkdtemp(prefix="tabula-serve-"))

    @app.exception_handler(TableError)
    async def refused(_: Request, err: TableError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=400)

    @app.exception_handler(AuthorError)
    async def author_error(_: Request, err: AuthorError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=400)

    @app.exception_handler(GameRuntimeError)
    async def rule_failed(_: Request, err: GameRuntimeError) -> JSONResponse:
        from tabula.common import runtime_error_text

        return JSONResponse({"error": runtime_error_text(err)}, status_code=400)

    @app.exception_handler(Exception)
    async def internal(_: Request, err: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error: {type(err).__name__}: {err}"}, status_code=500)

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/info")
    def info() -> dict[str, Any]:
        g = table.game
        folder = table.spec.folder()
        scenarios = sorted(str(p.relative_to(folder)) for p in folder.glob("scenarios/**/*.yaml"))
        return {
            "name": g.name,
            "id": g.id,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "default_names": list(g.seats),
            "seat_kinds": list(SEAT_KINDS),
            "actions": [{"name": a, "label": table.game.presentation.label(a)} for a in g.actions],
            "scenarios": scenarios,
            "packs": list(g.packs),
        }

    @app.get("/api/version")
    def version() -> dict[str, Any]:
        watcher.check()
        return {"version": table.version, "human_to_decide": table.human_to_decide()}

    @app.get("/api/seat/{seat}")
    def board(seat: int, at: int | None = None) -> dict[str, Any]:
        return table.board(seat, at)

    @app.post("/api/seat/{seat}/choose")
    async def choose(seat: int, request: Request) -> dict[str, Any]:
        body = await _json(request)
        choice = body.get("choice") if isinstance(body, dict) else None
        if not isinstance(choice, str):
            raise TableError('send {"choice": "<choice id>"}')
        table.choose(seat, choice)
        return table.board(seat)

    @app.post("/api/seat/{seat}/undo")
    def undo(seat: int) -> dict[str, Any]:
        table.undo(seat)
        return table.board(seat)

    @app.get("/api/seat/{seat}/why")
    def why(seat: int, action: str = "") -> dict[str, str]:
        return {"text": table.explain(seat, action)}

    @app.post("/api/new")
    async def new_game(request: Request) -> dict[str, Any]:
        body = await _json(request)
        if not isinstance(body, dict) or not isinstance(body.get("seats"), list):
            raise TableError('send {"seats": [{"name": ..., "kind": ...}], "seed": ...}')
        names = [str(s.get("name") or f"P{i + 1}") for i, s in enumerate(body["seats"])]
        kinds = [str(s.get("kind") or "human") for s in body["seats"]]
        seed = body.get("seed")
        if seed is None or seed == "":
            seed = int(time.time()) % 1_000_000
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise TableError(f"the seed must be a whole number from 0, not {seed!r}")
        table.new_game(seat_specs(names, kinds), seed)
        watcher.rebase()
        return {"ok": True, "version": table.version}

    @app.get("/api/save")
    def save() -> Response:
        text = json.dumps(table.save(), indent=1)
        name = f"{table.game.id}-{len(table.choices)}.tabula.json"
        return Response(text, media_type="application/json", headers=_attachment(name))

    @app.post("/api/load")
    async def load(request: Request) -> dict[str, Any]:
        table.load(await _json(request))
        watcher.rebase()
        return {"ok": True, "version": table.version}

    @app.post("/api/scenario")
    async def scenario(request: Request) -> dict[str, Any]:
        body = await _json(request)
        if not isinstance(body, dict):
            raise TableError('send {"path": "scenarios/...yaml"} or {"text": "<scenario file>"}')
        if isinstance(body.get("text"), str):
            # kept for the server's life: a reload or a save replays from the scenario's position
            uploads.mkdir(exist_ok=True)
            path = (
                uploads
                / f"{len(list(uploads.iterdir()))}-{_safe_name(str(body.get('name') or 'uploaded.yaml'))}"
            )
            path.write_text(for_this_game(body["text"], table.spec.folder()), encoding="utf-8")
            table.from_scenario(path)
        else:
            table.from_scenario(_inside(table.spec.folder(), str(body.get("path", ""))))
        watcher.rebase()
        return {"ok": True, "version": table.version}

    @app.get("/api/export")
    def export() -> Response:
        name = f"{table.game.id}-position-{len(table.choices)}.yaml"
        return Response(scenario_yaml(table.position()), media_type="text/yaml", headers=_attachment(name))

    @app.post("/api/reload")
    def reload() -> dict[str, Any]:
        table.reload()
        watcher.rebase()
        return {"ok": True, "version": table.version}

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def for_this_game(text: str, folder: Path) -> str:
    """An uploaded scenario's text with its `game:` naming the served game's folder: a path in it
    was written relative to where the file was, which means nothing here."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML()
    try:
        data = yaml.load(text)
    except YAMLError:
        return text  # the scenario loader reports what is wrong, with its position
    if not isinstance(data, dict) or "game" not in data:
        return text
    data["game"] = str(folder.resolve())
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


async def _json(request: Request) -> Any:
    try:
        return await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise TableError(f"the request is not JSON ({err})") from None


def _inside(folder: Path, relative: str) -> Path:
    """A file inside the game's folder (never outside it)."""
    path = (folder / relative).resolve()
    if not relative or not path.is_relative_to(folder.resolve()) or not path.is_file():
        raise TableError(f"no scenario file '{relative}' in {folder.name}")
    return path


def _safe_name(name: str) -> str:
    return (
        "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(name).name)[:80] or "uploaded.yaml"
    )


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}
