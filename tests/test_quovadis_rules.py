"""Quo Vadis rules: the board graph of shared/rules/quo-vadis.md, votes, Caesar, laurels, the end."""

from __future__ import annotations

import json

import pytest

from companion import i18n
from companion.games import base
from companion.games.base import RuleError
from companion.games.quovadis import rules as qv

i18n.register(qv.MESSAGES)

SEATS3 = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"},
          {"name": "Cy", "colour": "green"}]
SEATS5 = SEATS3 + [{"name": "Dee", "colour": "yellow"}, {"name": "Eve", "colour": "black"}]


def fresh(n: int = 3, seed: int = 7, **opts):
    return qv.setup(opts, (SEATS5 if n > 3 else SEATS3)[:n], seed)


def put(state, node: int, seats: list[int]):
    """Seat senators directly (the physical board is the truth; tests set positions)."""
    state["board"][str(node)] = list(seats)
    for s in seats:
        state["players"][s]["reserve"] -= 1
    return state


def act(state, seat, **action):
    return qv.apply(state, {**action, "seat": seat})


def moves(state, seat):
    return {(a["from"], a["to"]): a for a in qv.legal(state, seat) if a["type"] == "move"}


# ------------------------------------------------------------------------ the graph --
RULES_TABLE = {  # node: (seats, {target: laurel space?}) – copied from the rules page
    0: (1, {4: False}),
    1: (5, {8: True, 5: True}),
    2: (1, {6: False}),
    3: (3, {6: True, 7: True}),
    4: (1, {8: False}),
    5: (1, {9: False}),
    6: (3, {9: True, 11: True}),
    7: (1, {10: False}),
    8: (3, {12: True}),
    9: (5, {13: True}),
    10: (1, {14: False}),
    11: (1, {14: False}),
    12: (3, {13: True}),
    14: (3, {13: True}),
    13: (5, {}),
}


def test_graph_matches_rules_page():
    assert set(qv.SEATS) == set(range(15))
    for node, (seats, outs) in RULES_TABLE.items():
        assert qv.SEATS[node] == seats, node
        got = {b: star for a, b, star in qv.PATHS if a == node}
        assert got == outs, node
    assert len(qv.PATHS) == sum(len(o) for _, o in RULES_TABLE.values()) == 17
    assert len(qv.LAUREL_PATHS) == 10
    assert qv.START == (0, 1, 2, 3) and qv.SENATE == 13
    assert qv.needed(3) == 2 and qv.needed(1) == 3 and qv.needed(0) == 0 and qv.needed(9) == 3


def test_public_view_has_the_whole_graph():
    v = qv.view(fresh(), None)
    assert [(n["id"], n["seats"]) for n in v["nodes"]] == [(k, qv.SEATS[k]) for k in range(15)]
    assert {(p["from"], p["to"], p["laurel"]) for p in v["paths"]} == set(qv.PATHS)
    assert [n["id"] for n in v["nodes"] if n["start"]] == [0, 1, 2, 3]
    assert [n["id"] for n in v["nodes"] if n["senate"]] == [13]


def test_setup_chips_supply_senators_caesar():
    s = fresh()
    assert all(s["chips"][p] is not None for p in qv.LAUREL_PATHS)
    everything = list(s["pool"]) + list(s["chips"].values())
    assert len(everything) == 44 and s["supply"] == 18  # 44 + 18 = 62 chips
    counts = {}
    for c in everything:
        counts[(c["value"], c["caesar"])] = counts.get((c["value"], c["caesar"]), 0) + 1
    assert counts == {(2, False): 8, (3, False): 15, (4, False): 9, (5, False): 6, (2, True): 6}
    assert qv.laurels_in_play(s) == 16 + 45 + 36 + 30 + 12 + 18 == s["laurels_total"]
    assert [p["reserve"] for p in s["players"]] == [8, 8, 8]
    assert s["caesar"] == "9-13" and s["turn"] == 0 and s["phase"] == "turn"
    v = qv.view(s, None)
    assert v["pool_left"] == 34 and v["supply"] == 18
    assert all(p["chip"] for p in v["paths"] if p["laurel"])
    assert [p["id"] for p in v["paths"] if p["caesar"]] == ["9-13"]


