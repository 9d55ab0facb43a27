"""`tabula play`: a person at the terminal against random bots.

The person sits at one seat; every other seat is a random bot drawing from its own generator, seeded
from the game's seed, so the same seed and the same inputs replay the same game. Whenever the person
must decide, the screen is built from `engine.view(state, seat)` only (see `tabula.screen`), drawn
with `rich` on a terminal and as plain text otherwise. Input is read line by line, so a game can be
driven by piping stdin; end of input quits cleanly.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from tabula.bots import Observation, make_bot
from tabula.common import CliError, load
from tabula.interpreter import rng
from tabula.interpreter.engine import Engine
from tabula.interpreter.model import CompiledGame
from tabula.interpreter.runtime import GameRuntimeError, IllegalChoice
from tabula.interpreter.scenario_record import Recorder, write_recording
from tabula.interpreter.state import State
from tabula.interpreter.view import visible_log
from tabula.screen import build_screen, plain_text, print_rich

BOT_SALT = 0xB07
LOG_LINES = 12
HELP = """Commands:
  <number>     make the numbered choice
  <choice id>  make a choice by its id (e.g. take:2, play_card:A)
  why NAME     why an action is not possible now
  log          the whole game log you may read
  help         this text
  q            quit"""


def bot_generator(seed: int) -> list[int]:
    """The bots' own generator for a game with this seed (shared with `tabula simulate`)."""
    return rng.seed_state(seed + BOT_SALT)


class Terminal:
    """Output (rich on a terminal, plain text otherwise) and line input (None at end of input)."""

    def __init__(self) -> None:
        self.fancy = sys.stdout.isatty()
        self.console = Console() if self.fancy else None

    def show(self, text: str, style: str | None = None) -> None:
        if self.console is not None:
            self.console.print(text, style=style, markup=False, highlight=False)
        else:
            print(text, flush=True)

    def ask(self, prompt: str) -> str | None:
        try:
            line = input(prompt)
        except EOFError:
            if not sys.stdin.isatty():
                print(flush=True)
            return None
        if not sys.stdin.isatty():
            print(line, flush=True)
        return line.strip()


@dataclass
class Session:
    """One game in progress: the engine, the state, the full log and the person's seat."""

    engine: Engine
    state: State
    seat: int
    seed: int
    term: Terminal
    bots: list[int]
    log: list[dict[str, Any]] = field(default_factory=list)
    shown: int = 0
    opponent: Any = None  # the bot playing every other seat (tabula.bots), from --bot

    @property
    def game(self) -> CompiledGame:
        return self.engine.game

    def new_lines(self) -> list[str]:
        """Log lines the person has not seen yet (the last LOG_LINES of them)."""
        lines = visible_log(self.log, self.seat)
        fresh = lines[self.shown :]
        self.shown = len(lines)
        if len(fresh) > LOG_LINES:
            fresh = [f"... {len(fresh) - LOG_LINES} earlier lines (type 'log')", *fresh[-LOG_LINES:]]
        return fresh

    def draw(self) -> None:
        view = self.engine.view(self.state, self.seat)
        labels = dict(self.engine.labels(self.state)) if view["dec"] and "ids" in view["dec"] else None
        title = f"{self.game.name} (seed {self.seed})"
        screen = build_screen(self.game, view, self.new_lines(), title, labels)
        if self.term.console is not None:
            print_rich(self.term.console, screen)
        else:
            self.term.show(plain_text(screen))


def player_names(args: argparse.Namespace, game: CompiledGame) -> int | list[str]:
    """Names from `--names`, else the number from `--players` (default: the game's minimum)."""
    if args.names:
        names = [n.strip() for n in str(args.names).split(",") if n.strip()]
        if args.players is not None and args.players != len(names):
            raise CliError(f"--players {args.players} but {len(names)} names given")
        return names
    return int(args.players) if args.players is not None else game.min_players


