"""LUTETIA – the cards, the plans and the track (pure; rules.py is the game).

The constants of the deck and the track, plan ids and their areas, the small helpers every step
of the game uses (the log, names, drawing and spending mod cards, reading a payload), and what a
seat can do with its plans now (the after-vote offers, dead plans, proposal targets).
"""

from __future__ import annotations

from typing import Any

from companion.games import base
from companion.games.base import RuleError

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
# the deck


def deck_values(st: dict[str, Any]) -> list[int]:
    """Mod card values that exist in this game's deck (offered for entry and draw reports:
    the draw pile's own make-up would reveal what the others hold)."""
    return [v for v in MOD_VALUES if st["mod"]["counts"][str(v)] > 0]