def test_pool_options_and_seat_limits():
    s = fresh(chips_2=0, chips_3=1, chips_4=0, chips_5=0, chips_caesar=0, supply=3, senators=5)
    assert sum(1 for c in s["chips"].values() if c) == 1 and s["pool"] == []
    assert s["supply"] == 3 and s["players"][0]["reserve"] == 5
    with pytest.raises(RuleError):
        qv.setup({}, SEATS3[:2], 1)
    with pytest.raises(RuleError):
        qv.setup({"ballot": "shouting"}, SEATS3, 1)
    assert qv.setup({}, SEATS5, 1)["n"] == 5


def test_setup_is_deterministic_and_json_safe():
    a, b = fresh(seed=3), fresh(seed=3)
    assert a == b and json.loads(json.dumps(a)) == a
    assert fresh(seed=4)["pool"] != a["pool"] or fresh(seed=4)["chips"] != a["chips"]


# -------------------------------------------------------------------------- placing --
def test_place_on_start_committees_only():
    s = fresh()
    assert {a["node"] for a in qv.legal(s, 0) if a["type"] == "place"} == {0, 1, 2, 3}
    s = act(s, 0, type="place", node=0)
    assert s["board"]["0"] == [0] and s["players"][0]["reserve"] == 7 and s["turn"] == 1
    assert 0 not in {a["node"] for a in qv.legal(s, 1) if a["type"] == "place"}
    with pytest.raises(RuleError) as e:
        act(s, 1, type="place", node=0)
    assert e.value.key == "quovadis.err.node_full"
    with pytest.raises(RuleError) as e:
        act(s, 1, type="place", node=4)
    assert e.value.key == "quovadis.err.not_start"
    with pytest.raises(RuleError) as e:
        act(s, 2, type="place", node=1)
    assert e.value.key == "quovadis.err.not_your_turn"


def test_no_reserve_no_place():
    s = fresh(senators=1)
    s = act(s, 0, type="place", node=1)
    s = act(s, 1, type="place", node=1)
    s = act(s, 2, type="place", node=1)
    assert not [a for a in qv.legal(s, 0) if a["type"] == "place"]
    with pytest.raises(RuleError) as e:
        act(s, 0, type="place", node=2)
    assert e.value.key == "quovadis.err.no_reserve"


# --------------------------------------------------------------------------- moving --
def test_move_from_one_seat_committee_needs_no_vote():
    s = put(fresh(), 0, [0])
    m = moves(s, 0)
    assert m[(0, 4)]["vote"] is False and m[(0, 4)]["laurel"] is None
    s = act(s, 0, type="move", **{"from": 0, "to": 4})
    assert s["board"]["0"] == [] and s["board"]["4"] == [0] and s["phase"] == "turn" and s["turn"] == 1


def test_move_needs_free_seat_and_path():
    s = put(put(fresh(), 0, [0]), 4, [1])
    assert (0, 4) not in moves(s, 0)
    with pytest.raises(RuleError) as e:
        act(s, 0, type="move", **{"from": 0, "to": 4})
    assert e.value.key == "quovadis.err.node_full"
    with pytest.raises(RuleError) as e:
        act(s, 0, type="move", **{"from": 0, "to": 5})
    assert e.value.key == "quovadis.err.no_path"
    with pytest.raises(RuleError) as e:
        act(s, 0, type="move", **{"from": 4, "to": 8})
    assert e.value.key == "quovadis.err.no_senator_there"


