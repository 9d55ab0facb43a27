"""Who may do what at a table of `tabula serve`: secret links, and the checks every request passes.

Every request to the API carries a token (`X-Tabula-Token`), which the page reads from its link's
fragment (`/#token=...`: a fragment is never sent to the server, so tokens stay out of logs and
`Referer` headers). A token grants one of three roles:

- the host (whoever started the server): every seat (a hot seat on one device) and the designer's
  tools: new game, scenario start, save, load, export, reload, the links of the others;
- a seat: that seat's view, decisions, undo and "why not?", nothing else;
- a spectator: the public view only (no hand, no pending options, the log as nobody's).

Besides the token, a request is refused when its `Host` header names a host the server does not
answer for (DNS rebinding: only `localhost`, IP literals and names given with `--allow-host`), when a
POST comes from a page of another origin (`Origin`), and when a POST's body is not
`application/json` (a cross-origin form or `text/plain` body cannot set that type without the
browser asking first, so no other site can post to the table).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

HOST = "host"
SEAT = "seat"
SPECTATOR = "spectator"
TOKEN_HEADER = "x-tabula-token"
LOCAL_NAMES = frozenset({"localhost"})


class Denied(Exception):
    """A request refused before it reaches the table: `status` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Grant:
    """What one token allows: its role, and the seat of a seat's token."""

    role: str
    seat: int | None = None

    def may_see(self, seat: int) -> bool:
        """May this token read (and play) `seat`?"""
        return self.role == HOST or (self.role == SEAT and self.seat == seat)

    def to_json(self) -> dict[str, object]:
        return {"role": self.role, "seat": self.seat}


class Keys:
    """The table's tokens: one for the host, one per seat, one for spectators (made with `secrets`)."""

    def __init__(self, seats: int) -> None:
        self.host = secrets.token_urlsafe(24)
        self.spectator = secrets.token_urlsafe(24)
        self.seats: list[str] = []
        self.cover(seats)

    def cover(self, seats: int) -> None:
        """Make sure every seat up to `seats` has a token (a seat keeps its token across new games)."""
        while len(self.seats) < seats:
            self.seats.append(secrets.token_urlsafe(24))

    def grant(self, token: str | None, seats: int) -> Grant:
        """The grant of `token` at a table of `seats` seats; Denied(401) for a missing or unknown one."""
        if not token:
            raise Denied(401, "this table needs the secret link the host gave you (no token sent)")
        if _same(token, self.host):
            return Grant(HOST)
        if _same(token, self.spectator):
            return Grant(SPECTATOR)
        for seat, known in enumerate(self.seats[:seats]):
            if _same(token, known):
                return Grant(SEAT, seat)
        raise Denied(401, "this link is not (or no longer) one of this table's: ask the host for yours")

    def links(self, base: str, names: list[str]) -> list[dict[str, str]]:
        """Every link to hand out: the host's, one per seat (by name), the spectators'."""
        out = [{"who": "host", "url": f"{base}#token={self.host}"}]
        out += [{"who": name, "url": f"{base}#token={self.seats[i]}"} for i, name in enumerate(names)]
        out.append({"who": "spectators", "url": f"{base}#token={self.spectator}"})
        return out


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("utf-8", "replace"), b.encode("utf-8", "replace"))


def host_name(header: str) -> str:
    """The host part of a `Host` header (`[::1]:8765` -> `::1`, `Example.org.` -> `example.org`)."""
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0].rstrip(".").lower() if header.count(":") <= 1 else header.lower()


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def check_host(header: str | None, allowed: frozenset[str]) -> None:
    """Refuse a `Host` that is neither an IP literal, `localhost`, nor a name the host allowed: a
    page of another site whose name was re-pointed at this machine (DNS rebinding) sends its own."""
    name = host_name(header or "")
    if not name or not (is_ip(name) or name in LOCAL_NAMES or name in allowed):
        raise Denied(400, "this server does not answer for that host name (start it with --allow-host NAME)")


def check_post(origin: str | None, host: str | None, content_type: str | None) -> None:
    """A POST comes from this server's own page (or no page at all) and sends JSON."""
    if origin is not None and origin != "null":
        netloc = urlsplit(origin).netloc
        if netloc.lower() != (host or "").lower():
            raise Denied(403, "a request from a page of another site is refused")
    elif origin == "null":
        raise Denied(403, "a request from a page of another site is refused")
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise Denied(415, "send the request as JSON (Content-Type: application/json)")
