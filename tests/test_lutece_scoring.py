"""Lutèce end-game scorer: hand-worked examples, majority ties, gold tie-break, result()."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.lutece import rules as L


def card(glaive: int, pain: int, potion: int, cervoise: int, places: int) -> dict[str, int]:
    return {"glaive": glaive, "pain": pain, "potion": potion, "cervoise": cervoise, "places": places}


@pytest.mark.parametrize("counts,all_equal,expected", [
    ([3, 1, 2], 4, [10, 0, 4]),
    ([0, 2, 2], 4, [0, 10, 10]),        # tied leaders share 10
    ([0, 0, 5], 4, [0, 0, 10]),         # tied last share 0
    ([5, 3, 3, 1], 4, [10, 4, 4, 0]),   # tied middle both 4
    ([2, 2, 1, 1, 0], 4, [10, 10, 4, 4, 0]),
    ([1, 1, 1], 4, [4, 4, 4]),          # all equal
    ([1, 1, 1], 10, [10, 10, 10]),
    ([0, 0], 0, [0, 0]),
    ([4, 1], 4, [10, 0]),               # two players: most and fewest
])
def test_resource_points(counts: list[int], all_equal: int, expected: list[int]) -> None:
    assert L.resource_points(counts, all_equal) == expected


def test_three_players_hand_worked() -> None:
    entries = [card(3, 0, 1, 0, 5), card(1, 2, 1, 0, 2), card(2, 2, 1, 5, 0)]
    t = L.score_table(entries, [7, 9, 2])
    # P0: glaive 10, pain 0, potion 4 (all equal), cervoise 0, places 5, gold 7//3=2 -> 21
    # P1: 0 + 10 + 4 + 0 + 2 + 9//3=3 -> 19
    # P2: 4 + 10 + 4 + 10 + 0 + 0 -> 28
    assert [p["total"] for p in t["players"]] == [21, 19, 28]
    assert [p["resource_points"] for p in t["players"]] == [14, 14, 28]
    assert [p["gold_points"] for p in t["players"]] == [2, 3, 0]
    assert t["ranks"] == [2, 3, 1] and t["ranking"] == [2, 0, 1]
    assert t["winners"] == [2] and t["tie_break"] is None
    assert t["resources"]["pain"]["most"] == [1, 2] and t["resources"]["pain"]["fewest"] == [0]
    assert t["resources"]["potion"]["all_equal"] and t["resources"]["potion"]["points"] == [4, 4, 4]
    assert t["players"][2]["resources"]["cervoise"] == {"count": 5, "points": 10}


def test_all_equal_option_changes_totals() -> None:
    entries = [card(3, 0, 1, 0, 5), card(1, 2, 1, 0, 2), card(2, 2, 1, 5, 0)]
    assert [p["total"] for p in L.score_table(entries, [7, 9, 2], all_equal=10)["players"]] == [27, 25, 34]
    assert [p["total"] for p in L.score_table(entries, [7, 9, 2], all_equal=0)["players"]] == [17, 15, 24]


def test_tie_on_points_broken_by_gold() -> None:
    entries = [card(1, 0, 0, 2, 3), card(0, 1, 0, 2, 3)]
    t = L.score_table(entries, [5, 4])
    # both: 10 + 0 + 4 + 4 + 3 + 1 = 22
    assert [p["total"] for p in t["players"]] == [22, 22]
    assert t["winners"] == [0] and t["ranks"] == [1, 2] and t["tie_break"] == "gold"
    assert t["tied_on_total"] == [0, 1]


def test_tie_on_points_and_gold_is_shared() -> None:
    entries = [card(1, 0, 0, 2, 3), card(0, 1, 0, 2, 3), card(0, 0, 0, 0, 0)]
    t = L.score_table(entries, [4, 4, 0])
    # glaive [10,0,0] (two share the fewest), pain [0,10,0], potion all 0 -> 4 each, cervoise [10,10,0]
    # P0: 10 + 0 + 4 + 10 + 3 + 1 = 28 ; P1: 0 + 10 + 4 + 10 + 3 + 1 = 28 ; P2: 0 + 0 + 4 + 0 = 4
    assert [p["total"] for p in t["players"]] == [28, 28, 4]
    assert t["winners"] == [0, 1] and t["ranks"] == [1, 1, 3] and t["tie_break"] == "shared"


def test_four_players_middle_and_gold_rounding() -> None:
    entries = [card(5, 1, 0, 2, 0), card(3, 1, 2, 2, 4), card(3, 0, 2, 1, 1), card(1, 3, 1, 2, 6)]
    t = L.score_table(entries, [2, 11, 6, 0])
    # glaive [10,4,4,0] pain [4,4,0,10] potion [0,10,10,4] cervoise [10,10,0,10]
    assert t["resources"]["glaive"]["points"] == [10, 4, 4, 0]
    assert t["resources"]["pain"]["points"] == [4, 4, 0, 10]
    assert t["resources"]["potion"]["points"] == [0, 10, 10, 4]
    assert t["resources"]["cervoise"]["points"] == [10, 10, 0, 10]
    # totals: 24+0+0=24 ; 28+4+3=35 ; 14+1+2=17 ; 24+6+0=30
    assert [p["total"] for p in t["players"]] == [24, 35, 17, 30]
    assert t["ranking"] == [1, 3, 0, 2]


def finished(entries: list[dict[str, int]], **opts: Any) -> dict[str, Any]:
    names = ["Ann", "Bob", "Cid"][: len(entries)]
    st = L.setup(opts, [{"name": n, "colour": "c"} for n in names], seed=1)
    st = L.apply(st, {"seat": None, "type": "reveal"})
    st = L.apply(st, {"seat": None, "type": "end_game"})
    for i, e in enumerate(entries):
        st = L.apply(st, {"seat": i, "type": "score", **e})
    return L.apply(st, {"seat": None, "type": "confirm_scores"})


def test_result_breakdown_from_a_finished_game() -> None:
    st = finished([card(3, 0, 1, 0, 5), card(1, 2, 1, 0, 2), card(2, 2, 1, 5, 0)])
    # nobody played: everyone still has 5 gold -> 1 point each
    res = L.result(st)
    assert res is not None
    assert [p["total"] for p in res["players"]] == [20, 17, 29]
    assert res["players"][2]["name"] == "Cid" and res["winners"] == [2]
    chart = res["chart"]
    assert chart["labels"] == ["Ann", "Bob", "Cid"]
    assert [s["key"] for s in chart["series"]] == [
        "lutece.res.glaive", "lutece.res.pain", "lutece.res.potion", "lutece.res.cervoise",
        "lutece.score.places", "lutece.score.gold_points",
    ]
    for i, p in enumerate(res["players"]):
        assert sum(s["values"][i] for s in chart["series"]) == p["total"]
    assert L.view(st, None)["result"] == res
    assert res["tie_break_key"] is None


def test_result_none_before_the_end() -> None:
    st = L.setup({}, [{"name": "A"}, {"name": "B"}], seed=1)
    assert L.result(st) is None


def test_result_shared_key() -> None:
    st = finished([card(1, 1, 1, 1, 0), card(1, 1, 1, 1, 0)])
    res = L.result(st)
    assert res is not None and res["winners"] == [0, 1] and res["tie_break_key"] == "lutece.tie.shared"
