"""Guess: a two-seat sealed guessing game – the test-only game of docs/ADDING_A_GAME.md.

Each round the rules draw a hidden target 1..5 (from the seed: nobody sees it, not even the
host, until the reveal). Both seats pick a number 1..5 in secret, may change it until they lock;
when both have locked (or the host forces the reveal: a seat without a pick has no guess) the
target and both picks are shown, and the seat closer to the target scores a point (equally close:
both score). The host starts the next round; after `rounds` rounds the game is over. Most points
wins; equal points share the win.

legal() lists concrete actions only, so the base's default sample() plays it: no filler, only
SAMPLE_WEIGHTS (a random host should not force every reveal).
"""

from __future__ import annotations

from typing import Any

from companion.games import base, sealed
from companion.games.base import Action, Option, RuleError, State, check_int, clone, require
from tests.games.guess.messages import MESSAGES  # noqa: F401  (the game's catalog, as the protocol names it)

ID = "guess"
NAME = "guess.name"
MIN_SEATS = 2
MAX_SEATS = 2
LOW, HIGH = 1, 5

OPTIONS: list[Option] = [
    Option("rounds", "guess.opt.rounds", "int", 10, min=1, max=20),
]
SAMPLE_WEIGHTS = {"reveal": 0.2}  # for the default sample(): kinds of legal() by weight (default 1)


def setup(options: dict[str, Any], seats: list[dict[str, Any]], seed: int) -> State:
    opts = base.resolve_options(OPTIONS, options)
    state: State = {"seed": seed, "n": len(seats), "names": [s["name"] for s in seats],
                    "rounds": opts["rounds"], "round_no": 1, "phase": "guess",
                    "scores": [0] * len(seats), "history": [], "log": []}
    _new_round(state)
    return state


def _new_round(state: State) -> None:
    state["target"] = base.rng(state, "target").randint(LOW, HIGH)
    state["round"] = sealed.new_round(list(range(state["n"])))


def _log(state: State, key: str, **params: Any) -> None:
    state["log"].append({"key": key, "params": params})


def legal(state: State, seat: int | None) -> list[Action]:
    rnd = state["round"]
    if state["phase"] == "over":
        return []
    if seat is None:
        return [{"type": "reveal"}] if not rnd["revealed"] else [{"type": "next"}]
    if rnd["revealed"] or seat in rnd["locked"] or seat not in rnd["seats"]:
        return []
    acts: list[Action] = [{"type": "pick", "value": v} for v in range(LOW, HIGH + 1)]
    if sealed.has_submitted(rnd, seat):
        acts.append({"type": "lock"})
    return acts


def apply(state: State, action: Action) -> State:
    if not isinstance(action, dict):
        raise RuleError("err.unknown_action")
    kind, seat = action.get("type"), action.get("seat")
    require(state["phase"] != "over", "err.game_over")
    new = clone(state, append_only=("history", "log"))
    rnd = new["round"]
    if kind == "pick":
        require(seat is not None, "err.seat_only")
        sealed.submit(rnd, seat, check_int(action.get("value"), LOW, HIGH))
    elif kind == "lock":
        require(seat is not None, "err.seat_only")
        sealed.lock(rnd, seat)
        _log(new, "guess.log.locked", seat=seat)
        if sealed.all_locked(rnd):
            _reveal(new)
    elif kind == "reveal":
        require(seat is None, "err.host_only")
        require(not rnd["revealed"], "err.already_revealed")
        _reveal(new)
    elif kind == "next":
        require(seat is None, "err.host_only")
        require(rnd["revealed"], "guess.err.not_revealed")
        if new["round_no"] >= new["rounds"]:
            new["phase"] = "over"
            _log(new, "guess.log.over")
        else:
            new["round_no"] += 1
            _new_round(new)
    else:
        raise RuleError("err.unknown_action")
    return new


def _reveal(new: State) -> None:
    rnd = new["round"]
    sealed.reveal(rnd)
    target = new["target"]
    picks = [sealed.choice(rnd, s) for s in range(new["n"])]
    dist = [abs(p - target) if p is not None else None for p in picks]
    best = min((d for d in dist if d is not None), default=None)
    won = [s for s in range(new["n"]) if best is not None and dist[s] == best]
    for s in won:
        new["scores"][s] += 1
    new["history"].append({"round_no": new["round_no"], "target": target, "picks": picks, "won": won})
    _log(new, "guess.log.reveal", target=target)


SEALED_CHOICES = frozenset({"pick", "lock"})  # a seat's choices in a round: an undone reveal clears them


def sealed_round(state: State) -> tuple[Any, dict[str, Any]]:
    """The round's sealed picks (open or revealed), keyed by the round number (undo of a reveal)."""
    return state["round_no"], state["round"]


def view(state: State, seat: int | None) -> dict[str, Any]:
    rnd = state["round"]
    out: dict[str, Any] = {
        "phase": state["phase"], "round_no": state["round_no"], "rounds": state["rounds"],
        "scores": list(state["scores"]),
        "round": sealed.private(rnd, seat) if seat is not None else sealed.public(rnd),
        "history": list(reversed(state["history"])),
        "log": state["log"][-10:],
        "legal": [a["type"] for a in legal(state, seat)],
    }
    if rnd["revealed"]:
        out["target"] = state["target"]
    return out


def result(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    o = outcome(state)
    assert o is not None
    return o.as_dict()


def outcome(state: State) -> base.Result | None:
    if state["phase"] != "over":
        return None
    scores = list(state["scores"])
    ranks = base.ranks_from(scores)
    return base.Result(ranks=ranks, scores=tuple(scores), winners=tuple(s for s, r in enumerate(ranks) if r == 1),
                       breakdown=tuple({"guess.points": p} for p in scores),
                       tie_break="guess.tie" if ranks.count(1) > 1 else None)
