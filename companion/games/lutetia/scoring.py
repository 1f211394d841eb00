"""LUTETIA – the result: ranks by fulfilled plans, then mod cards left (pure; rules.py is the game)."""

from __future__ import annotations

from typing import Any

from companion.games import base
from companion.games.lutetia.plans import (
    _plan_sort_key,
    plan_label,
)


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