def test_vote_two_of_three_passes_with_one_other_yes():
    s = put(fresh(), 3, [0, 1, 2])
    chip = dict(s["chips"]["3-7"])
    m = moves(s, 0)[(3, 7)]
    assert m["vote"] is True and m["needed"] == 2 and m["own"] == 1 and m["laurel"] == chip
    s = act(s, 0, type="move", **{"from": 3, "to": 7})
    assert s["phase"] == "vote"
    v = qv.view(s, None)["vote"]
    assert v["needed"] == 2 and v["voters"] == [1, 2] and v["awaiting"] == [1, 2] and v["yes_so_far"] == 1
    assert qv.legal(s, 0)[0]["type"] != "vote"
    s = act(s, 1, type="vote", yes=True)
    assert qv.view(s, 2)["vote"]["answers"] == {"1": True}  # open ballot: live
    with pytest.raises(RuleError) as e:
        act(s, 1, type="vote", yes=False)
    assert e.value.key == "quovadis.err.already_voted"
    s = act(s, 2, type="vote", yes=False)
    assert s["phase"] == "turn" and s["turn"] == 1
    assert s["board"]["7"] == [0] and s["board"]["3"] == [1, 2]
    assert [c["value"] for c in s["players"][0]["chips"]] == [chip["value"]]
    assert s["players"][1]["support"] == 1 and s["players"][2]["support"] == 0
    assert s["supply"] == 17


def test_vote_two_of_three_fails_and_turn_ends():
    s = put(fresh(), 3, [0, 1, 2])
    s = act(s, 0, type="move", **{"from": 3, "to": 6})
    s = act(s, 2, type="vote", yes=False)
    s = act(s, 1, type="vote", yes=False)
    assert s["board"]["3"] == [0, 1, 2] and s["board"]["6"] == [] and s["turn"] == 1
    assert s["players"][0]["chips"] == [] and s["supply"] == 18
    assert s["log"][-2]["key"] == "quovadis.log.vote_failed"


def test_vote_three_of_five_counts_senators_with_owner_voice():
    s = put(fresh(n=4), 1, [0, 1, 1, 2, 3])
    m = moves(s, 0)[(1, 8)]
    assert m["vote"] and m["needed"] == 3 and m["own"] == 1 and m["present"] == 5
    s0 = act(s, 0, type="move", **{"from": 1, "to": 8})
    assert s0["vote"]["weights"] == {"1": 2, "2": 1, "3": 1}
    # Bob's two senators alone carry it: 1 + 2 = 3
    s = act(act(act(s0, 1, type="vote", yes=True), 2, type="vote", yes=False), 3, type="vote", yes=False)
    assert s["board"]["8"] == [0] and s["players"][1]["support"] == 2
    # Cy + Dee = 1 + 1 + 1 = 3 as well
    s = act(act(act(s0, 1, type="vote", yes=False), 2, type="vote", yes=True), 3, type="vote", yes=True)
    assert s["board"]["8"] == [0]
    # only Cy: 2 < 3
    s = act(act(act(s0, 1, type="vote", yes=False), 2, type="vote", yes=True), 3, type="vote", yes=False)
    assert s["board"]["8"] == [] and s["board"]["1"] == [0, 1, 1, 2, 3]


def test_own_senators_vote_yes_and_can_make_the_majority():
    s = put(fresh(), 1, [0, 0, 0, 1])
    m = moves(s, 0)[(1, 5)]
    assert m["vote"] is False and m["own"] == 3
    s = act(s, 0, type="move", **{"from": 1, "to": 5})
    assert s["board"]["5"] == [0] and s["board"]["1"] == [0, 0, 1] and s["players"][0]["chips"]
    s2 = put(fresh(), 3, [1, 1])
    s2["turn"] = 1
    assert moves(s2, 1)[(3, 7)]["vote"] is False
    # two own of five: a vote, own count 2 toward the needed 3
    s3 = put(fresh(), 1, [0, 0, 1])
    s3 = act(s3, 0, type="move", **{"from": 1, "to": 8})
    assert s3["vote"]["own"] == 2 and s3["vote"]["voters"] == [1]
    s3 = act(s3, 1, type="vote", yes=True)
    assert s3["board"]["8"] == [0]


def test_too_few_senators_present_no_move():
    s = put(fresh(), 3, [0])
    assert (3, 6) not in moves(s, 0) and (3, 7) not in moves(s, 0)
    with pytest.raises(RuleError) as e:
        act(s, 0, type="move", **{"from": 3, "to": 6})
    assert e.value.key == "quovadis.err.too_few" and e.value.params["needed"] == 2
    s = put(fresh(), 1, [0, 1])
    assert not moves(s, 0)
    with pytest.raises(RuleError) as e:
        act(s, 0, type="move", **{"from": 1, "to": 5})
    assert e.value.key == "quovadis.err.too_few"


