"""Any Tabula game as an OpenSpiel game: `pyspiel.load_game("tabula(game=porta-nigra,players=3)")`.

Importing this module registers the Python game `tabula` with pyspiel. Its parameters:

| parameter | default | meaning |
|---|---|---|
| `game` | `high-card` | a bundled game's name or a game folder |
| `players` | 0 | the number of players (0: the game's minimum) |
| `variant`, `expansions` | "" | a variant; expansions joined with `+` |
| `options` | "" | rules options `key:value` joined with `;` (values are read by the option's type) |
| `player_names` | "" | player names joined with `;` (default: the game's seat names) |
| `seeds` | 65536 | how many deals the opening chance node offers (outcome k: engine seed k) |
| `min_number`, `max_number` | 0, 200 | the numbers the action index can hold |
| `max_game_length` | 10000 | a game still going after this many decisions ends with every return 0 |

Characters that OpenSpiel's game strings reserve (`,`, `=`, `(`, `)`), and `;`, `:`, `+`, `%`
inside a value, are written as `%XX` (URL quoting); `game_string()` does it for you.

The game type is declared as it is: sequential; **explicit stochastic with one chance node**: every
random event of a Tabula game (shuffles, draws, random start players) comes from the engine's
generator, which lives in the state and is seeded once when the game starts, so the one chance
node at the root draws that seed uniformly from `seeds` outcomes and the rest of the game is a
function of the seed and the players' choices. (Sampled stochastic would describe the generator
too, but OpenSpiel cannot serialise a Python game of that mode: `GetRNGState` cannot be given
from Python.) Imperfect information; general-sum (each winner gets 1, so a shared win pays more
than 1 in total); terminal rewards (`Engine.returns`). States serialise through the engine's JSON
(`Match.to_json`); observation and information-state strings and the observation tensor come from
`Engine.view` (see `tabula.rl.match` and `tabula.rl.encoding`) and hold nothing about the seed.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

import numpy as np
import pyspiel

from tabula.interpreter.base.source import AuthorError
from tabula.rl.actions import DEFAULT_NUMBERS
from tabula.rl.encoding import Encoder
from tabula.rl.match import DEFAULT_MAX_LENGTH, Match, Ruleset, Setup
from tabula.rl.native import NativeRL, observation
from tabula.rl.text import observation_string

SHORT_NAME = "tabula"
_RESERVED = ",=()%;:+"
PARAMETERS: dict[str, Any] = {
    "game": "high-card",
    "players": 0,
    "variant": "",
    "expansions": "",
    "options": "",
    "player_names": "",
    "seeds": 1 << 16,
    "min_number": DEFAULT_NUMBERS[0],
    "max_number": DEFAULT_NUMBERS[1],
    "max_game_length": DEFAULT_MAX_LENGTH,
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Tabula game (rules as data)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=64,  # each game checks its own player range
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=PARAMETERS,
)


def _q(text: str) -> str:
    return quote(text, safe="".join(c for c in "/-_.~ #'\"" if c not in _RESERVED))


def _split(text: str, sep: str) -> list[str]:
    return [unquote(part) for part in text.split(sep) if part] if text else []


def game_string(
    game: str,
    players: int = 0,
    variant: str = "",
    expansions: tuple[str, ...] | list[str] = (),
    options: dict[str, Any] | None = None,
    **params: Any,
) -> str:
    """The OpenSpiel game string of a Tabula game, quoting what needs quoting."""

    def text(v: Any) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    parts = [f"game={_q(game)}"]
    if players:
        parts.append(f"players={players}")
    if variant:
        parts.append(f"variant={_q(variant)}")
    if expansions:
        parts.append("expansions=" + "+".join(_q(e) for e in expansions))
    if options:
        parts.append("options=" + ";".join(f"{_q(k)}:{_q(text(v))}" for k, v in options.items()))
    for k, v in params.items():
        if k not in PARAMETERS:
            raise ValueError(f"unknown parameter '{k}'; parameters: {', '.join(PARAMETERS)}")
        parts.append(f"{k}={';'.join(_q(x) for x in v) if isinstance(v, (list, tuple)) else _q(text(v))}")
    return f"{SHORT_NAME}({','.join(parts)})"


def load(game: str, players: int = 0, **kwargs: Any) -> Any:
    """`pyspiel.load_game` of a Tabula game (see `game_string` for the arguments)."""
    return pyspiel.load_game(game_string(game, players, **kwargs))


def _option_value(default: Any, raw: str, key: str) -> Any:
    """An option's text read by the type of its default."""
    if isinstance(default, bool):
        if raw.lower() in ("true", "false"):
            return raw.lower() == "true"
        raise ValueError(f"rules option '{key}' is true or false, not '{raw}'")
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"rules option '{key}' is a whole number, not '{raw}'") from None
    return raw


def setup_from(params: dict[str, Any]) -> Setup:
    """The rule set named by OpenSpiel game parameters (option values read by their default's type)."""
    game = unquote(str(params["game"]))
    variant = unquote(str(params["variant"]))
    expansions = tuple(_split(str(params["expansions"]), "+"))
    compiled, _ = Ruleset.compiled(game, variant, expansions)
    options: dict[str, Any] = {}
    for item in (x for x in str(params["options"]).split(";") if x):
        key, sep, raw = item.partition(":")
        key, raw = unquote(key), unquote(raw)
        if not sep or key not in compiled.options:
            known = ", ".join(compiled.options) or "none"
            raise ValueError(f"options: '{item}' is not key:value of a rules option (options: {known})")
        options[key] = _option_value(compiled.options[key], raw, key)
    numbers = (int(params["min_number"]), int(params["max_number"]))
    return Setup(game, variant, expansions, tuple(sorted(options.items())), numbers)


