"""`tabula play`: a person at the terminal against random bots.

The person sits at one seat; every other seat is a random bot drawing from its own generator, seeded
from the game's seed, so the same seed and the same inputs replay the same game. Whenever the person
must decide, the screen shows that seat's board (`tabula.play.board`, built from `engine.view` only) laid
out to fit the terminal (80x24 when output is not a terminal, see `tabula.play.screen`), with colour on
a terminal and as plain text otherwise; `board` and `show NAME` give the details. Everything printed
is plain text to rich (no markup), so names from the game or the command line print as they are,
but for their control and bidi characters, shown escaped (`safe_text`).
Input is read line by line, so a game can be driven by piping stdin; end of input quits cleanly.
"""

from __future__ import annotations

import argparse
import secrets
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from tabula.bots.base import Observation, bot_generator
from tabula.bots.spec import make_bot
from tabula.common import CliError, load
from tabula.interpreter.base.limits import MAX_DECISIONS
from tabula.interpreter.base.terminal import safe
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State
from tabula.interpreter.model.view import visible_log
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice
from tabula.interpreter.scenarios.record import Recorder, write_recording
from tabula.play.board import Board, build_board
from tabula.play.choicelog import apply_named
from tabula.play.screen import (
    HEIGHT,
    WIDTH,
    Look,
    Numbering,
    board_lines,
    choice_lines,
    decision_screen,
    final_lines,
    show_lines,
)
from tabula.play.tidy import fold_setup

HELP = """Commands:
  <number>     make the numbered choice
  <choice id>  make a choice by its id (e.g. take:2, play_card:A)
  why NAME     why an action is not possible now
  board        the whole table and every player, in full
  show NAME    one zone, counter, player or card in full (e.g. show hand)
  choices      every choice you have now
  log          the whole game log you may read
  help         this text
  q            quit"""


class Terminal:
    """Output (rich on a terminal, plain text otherwise) and line input (None at end of input)."""

    def __init__(self) -> None:
        self.fancy = sys.stdout.isatty()
        self.console = Console(highlight=False) if self.fancy else None
        size = shutil.get_terminal_size((WIDTH, HEIGHT)) if self.fancy else None
        self.look = Look(self.fancy, size.columns if size else WIDTH, size.lines if size else HEIGHT)

    def show(self, text: str | Text, style: str | None = None) -> None:
        line = safe_text(text if isinstance(text, Text) else Text(text, style=style or ""))
        if self.console is not None:
            self.console.print(line, soft_wrap=False, overflow="fold")
        else:
            print(line.plain, flush=True)

    def lines(self, lines: list[Text]) -> None:
        for line in lines:
            self.show(line)

    def clear(self) -> None:
        if self.console is not None:
            self.console.clear()

    def ask(self, prompt: str) -> str | None:
        try:
            line = input(safe(prompt))
        except EOFError:
            if not sys.stdin.isatty():
                print(flush=True)
            return None
        if not sys.stdin.isatty():
            print(safe(line), flush=True)
        return line.strip()


def safe_text(text: Text) -> Text:
    """`text` with its control and bidi characters escaped (`base.terminal.safe`), its styles kept on
    the characters they covered: a name from the game or the command line cannot reach the terminal
    as a sequence (clear the screen, set the title, write the clipboard)."""
    plain = text.plain
    if safe(plain, lines=True) == plain:
        return text
    starts = [0]  # where each character of `plain` starts once escaped (and where the text ends)
    for ch in plain:
        starts.append(starts[-1] + len(safe(ch, lines=True)))
    out = Text(safe(plain, lines=True), style=text.style, end=text.end)
    for span in text.spans:
        out.stylize(span.style, starts[span.start], starts[span.end])
    return out


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
    opponent: Any = None  # the bot playing every other seat (tabula.bots.spec), from --bot
    numbering: Numbering = field(default_factory=Numbering)  # the choices' numbers, kept while offered
    decisions: int = 0  # taken so far, the person's and the bots'
    setup: int = 0  # the log entries of the setup, before the first decision

    @property
    def game(self) -> CompiledGame:
        return self.engine.game

    def new_lines(self) -> list[str]:
        """Log lines the person has not seen yet."""
        lines = visible_log(self.log, self.seat)
        fresh = lines[self.shown :]
        if self.shown == 0:  # the setup's moves (shuffles, deals) as one line
            n = len(visible_log(self.log[: self.setup], self.seat))
            fresh = [*fold_setup(fresh[:n], " ('log' lists them)"), *fresh[n:]]
        self.shown = len(lines)
        return fresh

    def board(self) -> Board:
        return build_board(self.engine, self.state, self.seat)

    def draw(self) -> None:
        self.term.clear()
        numbers = self.numbering.number(self.engine.legal_ids(self.state))
        board, look = self.board(), self.term.look
        self.term.lines(decision_screen(board, self.new_lines(), self.game.name, look, self.seed, numbers))


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
    session.setup = len(session.log)
    session.opponent = make_bot(getattr(args, "bot", None) or "random", session.engine)
    return session


