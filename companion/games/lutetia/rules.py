"""LUTETIA – the pure rules (rules page: shared/rules/lutetia.md, source: seed 000_6765f10833ce661a).

The physical table keeps the board and figures; this module holds the vote cards (secret choice,
played/hand tracking, M and R), the plan cards, the modification ("Idefix") cards, the track
arithmetic and the scorer.

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

__all__ = ["MESSAGES", "ID", "NAME", "MIN_SEATS", "MAX_SEATS", "OPTIONS", "outcome", "rounds", "sample",
           "setup", "legal", "apply", "view", "result"]

ID = "lutetia"
NAME = "lutetia.name"
MIN_SEATS = 2
MAX_SEATS = 6

CARDS = ["10", "20", "30", "70", "M", "R"]
CARD_VALUE = {"10": 10, "20": 20, "30": 30, "70": 70, "M": 0, "R": 0}
SIDES = ("for", "against")
MOD_VALUES = (1, 2, 3)
END = 50
TRACK_MAX = 55
AREAS = 5

COLOURS = {
    "green": "#3a9a3a",
    "yellow": "#e0c020",
    "blue": "#2a64c8",
    "red": "#c83232",
    "purple": "#8a3ab0",
    "orange": "#e08020",
    "grey": "#888888",
    "brown": "#8a5a2a",
}
AREA_PRESETS = (
    "green-yellow-blue-red-purple",
    "yellow-green-blue-red-purple",
    "orange-green-blue-red-grey",
    "brown-green-blue-red-yellow",
)

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
# plans and track


def all_plans() -> list[str]:
    out: list[str] = []
    for a in range(1, AREAS + 1):
        out += [str(n) for n in range(10 * a - 9, 10 * a + 1)]
        out += [f"R{a}a", f"R{a}b"]
    return out


ALL_PLANS = all_plans()
_PLAN_SET = set(ALL_PLANS)


def is_roman(pid: str) -> bool:
    return pid.startswith("R")


def plan_area(pid: str) -> int:
    if is_roman(pid):
        return int(pid[1])
    return (int(pid) - 1) // 10 + 1


def pos_area(q: int) -> int | None:
    """Area of a track space; 51..55 (virtual) count to the last area; 0 and below: none."""
    if q < 1 or q > TRACK_MAX:
        return None
    return min(AREAS, (q - 1) // 10 + 1)


def _plan_sort_key(pid: str) -> tuple[int, int, str]:
    return (plan_area(pid), 1 if is_roman(pid) else 0, pid if is_roman(pid) else f"{int(pid):03d}")


def plan_label(pid: str) -> str:
    """What a card shows: its number, or "R 21–30" for a Roman plan of that area."""
    if is_roman(pid):
        a = plan_area(pid)
        return f"R {10 * a - 9}–{10 * a}"
    return pid


def max_mod(st: dict[str, Any]) -> int:
    counts = st["mod"]["counts"]
    vals = [v for v in MOD_VALUES if counts[str(v)] > 0]
    return max(vals) if vals else 0


def is_dead(st: dict[str, Any], pid: str) -> bool:
    """No later approval or Roman hand-in can still reach this plan."""
    m, k = st["miraculix"], max_mod(st)
    if is_roman(pid):
        return 10 * plan_area(pid) + k < m
    return int(pid) + k <= m


def area_info(st: dict[str, Any]) -> list[dict[str, Any]]:
    names = st["options"]["areas"].split("-")
    return [
        {"area": a, "lo": 10 * a - 9, "hi": 10 * a, "colour": names[a - 1],
         "colour_key": f"lutetia.colour.{names[a - 1]}", "hex": COLOURS.get(names[a - 1], "#888888")}
        for a in range(1, AREAS + 1)
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
# small helpers


def _log(st: dict[str, Any], key: str, **params: Any) -> None:
    st["log"].append({"key": key, "params": params})


def _name(st: dict[str, Any], seat: int) -> str:
    return st["names"][seat]


def _order(st: dict[str, Any]) -> list[int]:
    """Reveal order: seat order beginning with the start player."""
    return [(st["start"] + i) % st["n"] for i in range(st["n"])]


def _is_physical(st: dict[str, Any]) -> bool:
    return st["options"]["deal"] == "physical"


def _owed_total(st: dict[str, Any]) -> int:
    return sum(p["owed"] for p in st["players"])


def _draw(st: dict[str, Any], seat: int) -> None:
    """Draw one mod card (reshuffle the discard pile when the pile is empty; none if both are)."""
    mod = st["mod"]
    if len(mod["pile"]) - _owed_total(st) <= 0 and mod["discard"]:
        mod["pile"] += mod["discard"]
        mod["discard"] = []
        if _is_physical(st):
            mod["pile"].sort()
        else:
            base.rng(st, "reshuffle").shuffle(mod["pile"])
        _log(st, "lutetia.log.reshuffle")
    if len(mod["pile"]) - _owed_total(st) <= 0:
        _log(st, "lutetia.log.no_card", name=_name(st, seat))
        return
    p = st["players"][seat]
    if _is_physical(st):
        p["owed"] += 1
    else:
        p["mods"].append(mod["pile"].pop())
        p["mods"].sort()
    _log(st, "lutetia.log.draw", name=_name(st, seat))


def _use_mod(st: dict[str, Any], seat: int, value: int) -> None:
    p = st["players"][seat]
    p["mods"].remove(value)
    st["mod"]["discard"].append(value)


def _seat(action: dict[str, Any], st: dict[str, Any]) -> int:
    seat = action.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st["n"]:
        raise RuleError("err.seat_only")
    return seat


def _mod_value(value: Any) -> int:
    return base.check_int(value, 0, 3)


def _plan_id(value: Any) -> str:
    if isinstance(value, bool):
        raise RuleError("lutetia.err.no_plan")
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str) or value not in _PLAN_SET:
        raise RuleError("lutetia.err.no_plan")
    return value


# ---------------------------------------------------------------------------------------------
# what a seat can do with its plans now


def fulfil_options(st: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Modify task: open number plans equal to P ± v for a mod card v this seat holds."""
    if "modify" not in st["tasks"].get(str(seat), []):
        return []
    p = st["players"][seat]
    pos = st["miraculix"]
    out = []
    for v in sorted(set(p["mods"])):
        for target in (pos - v, pos + v):
            pid = str(target)
            if 1 <= target <= END and pid in p["plans"]:
                out.append({"plan": pid, "value": v, "target": target})
    out.sort(key=lambda o: (int(o["plan"]), o["value"]))
    return out


