"""LUTETIA – the pure rules (rules page: shared/rules/lutetia.md, source: seed 000_6765f10833ce661a).

The physical table keeps the board and figures; this module holds the vote cards (secret choice,
played/hand tracking, M and R), the plan cards, the modification ("Idefix") cards, the track
arithmetic and the scorer.

This module is the game (setup, the actions' dispatch, legal, view, random play); the cards, plans
and track are in plans.py, a vote and what follows it in vote.py, the result in scoring.py.

Phases
    enter    (deal=physical only) every seat enters the plans and mod cards it drew
    propose  the proposer moves Asterix 1..5 (first proposal of the game: 1..3) beyond Miraculix;
             before that they may discard dead plans (each one draws a mod card)
    vote     sealed round: every seat chooses one vote card (sealed declare: with for/against)
    reveal   (declare=at_reveal) in seat order from the start player each card is shown, then its
             player declares for/against (R never declares; after a first M nobody needs to)
    after    explicit tasks after the outcome: "modify" (approved: every seat but the holder of
             plan P may fulfil one plan P±v with one mod card) and "roman" (R card: hand in a
             Roman plan); each task is done or passed. Who gets a task depends only on public
             facts, never on the cards: a seat that cannot fulfil anything still answers "pass"
             (its phone says so), so the table waits the same whatever the hands; the host may
             skip the rest
    over     Miraculix reached 50+ and the last plans were fulfilled

Host actions (seat None): "reveal" (everyone has chosen a vote card; missing locks are waived)
and "skip" (after the vote: every open task counts as passed).

Plan ids: numbers "1".."50"; Roman plans "R<area><a|b>" ("R3a" = the first blue Roman).

Options
    deal                    digital | physical (players enter plans/mod cards; draws are reported)
    declare                 at_reveal | sealed
    holder_may_also_modify  bool, default false
    roman_position          after_vote | before_vote
    mod_1, mod_2, mod_3     how many mod cards of value 1/2/3 (0..30, default 12 each)
    areas                   colour preset for the five areas "c1-c2-blue-red-c5" (3 and 4 are
                            blue and red in every preset, as in the source)

Physical deal: the enter form and draw reports offer every card / value of the deck, never the
pool left by the others (that would reveal their hands); a conflicting entry is refused on submit.

Decisions beyond the rules page (documented in the report):
    - a number plan is dead when no later approval can reach it: number + max_mod <= Miraculix
      (max_mod = 3 with the default deck); a Roman when 10*area + max_mod < Miraculix.
    - positions 51..55 (virtual track) belong to the last area for Roman hand-ins.
    - after the first M is revealed, later players' cards are shown without a declaration.
    - the start player (reveal order) is seat 0.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import base, sealed
from companion.games.base import Option, RuleError, clone
from companion.games.lutetia.messages import MESSAGES
from companion.games.lutetia.plans import (
    ALL_PLANS,
    AREA_PRESETS,
    AREAS,
    CARD_VALUE,
    CARDS,
    COLOURS,
    END,
    MOD_VALUES,
    SIDES,
    _draw,
    _is_physical,
    _log,
    _name,
    _owed_total,
    _plan_id,
    _plan_sort_key,
    _seat,
    area_info,
    dead_plans,
    deck_values,
    fulfil_options,
    is_dead,
    is_roman,
    plan_area,
    plan_label,
    propose_targets,
    roman_options,
)
from companion.games.lutetia.scoring import outcome, result, rounds
from companion.games.lutetia.vote import (
    _choose,
    _declare,
    _force_reveal,
    _fulfil,
    _lock,
    _pass,
    _roman,
    _settle,
    _skip,
    reveal_turn,
)

__all__ = ["MESSAGES", "ID", "NAME", "MIN_SEATS", "MAX_SEATS", "OPTIONS", "outcome", "rounds", "sample",
           "setup", "legal", "apply", "view", "result",
           # the cards and the track (plans.py), read by the screens, printing and tests
           "CARD_VALUE", "COLOURS"]

ID = "lutetia"
NAME = "lutetia.name"
MIN_SEATS = 2
MAX_SEATS = 6

OPTIONS: list[Option] = [
    Option("deal", "lutetia.opt.deal", "choice", "digital", choices=("digital", "physical"),
           choice_labels=("lutetia.opt.deal.digital", "lutetia.opt.deal.physical"),
           help="lutetia.opt.deal.help"),
    Option("declare", "lutetia.opt.declare", "choice", "at_reveal", choices=("at_reveal", "sealed"),
           choice_labels=("lutetia.opt.declare.at_reveal", "lutetia.opt.declare.sealed"),
           help="lutetia.opt.declare.help"),
    Option("holder_may_also_modify", "lutetia.opt.holder_may_also_modify", "bool", False,
           help="lutetia.opt.holder_may_also_modify.help"),
    Option("roman_position", "lutetia.opt.roman_position", "choice", "after_vote",
           choices=("after_vote", "before_vote"),
           choice_labels=("lutetia.opt.roman_position.after_vote",
                          "lutetia.opt.roman_position.before_vote"),
           help="lutetia.opt.roman_position.help"),
    Option("mod_1", "lutetia.opt.mod_1", "int", 12, min=0, max=30, help="lutetia.opt.mod.help"),
    Option("mod_2", "lutetia.opt.mod_2", "int", 12, min=0, max=30, help="lutetia.opt.mod.help"),
    Option("mod_3", "lutetia.opt.mod_3", "int", 12, min=0, max=30, help="lutetia.opt.mod.help"),
    Option("areas", "lutetia.opt.areas", "choice", AREA_PRESETS[0], choices=AREA_PRESETS,
           choice_labels=tuple(f"lutetia.opt.areas.{p}" for p in AREA_PRESETS),
           help="lutetia.opt.areas.help"),
]

# ---------------------------------------------------------------------------------------------
# setup


def setup(options: dict[str, Any], seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    opts = base.resolve_options(OPTIONS, options)
    n = len(seats)
    if n < MIN_SEATS or n > MAX_SEATS:
        raise RuleError("err.range", lo=MIN_SEATS, hi=MAX_SEATS)
    names = opts["areas"].split("-")
    if len(names) != AREAS or names[2] != "blue" or names[3] != "red":
        raise RuleError("err.option", option="areas")
    counts = {str(v): opts[f"mod_{v}"] for v in MOD_VALUES}
    deck = [v for v in MOD_VALUES for _ in range(counts[str(v)])]
    st: dict[str, Any] = {
        "game": ID,
        "seed": seed,
        "rng_n": 0,
        "options": opts,
        "n": n,
        "names": [str(s.get("name", f"#{i + 1}")) for i, s in enumerate(seats)],
        "colours": [str(s.get("colour", "")) for i, s in enumerate(seats)],
        "phase": "propose",
        "start": 0,
        "proposer": 0,
        "proposals": 0,
        "votes": 0,
        "miraculix": 0,
        "asterix": None,
        "players": [
            {"plans": [], "fulfilled": [], "dead": [], "mods": [], "owed": 0,
             "hand": list(CARDS), "played": [], "entered": True}
            for _ in range(n)
        ],
        "out": [],
        "mod": {"pile": [], "discard": [], "counts": counts},
        "vote": None,
        "reveal": None,
        "outcome": None,
        "tasks": {},
        "roman_pos": None,
        "holder": None,
        "start_mods": [],
        "log": [],
    }
    # each seat gets 2 mod cards while the deck lasts
    left = len(deck)
    for _ in range(n):
        k = min(2, left)
        st["start_mods"].append(k)
        left -= k
    if opts["deal"] == "digital":
        r = base.rng(st, "plans")
        for a in range(1, AREAS + 1):
            pile = [p for p in ALL_PLANS if plan_area(p) == a]
            r.shuffle(pile)
            for s in range(n):
                st["players"][s]["plans"] += [pile.pop(), pile.pop()]
            st["out"] += pile
        base.rng(st, "mods").shuffle(deck)
        st["mod"]["pile"] = deck
        for s in range(n):
            for _ in range(st["start_mods"][s]):
                st["players"][s]["mods"].append(st["mod"]["pile"].pop())
        for p in st["players"]:
            p["plans"].sort(key=_plan_sort_key)
            p["mods"].sort()
    else:
        st["phase"] = "enter"
        st["out"] = list(ALL_PLANS)
        st["mod"]["pile"] = sorted(deck)
        for p in st["players"]:
            p["entered"] = False
    _log(st, "lutetia.log.start", start=st["names"][0])
    return st


# ---------------------------------------------------------------------------------------------
# physical deal: entering what was drawn


def _normalise_entry(st: dict[str, Any], seat: int, plans: Any, mods: Any) -> tuple[list[str], list[int]]:
    if not isinstance(plans, list) or len(plans) != 2 * AREAS:
        raise RuleError("lutetia.err.enter_count", n=2 * AREAS)
    own = st["players"][seat]
    pool = set(st["out"]) | set(own["plans"])
    chosen: list[str] = []
    for item in plans:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            raise RuleError("lutetia.err.no_plan")
        s = str(item).strip().upper() if isinstance(item, str) else str(item)
        if s.startswith("R") and len(s) in (2, 3) and s[1] in "12345" and s[2:] in ("", "A", "B"):
            # the two Roman plans of an area are the same card: "R3", "R3a", "R3b" take a free one
            free = [p for p in (f"{s[:2]}a", f"{s[:2]}b") if p in pool and p not in chosen]
            if not free:
                raise RuleError("lutetia.err.plan_taken", plan=plan_label(f"{s[:2]}a"))
            chosen.append(free[0])
            continue
        pid = _plan_id(s)
        if pid not in pool or pid in chosen:
            raise RuleError("lutetia.err.plan_taken", plan=plan_label(pid))
        chosen.append(pid)
    for a in range(1, AREAS + 1):
        if sum(1 for p in chosen if plan_area(p) == a) != 2:
            lo, hi = 10 * a - 9, 10 * a
            raise RuleError("lutetia.err.enter_area", lo=lo, hi=hi)
    expected = st["start_mods"][seat]
    if not isinstance(mods, list) or len(mods) != expected:
        raise RuleError("lutetia.err.enter_mods", n=expected)
    pile = list(st["mod"]["pile"]) + (list(own["mods"]) if own["entered"] else [])
    vals: list[int] = []
    for m in mods:
        v = base.check_int(m, 1, 3)
        if v not in pile:
            raise RuleError("lutetia.err.mod_not_in_pile", value=v)
        pile.remove(v)
        vals.append(v)
    return chosen, vals


def _enter(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    base.require(st["phase"] == "enter", "err.not_now")
    plans, mods = _normalise_entry(st, seat, action.get("plans"), action.get("mods"))
    p = st["players"][seat]
    if p["entered"]:  # a correction: give the old entry back first
        st["out"] += p["plans"]
        st["mod"]["pile"] += p["mods"]
    for pid in plans:
        st["out"].remove(pid)
    for v in mods:
        st["mod"]["pile"].remove(v)
    st["out"].sort(key=_plan_sort_key)
    st["mod"]["pile"].sort()
    p["plans"] = sorted(plans, key=_plan_sort_key)
    p["mods"] = sorted(mods)
    if not p["entered"]:
        _log(st, "lutetia.log.entered", name=_name(st, seat))
    p["entered"] = True
    if all(q["entered"] for q in st["players"]):
        st["phase"] = "propose"
        _log(st, "lutetia.log.all_entered")


def _report_draw(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    p = st["players"][seat]
    base.require(_is_physical(st) and p["owed"] > 0, "lutetia.err.no_draw_owed")
    v = base.check_int(action.get("value"), 1, 3)
    base.require(v in st["mod"]["pile"], "lutetia.err.mod_not_in_pile", value=v)
    st["mod"]["pile"].remove(v)
    p["owed"] -= 1
    p["mods"].append(v)
    p["mods"].sort()
    _settle(st)


# ---------------------------------------------------------------------------------------------
# propose


def _discard_dead(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    base.require(st["phase"] == "propose" and st["proposer"] == seat, "lutetia.err.not_your_turn")
    pid = _plan_id(action.get("plan"))
    p = st["players"][seat]
    base.require(pid in p["plans"], "lutetia.err.not_your_plan")
    base.require(is_dead(st, pid), "lutetia.err.not_dead", plan=plan_label(pid))
    p["plans"].remove(pid)
    p["dead"].append(pid)
    _log(st, "lutetia.log.dead", name=_name(st, seat))
    _draw(st, seat)


def _propose(st: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
    base.require(st["phase"] == "propose" and st["proposer"] == seat, "lutetia.err.not_your_turn")
    targets = propose_targets(st)
    to = base.check_int(action.get("to"), targets[0], targets[-1], "lutetia.err.propose_range")
    st["asterix"] = to
    st["proposals"] += 1
    st["votes"] += 1
    st["phase"] = "vote"
    st["vote"] = sealed.new_round(list(range(st["n"])))
    st["reveal"] = None
    st["outcome"] = None
    _log(st, "lutetia.log.propose", name=_name(st, seat), space=to, steps=to - st["miraculix"])


# ---------------------------------------------------------------------------------------------
# the protocol


SEAT_ACTIONS = {
    "enter_hand": _enter,
    "report_draw": _report_draw,
    "discard_dead": _discard_dead,
    "propose": _propose,
    "choose": _choose,
    "declare": _declare,
    "fulfil": _fulfil,
    "roman": _roman,
    "pass": _pass,
}


def apply(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise RuleError("err.unknown_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in (*SEAT_ACTIONS, "lock", "reveal", "skip"):
        raise RuleError("err.unknown_action")
    if state["phase"] == "over" and kind != "report_draw":
        raise RuleError("err.game_over")
    st = clone(state, append_only=("log",))
    if kind in ("reveal", "skip"):
        base.require(action.get("seat") is None, "err.host_only")
        if kind == "reveal":
            _force_reveal(st)
        else:
            _skip(st)
        return st
    seat = _seat(action, st)
    if kind == "lock":
        _lock(st, seat)
    else:
        SEAT_ACTIONS[kind](st, seat, action)
    return st


def legal(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    st = state
    ph = st["phase"]
    out: list[dict[str, Any]] = []
    if seat is None:
        if ph == "vote" and all(sealed.has_submitted(st["vote"], s) for s in range(st["n"])):
            out.append({"type": "reveal"})
        if ph == "after":
            out.append({"type": "skip"})
        return out
    if not (isinstance(seat, int) and 0 <= seat < st["n"]):
        return out
    p = st["players"][seat]
    if p["owed"] > 0:
        out += [{"type": "report_draw", "value": v} for v in deck_values(st)]
    if ph == "enter" and not p["entered"]:
        out.append({"type": "enter_hand"})  # a form: the seat adds "plans" (10) and "mods"
    elif ph == "propose" and st["proposer"] == seat:
        out += [{"type": "discard_dead", "plan": pid} for pid in dead_plans(st, seat)]
        out += [{"type": "propose", "to": t} for t in propose_targets(st)]
    elif ph == "vote" and seat not in st["vote"]["locked"]:
        for c in p["hand"]:
            if st["options"]["declare"] == "sealed" and c != "R":
                out += [{"type": "choose", "card": c, "side": s} for s in SIDES]
            else:
                out.append({"type": "choose", "card": c})
        if sealed.has_submitted(st["vote"], seat):
            out.append({"type": "lock"})
    elif ph == "reveal" and reveal_turn(st) == seat:
        out += [{"type": "declare", "side": s} for s in SIDES]
    elif ph == "after":
        tasks = st["tasks"].get(str(seat), [])
        if "modify" in tasks:
            out += [{"type": "fulfil", "plan": o["plan"], "value": o["value"]}
                    for o in fulfil_options(st, seat)]
            out.append({"type": "pass", "task": "modify"})
        if "roman" in tasks:
            out += [{"type": "roman", "plan": o["plan"], "value": o["value"]}
                    for o in roman_options(st, seat)]
            out.append({"type": "pass", "task": "roman"})
    return out


SEALED_CHOICES = frozenset({"choose", "lock"})  # a seat's choices in a vote (undo of a reveal clears them)


def sealed_round(state: dict[str, Any]) -> tuple[Any, dict[str, Any]] | None:
    """The vote on the current proposal (open or revealed), keyed by the proposal's number."""
    return None if state["vote"] is None else (state["votes"], state["vote"])