def test_host_closes_vote_missing_answers_are_no():
    s = put(fresh(), 1, [0, 1, 2])
    s = act(s, 0, type="move", **{"from": 1, "to": 5})
    assert qv.legal(s, None) == [{"type": "close_vote"}]
    with pytest.raises(RuleError) as e:
        act(s, 1, type="close_vote")
    assert e.value.key == "err.host_only"
    s = act(s, 1, type="vote", yes=True)
    s = qv.apply(s, {"type": "close_vote", "seat": None})
    assert s["board"]["5"] == [] and s["phase"] == "turn" and s["turn"] == 1


def test_not_a_voter_cannot_vote():
    s = put(put(fresh(), 3, [0, 1]), 0, [2])
    s = act(s, 0, type="move", **{"from": 3, "to": 7})
    with pytest.raises(RuleError) as e:
        act(s, 2, type="vote", yes=True)
    assert e.value.key == "quovadis.err.not_voter"
    with pytest.raises(RuleError) as e:
        act(s, 1, type="vote", yes="yes")
    assert e.value.key == "quovadis.err.yes_no"
    with pytest.raises(RuleError):
        act(s, 0, type="place", node=2)  # no other turn action during a vote


def test_secret_ballot_reveals_together():
    s = put(fresh(ballot="secret"), 1, [0, 1, 2, 2])
    s = act(s, 0, type="move", **{"from": 1, "to": 8})
    s = act(s, 2, type="vote", yes=True)
    for seat in (None, 0, 1):
        v = qv.view(s, seat)["vote"]
        assert v["answered"] == [2] and "answers" not in v and "yes_so_far" not in v
        assert "True" not in json.dumps(v) and "true" not in json.dumps(v)
    assert qv.view(s, 2)["me"]["my_vote"] is True
    keys = [e["key"] for e in s["log"]]
    assert "quovadis.log.vote_yes" not in keys
    s = act(s, 1, type="vote", yes=False)
    assert s["board"]["8"] == [0]
    tail = [(e["key"], e["params"]["seat"]) for e in s["log"] if e["key"].startswith("quovadis.log.vote_")
            and e["key"] != "quovadis.log.vote_open" and "seat" in e["params"]]
    assert ("quovadis.log.vote_no", 1) in tail and ("quovadis.log.vote_yes", 2) in tail
    assert s["players"][2]["support"] == 2


def test_support_laurel_off_and_empty_supply():
    s = put(fresh(support_laurel=False), 3, [0, 1, 2])
    s = act(act(act(s, 0, type="move", **{"from": 3, "to": 7}), 1, type="vote", yes=True), 2,
            type="vote", yes=True)
    assert s["supply"] == 18 and s["players"][1]["support"] == 0
    s = put(fresh(supply=1), 1, [0, 1, 1, 2])
    s = act(act(act(s, 0, type="move", **{"from": 1, "to": 8}), 1, type="vote", yes=True), 2,
            type="vote", yes=True)
    assert s["supply"] == 0 and s["players"][1]["support"] == 1 and s["players"][2]["support"] == 0
    assert any(e["key"] == "quovadis.log.supply_empty" and e["params"]["n"] == 2 for e in s["log"])
    assert qv.laurels_in_play(s) == s["laurels_total"]


def test_new_chip_drawn_face_up_after_taking():
    s = put(fresh(), 3, [0, 0])
    top = dict(s["pool"][-1])
    left = len(s["pool"])
    s = act(s, 0, type="move", **{"from": 3, "to": 6})
    assert s["chips"]["3-6"] == top and len(s["pool"]) == left - 1


def test_empty_pool_leaves_space_empty():
    s = fresh(chips_2=0, chips_3=10, chips_4=0, chips_5=0, chips_caesar=0)
    put(s, 3, [0, 0])
    s = act(s, 0, type="move", **{"from": 3, "to": 6})
    assert s["chips"]["3-6"] is None and s["players"][0]["chips"][0]["value"] == 3
    assert moves(put(s, 3, [1, 1]), 1)[(3, 6)]["laurel"] is None


