"""The sealed round: every seat submits secretly, may change until it locks, one reveal.

Pure functions on a plain dict, shared by every game (Lutetia's vote, Lutèce's picks and
bribes, a Quo Vadis secret ballot, the generic sealed vote). The round dict lives inside the
game state:

    {"seats": [0, 1, 2], "choices": {"0": value, ...}, "locked": [0, ...], "revealed": False}

Keys of "choices" are strings so the state stays JSON round-trippable.
`public()` is the only view other seats and the host get: who has submitted / locked, never what.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Option, RuleError


def new_round(seats: list[int]) -> dict[str, Any]:
    return {"seats": list(seats), "choices": {}, "locked": [], "revealed": False}


def _check_seat(rnd: dict[str, Any], seat: int | None) -> None:
    if seat is None or seat not in rnd["seats"]:
        raise RuleError("err.not_in_round")


def submit(rnd: dict[str, Any], seat: int | None, value: Any) -> None:
    """Record (or change) a seat's choice. Mutates rnd: call on a cloned state."""
    _check_seat(rnd, seat)
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    if seat in rnd["locked"]:
        raise RuleError("err.already_locked")
    rnd["choices"][str(seat)] = value


def lock(rnd: dict[str, Any], seat: int | None) -> None:
    _check_seat(rnd, seat)
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    if seat in rnd["locked"]:
        raise RuleError("err.already_locked")
    if str(seat) not in rnd["choices"]:
        raise RuleError("err.nothing_to_lock")
    rnd["locked"].append(seat)


def unlock_all(rnd: dict[str, Any]) -> None:
    rnd["locked"] = []


def all_locked(rnd: dict[str, Any]) -> bool:
    return set(rnd["locked"]) >= set(rnd["seats"])


# An early reveal (the host's "Reveal anyway" before every seat has locked): a choice submitted
# but not locked is half made. The table option "unlocked" says what it is worth: "drop" (the
# default: not counted, the seat counts as one that never chose) or "count" (counted, and marked
# "not locked" wherever it is shown: `unlocked(rnd)`). A table created before the option has none
# in its log: it replays as it always did, counted ("count").
UNLOCKED_OPTION = Option("unlocked", "opt.unlocked", "choice", "drop", choices=("drop", "count"),
                         choice_labels=("opt.unlocked.drop", "opt.unlocked.count"), help="opt.unlocked.help")
UNLOCKED_BEFORE = "count"  # what a table whose options do not name it did


def unlocked_rule(options: dict[str, Any] | None) -> str:
    """The table's rule for unlocked choices at an early reveal ("drop" / "count")."""
    rule = (options or {}).get("unlocked", UNLOCKED_BEFORE)
    return rule if rule in ("drop", "count") else UNLOCKED_BEFORE


def reveal(rnd: dict[str, Any], unlocked: str = UNLOCKED_BEFORE) -> None:
    """Reveal now (all locked, or forced by the host: seats without a choice count as None).
    unlocked="drop": a choice not locked is taken out first (that seat counts as without one)."""
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    if unlocked == "drop":
        for s in [k for k in rnd["choices"] if int(k) not in rnd["locked"]]:
            del rnd["choices"][s]
    rnd["revealed"] = True


def unlocked(rnd: dict[str, Any]) -> list[int]:
    """Seats whose choice stands but was never locked (after an early reveal that counts them)."""
    return [s for s in rnd["seats"] if str(s) in rnd["choices"] and s not in rnd["locked"]]


def choice(rnd: dict[str, Any], seat: int) -> Any:
    return rnd["choices"].get(str(seat))


def has_submitted(rnd: dict[str, Any], seat: int) -> bool:
    return str(seat) in rnd["choices"]


def public(rnd: dict[str, Any]) -> dict[str, Any]:
    """What everyone may see: per seat submitted/locked; values only after the reveal."""
    out: dict[str, Any] = {
        "seats": list(rnd["seats"]),
        "submitted": [s for s in rnd["seats"] if str(s) in rnd["choices"]],
        "locked": list(rnd["locked"]),
        "revealed": rnd["revealed"],
    }
    if rnd["revealed"]:
        out["choices"] = {str(s): rnd["choices"].get(str(s)) for s in rnd["seats"]}
        out["unlocked"] = unlocked(rnd)  # counted, but not locked: shown "not locked"
    return out


def private(rnd: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The public part plus this seat's own choice."""
    out = public(rnd)
    if seat is not None and seat in rnd["seats"]:
        out["mine"] = rnd["choices"].get(str(seat))
        out["my_locked"] = seat in rnd["locked"]
    return out


# ---------------------------------------------------------------- undo of a reveal
#
# A reveal cannot be un-seen. The table's undo of the action that revealed a round (the host's
# forced reveal, or the last lock) therefore reopens the round with EVERY choice of it cleared:
# the effective game actions lose the reveal and every choice action of that round (other actions
# stay), so everyone chooses again. A game says where its sealed round is and which of its
# actions are choices (`sealed_round(state)` and `SEALED_CHOICES` in its rules; GameSpec.undo_reveal).

Found = tuple[Any, dict[str, Any]]  # (key telling rounds apart, the round dict)


def is_open(found: Found | None) -> bool:
    return found is not None and not found[1]["revealed"]


def revealed_by(before: Found | None, after: Found | None) -> bool:
    """The action between these two states revealed a round: it was open before, and after it is
    revealed (same key) or gone (a game that drops a revealed round). An open round replaced by a
    new one (a question abandoned unrevealed) is no reveal: nobody saw its choices."""
    if not is_open(before):
        return False
    assert before is not None
    if after is None:
        return True
    return bool(after[0] == before[0] and after[1]["revealed"])


def round_choices(states: list[Any], actions: list[dict[str, Any]], find: Any,
                  choices: frozenset[str] | set[str]) -> list[int]:
    """Indices of the choice actions of the round open before the last action, which revealed it.

    states[i] is the state before actions[i]. Walking back from the reveal, an action belongs to
    the round while the round (same key) was open before it; of those, the seats' actions whose
    type is in `choices` are its choices (submit, change, bribe, lock)."""
    last = len(actions) - 1
    key = find(states[last])[0]
    out = []
    i = last - 1
    while i >= 0:
        f = find(states[i])
        if not is_open(f) or f[0] != key:
            break
        a = actions[i]
        if a.get("seat") is not None and a.get("type") in choices:
            out.append(i)
        i -= 1
    return sorted(out)