def _turn(st: dict[str, Any]) -> int | None:
    if st["phase"] == "propose":
        return st["proposer"]
    if st["phase"] == "reveal":
        return reveal_turn(st)
    return None


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    st = state
    ph = st["phase"]
    seats_pub = []
    for s, p in enumerate(st["players"]):
        seats_pub.append({
            "seat": s,
            "name": st["names"][s],
            "colour": st["colours"][s],
            "fulfilled": sorted(p["fulfilled"], key=_plan_sort_key),
            "fulfilled_labels": [plan_label(x) for x in sorted(p["fulfilled"], key=_plan_sort_key)],
            "fulfilled_count": len(p["fulfilled"]),
            "open_count": len(p["plans"]),
            "dead_count": len(p["dead"]),
            "mods_count": len(p["mods"]) + p["owed"],
            "played": list(p["played"]),
            "hand_count": len(p["hand"]),
            "entered": p["entered"],
        })
    v: dict[str, Any] = {
        "game": ID,
        "phase": ph,
        "turn": _turn(st),
        "proposer": st["proposer"],
        "start": st["start"],
        "miraculix": st["miraculix"],
        "asterix": st["asterix"],
        "end": END,
        "first_proposal": st["proposals"] == 0,
        "areas": area_info(st),
        "options": dict(st["options"]),
        "seats": seats_pub,
        "mod_pile": len(st["mod"]["pile"]) - _owed_total(st),
        "mod_discard": len(st["mod"]["discard"]),
        "vote": None,
        "reveals": [],
        "over": ph == "over",
        "outcome": st["outcome"],
        "waiting": len(st["tasks"]) if ph == "after" else 0,
        # who still answers the after-vote step (the tasks depend on public facts only)
        "pending": sorted(int(k) for k in st["tasks"]) if ph == "after" else [],
        "roman_pos": st["roman_pos"],
        "log": [{"key": e["key"], "params": dict(e["params"])} for e in st["log"]],
    }
    if ph == "vote":
        pub = sealed.public(st["vote"])
        v["vote"] = {"chosen": pub["submitted"], "locked": pub["locked"]}
        v["submitted"], v["locked"] = pub["submitted"], pub["locked"]  # the platform's seat list
    elif ph == "enter":
        done = [s for s, p in enumerate(st["players"]) if p["entered"]]
        v["submitted"], v["locked"] = done, done
    if st["reveal"] is not None:
        rv = st["reveal"]
        v["reveals"] = [
            {"seat": e["seat"], "name": st["names"][e["seat"]], "card": e["card"], "side": e["side"],
             "pending": ph == "reveal" and i == rv["idx"],
             **({"unlocked": True} if e.get("unlocked") else {})}  # chosen, never locked: marked
            for i, e in enumerate(rv["entries"])
        ]
    if ph == "propose":
        v["targets"] = propose_targets(st)
    if ph == "over":
        v["result"] = result(st)
    if seat is None or not (isinstance(seat, int) and 0 <= seat < st["n"]):
        v["legal"] = legal(st, None)
        return v
    p = st["players"][seat]
    groups = []
    dead_list = dead_plans(st, seat)
    dead_now = set(dead_list)
    for info in area_info(st):
        a = info["area"]
        plans = []
        for pid, status in ([(x, "open") for x in p["plans"]] + [(x, "fulfilled") for x in p["fulfilled"]]
                            + [(x, "dead") for x in p["dead"]]):
            if plan_area(pid) == a:
                plans.append({"id": pid, "label": plan_label(pid), "roman": is_roman(pid),
                              "status": status, "discardable": pid in dead_now})
        plans.sort(key=lambda d: _plan_sort_key(d["id"]))
        groups.append({**info, "plans": plans})
    mine: dict[str, Any] = {
        "seat": seat,
        "plans": groups,
        "mods": sorted(p["mods"]),
        "owed": p["owed"],
        "hand": list(p["hand"]),
        "played": list(p["played"]),
        "chosen": None,
        "locked": False,
        "tasks": list(st["tasks"].get(str(seat), [])) if ph == "after" else [],
        "fulfil_options": fulfil_options(st, seat) if ph == "after" else [],
        "roman_options": roman_options(st, seat) if ph == "after" else [],
        "dead_plans": dead_list,
        "entered": p["entered"],
    }
    if ph in ("vote", "reveal"):
        mine["chosen"] = sealed.choice(st["vote"], seat)
        mine["locked"] = ph == "reveal" or seat in st["vote"]["locked"]
    if ph == "enter":
        # every card is offered: which ones the others entered is their secret
        mine["available_plans"] = list(ALL_PLANS)
        mine["available_by_area"] = [
            {**info, "plans": [{"id": x, "label": plan_label(x)} for x in ALL_PLANS if plan_area(x) == info["area"]]}
            for info in area_info(st)]
        mine["available_mods"] = deck_values(st)
        mine["start_mods"] = st["start_mods"][seat]
    if p["owed"]:
        mine["report_values"] = deck_values(st)
    v["me"] = mine
    v["legal"] = legal(st, seat)
    return v


