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

from companion.games.base import RuleError


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


def reveal(rnd: dict[str, Any]) -> None:
    """Reveal now (all locked, or forced by the host: seats without a choice count as None)."""
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    rnd["revealed"] = True


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
    return out


def private(rnd: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The public part plus this seat's own choice."""
    out = public(rnd)
    if seat is not None and seat in rnd["seats"]:
        out["mine"] = rnd["choices"].get(str(seat))
        out["my_locked"] = seat in rnd["locked"]
    return out
