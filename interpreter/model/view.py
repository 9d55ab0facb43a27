"""Per-player views: the state with everything that player may not see removed.

A component is visible to a player when it lies in a public zone, in a zone of theirs marked
`owner`, in another player's zone marked `others`, out of play, or has been revealed to everyone.
In a view, each invisible component id is replaced by -1 (so zone sizes stay public), its location
and marks are blanked; a zone whose size the viewer may not know (`size_visibility`) reads None
(`zone_members`); a zone, counter or var with a `visible_to:` expression is seen by the players it
evaluates to on the state (`seen_by`), re-evaluated at every view; and the parts of the state that
could leak hidden facts are dropped: the generator (future shuffles), a scenario's rigged shuffle
orders (`rig`: the future order of a zone), the frame stack (locals may hold hidden components),
other players' pending options and their answers to a simultaneous step not yet revealed.
Vars and marks of a component type (`component_marks`) are scrubbed the same way. Counters and vars
declared with a `visibility` other than public (a secret chip count) read None where the viewer may
not see them (`secret_counters`, `var_seen`). Log entries carry the players they are hidden from.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.types import COMP
from tabula.interpreter.model.game import CompiledGame

HIDDEN = -1


def shown_to(grant: int, player: int) -> bool:
    """Is a component with reveal grant `grant` shown to seat `player` alone (bit player + 1)? Never
    to a spectator or any other negative viewer."""
    return player >= 0 and bool(grant >> (player + 1) & 1)


def visible_to(
    game: CompiledGame, st: dict[str, Any], cid: int, player: int, memo: dict[int, bool] | None = None
) -> bool:
    """May `player` see which component `cid` is? (`memo`: zone instance -> seen, for one state and
    player, so that a `visible_to:` expression is evaluated once per zone instance.)"""
    grant = st["rv"][cid]  # 1: revealed to everyone; else bit p + 1: shown to seat p (reveal ... to)
    if grant and (grant == 1 or shown_to(grant, player)):
        return True
    loc = st["loc"][cid]
    if loc < 0:
        return True
    vis = game.zone_layouts[loc].visibility
    if vis == "public":
        return True
    if vis == "owner":
        return bool(game.zone_owner[loc] == player)
    if vis == "others":  # a hand held facing out
        return bool(game.zone_owner[loc] != player)
    if vis == "hidden":
        return False
    if memo is None:
        return seen_by(game, st, vis, game.zone_owner[loc], player)
    if loc not in memo:
        memo[loc] = seen_by(game, st, vis, game.zone_owner[loc], player)
    return memo[loc]


def sees(visibility: str, owner: int | None, player: int) -> bool:
    """May `player` see a counter's or var's value of this visibility word, held for `owner` (None:
    a global one)? As for zones: `owner` its player alone, `others` everyone but its player. A
    `visible_to:` expression (`to:...`) needs the state: `seen_by`."""
    if visibility == "public":
        return True
    if visibility == "owner":
        return owner is not None and owner == player
    if visibility == "others":
        return owner != player
    return False


def seen_by(game: CompiledGame, st: dict[str, Any], visibility: str, owner: int | None, player: int) -> bool:
    """`sees`, and for a `visible_to:` expression (`to:SECTION:NAME`, compile/layout.py) its value
    on `st` with `owner` bound (run/audience.py): never a spectator (a negative viewer)."""
    if not visibility.startswith("to:"):
        return sees(visibility, owner, player)
    if player < 0 or game.audience_of is None:
        return False
    return player in game.audience_of(game, st, visibility, owner)


def size_seen(game: CompiledGame, zone: int, player: int) -> bool:
    """May `player` know how many components zone instance `zone` holds (`size_visibility`)?"""
    layout = game.zone_layouts[zone]
    return layout.size_visibility == "public" or sees(layout.size_visibility, game.zone_owner[zone], player)


def secret_sizes(game: CompiledGame) -> bool:
    """Does any zone keep its size secret from someone? (False: views and logs as before.)"""
    return any(z.size_visibility != "public" for z in game.zones.values())


def zone_members(v: dict[str, Any], zone: int) -> tuple[list[int], int | None]:
    """What view `v` shows of zone instance `zone`: its ids (-1 for a hidden one) and its size, or,
    when its size is secret to the viewer, the components seen there (by `loc`) and None."""
    ids = v["z"][zone]
    if ids is not None:
        return ids, len(ids)
    return [c for c, where in enumerate(v["loc"]) if where == zone], None


def secret_counters(game: CompiledGame) -> list[tuple[int, str, int | None]]:
    """(index in the state's counter list, visibility, owner) of every counter instance that is not
    public: empty for a game without secret counters, so its views are as before."""
    out: list[tuple[int, str, int | None]] = []
    for c in game.counters.values():
        if c.visibility == "public":
            continue
        for owner in range(game.max_players) if c.per_player else [None]:
            base = c.base + (owner or 0) * c.width
            out.extend((base + k, c.visibility, owner) for k in range(c.width))
    return out


def var_seen(game: CompiledGame, st: dict[str, Any], name: str, value: Any, player: int) -> Any:
    """A var's value as `player` may know it: None where it is secret to them (a per-player var:
    the seats they may not see)."""
    layout = game.vars.get(name)
    if layout is None or layout.visibility == "public":
        return value
    if layout.per_player and isinstance(value, list):
        return [v if seen_by(game, st, layout.visibility, q, player) else None for q, v in enumerate(value)]
    return value if seen_by(game, st, layout.visibility, None, player) else None


def unseen_owners(game: CompiledGame, st: dict[str, Any], layout: Any, player: int) -> list[bool]:
    """For each seat, then None (a global value's owner): may `player` not see the value of this
    counter or var (`layout`) held for it? A `visible_to:` expression is evaluated only where it
    can be held: for the seats in play of a per-player one, for None of a global one."""
    vis, seats = layout.visibility, range(game.max_players)
    if vis.startswith("to:"):
        seats = range(st["t"]["n"] if layout.per_player else 0)
    out = [not seen_by(game, st, vis, q, player) for q in seats]
    out += [False] * (game.max_players - len(out))
    held = not (layout.per_player and vis.startswith("to:"))  # a word needs no state: as before
    return [*out, held and not seen_by(game, st, vis, None, player)]


def unseen_vars(game: CompiledGame, st: dict[str, Any], player: int) -> list[list[Any]]:
    """[name, owner] of each var with a `visible_to:` expression `player` may not see now (a view's
    `vu`: a screen cannot tell a secret none from a value none): `var_unseen` reads it."""
    out: list[list[Any]] = []
    for v in game.vars.values():
        if v.visibility.startswith("to:"):
            owners: list[int | None] = list(range(st["t"]["n"])) if v.per_player else [None]
            out.extend([v.name, q] for q in owners if not seen_by(game, st, v.visibility, q, player))
    return out


def var_unseen(game: CompiledGame, v: dict[str, Any], name: str, owner: int | None) -> bool:
    """Is var `name` (of `owner`, None for a global one) secret to the viewer of view `v`?"""
    layout = game.vars[name]
    if layout.visibility.startswith("to:"):
        return [name, owner] in v.get("vu", [])
    return not sees(layout.visibility, owner, v.get("viewer", -1))


def component_marks(game: CompiledGame) -> list[str]:
    """The marks whose values are components (type component or components, declared or given by
    the rules): views and seat states hide the hidden components they name, as for such vars."""
    return [name for name, kind in game.mark_kinds.items() if COMP in kind]


def _scrub(game: CompiledGame, st: dict[str, Any], v: Any, player: int, memo: dict[int, bool]) -> Any:
    if isinstance(v, list):
        return [_scrub(game, st, x, player, memo) for x in v]
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(game.components):
        return v if visible_to(game, st, v, player, memo) else HIDDEN
    return v


def own_answers(sim: dict[str, Any] | None, player: int) -> dict[str, Any] | None:
    """What `player` may know of an open simultaneous step (`t["sim"]`, run/simultaneous.py): who
    still has to answer, and their own answers only."""
    if sim is None:
        return None
    out = {"w": list(sim["w"]), "a": [[q, c] for q, c in sim["a"] if q == player]}
    early = [[q, c] for q, c in sim.get("e", []) if q == player]
    return out | ({"e": early} if early else {})


def view(game: CompiledGame, st: dict[str, Any], player: int) -> dict[str, Any]:
    """What `player` may know of state `st`, as plain data."""
    ncomp = len(game.components)
    memo: dict[int, bool] = {}
    seen = [visible_to(game, st, c, player, memo) for c in range(ncomp)]
    zones: list[list[int] | None] = [[c if seen[c] else HIDDEN for c in z] for z in st["z"]]
    if secret_sizes(game):  # no count at all: its visible components keep their `loc`
        zones = [z if size_seen(game, i, player) else None for i, z in enumerate(zones)]
    loc = [st["loc"][c] if seen[c] else HIDDEN for c in range(ncomp)]
    marks = {k: [vals[c] if seen[c] else None for c in range(ncomp)] for k, vals in st["m"].items()}
    for name in component_marks(game):  # a visible component's mark may name a hidden one
        marks[name] = [_scrub(game, st, v, player, memo) for v in marks[name]]
    vars_: dict[str, Any] = {}
    for name, value in st["v"].items():
        layout = game.vars.get(name)
        if layout is not None and COMP in layout.type:
            vars_[name] = var_seen(game, st, name, _scrub(game, st, value, player, memo), player)
        else:
            vars_[name] = var_seen(game, st, name, value, player)
    counters = list(st["c"])
    for i, visibility, owner in secret_counters(game):
        if not seen_by(game, st, visibility, owner, player):
            counters[i] = None
    dec = st["dec"]
    if dec is None:
        decision = None
    elif dec["p"] == player:
        decision = {"p": dec["p"], "ids": list(dec["ids"]), "prompt": dec["prompt"]}
    else:
        decision = {"p": dec["p"]}
    t = dict(st["t"])
    if "sim" in t:  # the others' answers to a simultaneous step are not revealed yet
        t["sim"] = own_answers(t["sim"], player)
    # every key is listed: nothing new in the state (such as "rig") reaches a view unless added here
    unseen = unseen_vars(game, st, player) if game.audiences else []
    return ({"vu": unseen} if unseen else {}) | {
        "viewer": player,
        "z": zones,
        "loc": loc,
        "c": counters,
        "v": vars_,
        "m": marks,
        # 1 revealed to everyone, 2 shown to this player (never to a spectator, a negative viewer);
        # whom else a card was shown is not said
        "rv": [1 if r == 1 else 2 if shown_to(r, player) else 0 for r in st["rv"]],
        "dec": decision,
        "t": t,
        "names": list(st["names"]),
        "o": dict(st["o"]),
    }


def visible_log(log: list[dict[str, Any]], player: int) -> list[str]:
    """The log lines a player may read; entries hidden from them read as a neutral line.

    An entry may carry a text per reader (`seen`, keyed by seat: a choice named with the game's
    label, tools/play/choicelog.py), read in place of its `text` by a reader it is not hidden from."""
    out: list[str] = []
    for entry in log:
        if player in entry.get("hidden_from", []):
            text = str(entry.get("redacted", ""))
            if text:
                out.append(text)
        else:
            out.append(str(entry.get("seen", {}).get(player, entry["text"])))
    return out