def roman_options(st: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Roman task: Roman plans whose area is that of the position (value 0) or of position ± v."""
    if "roman" not in st["tasks"].get(str(seat), []):
        return []
    p = st["players"][seat]
    q = st["roman_pos"]
    out: list[dict[str, Any]] = []
    areas_done: set[int] = set()
    for pid in sorted(p["plans"], key=_plan_sort_key):
        a = plan_area(pid) if is_roman(pid) else 0
        if not a or a in areas_done:  # two Romans of one area: one offer is enough
            continue
        areas_done.add(a)
        if pos_area(q) == a:
            out.append({"plan": pid, "value": 0, "target": q})
            continue
        for v in sorted(set(p["mods"])):
            for target in (q - v, q + v):
                if pos_area(target) == a:
                    out.append({"plan": pid, "value": v, "target": target})
                    break
    return out


def dead_plans(st: dict[str, Any], seat: int) -> list[str]:
    if st["phase"] != "propose" or st["proposer"] != seat:
        return []
    return sorted((pid for pid in st["players"][seat]["plans"] if is_dead(st, pid)), key=_plan_sort_key)


def propose_targets(st: dict[str, Any]) -> list[int]:
    m = st["miraculix"]
    step = 3 if st["proposals"] == 0 else 5
    return [t for t in range(m + 1, m + step + 1) if t <= TRACK_MAX]


# ---------------------------------------------------------------------------------------------
# physical deal: entering what was drawn


def deck_values(st: dict[str, Any]) -> list[int]:
    """Mod card values that exist in this game's deck (offered for entry and draw reports:
    the draw pile's own make-up would reveal what the others hold)."""
    return [v for v in MOD_VALUES if st["mod"]["counts"][str(v)] > 0]


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


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    st = state
    if st["phase"] != "over":
        return None
    rows = []
    for s, p in enumerate(st["players"]):
        rows.append({"seat": s, "name": st["names"][s],
                     "fulfilled": sorted(p["fulfilled"], key=_plan_sort_key),
                     "fulfilled_labels": [plan_label(x) for x in sorted(p["fulfilled"], key=_plan_sort_key)],
                     "fulfilled_count": len(p["fulfilled"]),
                     "mods_left": len(p["mods"]) + p["owed"]})
    for r in rows:
        better = [o for o in rows if (o["fulfilled_count"], o["mods_left"]) > (r["fulfilled_count"], r["mods_left"])]
        r["rank"] = len(better) + 1
        same_plans = [o for o in rows if o is not r and o["fulfilled_count"] == r["fulfilled_count"]]
        if not same_plans:
            r["tiebreak"] = None
        else:
            shared = [o for o in same_plans if o["mods_left"] == r["mods_left"]]
            # the players this tie is with: those sharing the place, else all with as many plans
            others = ", ".join(o["name"] for o in (shared or same_plans))
            r["tiebreak"] = {"key": "lutetia.tb.shared" if shared else "lutetia.tb.mods",
                             "params": {"plans": r["fulfilled_count"], "mods": r["mods_left"], "others": others}}
    winners = [r["seat"] for r in rows if r["rank"] == 1]
    return {"seats": rows, "winners": winners, "shared": len(winners) > 1,
            "ranking": [r["seat"] for r in sorted(rows, key=lambda r: (r["rank"], r["seat"]))]}




def rounds(state: dict[str, Any]) -> int:
    """Rounds played (the history's count): one per proposal put to the vote."""
    return int(state["proposals"])


def outcome(state: dict[str, Any]) -> base.Result | None:
    """The result in the one shape of every game: fulfilled plans are the score."""
    r = result(state)
    if r is None:
        return None
    rows = r["seats"]
    keys = {tb["key"] for x in rows if (tb := x["tiebreak"]) is not None}
    return base.Result(
        ranks=tuple(x["rank"] for x in rows), scores=tuple(x["fulfilled_count"] for x in rows),
        winners=tuple(r["winners"]),
        breakdown=tuple({"plans": x["fulfilled_count"], "mods_left": x["mods_left"]} for x in rows),
        tie_break="lutetia.tb.shared" if "lutetia.tb.shared" in keys else next(iter(keys), None))


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
