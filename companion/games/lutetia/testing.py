"""What the generic tests need to know about LUTETIA's secrets.

- `twin_deal(...)` (tests/test_secrecy_twins.py): the seed deals secrets (plans, modification
  cards), so the twins test needs a recipe for two deals that differ only in seat k's hand.
- `secret_twin(state, k)` (tests/reliability/test_security.py): edits a copy of a state (already
  deep-copied, open sealed rounds already changed) so that seat k's plans and cards differ.
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion.games.lutetia import rules as L


def twin_deal(opts: dict[str, Any], seats: list[dict[str, Any]], seed: int, k: int,
              r: random.Random) -> dict[str, Any]:
    """Seat k gets other plans (swapped with plans out of the game, area by area) and other
    modification cards (swapped with the bottom of the draw pile); physical deal: k enters
    other plans than in the twin."""
    a = L.setup(opts, seats, seed)
    if a["phase"] == "enter":  # physical: everybody enters a hand; seat k enters another one
        pool = {area: [p for p in L.ALL_PLANS if L.plan_area(p) == area] for area in range(1, 6)}
        for area in pool:
            r.shuffle(pool[area])
        hands = {s: [pool[area].pop() for area in pool for _ in range(2)] for s in range(len(seats))}
        # number plans only: the two Roman plans of an area are one card, entered as "R3" and
        # given the free id R3a/R3b – a later seat's *id* (never its label) follows the earlier
        # entries; the ids stay on the server (Flet renders there), the phones see "R 21–30"
        numbers = {area: [p for p in pool[area] if not L.is_roman(p)] for area in pool}
        other_k = [numbers[area].pop() if r.random() < 0.6 and not L.is_roman(x) else x
                   for area in pool for x in hands[k] if L.plan_area(x) == area]
        mods = sorted(a["mod"]["pile"])
        r.shuffle(mods)
        b = a
        for s in range(len(seats)):
            hand_mods = [mods.pop() for _ in range(a["start_mods"][s])]
            a = L.apply(a, {"type": "enter_hand", "seat": s, "plans": hands[s], "mods": hand_mods})
            b = L.apply(b, {"type": "enter_hand", "seat": s, "plans": other_k if s == k else hands[s],
                            "mods": hand_mods})
        differ = set(hands[k]) ^ set(other_k)
        swapped = -1  # the physical pile is not drawn from: it never ends the comparison
    else:
        b = json.loads(json.dumps(a))
        pa, pb = a["players"][k], b["players"][k]
        out = list(b["out"])
        for i, pid in enumerate(list(pb["plans"])):
            if r.random() < 0.6:
                same_area = [x for x in out if L.plan_area(x) == L.plan_area(pid)]
                new = r.choice(same_area)
                out[out.index(new)] = pid
                pb["plans"][i] = new
        b["out"] = out
        pb["plans"].sort(key=L._plan_sort_key)
        pile = b["mod"]["pile"]
        swapped = 0
        for i, m in enumerate(list(pb["mods"])):  # exchange with the bottom cards, drawn last
            if swapped < len(pile) and r.random() < 0.8:
                pb["mods"][i], pile[swapped] = pile[swapped], m
                swapped += 1
        pb["mods"].sort()
        differ = set(pa["plans"]) ^ set(pb["plans"])
    numbers = {int(x) for x in differ if not L.is_roman(x)}

    def alive(st: dict[str, Any]) -> bool:
        """Once the swapped bottom cards are drawn, another seat's hand differs too: stop there."""
        return swapped < 0 or len(st["mod"]["pile"]) - sum(p["owed"] for p in st["players"]) > swapped

    def avoid(action: dict[str, Any]) -> bool:
        """The holder of the reached plan lays it face up: such a proposal may reveal the deal."""
        return action.get("type") == "propose" and action.get("to") in numbers

    return {"a": a, "b": b, "avoid": avoid, "alive": alive, "notes": [f"differ={sorted(differ)}"]}


def secret_twin(s: dict[str, Any], k: int) -> None:
    if s["phase"] != "over":
        p = s["players"][k]
        for key in ("plans", "dead"):
            p[key] = list(reversed(p[key]))
            swap = [x for x in s["out"] if x not in p[key]][:1]
            if p[key] and swap:
                s["out"][s["out"].index(swap[0])] = p[key][0]
                p[key][0] = swap[0]
        p["mods"] = [m % 3 + 1 for m in p["mods"]]


# The restart benchmark's "long game" policy (benchmarks/restart.py).
def long_rare(state: dict[str, Any], action: dict[str, Any]) -> bool:
    """The host forcing a reveal or skipping the tasks."""
    return action["type"] in ("reveal", "skip")


def long_adjust(state: dict[str, Any], action: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The proposer always proposes the smallest step (a cautious table)."""
    if action["type"] == "propose":
        action["to"] = min(a["to"] for a in legal if a["type"] == "propose")
    return action
