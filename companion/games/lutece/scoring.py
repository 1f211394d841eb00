"""Lutèce – the score cards and the result (pure; rules.py is the game): majority points per
resource, places, a point per 3 gold, ranks with gold as the tie-break."""

from __future__ import annotations

from typing import Any

from companion.games import base
from companion.games.base import State

RESOURCES = ["glaive", "pain", "potion", "cervoise"]
MAX_COUNT = 99  # the most of one resource a score card may say
MAX_PLACE_POINTS = 300


def resource_points(counts: list[int], all_equal: int = 4) -> list[int]:
    """Majority points for one resource: most -> 10, fewest -> 0, others 4; ties share tiers."""
    hi, lo = max(counts), min(counts)
    if hi == lo:
        return [all_equal] * len(counts)
    return [10 if c == hi else 0 if c == lo else 4 for c in counts]


def score_table(entries: list[dict[str, int]], gold: list[int], all_equal: int = 4) -> dict[str, Any]:
    """Full breakdown from score cards + final gold (pure, also used by the result)."""
    n = len(entries)
    per_res: dict[str, Any] = {}
    for r in RESOURCES:
        counts = [e[r] for e in entries]
        pts = resource_points(counts, all_equal)
        hi, lo = max(counts), min(counts)
        per_res[r] = {
            "counts": counts,
            "points": pts,
            "all_equal": hi == lo,
            "most": [i for i in range(n) if counts[i] == hi] if hi != lo else [],
            "fewest": [i for i in range(n) if counts[i] == lo] if hi != lo else [],
        }
    players = []
    for i in range(n):
        res_pts = {r: per_res[r]["points"][i] for r in RESOURCES}
        gp = gold[i] // 3
        total = sum(res_pts.values()) + entries[i]["places"] + gp
        players.append({
            "seat": i,
            "resources": {r: {"count": entries[i][r], "points": res_pts[r]} for r in RESOURCES},
            "resource_points": sum(res_pts.values()),
            "places": entries[i]["places"],
            "gold": gold[i],
            "gold_points": gp,
            "total": total,
        })
    order = sorted(range(n), key=lambda i: (-players[i]["total"], -players[i]["gold"], i))
    ranks: list[int] = [0] * n
    for pos, i in enumerate(order):
        if pos and (players[i]["total"], players[i]["gold"]) == (
            players[order[pos - 1]]["total"], players[order[pos - 1]]["gold"]
        ):
            ranks[i] = ranks[order[pos - 1]]
        else:
            ranks[i] = pos + 1
    for i in range(n):
        players[i]["rank"] = ranks[i]
    best = max(p["total"] for p in players)
    top = [i for i in range(n) if players[i]["total"] == best]
    winners = [i for i in order if ranks[i] == 1]
    if len(top) == 1:
        tie_break = None
    elif len(winners) == 1:
        tie_break = "gold"
    else:
        tie_break = "shared"
    return {
        "players": players,
        "resources": per_res,
        "ranking": order,
        "ranks": ranks,
        "winners": winners,
        "tie_break": tie_break,
        "tied_on_total": top if len(top) > 1 else [],
    }


def result(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    n = len(state["names"])
    entries = [state["scores"][str(i)] for i in range(n)]
    table = score_table(entries, list(state["gold"]), state["options"]["all_equal"])
    for p in table["players"]:
        p["name"] = state["names"][p["seat"]]
        p["colour"] = state["colours"][p["seat"]]
    table["chart"] = {
        "labels": [state["names"][i] for i in range(n)],
        "series": [
            {"key": f"lutece.res.{r}", "values": [p["resources"][r]["points"] for p in table["players"]]}
            for r in RESOURCES
        ] + [
            {"key": "lutece.score.places", "values": [p["places"] for p in table["players"]]},
            {"key": "lutece.score.gold_points", "values": [p["gold_points"] for p in table["players"]]},
        ],
    }
    table["tie_break_key"] = {
        None: None, "gold": "lutece.tie.gold", "shared": "lutece.tie.shared",
    }[table["tie_break"]]
    return table


def rounds(state: State) -> int:
    """Rounds played (the history's count): the round in play when the game ended."""
    return int(state["round"])


def outcome(state: State) -> base.Result | None:
    """The result in the one shape of every game."""
    r = result(state)
    if r is None:
        return None
    ps = r["players"]
    return base.Result(
        ranks=tuple(r["ranks"]), scores=tuple(p["total"] for p in ps), winners=tuple(r["winners"]),
        breakdown=tuple({**{f"lutece.res.{k}": p["resources"][k]["points"] for k in RESOURCES},
                         "lutece.score.places": p["places"], "lutece.score.gold_points": p["gold_points"]}
                        for p in ps),
        tie_break=r["tie_break_key"])