# ---------------------------------------------------------------------------- Caesar --
def test_caesar_lets_leave_without_vote_and_without_laurel():
    s = put(fresh(), 9, [0, 1, 2])
    chip = dict(s["chips"]["9-13"])
    m = moves(s, 0)[(9, 13)]
    assert m["vote"] is False and m["caesar"] is True and m["laurel"] is None
    s = act(s, 0, type="move", **{"from": 9, "to": 13})
    assert s["board"]["13"] == [0] and s["players"][0]["chips"] == []
    assert s["chips"]["9-13"] == chip and s["arrival"] == [0] and s["phase"] == "turn"
    assert "quovadis.log.caesar_waives" in [e["key"] for e in s["log"]]


def test_without_caesar_the_same_move_needs_a_vote():
    s = put(fresh(), 9, [0, 1, 2])
    s["caesar"] = "1-8"
    m = moves(s, 0)[(9, 13)]
    assert m["vote"] is True and m["caesar"] is False
    # even a lone senator leaves a committee under Caesar
    s = put(fresh(), 12, [0])
    s["caesar"] = "12-13"
    assert moves(s, 0)[(12, 13)]["vote"] is False


def test_move_caesar_as_turn_action():
    s = fresh()
    targets = {a["path"] for a in qv.legal(s, 0) if a["type"] == "caesar"}
    assert targets == set(qv.LAUREL_PATHS) - {"9-13"}
    s = act(s, 0, type="caesar", path="3-6")
    assert s["caesar"] == "3-6" and s["turn"] == 1
    with pytest.raises(RuleError) as e:
        act(s, 1, type="caesar", path="3-6")
    assert e.value.key == "quovadis.err.caesar_same"
    with pytest.raises(RuleError) as e:
        act(s, 1, type="caesar", path="0-4")
    assert e.value.key == "quovadis.err.bad_space"


def _caesar_chip_state(**opts):
    s = put(fresh(**opts), 3, [0, 0])
    s["chips"]["3-6"] = {"value": 2, "caesar": True}
    return s


def test_caesar_chip_moves_caesar_immediately():
    s = act(_caesar_chip_state(), 0, type="move", **{"from": 3, "to": 6})
    assert s["phase"] == "caesar" and s["caesar_by"] == 0 and s["turn"] == 0
    assert s["players"][0]["chips"][0]["caesar"] is True
    assert {a["type"] for a in qv.legal(s, 0)} >= {"caesar", "keep_caesar"}
    with pytest.raises(RuleError) as e:
        act(s, 1, type="caesar", path="1-8")
    assert e.value.key == "quovadis.err.not_caesar"
    s2 = act(s, 0, type="caesar", path="1-8")
    assert s2["caesar"] == "1-8" and s2["phase"] == "turn" and s2["turn"] == 1
    s3 = act(s, 0, type="keep_caesar")
    assert s3["caesar"] == "9-13" and s3["turn"] == 1


def test_caesar_chip_at_end_of_round():
    s = act(_caesar_chip_state(caesar_chip="end_of_round"), 0, type="move", **{"from": 3, "to": 6})
    assert s["phase"] == "turn" and s["turn"] == 1 and s["pending_caesar"] == [0]
    s = act(s, 1, type="place", node=0)
    s = act(s, 2, type="place", node=2)
    assert s["phase"] == "caesar" and s["caesar_by"] == 0 and s["turn"] == 0
    s = act(s, 0, type="caesar", path="14-13")
    assert s["caesar"] == "14-13" and s["phase"] == "turn" and s["turn"] == 0 and s["round_no"] == 2


