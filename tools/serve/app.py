"""The web application of `tabula serve` (FastAPI): a JSON API per seat and the static page.

Who may do what is access.py's: every API request carries a token (the host's, a seat's or the
spectators'), its Host is one the server answers for, and a POST comes from the server's own page
with a JSON body (checked in the middleware, before any route). Bodies are read within a byte limit
and measured before they are parsed (guard.py). A seat's token reads and plays that seat only:
every answer for a seat (`/api/seat/N...`) is built by `Table.board` from that seat's view and its
visible log; `/api/public` is the spectators' board (no seat's view); the game's public description
is `/api/info`. The host alone starts games, loads and saves, exports and reloads: the save file
(`/api/save`) and the exported scenario (`/api/export`) describe the whole game.

The work of a request (a choice and the bots' answers, a load, a reload) runs in a worker thread,
never on the event loop, so one table's slow request does not stall the others' polls.

The page polls `/api/version`; that call also looks at the game's files and reloads the rules when
one of them changed (`Watcher`), so an edit in the editor shows up in the browser within a second.
"""

from __future__ import annotations

import json
import secrets
import sys
import threading
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from tabula.interpreter.base.limits import MAX_NAME_CHARS, SEED_BOUND
from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.run.runtime import GameRuntimeError
from tabula.play.board import SPECTATOR
from tabula.serve.access import HOST, TOKEN_HEADER, Denied, Grant, Keys, check_host, check_post
from tabula.serve.bots import SEAT_KINDS
from tabula.serve.export import scenario_yaml
from tabula.serve.guard import SAVE_BODY, SCENARIO_BODY, Uploads, read_json, safe_name
from tabula.serve.model import SeatSpec, TableError
from tabula.serve.table import Table, seat_specs

STATIC = Path(__file__).resolve().parent / "static"
WATCH_EVERY = 0.5  # seconds between two looks at the game's files
MAX_ACTION_CHARS = 200  # a "why not?" question: an action and its arguments
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
        " frame-ancestors 'none'; form-action 'self'"
    ),
}


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


def _grant(request: Request) -> Grant:
    state = request.app.state
    grant: Grant = state.keys.grant(request.headers.get(TOKEN_HEADER), len(state.table.seats))
    return grant


Who = Annotated[Grant, Depends(_grant)]  # any link: the host's, a seat's, the spectators'


def _seat(seat: int, who: Who) -> int:
    if not who.may_see(seat):
        raise Denied(403, "your link is for another seat: you may read and play only your own")
    return seat


Seat = Annotated[int, Depends(_seat)]  # a seat the link may read and play


def _host(who: Who) -> Grant:
    if who.role != HOST:
        raise Denied(403, "only the host (who started the server) may do this")
    return who


Host = Annotated[Grant, Depends(_host)]  # the host's link only


