"""What a request's body may be, checked before anything parses it, and where uploads are kept.

`read_json` reads at most a route's byte limit (refusing a larger `Content-Length` before reading,
and a longer body while reading it), then measures the text without parsing it: the nesting of
arrays and objects (strings blanked first, so a bracket inside a text does not count) and the
length of every number. Only then is it parsed, so a body nested 5,000 deep or holding a
5,000-digit number is refused in microseconds, and never reaches `json.loads` or Python's integer
conversion. NaN and infinities are refused too (not JSON).

An uploaded scenario file (YAML inside the JSON) is measured the same way before it is written:
`yaml_fits` bounds its size and number of values (as the loader does) and its nesting, counted
over flow brackets and over block indentation and `- ` runs, generously (twice the loader's limit,
which then checks the exact depth): a YAML parser takes about 0.1 ms a nesting level, so 5,000
levels would take half a second before the loader could refuse them.

`Uploads` keeps uploaded scenario files in a private temporary folder of the server's own, under
names of its own (`upload-N.yaml`): a client's file name is only ever displayed. It keeps the file
the table plays from and deletes the others, and the folder goes when the server stops.
"""

from __future__ import annotations

import atexit
import json
import re
import shutil
import tempfile
from itertools import accumulate
from pathlib import Path
from typing import Any

from starlette.requests import Request

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report
from tabula.interpreter.load.bounds import text_fits
from tabula.serve.access import Denied

SMALL_BODY = 16 << 10  # a choice, a new game's seats
SCENARIO_BODY = limits.MAX_FILE_BYTES + (64 << 10)  # a scenario file's text in JSON
SAVE_BODY = 8 << 20  # a save: thousands of choices and their hashes
MAX_JSON_DEPTH = 16  # a save nests 4 deep
MAX_NUMBER_CHARS = limits.MAX_INT_DIGITS + 1  # a seed of 20 digits, with a sign

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}
_LINE = re.compile(r"^([ ]*)((?:-[ ]+)*)(.?)", re.MULTILINE)
MAX_YAML_NESTING = 2 * limits.MAX_YAML_DEPTH
_NUMBER = re.compile(rf"[-+0-9.eE]{{{MAX_NUMBER_CHARS + 1},}}")


async def read_body(request: Request, limit: int) -> bytes:
    """The body, or Denied(413) as soon as it is known to be longer than `limit` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or len(declared) > 12 or int(declared) > limit):
        raise Denied(413, f"the request is larger than {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Denied(413, f"the request is larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def measure(text: str) -> None:
    """Refuse (Denied 400) JSON text nested too deep or holding too long a number, without parsing it."""
    bare = _STRING.sub('""', text)
    brackets = _BRACKETS.findall(bare)
    if brackets and max(accumulate(map(_DEPTH.__getitem__, brackets))) > MAX_JSON_DEPTH:
        raise Denied(400, f"the request's JSON is nested more than {MAX_JSON_DEPTH} deep")
    if _NUMBER.search(bare):
        raise Denied(400, f"the request holds a number longer than {MAX_NUMBER_CHARS} characters")


def parse_json(raw: bytes) -> Any:
    """The body as JSON, measured first (see `measure`); Denied(400) saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Denied(400, "the request is not JSON (not UTF-8 text)") from None
    measure(text)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (json.JSONDecodeError, ValueError) as err:
        raise Denied(400, f"the request is not JSON ({err})") from None


def yaml_fits(text: str) -> None:
    """Refuse (Denied) a scenario file too large, of too many values or nested too deep to parse
    at once (see the module docstring); the loader checks the exact limits after."""
    report = Report()
    if not text_fits(text, "the scenario file", report):
        raise Denied(413, report.diagnostics[0].message)
    brackets = _BRACKETS.findall(text)
    flow = max(accumulate(map(_DEPTH.__getitem__, brackets)), default=0)
    if max(flow, _block_nesting(text)) > MAX_YAML_NESTING:
        raise Denied(400, f"the scenario file is nested more than {MAX_YAML_NESTING} deep")


def _block_nesting(text: str) -> int:
    """An upper estimate of a YAML text's block nesting: indentation levels open, plus `- ` runs."""
    open_: list[int] = []
    deepest = 0
    for m in _LINE.finditer(text):
        if m.group(3) in ("", "#") and not m.group(2):
            continue  # a blank line or a comment
        indent = len(m.group(1))
        while open_ and open_[-1] > indent:
            open_.pop()
        if not open_ or open_[-1] < indent:
            open_.append(indent)
        deepest = max(deepest, len(open_) + m.group(2).count("-"))
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


async def read_json(request: Request, limit: int = SMALL_BODY) -> Any:
    """A JSON body within `limit` bytes, measured before it is parsed."""
    return parse_json(await read_body(request, limit))


def safe_name(name: str) -> str:
    """A client's file name as it may be displayed: its last part, letters, digits, `-_.` only."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in base)[:80] or "uploaded.yaml"


class Uploads:
    """Uploaded scenario files: a private folder (0700, `mkdtemp`), one file kept at a time."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tabula-serve-")).resolve()
        self.count = 0
        atexit.register(self.close)

    def add(self, text: str, name: str) -> Path:
        """A new file holding `text` (measured first: `yaml_fits`), named by the server
        (`upload-N-<safe name>`)."""
        yaml_fits(text)
        self.count += 1
        path = self.folder / f"upload-{self.count}-{safe_name(name)}"
        path.write_text(text, encoding="utf-8")
        return path

    def holds(self, path: Path) -> bool:
        return path.resolve().parent == self.folder

    def keep_only(self, used: str | None) -> None:
        """Delete every upload but `used` (the file the table's game started from, if one)."""
        if not self.folder.is_dir():
            return
        for f in self.folder.iterdir():
            if used is None or f.resolve() != Path(used).resolve():
                f.unlink(missing_ok=True)

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