# ------------------------------------------------------------------- laurels, promises --
def test_give_is_private_and_bounded():
    s = fresh()
    s["players"][0]["chips"].append({"value": 5, "caesar": False, "path": "1-8"})
    with pytest.raises(RuleError) as e:
        act(s, 1, type="give", to=0, amount=1)
    assert e.value.key == "quovadis.err.nothing_to_give"
    before = {seat: qv.view(s, seat) for seat in (None, 2)}
    s2 = act(s, 0, type="give", to=1, amount=3)
    assert qv.total(s2, 0) == 2 and qv.total(s2, 1) == 3
    for seat in (None, 2):
        assert qv.view(s2, seat) == before[seat]
    assert qv.view(s2, 1)["me"]["log"][-1]["key"] == "quovadis.plog.received"
    assert qv.view(s2, 0)["me"]["log"][-1]["params"]["n"] == 3
    with pytest.raises(RuleError) as e:
        act(s2, 0, type="give", to=1, amount=3)
    assert e.value.key == "quovadis.err.give_too_much" and "2" in str(e.value)
    for bad in ({"to": 0, "amount": 1}, {"to": 1, "amount": 0}, {"to": 1, "amount": -1},
                {"to": 1, "amount": True}, {"to": 9, "amount": 1}, {"to": 1}, {"amount": 1}):
        with pytest.raises(RuleError):
            act(s2, 0, type="give", **bad)
    # any time: also out of turn and during a vote
    s3 = act(s2, 1, type="give", to=2, amount=1)
    assert qv.total(s3, 2) == 1


def test_promises_are_recorded_binding_or_not():
    s = act(fresh(), 1, type="promise", to=2, text="  I vote yes for you  ")
    assert s["promises"] == [{"from": 1, "to": 2, "text": "I vote yes for you", "binding": False,
                              "round_no": 1}]
    assert qv.view(s, None)["log"][-1]["key"] == "quovadis.log.promise"
    s = act(fresh(binding=True), 0, type="promise", to=1, text="3 laurels")
    assert s["promises"][0]["binding"] is True
    assert qv.view(s, 2)["promises"][0]["binding"] is True
    assert s["log"][-1]["key"] == "quovadis.log.promise_binding"
    for bad in ({"to": 0, "text": "x"}, {"to": 1, "text": ""}, {"to": 1, "text": "x" * 201},
                {"to": 1, "text": 5}, {"to": 1}):
        with pytest.raises(RuleError):
            act(s, 0, type="promise", **bad)


# --------------------------------------------------------------------------- views --
def test_views_hide_totals():
    s = put(fresh(), 3, [0, 0])
    s = act(s, 0, type="move", **{"from": 3, "to": 6})
    own = qv.view(s, 0)
    assert own["me"]["total"] == qv.total(s, 0) > 0 and own["me"]["chips"]
    assert own["me"]["reserve"] == 6
    for seat in (None, 1, 2):
        v = qv.view(s, seat)
        assert "me" not in v or v["me"]["seat"] == seat
        assert "total" not in json.dumps({k: x for k, x in v.items() if k != "me"})
        assert v["result"] is None
    assert qv.result(s) is None


def test_view_for_buttons():
    s = put(fresh(), 9, [0])
    v = qv.view(s, 0)
    assert v["turn"] == 0 and v["phase"] == "turn"
    mv = [a for a in v["legal"] if a["type"] == "move"]
    assert mv == [{**mv[0], "from": 9, "to": 13, "vote": False, "caesar": True, "laurel": None}]
    assert {a["type"] for a in qv.legal(s, 1)} == {"promise"}  # nothing to give, not their turn
    assert qv.view(s, 1)["legal"] == qv.legal(s, 1)


# ---------------------------------------------------------------------- end & result --
def _near_end():
    s = fresh()
    s["board"]["13"] = [1, 2, 0, 2]
    s["arrival"] = [1, 2, 0, 2]
    put(s, 10, [0])
    return s


def test_game_ends_when_fifth_senate_seat_filled():
    s = _near_end()
    s["board"]["14"] = [0]
    s["caesar"] = "14-13"
    s = act(s, 0, type="move", **{"from": 14, "to": 13})
    assert s["phase"] == "over" and s["arrival"] == [1, 2, 0, 2, 0]
    assert qv.legal(s, 0) == [] and qv.legal(s, None) == []
    with pytest.raises(RuleError) as e:
        act(s, 1, type="give", to=0, amount=1)
    assert e.value.key == "err.game_over"
    r = qv.result(s)
    assert r is not None and qv.view(s, None)["result"] == r
    assert set(r["totals"]) == {"0", "1", "2"} and r["arrival"] == [1, 2, 0, 2, 0]


