"""The public API: load a game, start it, list legal choices, apply them, view, save, replay.

`load_game` (loading.py, re-exported here) runs the stages from a game folder to a `CompiledGame`,
with gates between them. The `Engine` then works on plain-data states (state.py), in
the style of OpenSpiel: `legal_actions`, `apply`, `clone`, `is_terminal`, `returns`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, Report, Span
from tabula.interpreter.base.types import WINDOW_PROMPT
from tabula.interpreter.compile.native.bridge import NativeGame, NativeState, NotNative
from tabula.interpreter.compile.native.recompute import AGAIN
from tabula.interpreter.load.options import checked_values, declared_specs
from tabula.interpreter.loading import BUNDLED, find_game, load_game
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State, clone, new_state, state_hash
from tabula.interpreter.run import decisions, saves, validate
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice, Runtime, Watch
from tabula.interpreter.run.simultaneous import early_answer, record_answer, take_early

__all__ = [
    "BUNDLED",
    "AuthorError",
    "Choice",
    "Engine",
    "GameRuntimeError",
    "IllegalChoice",
    "find_game",
    "load_game",
]


@dataclass(frozen=True)
class Choice:
    """One legal choice: its stable id, the player who makes it, and the question asked."""

    id: str
    player: int
    prompt: str


Log = list[dict[str, Any]] | None


class Engine:
    """Runs one compiled game. States are plain dicts (or, on the native backend, NativeState: the
    same API takes both); the engine keeps no state of its own.

    `backend="native"` runs the game in compiled C where the native backend holds the whole game
    and a C compiler is found (docs/ARCHITECTURE.md, "Native backend"); otherwise the engine runs
    on Python and `backend_note` says why in one line. `backend` tells which one runs."""

    def __init__(self, game: CompiledGame, backend: str = "python") -> None:
        self.game = game
        # an observer of every run this engine starts (events and phase starts: scenario `at:`
        # checks); plain games leave it None
        self.watch: Watch | None = None
        self.native: NativeGame | None = None
        self.backend = "python"
        self.backend_note = ""
        if backend == "native":
            from tabula.interpreter.compile.native.backend import prepare

            self.native, self.backend_note = prepare(game)
            self.backend = "python" if self.native is None else "native"
        elif backend != "python":
            raise ValueError(f"unknown backend {backend!r}: python or native")

    # ------------------------------------------------------------ starting
    def new_game(
        self,
        players: int | list[str],
        seed: int = 0,
        options: dict[str, Any] | None = None,
        log: list[dict[str, Any]] | None = None,
        pause: str | None = None,
    ) -> State:
        """A new game run up to its first decision (or to `pause`: "turn" or a phase id of the first
        turn; any other pause is G004, with the phases or the closest one)."""
        g = self.game
        names = validate.player_names(g, players)  # the count first: nothing is allocated before
        seed = validate.seed(seed)
        validate.pause(g, pause)
        opts = self._options(options)
        nat = self.native
        if nat is not None and pause is None and log is None and self.watch is None:
            try:  # options given here may hold what native words cannot (a number past 2^62)
                ns = nat.initial(names, opts, rng.seed_state(seed), lambda: new_state(g, names, seed, opts))
            except NotNative:
                ns = None
            if ns is not None and nat.start(ns.words, g.work_budget) == 0:
                return ns  # type: ignore[return-value]
            # native code stopped (an error, the budget): Python runs it again and says where
        st = new_state(g, names, seed, opts)
        if pause is not None:
            st["t"]["pause"] = pause
        Runtime(g, st, log, self.watch).run()
        return st

    def _options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """The rules options of a new game: the game's, with `options` checked over them."""
        g = self.game
        if not options:
            return dict(g.options)
        report = Report()
        chosen = checked_values(g.option_specs or declared_specs(g.options), options, report)
        report.raise_if_errors()
        return {**g.options, **chosen}

    # ------------------------------------------------------------ native states
    def plain(self, st: State) -> State:
        """The plain-data state of `st` (itself when it is one)."""
        if isinstance(st, NativeState):
            assert self.native is not None
            if st.plain is None and self.native.choosing(st):
                return self._replayed(st)
            return self.native.to_plain(st)
        return st

    def backend_form(self, st: State) -> State:
        """`st` in the engine's own form: native words when the engine runs natively and the plain
        state converts (a determinised world, a loaded state), else `st` itself."""
        if self.native is None or isinstance(st, NativeState):
            return st
        try:
            return self.native.loaded(st)  # type: ignore[return-value]  # opaque to callers
        except NotNative:
            return st

    def native_evaluation(self, st: State) -> list[int] | None:
        """The game's `bots: evaluate:` of every player computed in native code, when `st` is
        native words and the native library holds the expression; else None."""
        if (live := self._live(st)) is not None:
            return live[0].evaluation(live[1])
        return None

    def _replayed(self, ns: NativeState) -> State:
        """The plain state at a choice inside an effect: its segment's first state, converted,
        with the answers given since applied on the Python backend (frames and the decision as
        Python poses them, exactly)."""
        nat = self.native
        assert nat is not None
        base, answers, from_start = nat.segment(ns)
        st = nat.to_plain(base)
        if from_start:
            Runtime(self.game, st).run()
        for k in answers:
            self.apply_inplace(st, k)
        return st

    def _live(self, st: Any) -> tuple[NativeGame, NativeState] | None:
        """The native game and state when `st` is a state in native words."""
        if st.__class__ is NativeState and st.plain is None and self.native is not None:
            return self.native, st
        return None

    def _adopt(self, ns: NativeState, st: State) -> None:
        """`ns` becomes `st` (native again when it can be)."""
        assert self.native is not None
        try:
            ns.words, ns.plain = self.native.from_plain(st).words, None
        except NotNative:
            ns.plain = st

    def _native_failed(self, ns: NativeState, idx: int | str, code: int) -> None:
        """Native code refused choice `idx` (an index or a legal id; code 1) or stopped on an error:
        the decision again on Python, from the state before it (converted), which reports where it
        failed or, when Python goes on (native checks are never looser), goes on."""
        nat = self.native
        assert nat is not None
        if code == 1:
            n = nat.options(ns)
            raise IllegalChoice(str(idx), f"there are {n} legal choices" if n else "the game is over")
        nat.restore(ns)
        st = self.plain(ns)  # type: ignore[arg-type]  # the API takes both kinds of state
        try:
            self.apply_inplace(st, idx)
        finally:
            self._adopt(ns, st)

    def resume(self, st: State, log: list[dict[str, Any]] | None = None) -> None:
        """Continue a game stopped by `new_game(pause=...)`."""
        st["t"]["paused"] = False
        Runtime(self.game, st, log, self.watch).run()

    def reoffer(self, st: State, log: list[dict[str, Any]] | None = None) -> None:
        """Ask the pending question again, from the state as it is now (after a scenario wrote it):
        its options are recomputed, and end checks run first, as when it was first asked."""
        dec = st["dec"]
        if dec is None:
            return
        fr = st["stk"][-1]
        # a decision suspends its frame where it goes on after it: go back to where it is asked
        fr[1] = self.game.decision_points.get((fr[0], fr[1]), fr[1])
        st["dec"] = None
        Runtime(self.game, st, log, self.watch).run()

    # ------------------------------------------------------------ asking
    def current_player(self, st: State) -> int | None:
        if (live := self._live(st)) is not None:
            return live[0].current_player(live[1])
        dec = self.plain(st)["dec"]
        return None if dec is None else int(dec["p"])

    def waiting(self, st: State) -> list[int]:
        """The players a simultaneous step still waits for (the one asked now first); else the
        player to decide, or nobody when the game is over."""
        st = self.plain(st)
        sim = st["t"].get("sim")
        if sim is not None:
            return list(sim["w"])
        return [] if st["dec"] is None else [int(st["dec"]["p"])]

    def is_terminal(self, st: State) -> bool:
        # native words first, written out (a step's Python share: no call but the words' property)
        if isinstance(st, NativeState) and st.plain is None and (nat := self.native) is not None:
            v = st.mv  # (the words' view when made: no call)
            return not (st.view if v is None else v)[nat.dk]
        return self.plain(st)["dec"] is None

    def legal_actions(self, st: State) -> list[Choice]:
        if (live := self._live(st)) is not None and live[0].window(live[1]):
            p = live[0].current_player(live[1])
            return [] if p is None else [Choice(i, p, WINDOW_PROMPT) for i in live[0].ids(live[1])]
        dec = self.plain(st)["dec"]
        if dec is None:
            return []
        return [Choice(i, dec["p"], dec["prompt"]) for i in dec["ids"]]

    def labels(self, st: State) -> list[tuple[str, str]]:
        """(id, label) for each legal choice: actions with a `label:` template read in the game's words."""
        from tabula.interpreter.run.support import render_template

        st = self.plain(st)
        dec = st["dec"]
        if dec is None:
            return []
        if dec["k"] != "window":
            return [(i, i) for i in dec["ids"]]
        rt = Runtime(self.game, st)
        out = []
        for cid, (ai, args) in zip(dec["ids"], dec["v"], strict=True):
            act = self.game.action_list[ai]
            if act.label is None:
                out.append((cid, cid))
                continue
            rt.loc = {"me": dec["p"], **{n: v for (n, _, _), v in zip(act.params, args, strict=True)}}
            out.append((cid, render_template(rt, list(act.label))))
        return out

    def explain(self, st: State, name: str) -> str:
        """Why the action `name` (or `name:args`) is not a legal choice now, in the game's words."""
        from tabula.interpreter.authoring.explain import explain

        validate.text(name, "an action name")
        return explain(self.game, self.plain(st), name)

    def legal_ids(self, st: State) -> list[str]:
        if isinstance(st, NativeState) and st.plain is None and (nat := self.native) is not None:
            kept, v = st.named, st.mv  # the ids the last step named, while the words are those it left
            if kept is not None and v is not None and kept[0] == v[nat.gen_at]:
                return kept[1].ids.copy()  # (a copy: the caller may change its list)
            return nat.ids(st)
        dec = self.plain(st)["dec"]
        return [] if dec is None else list(dec["ids"])

    def recompute_decision(self, st: State) -> dict[str, Any] | None:
        """The decision the state's frames pose, computed again from the rest of the state (the
        state is not changed): equal to `st["dec"]` for any state the engine made. Saves are checked
        with it, and benchmarks time it as one legal-choice enumeration."""
        if isinstance(st, NativeState) and st.plain is None and (nat := self.native) is not None:
            dec = nat.recompute(st)  # (one call: a window's, else AGAIN, as native code stopped)
            if dec is not AGAIN:
                return dec
        return decisions.recompute_decision(self.game, self.plain(st))

    # ------------------------------------------------------------ acting
    def apply(self, st: State, choice: str | int, log: list[dict[str, Any]] | None = None) -> State:
        """A new state after `choice` (an id, or an index into the legal choices)."""
        live = self._live(st)
        if live is not None:  # its words copied, not packed: stepped at once (NativeGame.clone)
            new: State = live[0].clone(live[1], packed=False)  # type: ignore[assignment]  # opaque to callers
        else:
            new = self.clone(st)
        self.apply_inplace(new, choice, log)
        return new

    def apply_inplace(self, st: State, choice: str | int, log: list[dict[str, Any]] | None = None) -> None:
        if (  # the usual native step first: an index or a legal id, nothing logged or watched
            isinstance(st, NativeState)
            and st.plain is None
            and log is None
            and self.watch is None
            and (nat := self.native) is not None
        ):
            # an index, or a legal id the last step named: answered and the next decision named in one call
            code = nat.advance(st, choice, self.game.work_budget)
            if code is None and choice.__class__ is str and (k := nat.index(st, choice)) is not None:
                code = nat.advance(st, k, self.game.work_budget)  # (an id of options named now)
            if code is not None:
                if code:
                    self._native_failed(st, choice, code)
                return
        if isinstance(st, NativeState):
            ns: NativeState = st
            nat = self.native
            if ns.plain is None and nat is not None and log is None and self.watch is None:
                if choice.__class__ is str:  # an id: its index (the ids of the same options are kept)
                    k = nat.index(ns, choice)
                    if k is None:  # a name without its '#' (or IllegalChoice), as on Python
                        validate.choice(choice)
                        if nat.options(ns) == 0:
                            raise IllegalChoice(str(choice), "the game is over")
                        kind = "window" if nat.window(ns) else "choose"
                        k = decisions.match_name(self.game, {"ids": nat.ids(ns), "k": kind}, choice)
                    choice = k
                if choice.__class__ is int:  # the usual case first: an index, from a bot
                    code = nat.apply(ns.words, choice, self.game.work_budget, nat.before)
                    if code:
                        self._native_failed(ns, choice, code)
                    return
            plain = self.plain(st)
            try:
                self.apply_inplace(plain, choice, log)
            finally:
                self._adopt(ns, plain)
            return
        dec = st["dec"]
        if choice.__class__ is int:  # the usual case first: an index, from a bot
            if dec is None:
                raise IllegalChoice(str(choice), "the game is over")
            ids: list[str] = dec["ids"]
            if not 0 <= choice < len(ids):
                raise IllegalChoice(str(choice), f"there are {len(ids)} legal choices")
            idx = choice
        else:
            validate.choice(choice)
            if dec is None:
                raise IllegalChoice(str(choice), "the game is over")
            ids = dec["ids"]
            if isinstance(choice, int):
                if not 0 <= choice < len(ids):
                    raise IllegalChoice(str(choice), f"there are {len(ids)} legal choices")
                idx = choice
            elif choice in ids:
                idx = ids.index(choice)
            else:
                idx = decisions.match_name(self.game, dec, choice)
        value = dec["v"][idx]
        g = self.game
        rt = Runtime(g, st, log, self.watch)
        secret = "sim" in st["t"] and record_answer(st, dec["p"], ids[idx])
        if log is not None:
            who = st["names"][dec["p"]]
            if secret:  # an answer to a simultaneous step: hidden from every other player until revealed
                hidden = [q for q in range(st["t"]["n"]) if q != dec["p"]]
            else:
                hidden = decisions.hidden_from(self.game, st, dec, value)
            masked = f"{who}: {ids[idx].split(':')[0]}:?" if dec["k"] == "window" else f"{who} chooses"
            rt.say(f"{who}: {ids[idx]}", hidden, masked)
        masked_entry = log[-1] if log and hidden and not secret else None
        st["dec"] = None
        st["t"]["decisions"] += 1
        if dec["k"] == "choose":
            rt.loc[dec["var"]] = value
        else:
            ai, args = value
            act = g.action_list[ai]
            if act.closes_window:
                rt.stk[-1][1] += 1
            names = act.param_names
            if len(args) != len(names):  # a decision is validated when loaded: never in a game
                raise IllegalChoice(str(choice), f"'{act.name}' takes {len(names)} arguments")
            # the action's parameters, then `me` (zip with strict=True takes keywords: a slow call)
            if len(names) == 1:
                new_locals = {names[0]: args[0], "me": dec["p"]}
            elif names:
                new_locals = dict(zip(names, args, strict=True))
                new_locals["me"] = dec["p"]
            else:
                new_locals = {"me": dec["p"]}
            rt.push(act.block, new_locals)
        rt.run()
        if masked_entry is not None:  # a card chosen unseen and then shown (played face up): named for all
            still = set(decisions.hidden_from(self.game, st, dec, value))
            masked_entry["hidden_from"] = [q for q in masked_entry["hidden_from"] if q in still]

    def answer(
        self, st: State, seat: int, choice: str | int, log: list[dict[str, Any]] | None = None
    ) -> None:
        """`seat` answers in place: the pending question when it is theirs, or ahead of their turn
        their question of the open simultaneous step (checked against the options they will be
        offered, kept hidden and applied when they are asked); else IllegalChoice with the reason."""
        if isinstance(st, NativeState) and st.plain is not None:
            st = st.plain  # it left native words: answered as plain data (the object keeps it)
        plain = self.plain(st)
        validate.seat(plain, seat)
        dec = plain["dec"]
        if dec is not None and dec["p"] == seat:
            self.apply_inplace(st, choice, log)
            if plain is not st:  # native words: no answer was kept ahead (that makes the state plain)
                return
        elif seat in self.waiting(plain):
            if isinstance(st, NativeState):  # an answer kept ahead is plain data (t.sim.e): the state
                st.plain = plain  # leaves native words, as a plain state at a choice does
                st = plain
            ahead = self.ahead(st, seat)
            cid = (
                ahead["ids"][choice] if isinstance(choice, int) and 0 <= choice < len(ahead["ids"]) else None
            )
            if cid is None:
                named = choice in ahead["ids"]
                cid = choice if named else ahead["ids"][decisions.match_name(self.game, ahead, str(choice))]
            early_answer(st, seat, str(cid))
            return
        else:
            who = ", ".join(st["names"][q] for q in self.waiting(st)) or "nobody (the game is over)"
            raise IllegalChoice(str(choice), f"{st['names'][seat]} has no question now: waiting for {who}")
        while (dec := st["dec"]) is not None and (cid := take_early(st, dec["p"])) is not None:
            self.apply_inplace(st, cid, log)

    def ahead(self, st: State, seat: int) -> dict[str, Any]:
        """The question `seat` will be asked in the open simultaneous step (the players before them
        answer on a copy: by the step's form, their answers cannot change it)."""
        probe = clone(self.plain(st))
        probe["t"]["sim"] = {**probe["t"]["sim"], "e": []}
        while probe["dec"] is not None and probe["dec"]["p"] != seat:
            self.apply_inplace(probe, 0)
        if probe["dec"] is None:
            raise IllegalChoice("?", f"{st['names'][seat]} is not asked in this step")
        return dict(probe["dec"])

    # ------------------------------------------------------------ results
    def scores(self, st: State) -> list[int]:
        if (live := self._live(st)) is not None:
            keys = live[0].ranking_keys(live[1])
            if keys is not None:
                return [int(k[0]) for k in keys]
        st = self.plain(st)
        g = self.game
        if g.score is None:
            return [0] * st["t"]["n"]
        rt = Runtime(g, st)
        out = []
        for p in range(st["t"]["n"]):
            rt.loc = {"p": p}
            out.append(rt.evaluate(g.score, g.score_span))
        return out

    def ranking_keys(self, st: State) -> list[tuple[Any, ...]]:
        if (live := self._live(st)) is not None:
            keys = live[0].ranking_keys(live[1])
            if keys is not None:  # native code keeps the score as it is: the best key is the largest
                return [(-k[0], *k[1:]) for k in keys] if self.game.lowest_wins else keys
        st = self.plain(st)
        g = self.game
        rt = Runtime(g, st)
        keys = []
        scores = self.scores(st)
        for p in range(st["t"]["n"]):
            rt.loc = {"p": p}
            score = -scores[p] if g.lowest_wins else scores[p]  # the best key is the largest
            keys.append((score, *[rt.evaluate(f, g.score_span) for f in g.tiebreak]))
        return keys

    def winners(self, st: State) -> list[int]:
        if (live := self._live(st)) is not None:
            forced = live[0].declared(live[1])
        else:
            forced = self.plain(st)["t"]["winners"]
        if forced is not None:
            return list(forced)
        keys = self.ranking_keys(st)
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    def returns(self, st: State) -> list[float]:
        """1 for each winner (shared), 0 for the others; all 0 while the game goes on."""
        n = self.num_players(st)
        if not self.is_terminal(st):
            return [0.0] * n
        w = set(self.winners(st))
        return [1.0 if p in w else 0.0 for p in range(n)]

    def player_names(self, st: State) -> list[str]:
        return list(st.names if isinstance(st, NativeState) else st["names"])

    def locations(self, st: State) -> list[int]:
        """The zone instance of every component (-1: out of play), as `state["loc"]`."""
        if (live := self._live(st)) is not None:
            return live[0].locations(live[1])
        return list(self.plain(st)["loc"])

    def num_players(self, st: State) -> int:
        if (live := self._live(st)) is not None:
            return len(live[1].names)
        return int(self.plain(st)["t"]["n"])

    # ------------------------------------------------------------ data
    def clone(self, st: State) -> State:
        if isinstance(st, NativeState) and self.native is not None:
            return self.native.clone(st)
        return clone(st)

    def to_json(self, st: State) -> str:
        """The save of `st`: canonical JSON with a format version and the game it belongs to."""
        return saves.dump(self.game, self.plain(st))

    def from_json(self, text: str) -> State:
        """The state of a save of this game; `saves.InvalidSave` says why a save cannot be loaded."""
        st = saves.load(self.game, text)
        if self.native is not None:
            with contextlib.suppress(NotNative):
                return self.native.loaded(st)  # type: ignore[return-value]  # opaque to callers
        return st

    def hash(self, st: State) -> str:
        return state_hash(self.plain(st))

    def replay(
        self, players: int | list[str], seed: int, choices: list[str], options: dict[str, Any] | None = None
    ) -> State:
        st = self.new_game(players, seed, options)
        for c in choices:
            self.apply_inplace(st, c)
        return st

    def view(self, st: State, player: int) -> dict[str, Any]:
        from tabula.interpreter.model.view import view

        if (live := self._live(st)) and (seen := live[0].views.view(live[1], player, self.plain)) is not None:
            return seen  # read from the words (compile/native/views.py): the same view
        st = self.plain(st)
        validate.seat(st, player)
        return view(self.game, st, player)

    def playout(self, st: State, gen: list[int], limit: int = 1 << 40) -> int:
        """Uniform random choices drawn with `gen` (as `random_choice`) until the game ends or
        `limit` decisions were taken; the number taken. On the native backend the whole playout
        runs in native code."""
        done = 0
        if (live := self._live(st)) is not None:
            done, code = live[0].playout(live[1], gen, self.game.work_budget, limit)
            if code == 0:
                return done
        while done < limit and not self.is_terminal(st):  # a native error: the next choice on Python
            self.apply_inplace(st, self.random_choice(st, gen))
            done += 1
        return done

    def playouts(
        self,
        players: int | list[str],
        seeds: list[int],
        gens: list[list[int]],
        options: dict[str, Any] | None = None,
        limit: int = 1 << 40,
    ) -> list[int]:
        """Whole random games, one a seed: `playout(new_game(players, seed, options), gens[i], limit)`
        (gens[i] updated as `playout` updates it), none kept; the decisions each took. On the native
        backend they run one after the other in one native call, each in the same words (a game that
        native code stops is played again alone, as `playout` plays it)."""
        if len(gens) != len(seeds):
            raise ValueError(f"playouts needs one generator a seed, not {len(gens)} for {len(seeds)}")
        done: list[int | None] = [None] * len(seeds)
        nat = self.native
        if nat is not None and self.watch is None and seeds:
            names = validate.player_names(self.game, players)
            seeds = [validate.seed(seed) for seed in seeds]
            opts = self._options(options)
            try:
                start = nat.start_state(names, opts, lambda: new_state(self.game, names, seeds[0], opts))
            except NotNative:
                start = None
            if start is not None:
                done = nat.playouts(start, seeds, gens, self.game.work_budget, limit)
        return [
            self.playout(self.new_game(players, seed, options), gen, limit) if took is None else took
            for seed, gen, took in zip(seeds, gens, done, strict=True)
        ]

    def random_choice(self, st: State, gen: list[int]) -> int:
        """An index among the legal choices, drawn with a bot's own generator words."""
        if isinstance(st, NativeState) and st.plain is None and (nat := self.native) is not None:
            w = st.words  # NativeGame.options written out: the pending options' count, 0 at the end
            return rng.below(gen, 0 if w[nat.dk] == 0 else w[nat.dn])
        return rng.below(gen, len(self.plain(st)["dec"]["ids"]))


def error_span(err: GameRuntimeError) -> Span | None:
    return err.span