def bot_move(s: Session) -> None:
    seat = s.engine.current_player(s.state)
    assert seat is not None
    choice = s.opponent.choose(Observation(s.engine, s.state, seat), s.bots)
    apply_named(s.engine, s.state, choice, s.log)


def explain(s: Session, name: str) -> None:
    if not name:
        s.term.show("usage: why ACTION")
        return
    from tabula.interpreter.run.knowledge import seat_state

    # answered on the seat's own knowledge: nothing hidden from the seat can show in the answer
    s.term.show(s.engine.explain(seat_state(s.game, s.state, s.seat), name))


def choose(s: Session, text: str) -> bool:
    """Apply a number or a choice id; False (with the reason shown) when it is not a legal choice."""
    choice: str | int = text
    numbers = s.numbering.number(s.engine.legal_ids(s.state))
    shown = numbers_text(sorted(numbers.values()))
    if text.isdigit() and not text.isascii():
        s.term.show(f"'{text}' is not a number this game reads: type {shown} with the digits 0-9")
        return False
    if text.isdigit():
        found = s.numbering.choice(int(text[:9]))
        if found is None:
            s.term.show(f"no choice numbered {text[:9]}; pick {shown}")
            return False
        choice = found
    try:
        apply_named(s.engine, s.state, choice, s.log)
    except IllegalChoice as err:
        s.term.show(f"not possible: {err.reason}")
        return False
    return True


def numbers_text(numbers: list[int]) -> str:
    """`1-5`, or the numbers themselves when some are free (`1, 2, 4`)."""
    if numbers == list(range(1, len(numbers) + 1)):
        return f"1-{len(numbers)}"
    return ", ".join(str(n) for n in numbers[:12]) + (" ..." if len(numbers) > 12 else "")


def show(s: Session, name: str) -> None:
    if not name:
        s.term.show("usage: show NAME (a zone, counter, var, player or card; 'board' shows everything)")
        return
    lines = show_lines(s.board(), name, s.term.look.width)
    s.term.lines(lines) if lines else s.term.show(f"nothing named '{name}' on your board")


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
    elif word == "board":
        s.term.lines(board_lines(s.board(), s.term.look.width))
    elif word == "show":
        show(s, rest.strip())
    elif word == "choices":
        dec = s.board().decision
        numbers = s.numbering.number(s.engine.legal_ids(s.state))
        s.term.lines(choice_lines(dec.choices if dec else [], s.term.look.width, None, numbers))
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
    for line in s.new_lines():
        s.term.show(line)
    s.term.show("Game over.", style="bold")
    s.term.lines(final_lines(s.board(), s.term.look.width))


def run_play(args: argparse.Namespace) -> int:
    """Play one game; exit code 0 (finished or quit). With --record, the game is written as a
    scenario file when it ends, when the person quits, and when a rule fails."""
    s = start(args)
    limit = getattr(args, "max_decisions", MAX_DECISIONS)
    try:
        while not s.engine.is_terminal(s.state):
            if s.decisions >= limit:
                return stop_at_limit(s, args, limit)
            s.decisions += 1
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


def stop_at_limit(s: Session, args: argparse.Namespace, limit: int) -> int:
    """The game took `limit` decisions without ending: say so, record it, exit code 1."""
    for line in s.new_lines():
        s.term.show(line)
    s.term.show(
        f"stopped: the game did not end within {limit:,} decisions (the decision limit, as in "
        "`tabula simulate`; --max-decisions sets it)",
        style="bold",
    )
    record(s, args)
    return 1


def record(s: Session, args: argparse.Namespace, error: str | None = None) -> None:
    """`--record FILE`: the game so far as a scenario file (tabula verify FILE replays it)."""
    if isinstance(s.engine, Recorder) and args.record:
        path = Path(args.record)
        write_recording(path, s.engine, s.state, args.variant, args.expansions, error=error)
        s.term.show(f"recorded as a scenario: {path} (check it with: tabula verify {path})")