def _finish(s, totals):
    for seat, t in enumerate(totals):
        s["players"][seat]["received"] = t
    s["board"]["14"] = [0]
    s["caesar"] = "14-13"
    return act(s, 0, type="move", **{"from": 14, "to": 13})


def test_winner_most_laurels_among_qualified():
    s = fresh()
    s["board"]["13"] = [1, 1, 2, 1]
    s["arrival"] = [1, 1, 2, 1]
    s = _finish(s, [30, 10, 12])  # Ann arrives last but has the most
    r = qv.result(s)
    assert r["winner"] == 0 and r["tie_break"] == "laurels" and r["qualified"] == [0, 2, 1]
    # a rich player without a senator in the Senate does not win
    s = fresh(n=4)
    s["board"]["13"] = [1, 1, 2, 1]
    s["arrival"] = [1, 1, 2, 1]
    s = _finish(s, [5, 10, 12, 99])
    r = qv.result(s)
    assert r["winner"] == 2 and 3 not in r["qualified"]
    assert r["ranking"][-1]["seat"] == 3 and r["ranking"][-1]["qualified"] is False
    assert r["totals"]["3"] == 99


def test_tie_goes_to_first_arrival():
    s = fresh()
    s["board"]["13"] = [2, 1, 1, 2]
    s["arrival"] = [2, 1, 1, 2]
    s = _finish(s, [20, 20, 20])
    r = qv.result(s)
    assert r["winner"] == 2 and r["tie_break"] == "arrival"
    assert [x["seat"] for x in r["ranking"]] == [2, 1, 0]
    s = fresh()
    s["board"]["13"] = [1, 2, 1, 2]
    s["arrival"] = [1, 2, 1, 2]
    s = _finish(s, [3, 20, 20])
    assert qv.result(s)["winner"] == 1


def test_end_cancels_pending_caesar():
    s = _near_end()
    s["board"]["14"] = [0, 1]
    s["chips"]["14-13"] = {"value": 2, "caesar": True}
    s["caesar"] = "1-8"
    s = act(s, 0, type="move", **{"from": 14, "to": 13})
    s = act(s, 1, type="vote", yes=True)
    assert s["phase"] == "over" and s["caesar_by"] is None and s["pending_caesar"] == []
    assert s["players"][0]["chips"][-1]["caesar"] is True


# -------------------------------------------------------------------------- catalog --
def test_catalog_complete_and_registered():
    from companion import games

    assert games.get("quovadis") is qv
    keys = set(qv.MESSAGES["en"])
    assert keys == set(qv.MESSAGES["de"]) == set(qv.MESSAGES["fr"])
    for o in qv.OPTIONS:
        assert o.label in keys and all(k in keys for k in o.choice_labels)
        assert not o.help or o.help in keys
    assert qv.NAME in keys
    for lang in i18n.LANGS:
        assert "{player}" in i18n.t(lang, "quovadis.log.place")
    assert "Bob" in i18n.t("de", "quovadis.err.not_your_turn", player="Bob")


def test_input_state_never_mutated():
    s = put(fresh(), 3, [0, 1, 2])
    snap = json.dumps(s, sort_keys=True)
    s2 = act(s, 0, type="move", **{"from": 3, "to": 7})
    act(s2, 1, type="vote", yes=True)
    assert json.dumps(s, sort_keys=True) == snap
    assert base.clone(s) == s


@pytest.mark.parametrize("a,b,star", qv.PATHS)
def test_every_path_can_be_travelled(a, b, star):
    s = fresh()
    s["caesar"] = "1-8" if (a, b) != (1, 8) else "3-6"
    put(s, a, [0] * max(1, qv.needed(a)))  # own majority: no vote
    chip = s["chips"].get(f"{a}-{b}")
    m = moves(s, 0)[(a, b)]
    assert m["vote"] is False and m["caesar"] is False and (m["laurel"] == chip if star else m["laurel"] is None)
    s = act(s, 0, type="move", **{"from": a, "to": b})
    assert s["board"][str(b)] == [0]
    assert [c["value"] for c in s["players"][0]["chips"]] == ([chip["value"]] if star else [])
    assert qv.laurels_in_play(s) == s["laurels_total"]