class TabulaGame(pyspiel.Game):  # type: ignore[misc]
    """A Tabula game for OpenSpiel (see the module docstring for its parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        try:
            self.rules = Ruleset.get(setup_from(params))
        except AuthorError as err:
            raise ValueError(str(err)) from None
        g = self.rules.game
        players = int(params["players"]) or g.min_players
        if not g.min_players <= players <= g.max_players:
            raise ValueError(f"{g.name} is for {g.min_players}-{g.max_players} players, not {players}")
        names = _split(str(params["player_names"]), ";") or self.rules.seat_names(players)
        if len(names) != players or len(set(names)) != players:
            raise ValueError(f"player_names: {players} different names are needed, got {names}")
        self.names = names
        self.seeds = int(params["seeds"])
        if self.seeds < 1:
            raise ValueError(f"seeds: at least one deal is needed, not {self.seeds}")
        self.max_length = int(params["max_game_length"])
        self.encoder = Encoder(g, players)
        # the observation in C when the game runs natively (tabula.rl.native), else from the view
        self.native, _ = NativeRL.get(self.rules.engine, self.rules.index, names)
        super().__init__(
            GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=self.rules.index.size,
                max_chance_outcomes=self.seeds,
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=self.max_length,
            ),
            params,
        )

    def new_initial_state(self, *args: Any) -> TabulaState:
        """A new game at its chance node (the seed not drawn yet)."""
        return TabulaState(self)

    def new_match(self, seed: int) -> Match:
        """A match of this game started with engine seed `seed`."""
        return Match.start(self.rules, list(self.names), seed, self.max_length)

    def state_with_seed(self, seed: int) -> TabulaState:
        """A new game past its chance node: the engine seeded with `seed` (any integer)."""
        return TabulaState(self, self.new_match(seed))

    def state_of(self, match: Match) -> TabulaState:
        """An OpenSpiel state around a match (for instance one built from an edited engine state)."""
        return TabulaState(self, match)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TabulaObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and not (
            iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("only the observer of one player's own view (public and private) is supported")
        return TabulaObserver(self, recall)


class TabulaState(pyspiel.State):  # type: ignore[misc]
    """A state of a Tabula game: its chance node (no match yet) or one `Match` (the only attribute,
    so OpenSpiel's copies, which deep-copy attributes, stay cheap)."""

    def __init__(self, game: TabulaGame, match: Match | None = None) -> None:
        super().__init__(game)
        self.match = match

    def _played(self) -> Match:
        if self.match is None:
            raise ValueError("the game has not started: apply a chance outcome (the seed) first")
        return self.match

    def current_player(self) -> int:
        if self.match is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = self.match.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.match is not None:
            return []
        seeds = self.get_game().seeds
        return [(k, 1.0 / seeds) for k in range(seeds)]

    def _legal_actions(self, player: int) -> list[int]:
        m = self._played()
        return sorted(m.legal()) if player == m.current_player() else []

    def _apply_action(self, action: int) -> None:
        if self.match is None:
            self.match = self.get_game().new_match(int(action))
        else:
            self.match.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if self.match is None or player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self.match.action_text(int(action))

    def is_terminal(self) -> bool:
        return self.match is not None and self.match.is_over()

    def returns(self) -> list[float]:
        if self.match is None:
            return [0.0] * self.get_game().num_players()
        return self.match.returns()

    def __str__(self) -> str:
        m = self.match
        if m is None:
            return f"{self.get_game().rules.game.name}: the deal (engine seed) is not drawn yet"
        who = m.current_player()
        head = f"{m.rules.game.name} after {m.depth} decisions (state {m.rules.engine.hash(m.st)[:16]})"
        return head + ("" if who is None else f"\nto move: {m.names[who]}")


class TabulaObserver:
    """OpenSpiel's PyObserver protocol: the observation tensor and string, or the information state."""

    def __init__(self, game: TabulaGame, perfect_recall: bool) -> None:
        self.encoder = game.encoder
        self.native = game.native
        self.perfect_recall = perfect_recall
        self.dict: dict[str, Any] = {}
        self.tensor: Any = None
        if not perfect_recall:
            self.tensor = np.zeros(self.encoder.size, np.float32)
            at = 0
            for name, width in self.encoder.pieces:
                self.dict[name] = self.tensor[at : at + width]
                at += width

    def set_from(self, state: TabulaState, player: int) -> None:
        if self.tensor is None:
            return
        if state.match is None:
            self.tensor.fill(0.0)  # before the deal nothing is known
        else:
            m = state.match
            observation(m.rules.engine, self.native, self.encoder, m.st, player, self.tensor)

    def string_from(self, state: TabulaState, player: int) -> str:
        m = state.match
        if m is None:
            return f"{self.encoder.game.name}: before the deal"
        text = observation_string(m.rules.game, m.view(player))
        return f"{text}\nrecall: {m.recall(player)}" if self.perfect_recall else text


pyspiel.register_game(GAME_TYPE, TabulaGame)