def create_app(
    table: Table, allowed_hosts: frozenset[str] = frozenset(), keys: Keys | None = None
) -> FastAPI:
    """The application serving `table` to the holders of `keys` (new ones when not given)."""
    app = FastAPI(title="tabula serve", docs_url=None, redoc_url=None, openapi_url=None)
    keys = keys if keys is not None else Keys(len(table.seats))
    watcher = Watcher(table)
    uploads = Uploads()
    table.upload = uploads.holds
    app.state.table, app.state.watcher, app.state.keys, app.state.uploads = table, watcher, keys, uploads
    _errors(app)

    @app.middleware("http")
    async def checked(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        try:
            check_host(request.headers.get("host"), allowed_hosts)
            if request.method not in ("GET", "HEAD"):
                check_post(request.headers.get("origin"), request.headers.get("host"), _content_type(request))
        except Denied as err:
            return JSONResponse({"error": str(err)}, status_code=err.status)
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    def after_change() -> dict[str, Any]:
        keys.cover(len(table.seats))
        uploads.keep_only(table.start.scenario)
        watcher.rebase()
        return {"ok": True, "version": table.version}

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/info")
    def info(who: Who) -> dict[str, Any]:
        return {**describe_game(table), "you": who.to_json()}

    @app.get("/api/version")
    def version(_: Who) -> dict[str, Any]:
        watcher.check()
        return table.polled()

    @app.get("/api/seat/{seat}")
    def board(seat: Seat, at: int | None = None) -> dict[str, Any]:
        return table.board(seat, at)

    @app.get("/api/public")
    def public(_: Who, at: int | None = None) -> dict[str, Any]:
        return table.board(SPECTATOR, at)

    @app.post("/api/seat/{seat}/choose")
    async def choose(request: Request, seat: Seat) -> dict[str, Any]:
        body = await read_json(request)
        choice = body.get("choice") if isinstance(body, dict) else None
        decision = body.get("decision") if isinstance(body, dict) else None
        if not isinstance(choice, str) or not isinstance(decision, int) or not _whole(decision):
            raise TableError(
                'send {"choice": "<choice id>", "decision": <decisions made when it was offered>}'
            )
        return await run_in_threadpool(_choose, table, seat, choice, decision)

    @app.post("/api/seat/{seat}/undo")
    async def undo(request: Request, seat: Seat) -> dict[str, Any]:
        body = await read_json(request) if request.headers.get("content-length") not in (None, "0") else {}
        decision = body.get("decision") if isinstance(body, dict) else None
        if decision is not None and not (isinstance(decision, int) and _whole(decision)):
            raise TableError('send {"decision": <decisions made when undo was asked>} or nothing')
        return await run_in_threadpool(_undo, table, seat, decision)

    @app.get("/api/seat/{seat}/why")
    def why(seat: Seat, action: str = "") -> dict[str, str]:
        return {"text": table.explain(seat, action[:MAX_ACTION_CHARS])}

    @app.post("/api/new")
    async def new_game(request: Request, _: Host) -> dict[str, Any]:
        seats, seed = new_game_request(await read_json(request))
        await run_in_threadpool(table.new_game, seats, seed)
        return after_change()

    @app.get("/api/save")
    def save(_: Host) -> Response:
        text = json.dumps(table.save(), indent=1)
        name = f"{table.game.id}-{len(table.choices)}.tabula.json"
        return Response(text, media_type="application/json", headers=_attachment(name))

    @app.post("/api/load")
    async def load(request: Request, _: Host) -> dict[str, Any]:
        data = await read_json(request, SAVE_BODY)
        await run_in_threadpool(table.load, data)
        return after_change()

    @app.post("/api/scenario")
    async def scenario(request: Request, _: Host) -> dict[str, Any]:
        body = await read_json(request, SCENARIO_BODY)
        if not isinstance(body, dict):
            raise TableError('send {"path": "scenarios/...yaml"} or {"text": "<scenario file>"}')
        shown = safe_name(str(body.get("name") or "uploaded.yaml"))
        if isinstance(body.get("text"), str):
            path = uploads.add(body["text"], shown)
        else:
            path = _inside(table.spec.folder(), str(body.get("path", "")))
        try:
            await run_in_threadpool(table.from_scenario, path)
        except (AuthorError, TableError) as err:
            if not uploads.holds(path):
                raise
            # an upload's errors name the file as the person chose it, not the server's copy
            raise TableError(str(err).replace(str(path), shown)) from None
        finally:
            uploads.keep_only(table.start.scenario)
        return after_change()

    @app.get("/api/export")
    def export(_: Host) -> Response:
        name = f"{table.game.id}-position-{len(table.choices)}.yaml"
        return Response(scenario_yaml(table.position()), media_type="text/yaml", headers=_attachment(name))

    @app.post("/api/reload")
    def reload(_: Host) -> dict[str, Any]:
        table.reload()
        watcher.rebase()
        return {"ok": True, "version": table.version}

    @app.get("/api/links")
    def links(request: Request, _: Host) -> list[dict[str, str]]:
        base = f"{request.url.scheme}://{request.headers.get('host', '')}/"
        return keys.links(base, [s.name for s in table.seats])

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _errors(app: FastAPI) -> None:
    """Every refusal as `{"error": text}` with its status; an internal error names its kind only
    (the details go to the server's own log, never to a client)."""

    @app.exception_handler(Denied)
    async def denied(_: Request, err: Denied) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=err.status)

    @app.exception_handler(TableError)
    async def refused(_: Request, err: TableError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=err.status)

    @app.exception_handler(AuthorError)
    async def author_error(_: Request, err: AuthorError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=400)

    @app.exception_handler(GameRuntimeError)
    async def rule_failed(_: Request, err: GameRuntimeError) -> JSONResponse:
        from tabula.common import runtime_error_text

        return JSONResponse({"error": runtime_error_text(err)}, status_code=400)

    @app.exception_handler(Exception)
    async def internal(_: Request, err: Exception) -> JSONResponse:
        traceback.print_exception(err, file=sys.stderr)
        return JSONResponse({"error": f"internal error ({type(err).__name__})"}, status_code=500)


def describe_game(table: Table) -> dict[str, Any]:
    """The game's public description: its name, seats, actions, scenario files and packs."""
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


def new_game_request(body: Any) -> tuple[list[SeatSpec], int]:
    """The seats and seed of a new game's request (a fresh seed when none is sent)."""
    if not isinstance(body, dict) or not isinstance(body.get("seats"), list) or len(body["seats"]) > 100:
        raise TableError('send {"seats": [{"name": ..., "kind": ...}], "seed": ...}')
    seats = [s if isinstance(s, dict) else {} for s in body["seats"]]
    names = [str(s.get("name") or f"P{i + 1}")[:MAX_NAME_CHARS] for i, s in enumerate(seats)]
    kinds = [str(s.get("kind") or "human") for s in seats]
    seed = body.get("seed")
    if seed is None or seed == "":
        seed = secrets.randbelow(1_000_000)
    if not _whole(seed) or seed >= SEED_BOUND:
        raise TableError(f"the seed must be a whole number from 0 to {SEED_BOUND - 1}, not {seed!r}")
    return seat_specs(names, kinds), seed


def _choose(table: Table, seat: int, choice: str, decision: int) -> dict[str, Any]:
    table.choose(seat, choice, decision)
    return table.board(seat)


def _undo(table: Table, seat: int, decision: int | None) -> dict[str, Any]:
    table.undo(seat, decision)
    return table.board(seat)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _content_type(request: Request) -> str | None:
    # a POST without a body (undo, reload) sends no type: the page sends JSON's anyway
    return request.headers.get("content-type")


def _inside(folder: Path, relative: str) -> Path:
    """A file inside the game's folder (never outside it)."""
    path = (folder / relative).resolve()
    if not relative or not path.is_relative_to(folder.resolve()) or not path.is_file():
        raise TableError(f"no scenario file '{relative[:100]}' in {folder.name}")
    return path


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}