def start(args: argparse.Namespace) -> Session:
    game = load(args.game, args.option, args.variant, args.expansions)
    players = player_names(args, game)
    count = len(players) if isinstance(players, list) else players
    if not game.min_players <= count <= game.max_players:
        raise CliError(f"{game.name} is for {game.min_players}-{game.max_players} players, not {count}")
    if not 0 <= args.seat < count:
        raise CliError(f"--seat {args.seat} is not a seat of a {count}-player game (seats 0-{count - 1})")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    engine = Recorder(game) if getattr(args, "record", None) else Engine(game)
    session = Session(engine, {}, args.seat, seed, Terminal(), bot_generator(seed))
    session.state = session.engine.new_game(players, seed, None, session.log)
    session.opponent = make_bot(getattr(args, "bot", None) or "random", session.engine)
    return session


def bot_move(s: Session) -> None:
    seat = s.engine.current_player(s.state)
    assert seat is not None
    choice = s.opponent.choose(Observation(s.engine, s.state, seat), s.bots)
    s.engine.apply_inplace(s.state, choice, s.log)


def explain(s: Session, name: str) -> None:
    fn = getattr(s.engine, "explain", None)
    if not name:
        s.term.show("usage: why ACTION")
    elif callable(fn):
        s.term.show(str(fn(s.state, name)))
    else:
        s.term.show("why-not explanations are not available yet")


def choose(s: Session, text: str) -> bool:
    """Apply a number or a choice id; False (with the reason shown) when it is not a legal choice."""
    choice: str | int = text
    if text.isdigit():
        choice = int(text) - 1
        if not 0 <= choice < len(s.engine.legal_ids(s.state)):
            s.term.show(f"no choice numbered {text}; pick 1-{len(s.engine.legal_ids(s.state))}")
            return False
    try:
        s.engine.apply_inplace(s.state, choice, s.log)
    except IllegalChoice as err:
        s.term.show(f"not possible: {err.reason}")
        return False
    return True


def command(s: Session, line: str) -> bool | None:
    """Handle one input line: True after a choice, False to ask again, None to quit."""
    word, _, rest = line.partition(" ")
    if word in ("q", "quit", "exit"):
        return None
    if word in ("help", "h", "?"):
        s.term.show(HELP)
    elif word == "why":
        explain(s, rest.strip())
    elif word == "log":
        s.term.show("\n".join(visible_log(s.log, s.seat)) or "(the log is empty)")
    elif line:
        return choose(s, line)
    return False


def person_move(s: Session) -> bool:
    """Draw the screen and read until a legal choice is made; False if the person quits."""
    s.draw()
    while True:
        line = s.term.ask("> ")
        if line is None:
            return False
        done = command(s, line)
        if done is None:
            return False
        if done:
            return True


def finish(s: Session) -> None:
    names: list[str] = s.state["names"]
    for line in s.new_lines():
        s.term.show(line)
    scores = s.engine.scores(s.state)
    winners = s.engine.winners(s.state)
    s.term.show("Game over. Scores:", style="bold")
    for p, name in enumerate(names):
        you = " (you)" if p == s.seat else ""
        s.term.show(f"  {name}{you}: {scores[p]}{'  winner' if p in winners else ''}")
    label = "Winner" if len(winners) == 1 else "Winners"
    s.term.show(f"{label}: {', '.join(names[p] for p in winners)}", style="bold green")


def run_play(args: argparse.Namespace) -> int:
    """Play one game; exit code 0 (finished or quit). With --record, the game is written as a
    scenario file when it ends, when the person quits, and when a rule fails."""
    s = start(args)
    try:
        while not s.engine.is_terminal(s.state):
            if s.engine.current_player(s.state) != s.seat:
                bot_move(s)
            elif not person_move(s):
                s.term.show("quit.")
                record(s, args)
                return 0
    except GameRuntimeError as err:
        record(s, args, err.message)
        raise
    finish(s)
    record(s, args)
    return 0


def record(s: Session, args: argparse.Namespace, error: str | None = None) -> None:
    """`--record FILE`: the game so far as a scenario file (tabula verify FILE replays it)."""
    if isinstance(s.engine, Recorder) and args.record:
        path = Path(args.record)
        write_recording(path, s.engine, s.state, args.variant, args.expansions, error=error)
        s.term.show(f"recorded as a scenario: {path} (check it with: tabula verify {path})")
