"""Sealed vote / bid: the generic game of the table platform.

The host asks a question – choose among options (Yes / No / Abstain) or a number in a range
(a bid 0–20). Every seat submits secretly, may change until it locks, and all values are
revealed at once when every seat has locked or the host forces the reveal. Results show per
seat, sorted, with a tally; the history of rounds stays visible.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import sealed
from companion.games.base import (
    Action,
    Option,
    Result,
    RuleError,
    State,
    check_int,
    clone,
    require,
    sample_legal,
)
from companion.games.sealed_vote.messages import MESSAGES  # noqa: F401  (the game's catalog)

ID = "sealed_vote"
NAME = "sv.name"
MIN_SEATS = 2
MAX_SEATS = 8
MAX_CHOICES = 8
MAX_NUMBER = 1_000_000

OPTIONS: list[Option] = [
    Option("mode", "sv.opt.mode", "choice", "choice", choices=("choice", "number"),
           choice_labels=("sv.mode.choice", "sv.mode.number")),
    Option("question", "sv.opt.question", "text", ""),
    Option("choices", "sv.opt.choices", "text", ""),
    Option("min", "sv.opt.min", "int", 0, min=-MAX_NUMBER, max=MAX_NUMBER),
    Option("max", "sv.opt.max", "int", 20, min=-MAX_NUMBER, max=MAX_NUMBER),
    sealed.UNLOCKED_OPTION,  # an early reveal: unlocked choices not counted (default) or marked
]

DEFAULT_CHOICES = ["sv.yes", "sv.no", "sv.abstain"]  # catalog keys: translated on each phone


def _question(raw: dict[str, Any]) -> dict[str, Any]:
    """Check a question payload from the host; returns the normalised question."""
    mode = raw.get("mode", "choice")
    require(mode in ("choice", "number"), "sv.err.mode")
    text = raw.get("question", "")
    require(isinstance(text, str) and len(text) <= 200, "sv.err.question")
    q: dict[str, Any] = {"mode": mode, "question": text.strip()}
    if mode == "choice":
        choices = raw.get("choices") or []
        if isinstance(choices, str):
            choices = [c.strip() for c in choices.split(",")]
        require(isinstance(choices, list), "sv.err.choices")
        choices = [c.strip() for c in choices if isinstance(c, str) and c.strip()]
        if not choices:
            choices = list(DEFAULT_CHOICES)
        require(2 <= len(choices) <= MAX_CHOICES, "sv.err.choices")
        require(all(len(c) <= 40 for c in choices), "sv.err.choices")
        require(len(set(choices)) == len(choices), "sv.err.choices")
        q["choices"] = choices
    else:
        lo = raw.get("min", 0)
        hi = raw.get("max", 20)
        lo = check_int(lo, -MAX_NUMBER, MAX_NUMBER)
        hi = check_int(hi, -MAX_NUMBER, MAX_NUMBER)
        require(lo < hi, "sv.err.bounds")
        q["min"], q["max"] = lo, hi
    return q


def setup(options: dict[str, Any], seats: list[dict[str, Any]], seed: int) -> State:
    q = _question(options)
    return {
        "seed": seed,
        "n": len(seats),
        "names": [s["name"] for s in seats],
        "round_no": 1,
        "question": q,
        "round": sealed.new_round(list(range(len(seats)))),
        "history": [],
        "unlocked": sealed.unlocked_rule(options),
    }


def _check_value(q: dict[str, Any], value: Any) -> Any:
    if q["mode"] == "choice":
        require(isinstance(value, str) and value in q["choices"], "sv.err.not_a_choice")
        return value
    return check_int(value, q["min"], q["max"])


def legal(state: State, seat: int | None) -> list[Action]:
    rnd = state["round"]
    if seat is None:
        acts: list[Action] = [{"type": "ask"}]
        if not rnd["revealed"]:
            acts.append({"type": "reveal"})
        return acts
    if rnd["revealed"] or seat in rnd["locked"] or seat not in rnd["seats"]:
        return []
    acts = [{"type": "submit"}]
    if sealed.has_submitted(rnd, seat):
        acts.append({"type": "lock"})
    return acts


def _tally(q: dict[str, Any], rnd: dict[str, Any]) -> dict[str, Any]:
    values = {int(s): v for s, v in rnd["choices"].items() if s in {str(x) for x in rnd["locked"]}
              or rnd["revealed"]}
    rows = [{"seat": s, "value": values.get(s)} for s in rnd["seats"]]
    for r in rows:  # counted at an early reveal but never locked: every screen marks it
        if r["value"] is not None and r["seat"] not in rnd["locked"]:
            r["unlocked"] = True
    present = [r for r in rows if r["value"] is not None]
    missing = [r for r in rows if r["value"] is None]
    if q["mode"] == "number":
        present.sort(key=lambda r: (-r["value"], r["seat"]))
        nums = [r["value"] for r in present]
        summary: dict[str, Any] = {
            "count": len(nums),
            "sum": sum(nums),
            "max": max(nums) if nums else None,
            "min": min(nums) if nums else None,
            "top": [r["seat"] for r in present if nums and r["value"] == nums[0]],
        }
    else:
        counts = {c: 0 for c in q["choices"]}
        for r in present:
            counts[r["value"]] += 1
        order = {c: i for i, c in enumerate(q["choices"])}
        present.sort(key=lambda r: (order[r["value"]], r["seat"]))
        summary = {"counts": counts}
        half = [r["value"] for r in present if r.get("unlocked")]
        if half:  # of each count, how many were never locked (counted at an early reveal)
            summary["unlocked"] = {c: half.count(c) for c in q["choices"] if c in half}
    return {"rows": present + missing, "summary": summary}


def apply(state: State, action: Action) -> State:
    if not isinstance(action, dict):
        raise RuleError("err.unknown_action")
    kind = action.get("type")
    seat = action.get("seat")
    new = clone(state, append_only=("history",))
    rnd = new["round"]
    q = new["question"]
    if kind == "submit":
        require(seat is not None, "err.seat_only")
        sealed.submit(rnd, seat, _check_value(q, action.get("value")))
    elif kind == "lock":
        require(seat is not None, "err.seat_only")
        sealed.lock(rnd, seat)
        if sealed.all_locked(rnd):
            _reveal(new)
    elif kind == "reveal":
        require(seat is None, "err.host_only")
        require(not rnd["revealed"], "err.already_revealed")
        _reveal(new)
    elif kind == "ask":
        require(seat is None, "err.host_only")
        nq = _question(action)
        if not rnd["revealed"]:
            # Abandoning an open round: it goes to the history unrevealed (values stay secret).
            new["history"].append({"round_no": new["round_no"], "question": q, "abandoned": True})
        new["round_no"] += 1
        new["question"] = nq
        new["round"] = sealed.new_round(list(range(new["n"])))
    else:
        raise RuleError("err.unknown_action")
    return new


def _reveal(new: State) -> None:
    rnd = new["round"]
    sealed.reveal(rnd, new.get("unlocked", sealed.UNLOCKED_BEFORE))
    new["history"].append({"round_no": new["round_no"], "question": new["question"],
                           **_tally(new["question"], rnd)})


SEALED_CHOICES = frozenset({"submit", "lock"})  # a seat's choices in a round (undo of a reveal clears them)


def sealed_round(state: State) -> tuple[Any, dict[str, Any]]:
    """The round of the current question (open or revealed), keyed by its number."""
    return state["round_no"], state["round"]


def view(state: State, seat: int | None) -> dict[str, Any]:
    rnd = state["round"]
    out: dict[str, Any] = {
        "round_no": state["round_no"],
        "question": state["question"],
        "round": sealed.private(rnd, seat) if seat is not None else sealed.public(rnd),
        "history": [h for h in reversed(state["history"])],
        "phase": "revealed" if rnd["revealed"] else "voting",
    }
    if rnd["revealed"]:
        out["result"] = state["history"][-1]
    out["legal"] = [a["type"] for a in legal(state, seat)]
    return out


def result(state: State) -> dict[str, Any] | None:
    return {"rounds": len([h for h in state["history"] if not h.get("abandoned")]),
            "history": state["history"]}


def over(state: State) -> bool:
    """A sealed vote never ends by itself: it is over (and goes to the history) when the host ends it."""
    return False


def rounds(state: State) -> int:
    """Rounds played (the history's count): the questions revealed (an abandoned one is not counted)."""
    return len([h for h in state["history"] if not h.get("abandoned")])


def outcome(state: State) -> Result:
    """The one result shape: a sealed vote has no winner; per seat how many rounds it answered."""
    done = [h for h in state["history"] if not h.get("abandoned")]
    answered = [sum(1 for h in done for row in h["rows"] if row["seat"] == s and row["value"] is not None)
                for s in range(state["n"])]
    return Result(ranks=(1,) * state["n"], scores=(None,) * state["n"], winners=(),
                  breakdown=tuple({"rounds": a} for a in answered))


# ---------------------------------------------------------------- random play (tools and tests)

SAMPLE_ROUNDS = 6  # a sealed vote never ends by itself: a random game stops after this many reveals
SAMPLE_WEIGHTS = {"reveal": 0.2}


def _fill(state: State, seat: int | None, a: Action, r: random.Random) -> Action | None:
    q = state["question"]
    if a["type"] == "submit":
        value = r.choice(q["choices"]) if q["mode"] == "choice" else r.randint(q["min"], q["max"])
        return {"type": "submit", "value": value}
    if a["type"] == "ask":
        if not state["round"]["revealed"] and r.random() < 0.9:
            return None  # mostly let a round finish
        if r.random() < 0.5:
            return {"type": "ask", "mode": "choice", "question": "Q?", "choices": ["a", "b", "c"]}
        lo = r.randint(-5, 5)
        return {"type": "ask", "mode": "number", "question": "Bid", "min": lo, "max": lo + r.randint(1, 1000)}
    return a


def sample(state: State, seat: int | None, r: random.Random,
           legal_: list[Any] | None = None) -> Action | None:
    """A random legal concrete action: a value for submit, a new question for ask."""
    entries = legal(state, seat) if legal_ is None else legal_
    return sample_legal(entries, r, state=state, seat=seat, weights=SAMPLE_WEIGHTS, fill=_fill)


def sample_done(state: State) -> bool:
    """A random game has played enough (the host ends a sealed vote; it never ends by itself)."""
    return len([h for h in state["history"] if not h.get("abandoned")]) >= SAMPLE_ROUNDS
