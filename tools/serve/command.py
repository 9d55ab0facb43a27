"""`tabula serve GAME`: start the web application on a local port and print its address."""

from __future__ import annotations

import argparse
import secrets
import sys

from tabula.bots.spec import BotSpecError, parse_seat
from tabula.common import CliError, options_dict
from tabula.serve.bots import HUMAN, SEAT_KINDS
from tabula.serve.model import GameSpec, TableError
from tabula.serve.table import Table, seat_specs

DEFAULT_PORT = 8765


def table_from_args(args: argparse.Namespace) -> Table:
    """The table the command line asks for: the rules, the seats (people or bots), the seed."""
    spec = GameSpec(args.game, args.variant, list(args.expansions), options_dict(args.option))
    game = spec.load()
    if args.names:
        names = [n.strip() for n in str(args.names).split(",") if n.strip()]
    else:
        count = args.players if args.players is not None else game.min_players
        if not game.min_players <= count <= game.max_players:
            raise CliError(f"{game.name} is for {game.min_players}-{game.max_players} players, not {count}")
        names = [game.seats[i] if i < len(game.seats) else f"P{i + 1}" for i in range(count)]
    try:  # human or any bot spec (ismcts:0.2s), read as `tabula play --bot` reads it
        kinds = [parse_seat(k) for k in str(args.seats).split(",")] if args.seats else []
    except BotSpecError as err:
        raise CliError(f"--seats: {err}") from None
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    try:
        return Table(spec, seat_specs(names, kinds), seed)
    except TableError as err:
        raise CliError(str(err)) from None


def run_serve(args: argparse.Namespace) -> int:
    """Serve the game until interrupted."""
    import uvicorn

    from tabula.serve.access import Keys
    from tabula.serve.app import create_app

    table = table_from_args(args)
    keys = Keys(len(table.seats))
    url = f"http://{_address(args.host)}:{args.port}/"
    print(
        f"{table.game.name} at {url} (seats: {', '.join(f'{s.name} {s.kind}' for s in table.seats)};"
        f" Ctrl-C stops)",
        flush=True,
    )
    if not _loopback(args.host):
        print(
            f"tabula serve: warning: listening on {args.host}: anyone who can reach this machine can"
            " open the page; only the secret links below let them in, so hand each one to its player only",
            file=sys.stderr,
            flush=True,
        )
    humans = {s.name for s in table.seats if s.kind == HUMAN}
    for link in keys.links(url, [s.name for s in table.seats]):
        if link["who"] in ("host", "spectators") or link["who"] in humans:
            who = "you (the host)" if link["who"] == "host" else link["who"]
            print(f"  {who}: {link['url']}", flush=True)
    if args.open:
        import webbrowser

        webbrowser.open(f"{url}#token={keys.host}")
    allowed = frozenset(h.strip().lower().rstrip(".") for h in args.allow_host or [])
    try:
        uvicorn.run(create_app(table, allowed, keys), host=args.host, port=args.port, log_level="warning")
    except OSError as err:
        print(f"tabula serve: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        return 1
    return 0


def serve_arguments(p: argparse.ArgumentParser) -> None:
    """`tabula serve GAME [--players N] [--names A,B] [--seats KINDS] [--seed S] [--host H] [--port P]`."""
    p.add_argument("game", metavar="GAME", help="a bundled game name or a game folder")
    p.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
    p.add_argument("--names", help="player names in seat order, comma-separated")
    p.add_argument(
        "--seats",
        help=f"who plays each seat, comma-separated: {' or '.join(SEAT_KINDS)}, with a budget if wanted"
        " (ismcts:0.2s, mcts:500, random:concede)"
        " (default: a person at the first seat, random bots at the others)",
    )
    p.add_argument("--seed", type=int, help="random seed (default: a fresh one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="another name the page may be opened by (localhost and IP addresses always may)",
    )


def _loopback(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def _address(host: str) -> str:
    """The address to print for `host`: this machine's for 0.0.0.0 or ::, so a link works elsewhere."""
    if host not in ("0.0.0.0", "::"):
        return f"[{host}]" if ":" in host else host
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this picks the outgoing interface
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
