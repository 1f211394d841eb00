"""LUTETIA – a vote on a proposal (pure; rules.py is the game): the sealed vote cards, their
reveal and declarations, the outcome and its card bookkeeping, then the after-vote tasks (fulfil
with a mod card, hand in a Roman plan, pass) until every seat has answered.
"""

from __future__ import annotations

from typing import Any

from companion.games import base, sealed
from companion.games.base import RuleError
from companion.games.lutetia.plans import (
    CARD_VALUE,
    CARDS,
    END,
    SIDES,
    _draw,
    _log,
    _mod_value,
    _name,
    _order,
    _plan_id,
    _use_mod,
    fulfil_options,
    is_roman,
    plan_area,
    plan_label,
    roman_options,
)

# ---------------------------------------------------------------------------------------------
# vote and reveal


def _choose(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    base.require(st["phase"] == "vote", "err.not_now")
    card = action.get("card")
    if not isinstance(card, str) or card not in CARDS:
        raise RuleError("lutetia.err.no_card")
    base.require(card in st["players"][seat]["hand"], "lutetia.err.card_played", card=card)
    side = action.get("side")
    if st["options"]["declare"] == "sealed":
        if card == "R":
            base.require(side is None, "lutetia.err.r_no_side")
        elif side not in SIDES:
            raise RuleError("lutetia.err.side")
    else:
        base.require(side is None, "lutetia.err.side_at_reveal")
    sealed.submit(st["vote"], seat, {"card": card, "side": side})


def _lock(st: dict[str, Any], seat: int) -> None:
    base.require(st["phase"] == "vote", "err.not_now")
    sealed.lock(st["vote"], seat)
    if sealed.all_locked(st["vote"]):
        _start_reveal(st)


def _force_reveal(st: dict[str, Any]) -> None:
    base.require(st["phase"] == "vote", "err.not_now")
    rnd = st["vote"]
    missing = [s for s in rnd["seats"] if not sealed.has_submitted(rnd, s)]
    if missing:
        raise RuleError("lutetia.err.not_all_chosen", names=", ".join(_name(st, s) for s in missing))
    _start_reveal(st)


def _start_reveal(st: dict[str, Any]) -> None:
    # Every seat plays a card (the rules have no vote without one): a card chosen but never locked
    # (the host's early reveal) counts, marked "not locked" in the reveal and its log line.
    sealed.reveal(st["vote"], "count")
    st["reveal"] = {"order": _order(st), "idx": 0, "entries": []}
    if st["options"]["declare"] == "sealed":
        for s in st["reveal"]["order"]:
            c = sealed.choice(st["vote"], s)
            st["reveal"]["entries"].append(_entry(st, s, c["card"], c["side"]))
            _log(st, _reveal_key(c["card"], c["side"], _unlocked(st, s)), name=_name(st, s), card=c["card"])
        st["reveal"]["idx"] = st["n"]
        _resolve(st)
    else:
        st["phase"] = "reveal"
        _advance_reveal(st)


def _unlocked(st: dict[str, Any], seat: int) -> bool:
    return seat not in st["vote"]["locked"]


def _entry(st: dict[str, Any], seat: int, card: str, side: str | None) -> dict[str, Any]:
    e = {"seat": seat, "card": card, "side": side}
    if _unlocked(st, seat):
        e["unlocked"] = True
    return e


def _reveal_key(card: str, side: str | None, unlocked: bool = False) -> str:
    key = "lutetia.log.reveal" if side is None else f"lutetia.log.reveal_{side}"
    return key + "_unlocked" if unlocked else key


def _first_m(st: dict[str, Any]) -> dict[str, Any] | None:
    for e in st["reveal"]["entries"]:
        if e["card"] == "M":
            return e
    return None


def _advance_reveal(st: dict[str, Any]) -> None:
    rv = st["reveal"]
    while rv["idx"] < st["n"]:
        s = rv["order"][rv["idx"]]
        if len(rv["entries"]) <= rv["idx"]:
            c = sealed.choice(st["vote"], s)
            rv["entries"].append(_entry(st, s, c["card"], None))
        e = rv["entries"][rv["idx"]]
        decided = _first_m(st)
        if e["card"] == "R" or (decided is not None and decided is not e):
            _log(st, _reveal_key(e["card"], None, bool(e.get("unlocked"))), name=_name(st, s), card=e["card"])
            rv["idx"] += 1
            continue
        return  # wait for this seat's declaration
    _resolve(st)


def reveal_turn(st: dict[str, Any]) -> int | None:
    if st["phase"] != "reveal":
        return None
    rv = st["reveal"]
    return rv["order"][rv["idx"]] if rv["idx"] < st["n"] else None


def _declare(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    base.require(st["phase"] == "reveal" and reveal_turn(st) == seat, "lutetia.err.not_your_turn")
    side = action.get("side")
    if side not in SIDES:
        raise RuleError("lutetia.err.side")
    rv = st["reveal"]
    e = rv["entries"][rv["idx"]]
    e["side"] = side
    _log(st, _reveal_key(e["card"], side, bool(e.get("unlocked"))), name=_name(st, seat), card=e["card"])
    rv["idx"] += 1
    _advance_reveal(st)


def _resolve(st: dict[str, Any]) -> None:
    """Outcome of a fully revealed vote, vote-card bookkeeping, then the after-vote tasks."""
    entries = st["reveal"]["entries"]
    players = st["players"]
    for e in entries:
        p = players[e["seat"]]
        p["hand"].remove(e["card"])
        p["played"].append(e["card"])
    first_m = _first_m(st)
    pro = sum(CARD_VALUE[e["card"]] for e in entries if e["side"] == "for")
    contra = sum(CARD_VALUE[e["card"]] for e in entries if e["side"] == "against")
    if first_m is not None:
        approved = first_m["side"] == "for"
        reason = {"key": f"lutetia.reason.m_{first_m['side']}",
                  "params": {"name": _name(st, first_m["seat"])}}
    elif pro == contra:
        approved = True
        reason = {"key": "lutetia.reason.tie", "params": {"pro": pro, "contra": contra}}
    else:
        approved = pro > contra
        reason = {"key": "lutetia.reason.count_for" if approved else "lutetia.reason.count_against",
                  "params": {"pro": pro, "contra": contra}}
    position_before = st["miraculix"]
    to = st["asterix"]
    st["outcome"] = {"approved": approved, "reason": reason, "to": to, "pro": pro, "contra": contra}
    _log(st, reason["key"], **reason["params"])
    # M cards: the first decides; a winning M stays played, its owner takes back all others;
    # every later (overruled) M: its owner takes back everything (this M too) and draws.
    for e in entries:
        if e["card"] != "M":
            continue
        p = players[e["seat"]]
        if e is first_m:
            p["hand"] += [c for c in p["played"] if c != "M"]
            p["played"] = ["M"]
            _log(st, "lutetia.log.m_wins", name=_name(st, e["seat"]))
        else:
            p["hand"] += p["played"]
            p["played"] = []
            _log(st, "lutetia.log.m_overruled", name=_name(st, e["seat"]))
            _draw(st, e["seat"])
    for s, p in enumerate(players):
        p["hand"].sort(key=CARDS.index)
        if not p["hand"]:
            p["hand"] = sorted(p["played"], key=CARDS.index)
            p["played"] = []
            _log(st, "lutetia.log.hand_back", name=_name(st, s))
    tasks: dict[str, list[str]] = {}
    st["holder"] = None
    if approved:
        st["miraculix"] = to
        _log(st, "lutetia.log.approved", space=to)
        pid = str(to)
        for s, p in enumerate(players):
            if to <= END and pid in p["plans"]:
                p["plans"].remove(pid)
                p["fulfilled"].append(pid)
                st["holder"] = s
                _log(st, "lutetia.log.fulfil", name=_name(st, s), plan=pid)
        for s in range(st["n"]):
            if s != st["holder"] or st["options"]["holder_may_also_modify"]:
                tasks.setdefault(str(s), []).append("modify")
    else:
        st["proposer"] = (st["proposer"] + 1) % st["n"]
        _log(st, "lutetia.log.rejected", name=_name(st, st["proposer"]))
    st["asterix"] = None
    st["roman_pos"] = st["miraculix"] if st["options"]["roman_position"] == "after_vote" else position_before
    for e in entries:
        if e["card"] == "R":
            tasks.setdefault(str(e["seat"]), []).append("roman")
    st["tasks"] = tasks
    st["phase"] = "after"
    _settle(st)


# ---------------------------------------------------------------------------------------------
# after the vote: explicit fulfil / Roman tasks


def _settle(st: dict[str, Any]) -> None:
    """Finish the after-vote step once every seat has answered its tasks.

    Who gets which task depends only on public facts (approved or not, the holder of plan P,
    who played R), never on anyone's plans or mod cards, and a task never vanishes by itself:
    a seat that cannot fulfil or hand in anything answers "pass" like one that chooses not to.
    So the phase, the waiting count and everyone's legal actions show nothing of the hands.
    """
    if st["phase"] != "after" or st["tasks"]:
        return
    st["roman_pos"] = None
    st["holder"] = None
    if st["outcome"] and st["outcome"]["approved"] and st["miraculix"] >= END:
        st["phase"] = "over"
        _log(st, "lutetia.log.over")
    else:
        st["phase"] = "propose"


def _task(st: dict[str, Any], seat: int, name: str) -> None:
    base.require(st["phase"] == "after" and name in st["tasks"].get(str(seat), []),
                 "lutetia.err.no_task")


def _done(st: dict[str, Any], seat: int, name: str) -> None:
    st["tasks"][str(seat)].remove(name)
    if not st["tasks"][str(seat)]:
        del st["tasks"][str(seat)]


def _fulfil(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    _task(st, seat, "modify")
    pid = _plan_id(action.get("plan"))
    v = base.check_int(action.get("value"), 1, 3)
    p = st["players"][seat]
    base.require(pid in p["plans"], "lutetia.err.not_your_plan")
    base.require(v in p["mods"], "lutetia.err.no_mod", value=v)
    ok = any(o["plan"] == pid and o["value"] == v for o in fulfil_options(st, seat))
    base.require(ok, "lutetia.err.mod_mismatch", plan=plan_label(pid), value=v, pos=st["miraculix"])
    _use_mod(st, seat, v)
    p["plans"].remove(pid)
    p["fulfilled"].append(pid)
    _log(st, "lutetia.log.fulfil_mod", name=_name(st, seat), plan=pid, value=v)
    _done(st, seat, "modify")
    _settle(st)


def _roman(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    _task(st, seat, "roman")
    pid = _plan_id(action.get("plan"))
    v = _mod_value(action.get("value", 0))
    p = st["players"][seat]
    base.require(is_roman(pid) and pid in p["plans"], "lutetia.err.not_your_roman")
    base.require(v == 0 or v in p["mods"], "lutetia.err.no_mod", value=v)
    a = plan_area(pid)
    ok = any(plan_area(o["plan"]) == a and o["value"] == v for o in roman_options(st, seat))
    base.require(ok, "lutetia.err.roman_mismatch", lo=10 * a - 9, hi=10 * a, pos=st["roman_pos"])
    if v:
        _use_mod(st, seat, v)
    p["plans"].remove(pid)
    p["fulfilled"].append(pid)
    if v:
        _log(st, "lutetia.log.roman_mod", name=_name(st, seat), lo=10 * a - 9, hi=10 * a, value=v)
    else:
        _log(st, "lutetia.log.roman", name=_name(st, seat), lo=10 * a - 9, hi=10 * a)
    _done(st, seat, "roman")
    _settle(st)


def _pass(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    task = action.get("task")
    if task not in ("modify", "roman"):
        raise RuleError("lutetia.err.no_task")
    _task(st, seat, task)
    _done(st, seat, task)
    if task == "roman":
        _log(st, "lutetia.log.roman_pass", name=_name(st, seat))
        _draw(st, seat)
    _settle(st)


def _skip(st: dict[str, Any]) -> None:
    base.require(st["phase"] == "after", "err.not_now")
    for s in _order(st):
        tasks = st["tasks"].pop(str(s), [])
        if "roman" in tasks:
            _log(st, "lutetia.log.roman_pass", name=_name(st, s))
            _draw(st, s)
    _log(st, "lutetia.log.skipped")
    _settle(st)