# ---------------------------------------------------------------------------------------------
# random play (tools and tests)


def _fill(st: dict[str, Any], seat: int | None, a: dict[str, Any], r: random.Random) -> dict[str, Any] | None:
    """The physical enter form gets real cards from the pool; a draw report must name a value
    still in the pile (legal offers every deck value)."""
    if a["type"] == "enter_hand" and seat is not None:
        pool = sorted(set(st["out"]) | set(st["players"][seat]["plans"]), key=_plan_sort_key)
        plans = [x for area in range(1, 6) for x in [p for p in pool if plan_area(p) == area][:2]]
        return {**a, "plans": plans, "mods": sorted(st["mod"]["pile"])[: st["start_mods"][seat]]}
    if a["type"] == "report_draw" and a["value"] not in st["mod"]["pile"]:
        return None
    return a


def sample(state: dict[str, Any], seat: int | None, r: random.Random,
           legal_: list[Any] | None = None) -> dict[str, Any] | None:
    """A random legal concrete action; once a seat may lock, it does not re-choose (that would
    make games endless)."""
    acts = legal(state, seat) if legal_ is None else legal_
    if any(a["type"] == "lock" for a in acts):
        acts = [a for a in acts if a["type"] != "choose"]
    return base.sample_legal(acts, r, state=state, seat=seat, fill=_fill)
