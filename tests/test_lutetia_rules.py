"""LUTETIA rules, one group per paragraph of shared/rules/lutetia.md (and the seed's examples).

States are built directly with the helpers below (set plans, mod cards, vote hands, positions),
so each test checks one rule without playing a whole game.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.games import base
from companion.games.base import RuleError
from companion.games.lutetia import rules as L

i18n.register(L.MESSAGES)

# ---------------------------------------------------------------------------------------------
# helpers


def seats(n: int) -> list[dict[str, str]]:
    return [{"name": f"P{i}", "colour": f"c{i}"} for i in range(n)]


def mk(n: int = 3, seed: int = 1, **opts: Any) -> dict[str, Any]:
    return L.setup(opts, seats(n), seed)


def act(st: dict[str, Any], seat: int | None, kind: str, **kw: Any) -> dict[str, Any]:
    return L.apply(st, {"type": kind, "seat": seat, **kw})


def set_plans(st: dict[str, Any], seat: int, plans: list[str]) -> None:
    """Give `seat` exactly these open plans (taken from wherever they are; its old ones go out)."""
    p = st["players"][seat]
    st["out"] += p["plans"]
    p["plans"] = []
    for pid in plans:
        for q in st["players"]:
            for k in ("plans", "fulfilled", "dead"):
                if pid in q[k]:
                    q[k].remove(pid)
        if pid in st["out"]:
            st["out"].remove(pid)
        p["plans"].append(pid)


def set_mods(st: dict[str, Any], seat: int, mods: list[int]) -> None:
    """Give `seat` exactly these mod cards (old ones back to the pile; new ones from the pile)."""
    p = st["players"][seat]
    st["mod"]["pile"] += p["mods"]
    p["mods"] = []
    for v in mods:
        if v in st["mod"]["pile"]:
            st["mod"]["pile"].remove(v)
        else:
            st["mod"]["discard"].remove(v)
        p["mods"].append(v)
    p["mods"].sort()


def at(st: dict[str, Any], miraculix: int, proposer: int = 0) -> dict[str, Any]:
    st["miraculix"] = miraculix
    st["proposals"] = 1 if miraculix or st["proposals"] else 0
    st["proposer"] = proposer
    return st


def clear(st: dict[str, Any]) -> dict[str, Any]:
    """Nobody holds plans or mod cards (targeted tests then give only what they need)."""
    for s in range(st["n"]):
        set_plans(st, s, [])
        set_mods(st, s, [])
    return st


def vote(st: dict[str, Any], cards: list[str], sides: list[str | None]) -> dict[str, Any]:
    """Every seat chooses and locks; in at_reveal mode each declares when it is their turn."""
    sealed_mode = st["options"]["declare"] == "sealed"
    for s, c in enumerate(cards):
        kw = {"side": sides[s]} if sealed_mode and c != "R" else {}
        st = act(st, s, "choose", card=c, **kw)
    for s in range(st["n"]):
        st = act(st, s, "lock")
    while st["phase"] == "reveal":
        s = L.reveal_turn(st)
        st = act(st, s, "declare", side=sides[s])
    return st


def propose_and_vote(st: dict[str, Any], to: int, cards: list[str], sides: list[str | None]) -> dict[str, Any]:
    st = act(st, st["proposer"], "propose", to=to)
    return vote(st, cards, sides)


def answer(st: dict[str, Any]) -> dict[str, Any]:
    """Every seat still answering the after-vote step passes (modify, then Roman) – the step
    every seat is asked whatever its cards."""
    while st["phase"] == "after":
        s = int(min(st["tasks"]))
        st = act(st, s, "pass", task=st["tasks"][str(s)][0])
    return st


def keys_of(st: dict[str, Any]) -> list[str]:
    return [e["key"] for e in st["log"]]


FOR, AGAINST = "for", "against"


# ---------------------------------------------------------------------------------------------
# What the app stands in for / flag `deal`


def test_digital_deal_gives_each_seat_two_plans_per_area_and_two_mod_cards() -> None:
    for n in range(2, 7):
        st = mk(n, seed=n)
        assert st["phase"] == "propose"
        for p in st["players"]:
            assert len(p["plans"]) == 10
            assert Counter(L.plan_area(x) for x in p["plans"]) == {a: 2 for a in range(1, 6)}
            assert len(p["mods"]) == 2
            assert p["hand"] == L.CARDS and p["played"] == []
        everything = [x for p in st["players"] for x in p["plans"]] + st["out"]
        assert sorted(everything) == sorted(L.ALL_PLANS)
        assert len(st["out"]) == 60 - 10 * n
        assert len(st["mod"]["pile"]) == 36 - 2 * n


def test_setup_is_deterministic_from_the_seed() -> None:
    assert mk(4, seed=7) == mk(4, seed=7)
    assert mk(4, seed=7)["players"] != mk(4, seed=8)["players"]


def test_seat_count_limits() -> None:
    with pytest.raises(RuleError):
        mk(1)
    with pytest.raises(RuleError):
        mk(7)


def test_physical_deal_players_enter_plans_and_mod_cards() -> None:
    st = mk(2, deal="physical")
    assert st["phase"] == "enter"
    assert all(not p["plans"] for p in st["players"])
    v = L.view(st, 0)
    assert len(v["me"]["available_plans"]) == 60 and v["me"]["start_mods"] == 2
    plans0 = [1, 2, "11", "12", 21, "R3", "R4", "R4", 41, 50]
    st = act(st, 0, "enter_hand", plans=plans0, mods=[1, 3])
    assert st["players"][0]["plans"] == ["1", "2", "11", "12", "21", "R3a", "R4a", "R4b", "41", "50"]
    assert st["players"][0]["mods"] == [1, 3]
    assert st["phase"] == "enter"
    # the other player cannot enter plans already held, nor a third Roman of area 4
    with pytest.raises(RuleError) as e:
        act(st, 1, "enter_hand", plans=[1, 3, 13, 14, 22, 23, 31, 32, 42, 43], mods=[1, 1])
    assert e.value.key == "lutetia.err.plan_taken"
    with pytest.raises(RuleError) as e:
        act(st, 1, "enter_hand", plans=[3, 4, 13, 14, 22, 23, "R4", 32, 42, 43], mods=[1, 1])
    assert e.value.key == "lutetia.err.plan_taken"
    with pytest.raises(RuleError) as e:  # 3 plans from 1-10
        act(st, 1, "enter_hand", plans=[3, 4, 5, 14, 22, 23, 31, 32, 42, 43], mods=[1, 1])
    assert e.value.key == "lutetia.err.enter_area"
    with pytest.raises(RuleError) as e:
        act(st, 1, "enter_hand", plans=[3, 4, 13, 14, 22, 23, 31, 32, 42, 43], mods=[1])
    assert e.value.key == "lutetia.err.enter_mods"
    # a correction before the start replaces the old entry
    st = act(st, 0, "enter_hand", plans=[1, 2, 11, 12, 21, "R3", "R4", 33, 41, 50], mods=[2, 3])
    assert "R4b" in st["out"] and st["players"][0]["mods"] == [2, 3]
    st = act(st, 1, "enter_hand", plans=[3, 4, 13, 14, 22, 23, "R4a", 32, 42, 43], mods=[1, 1])
    assert st["phase"] == "propose"
    assert st["players"][1]["plans"][7] == "R4b"  # either Roman id means "a Roman of 31-40"
    total = sum(len(p["plans"]) for p in st["players"]) + len(st["out"])
    assert total == 60
    assert len(st["mod"]["pile"]) == 32


def test_physical_deal_draws_are_reported_and_maths_still_checked() -> None:
    st = mk(2, deal="physical")
    st = act(st, 0, "enter_hand", plans=[1, 2, 11, 16, 21, 25, 31, 32, 48, 49], mods=[1, 1])
    st = act(st, 1, "enter_hand", plans=[3, 4, 13, 14, 22, 23, 33, 34, 42, 43], mods=[2, 2])
    st = at(st, 20)
    st = act(st, 0, "discard_dead", plan="16")  # 16 + 3 <= 20
    assert st["players"][0]["owed"] == 1 and st["players"][0]["mods"] == [1, 1]
    assert {"type": "report_draw", "value": 3} in L.legal(st, 0)
    assert L.view(st, None)["seats"][0]["mods_count"] == 3
    with pytest.raises(RuleError):
        act(st, 1, "report_draw", value=3)
    st = act(st, 0, "report_draw", value=3)
    assert st["players"][0]["mods"] == [1, 1, 3] and st["players"][0]["owed"] == 0
    # P = 21: plan 22 with a 1 is fine (player 1 has no 1), 23 with 2 is fine, 24 is not held
    st = propose_and_vote(st, 21, ["10", "10"], [FOR, FOR])
    assert st["players"][0]["fulfilled"] == ["21"]
    assert L.view(st, 1)["me"]["fulfil_options"] == [{"plan": "23", "value": 2, "target": 23}]
    with pytest.raises(RuleError) as e:
        act(st, 1, "fulfil", plan="22", value=2)
    assert e.value.key == "lutetia.err.mod_mismatch"


# ---------------------------------------------------------------------------------------------
# Components (defaults and flags)


def test_sixty_plan_cards_ten_numbers_and_two_romans_per_area() -> None:
    assert len(L.ALL_PLANS) == 60
    for a in range(1, 6):
        area = [p for p in L.ALL_PLANS if L.plan_area(p) == a]
        assert len(area) == 12
        assert sorted(int(p) for p in area if not L.is_roman(p)) == list(range(10 * a - 9, 10 * a + 1))
        assert [p for p in area if L.is_roman(p)] == [f"R{a}a", f"R{a}b"]


def test_vote_cards_per_player() -> None:
    assert L.CARDS == ["10", "20", "30", "70", "M", "R"]
    assert L.CARD_VALUE["R"] == 0


def test_mod_deck_option_counts_per_value() -> None:
    st = mk(2)
    assert Counter(st["mod"]["pile"] + [v for p in st["players"] for v in p["mods"]]) == {1: 12, 2: 12, 3: 12}
    st = mk(3, mod_1=2, mod_2=0, mod_3=5)
    assert Counter(st["mod"]["pile"] + [v for p in st["players"] for v in p["mods"]]) == {1: 2, 3: 5}
    st = mk(3, mod_1=1, mod_2=1, mod_3=1)  # fewer cards than 2 per seat: deal while they last
    assert [len(p["mods"]) for p in st["players"]] == [2, 1, 0]
    with pytest.raises(RuleError):
        mk(2, mod_1=31)
    with pytest.raises(RuleError):
        mk(2, mod_1="many")


def test_areas_option_colours_with_blue_and_red_fixed() -> None:
    info = L.view(mk(2), None)["areas"]
    assert [a["colour"] for a in info] == ["green", "yellow", "blue", "red", "purple"]
    assert [(a["lo"], a["hi"]) for a in info] == [(1, 10), (11, 20), (21, 30), (31, 40), (41, 50)]
    for preset in L.AREA_PRESETS:
        names = preset.split("-")
        assert names[2] == "blue" and names[3] == "red"
        assert [a["colour"] for a in L.view(mk(2, areas=preset), None)["areas"]] == names
    with pytest.raises(RuleError):
        mk(2, areas="red-red-red-red-red")


def test_unknown_option_is_refused() -> None:
    with pytest.raises(RuleError):
        mk(2, speed="fast")


# ---------------------------------------------------------------------------------------------
# Turn structure 1: proposal


def test_first_proposal_only_one_to_three() -> None:
    st = mk(3)
    assert [a["to"] for a in L.legal(st, 0) if a["type"] == "propose"] == [1, 2, 3]
    for bad in (0, 4, 5, -1, 99):
        with pytest.raises(RuleError):
            act(st, 0, "propose", to=bad)
    st2 = act(st, 0, "propose", to=3)
    assert st2["asterix"] == 3 and st2["phase"] == "vote" and st2["miraculix"] == 0


def test_later_proposals_one_to_five_beyond_miraculix() -> None:
    st = at(mk(3), 12)
    assert L.propose_targets(st) == [13, 14, 15, 16, 17]  # seed: Miraculix on 12 -> 13..17
    with pytest.raises(RuleError) as e:
        act(st, 0, "propose", to=18)
    assert e.value.key == "lutetia.err.propose_range"
    with pytest.raises(RuleError):
        act(st, 0, "propose", to=12)


def test_after_a_rejected_first_proposal_the_next_may_go_five() -> None:
    st = mk(3)
    st = propose_and_vote(st, 2, ["10", "20", "30"], [FOR, AGAINST, AGAINST])
    assert st["phase"] == "propose" and st["proposer"] == 1 and st["miraculix"] == 0
    assert L.propose_targets(st) == [1, 2, 3, 4, 5]


def test_only_the_proposer_proposes() -> None:
    st = mk(3)
    with pytest.raises(RuleError) as e:
        act(st, 1, "propose", to=1)
    assert e.value.key == "lutetia.err.not_your_turn"
    assert not [a for a in L.legal(st, 1) if a["type"] == "propose"]


# ---------------------------------------------------------------------------------------------
# Turn structure 2: secret choice (sealed round)


def test_secret_choice_everyone_chooses_one_card_and_nobody_sees_it() -> None:
    st = act(mk(3), 0, "propose", to=2)
    st = act(st, 1, "choose", card="70")
    pub = L.view(st, None)
    assert pub["vote"] == {"chosen": [1], "locked": []}
    assert "70" not in json.dumps(pub["vote"]) and "me" not in pub
    other = L.view(st, 2)
    assert other["me"]["chosen"] is None and other["vote"] == pub["vote"]
    assert L.view(st, 1)["me"]["chosen"] == {"card": "70", "side": None}
    st = act(st, 1, "choose", card="20")  # may change until locked
    st = act(st, 1, "lock")
    with pytest.raises(RuleError):
        act(st, 1, "choose", card="30")
    assert L.view(st, None)["vote"] == {"chosen": [1], "locked": [1]}


def test_cannot_choose_a_played_card_or_an_unknown_card() -> None:
    st = act(mk(2), 0, "propose", to=1)
    st["players"][0]["hand"].remove("70")
    st["players"][0]["played"].append("70")
    with pytest.raises(RuleError) as e:
        act(st, 0, "choose", card="70")
    assert e.value.key == "lutetia.err.card_played"
    for bad in ("50", 10, None, "m"):
        with pytest.raises(RuleError):
            act(st, 0, "choose", card=bad)


def test_host_may_force_the_reveal_once_everyone_has_chosen() -> None:
    st = act(mk(2), 0, "propose", to=1)
    st = act(st, 0, "choose", card="10")
    with pytest.raises(RuleError) as e:
        act(st, None, "reveal")
    assert e.value.key == "lutetia.err.not_all_chosen"
    st = act(st, 1, "choose", card="20")
    with pytest.raises(RuleError):
        act(st, 1, "reveal")
    st = act(st, None, "reveal")
    assert st["phase"] == "reveal" and L.reveal_turn(st) == 0


# ---------------------------------------------------------------------------------------------
# Turn structure 3: reveal in seat order from the start player; flag `declare`


def test_reveal_in_seat_order_each_declares_knowing_the_earlier_ones() -> None:
    st = at(mk(3), 10, proposer=1)
    st = act(st, 1, "propose", to=12)
    for s, c in enumerate(["10", "30", "20"]):
        st = act(st, s, "choose", card=c)
    for s in (2, 1, 0):
        st = act(st, s, "lock")
    assert st["phase"] == "reveal" and L.reveal_turn(st) == 0  # start player first, not the proposer
    v = L.view(st, None)
    assert v["turn"] == 0
    assert v["reveals"] == [{"seat": 0, "name": "P0", "card": "10", "side": None, "pending": True}]
    with pytest.raises(RuleError):
        act(st, 1, "declare", side=FOR)
    st = act(st, 0, "declare", side=AGAINST)
    v = L.view(st, 2)
    assert [(r["card"], r["side"]) for r in v["reveals"]] == [("10", AGAINST), ("30", None)]
    assert "20" not in [r["card"] for r in v["reveals"]]  # seat 2's own card is still hidden
    st = act(st, 1, "declare", side=FOR)
    with pytest.raises(RuleError):
        act(st, 2, "declare", side="maybe")
    st = act(st, 2, "declare", side=AGAINST)
    assert st["outcome"]["approved"] is True  # 30 for, 10 + 20 against: a tie approves


def test_r_card_does_not_declare_at_reveal() -> None:
    st = act(clear(mk(3)), 0, "propose", to=1)
    for s, c in enumerate(["R", "10", "20"]):
        st = act(st, s, "choose", card=c)
    for s in range(3):
        st = act(st, s, "lock")
    assert L.reveal_turn(st) == 1  # R was shown and skipped
    assert L.view(st, None)["reveals"][0] == {"seat": 0, "name": "P0", "card": "R", "side": None,
                                               "pending": False}


def test_sealed_declare_side_with_the_card_everything_at_once() -> None:
    st = act(clear(mk(3, declare="sealed")), 0, "propose", to=2)
    with pytest.raises(RuleError) as e:
        act(st, 0, "choose", card="10")
    assert e.value.key == "lutetia.err.side"
    with pytest.raises(RuleError) as e:
        act(st, 0, "choose", card="R", side=FOR)
    assert e.value.key == "lutetia.err.r_no_side"
    st = act(st, 0, "choose", card="70", side=AGAINST)
    st = act(st, 1, "choose", card="R")
    st = act(st, 2, "choose", card="30", side=FOR)
    assert L.view(st, 1)["me"]["chosen"] == {"card": "R", "side": None}
    assert "against" not in json.dumps(L.view(st, 1)["vote"])
    for s in range(3):
        st = act(st, s, "lock")
    assert st["phase"] != "reveal"
    assert [(r["card"], r["side"]) for r in L.view(st, None)["reveals"]] == [("70", AGAINST), ("R", None),
                                                                             ("30", FOR)]
    assert st["outcome"]["approved"] is False


def test_at_reveal_mode_refuses_a_side_with_the_card() -> None:
    st = act(mk(2), 0, "propose", to=1)
    with pytest.raises(RuleError) as e:
        act(st, 0, "choose", card="10", side=FOR)
    assert e.value.key == "lutetia.err.side_at_reveal"


# ---------------------------------------------------------------------------------------------
# Turn structure 4: outcome


def test_sum_for_against_and_tie_approves() -> None:
    st = propose_and_vote(clear(mk(3)), 2, ["10", "20", "30"], [FOR, FOR, AGAINST])
    assert st["outcome"]["approved"] is True
    assert st["outcome"]["reason"] == {"key": "lutetia.reason.tie", "params": {"pro": 30, "contra": 30}}
    st = propose_and_vote(clear(mk(3)), 2, ["10", "70", "30"], [FOR, AGAINST, FOR])
    assert st["outcome"]["approved"] is False
    assert st["outcome"]["reason"] == {"key": "lutetia.reason.count_against",
                                       "params": {"pro": 40, "contra": 70}}
    st = propose_and_vote(clear(mk(2)), 2, ["70", "30"], [FOR, AGAINST])
    assert st["outcome"]["reason"]["key"] == "lutetia.reason.count_for"


def test_r_is_worth_zero() -> None:
    st = propose_and_vote(clear(mk(3)), 2, ["R", "R", "10"], [None, None, AGAINST])
    assert st["outcome"]["approved"] is False and st["outcome"]["reason"]["params"] == {"pro": 0, "contra": 10}
    st = propose_and_vote(clear(mk(2)), 2, ["R", "R"], [None, None])
    assert st["outcome"]["approved"] is True  # 0 : 0 is a tie


def test_m_card_decides_alone_nothing_is_counted() -> None:
    st = propose_and_vote(clear(mk(3)), 2, ["70", "M", "30"], [FOR, AGAINST, FOR])
    assert st["outcome"]["approved"] is False
    assert st["outcome"]["reason"] == {"key": "lutetia.reason.m_against", "params": {"name": "P1"}}
    assert i18n.t("en", "lutetia.reason.m_against", name="P1") == "The M card of P1 decides: against."
    st = propose_and_vote(clear(mk(3)), 2, ["M", "70", "30"], [FOR, AGAINST, AGAINST])
    assert st["outcome"]["approved"] is True


def test_two_ms_in_one_vote_first_in_reveal_order_decides() -> None:
    st = clear(mk(3))
    st = act(st, 0, "propose", to=2)
    for s, c in enumerate(["10", "M", "M"]):
        st = act(st, s, "choose", card=c)
    for s in range(3):
        st = act(st, s, "lock")
    st = act(st, 0, "declare", side=FOR)
    st = act(st, 1, "declare", side=AGAINST)
    # after the first M nobody needs to declare: the later M is shown and overruled
    assert st["phase"] != "reveal"
    assert st["outcome"]["approved"] is False and st["outcome"]["reason"]["params"] == {"name": "P1"}
    assert st["players"][1]["played"] == ["M"]
    assert st["players"][2]["played"] == [] and st["players"][2]["hand"] == L.CARDS
    assert len(st["players"][2]["mods"]) == 1  # the overruled M draws a mod card
    assert len(st["players"][1]["mods"]) == 0
    assert "lutetia.log.m_overruled" in keys_of(st) and "lutetia.log.m_wins" in keys_of(st)


def test_two_ms_sealed_declare_first_in_reveal_order_decides() -> None:
    st = clear(mk(3, declare="sealed"))
    st = propose_and_vote(st, 2, ["M", "70", "M"], [FOR, AGAINST, AGAINST])
    assert st["outcome"]["approved"] is True
    assert st["outcome"]["reason"] == {"key": "lutetia.reason.m_for", "params": {"name": "P0"}}


# ---------------------------------------------------------------------------------------------
# Turn structure 5: rejected


def test_rejected_asterix_leaves_no_plans_next_seat_proposes() -> None:
    st = clear(at(mk(3), 10, proposer=2))
    set_plans(st, 1, ["12"])
    st = propose_and_vote(st, 12, ["10", "20", "70"], [FOR, FOR, AGAINST])
    assert st["outcome"]["approved"] is False
    assert st["asterix"] is None and st["miraculix"] == 10
    assert st["players"][1]["plans"] == ["12"] and not st["players"][1]["fulfilled"]
    assert st["phase"] == "propose" and st["proposer"] == 0  # next in seat order after seat 2
    assert L.propose_targets(st) == [11, 12, 13, 14, 15]


# ---------------------------------------------------------------------------------------------
# Turn structure 6: approved (seed example 18 -> 21 with plans 20 and 24)


def test_seed_example_miraculix_18_to_21_with_mod_cards_1_and_3() -> None:
    st = clear(at(mk(3), 18, proposer=0))
    set_plans(st, 0, ["21", "40"])
    set_plans(st, 1, ["20", "45"])
    set_plans(st, 2, ["24", "5"])
    set_mods(st, 0, [2])
    set_mods(st, 1, [1, 2])
    set_mods(st, 2, [3])
    st = propose_and_vote(st, 21, ["10", "20", "30"], [FOR, FOR, FOR])
    assert st["miraculix"] == 21 and st["asterix"] is None
    assert st["players"][0]["fulfilled"] == ["21"]  # the holder lays plan 21 face up
    assert st["phase"] == "after"
    assert L.view(st, 0)["me"]["tasks"] == []  # the holder does not modify (default)
    assert L.view(st, 1)["me"]["fulfil_options"] == [{"plan": "20", "value": 1, "target": 20}]
    assert L.view(st, 2)["me"]["fulfil_options"] == [{"plan": "24", "value": 3, "target": 24}]
    assert L.view(st, None)["waiting"] == 2
    with pytest.raises(RuleError) as e:
        act(st, 1, "fulfil", plan="20", value=2)
    assert e.value.key == "lutetia.err.mod_mismatch"
    st = act(st, 1, "fulfil", plan="20", value=1)
    assert st["players"][1]["fulfilled"] == ["20"] and st["players"][1]["mods"] == [2]
    assert st["mod"]["discard"] == [1]
    assert st["phase"] == "after"
    st = act(st, 2, "fulfil", plan="24", value=3)
    assert st["players"][2]["fulfilled"] == ["24"]
    assert st["phase"] == "propose" and st["proposer"] == 0  # the same proposer continues
    assert L.propose_targets(st) == [22, 23, 24, 25, 26]


def test_at_most_one_plan_per_player_with_exactly_one_card() -> None:
    st = clear(at(mk(2), 18))
    set_plans(st, 1, ["19", "23", "24"])
    set_mods(st, 1, [2, 3])
    st = propose_and_vote(st, 21, ["10", "10"], [FOR, FOR])
    opts = L.view(st, 1)["me"]["fulfil_options"]
    assert opts == [{"plan": "19", "value": 2, "target": 19}, {"plan": "23", "value": 2, "target": 23},
                    {"plan": "24", "value": 3, "target": 24}]
    with pytest.raises(RuleError):  # 26 = 21 + 2 + 3 would need two cards
        act(st, 1, "fulfil", plan="26", value=3)
    st = act(st, 1, "fulfil", plan="23", value=2)
    assert L.view(st, 1)["me"]["tasks"] == [] and st["phase"] == "after"  # one plan only: done
    st = act(st, 0, "pass", task="modify")  # seat 0 holds nothing: it answers all the same
    assert st["phase"] == "propose"
    assert st["players"][1]["plans"] == ["19", "24"]
    with pytest.raises(RuleError) as e:
        act(st, 1, "fulfil", plan="24", value=3)
    assert e.value.key == "lutetia.err.no_task"


def test_modify_step_pass_and_host_skip() -> None:
    st = clear(at(mk(3), 18))
    set_plans(st, 1, ["20"])
    set_mods(st, 1, [1])
    set_plans(st, 2, ["22"])
    set_mods(st, 2, [1])
    st = propose_and_vote(st, 21, ["10", "10", "10"], [FOR, FOR, FOR])
    assert {"type": "pass", "task": "modify"} in L.legal(st, 1)
    st2 = act(st, 1, "pass", task="modify")
    assert st2["phase"] == "after" and st2["players"][1]["plans"] == ["20"]
    assert L.legal(st2, None) == [{"type": "skip"}]
    st3 = act(st2, None, "skip")
    assert st3["phase"] == "propose" and st3["players"][2]["plans"] == ["22"]
    with pytest.raises(RuleError):
        act(st2, 2, "skip")


def test_players_without_a_possible_plan_still_answer_the_step() -> None:
    """Issue 17/7: whether anyone could fulfil a plan must not show in the phase, the waiting
    count or anybody's legal actions – every seat answers, the one without a fit only "pass"."""
    st = clear(at(mk(3), 18))
    set_plans(st, 1, ["30"])
    set_mods(st, 1, [1])
    st = propose_and_vote(st, 21, ["10", "10", "10"], [FOR, FOR, FOR])
    assert st["phase"] == "after"
    assert L.view(st, None)["waiting"] == 3 and L.view(st, None)["pending"] == [0, 1, 2]
    assert L.legal(st, 1) == [{"type": "pass", "task": "modify"}]
    assert L.legal(st, 0) == [{"type": "pass", "task": "modify"}]  # no propose while others answer
    st = answer(st)
    assert st["phase"] == "propose" and L.view(st, None)["waiting"] == 0


def test_holder_may_also_modify_flag() -> None:
    for flag, expect in ((False, []), (True, [{"plan": "22", "value": 1, "target": 22}])):
        st = clear(at(mk(2, holder_may_also_modify=flag), 18))
        set_plans(st, 0, ["21", "22"])
        set_mods(st, 0, [1])
        st = propose_and_vote(st, 21, ["10", "10"], [FOR, FOR])
        assert st["players"][0]["fulfilled"] == ["21"]
        assert L.view(st, 0)["me"]["fulfil_options"] == expect


def test_nobody_holds_the_reached_plan_then_everybody_may_modify() -> None:
    st = clear(at(mk(2), 18))
    set_plans(st, 0, ["22"])
    set_mods(st, 0, [1])
    st = propose_and_vote(st, 21, ["10", "10"], [FOR, FOR])
    assert L.view(st, 0)["me"]["fulfil_options"] == [{"plan": "22", "value": 1, "target": 22}]


def test_proposer_keeps_proposing_until_rejected() -> None:
    st = clear(at(mk(3), 5, proposer=1))
    st = answer(propose_and_vote(st, 6, ["10", "10", "10"], [FOR, FOR, FOR]))
    assert st["proposer"] == 1 and st["phase"] == "propose"
    st = answer(propose_and_vote(st, 8, ["20", "20", "20"], [FOR, FOR, FOR]))
    assert st["proposer"] == 1 and st["miraculix"] == 8
    st = propose_and_vote(st, 9, ["30", "30", "30"], [AGAINST, AGAINST, FOR])
    assert st["proposer"] == 2 and st["miraculix"] == 8


# ---------------------------------------------------------------------------------------------
# Vote-card hand


def test_played_cards_stay_until_all_six_are_played_then_all_come_back() -> None:
    st = clear(mk(2))
    sequence = ["10", "20", "30", "70", "R"]
    for i, c in enumerate(sequence):
        st = at(st, i * 2, proposer=0)
        st = answer(propose_and_vote(st, i * 2 + 1, [c, c], [FOR if c != "R" else None] * 2))
        assert st["players"][0]["played"] == sequence[: i + 1]
        assert st["players"][0]["hand"] == [x for x in L.CARDS if x not in sequence[: i + 1]]
    st = act(st, st["proposer"], "propose", to=st["miraculix"] + 1)
    with pytest.raises(RuleError):
        act(st, 0, "choose", card="10")
    assert [a["card"] for a in L.legal(st, 0) if a["type"] == "choose"] == ["M"]
    # both play M (the last card): the first M wins, the second is overruled
    st = vote(st, ["M", "M"], [FOR, AGAINST])
    # winner: the five others come back, M stays played
    assert st["players"][0]["hand"] == ["10", "20", "30", "70", "R"]
    assert st["players"][0]["played"] == ["M"]
    # overruled: everything back
    assert st["players"][1]["hand"] == L.CARDS and st["players"][1]["played"] == []


def test_hand_cycle_takes_all_back_after_the_sixth_card() -> None:
    st = clear(mk(2))
    st["players"][0]["hand"] = ["70"]
    st["players"][0]["played"] = ["10", "20", "30", "M", "R"]
    st = propose_and_vote(st, 1, ["70", "10"], [FOR, FOR])
    assert st["players"][0]["hand"] == L.CARDS and st["players"][0]["played"] == []
    assert "lutetia.log.hand_back" in keys_of(st)
    assert st["players"][1]["played"] == ["10"]


def test_winning_m_comes_back_only_after_the_other_five_are_played_again() -> None:
    st = clear(mk(2))
    st = answer(propose_and_vote(st, 1, ["M", "10"], [FOR, FOR]))
    assert st["players"][0]["played"] == ["M"] and "M" not in st["players"][0]["hand"]
    for i, c in enumerate(["10", "20", "30", "70"]):
        st = answer(propose_and_vote(at(st, 2 + i, 0), 3 + i, [c, "20" if i % 2 else "30"], [FOR, FOR]))
        st["players"][1]["hand"], st["players"][1]["played"] = list(L.CARDS), []
        assert "M" not in st["players"][0]["hand"]
    st = propose_and_vote(at(st, 10, 0), 11, ["R", "10"], [None, FOR])
    assert st["players"][0]["hand"] == L.CARDS and st["players"][0]["played"] == []


def test_winning_m_takes_back_the_others_mid_cycle() -> None:
    st = clear(mk(2))
    st["players"][0]["hand"] = ["70", "M", "R"]
    st["players"][0]["played"] = ["10", "20", "30"]
    st = propose_and_vote(st, 1, ["M", "10"], [AGAINST, FOR])
    assert st["outcome"]["approved"] is False
    assert st["players"][0]["hand"] == ["10", "20", "30", "70", "R"] and st["players"][0]["played"] == ["M"]


def test_overruled_m_takes_back_everything_and_draws() -> None:
    st = clear(mk(3))
    st["players"][2]["hand"] = ["70", "M"]
    st["players"][2]["played"] = ["10", "20", "30", "R"]
    pile = len(st["mod"]["pile"])
    st = propose_and_vote(st, 1, ["M", "10", "M"], [FOR, FOR, AGAINST])
    assert st["players"][2]["hand"] == L.CARDS and st["players"][2]["played"] == []
    assert len(st["players"][2]["mods"]) == 1 and len(st["mod"]["pile"]) == pile - 1


# ---------------------------------------------------------------------------------------------
# Roman (R card) – seed example: Miraculix on 32 (red), a blue Roman needs a 2 or 3 card


def test_seed_example_roman_on_32_blue_roman_with_2_or_3() -> None:
    st = clear(at(mk(3), 32, proposer=0))
    set_plans(st, 2, ["R3a", "R5a"])
    set_mods(st, 2, [1, 2, 3])
    st = propose_and_vote(st, 33, ["10", "30", "R"], [FOR, AGAINST, None])  # rejected: stays 32
    assert st["miraculix"] == 32 and st["phase"] == "after"
    me = L.view(st, 2)["me"]
    assert me["tasks"] == ["roman"]
    assert me["roman_options"] == [{"plan": "R3a", "value": 2, "target": 30},
                                   {"plan": "R3a", "value": 3, "target": 29}]
    with pytest.raises(RuleError) as e:
        act(st, 2, "roman", plan="R3a", value=1)
    assert e.value.key == "lutetia.err.roman_mismatch"
    with pytest.raises(RuleError) as e:
        act(st, 2, "roman", plan="R5a", value=0)
    assert e.value.key == "lutetia.err.roman_mismatch"
    with pytest.raises(RuleError):
        act(st, 1, "roman", plan="R3a", value=2)
    st2 = act(st, 2, "roman", plan="R3a", value=2)
    assert st2["players"][2]["fulfilled"] == ["R3a"] and st2["players"][2]["mods"] == [1, 3]
    assert st2["phase"] == "propose"
    assert L.view(st2, None)["seats"][2]["fulfilled_count"] == 1  # a Roman counts as fulfilled


def test_roman_in_the_own_area_needs_no_mod_card() -> None:
    st = clear(at(mk(2), 32))
    set_plans(st, 1, ["R4b", "R4a"])
    set_mods(st, 1, [3])
    st = propose_and_vote(st, 33, ["70", "R"], [AGAINST, None])
    assert L.view(st, 1)["me"]["roman_options"] == [{"plan": "R4a", "value": 0, "target": 32}]
    st = act(st, 1, "roman", plan="R4b", value=0)  # either of the two red Romans
    assert st["players"][1]["fulfilled"] == ["R4b"] and st["players"][1]["mods"] == [3]


def test_roman_pass_or_impossible_draws_a_mod_card() -> None:
    st = clear(at(mk(2), 32))
    set_plans(st, 1, ["R4a"])
    st2 = propose_and_vote(st, 33, ["70", "R"], [AGAINST, None])
    st2 = act(st2, 1, "pass", task="roman")
    assert st2["players"][1]["plans"] == ["R4a"] and len(st2["players"][1]["mods"]) == 1
    assert st2["phase"] == "propose"
    set_plans(st, 1, ["R1a"])  # no matching Roman: only "pass" – and the same history text
    st3 = propose_and_vote(st, 33, ["70", "R"], [AGAINST, None])
    assert st3["phase"] == "after" and L.legal(st3, 1) == [{"type": "pass", "task": "roman"}]
    st3 = act(st3, 1, "pass", task="roman")
    assert st3["phase"] == "propose" and len(st3["players"][1]["mods"]) == 1
    assert keys_of(st3) == keys_of(st2) and st3["log"][-2:] == st2["log"][-2:]


def test_host_skip_of_a_roman_task_draws_the_card() -> None:
    st = clear(at(mk(2), 32))
    set_plans(st, 1, ["R4a"])
    st = propose_and_vote(st, 33, ["70", "R"], [AGAINST, None])
    st = act(st, None, "skip")
    assert st["phase"] == "propose" and len(st["players"][1]["mods"]) == 1


def test_roman_position_after_vote_or_before_vote() -> None:
    # Miraculix 29 (blue), proposal 32 approved; a blue Roman and no mod card
    for flag, opts in (("after_vote", []), ("before_vote", [{"plan": "R3a", "value": 0, "target": 29}])):
        st = clear(at(mk(2, roman_position=flag), 29))
        set_plans(st, 1, ["R3a"])
        st = propose_and_vote(st, 32, ["10", "R"], [FOR, None])
        assert st["miraculix"] == 32
        if opts:
            assert L.view(st, 1)["me"]["roman_options"] == opts
        else:
            assert L.view(st, 1)["me"]["roman_options"] == [] and st["phase"] == "after"
            st = answer(st)
            assert st["phase"] == "propose" and len(st["players"][1]["mods"]) == 1


def test_roman_and_modify_in_the_same_vote() -> None:
    st = clear(at(mk(2), 18))
    set_plans(st, 1, ["20", "R3a"])
    set_mods(st, 1, [1])
    st = propose_and_vote(st, 21, ["10", "R"], [FOR, None])
    me = L.view(st, 1)["me"]
    assert sorted(me["tasks"]) == ["modify", "roman"]
    assert me["roman_options"] == [{"plan": "R3a", "value": 0, "target": 21}]
    st = act(st, 1, "fulfil", plan="20", value=1)
    st = act(st, 1, "roman", plan="R3a", value=0)
    assert sorted(st["players"][1]["fulfilled"]) == ["20", "R3a"] and st["phase"] == "after"
    st = act(st, 0, "pass", task="modify")
    assert st["phase"] == "propose"


def test_roman_with_a_mod_card_forward_into_the_next_area() -> None:
    st = clear(at(mk(2), 18))
    set_plans(st, 1, ["20", "R3a"])
    set_mods(st, 1, [1])
    st = propose_and_vote(st, 20, ["10", "R"], [FOR, None])  # 20 (yellow) + 1 = 21 (blue)
    assert st["players"][1]["fulfilled"] == ["20"]  # seat 1 held plan 20 itself
    assert L.view(st, 1)["me"]["roman_options"] == [{"plan": "R3a", "value": 1, "target": 21}]


def test_roman_task_stays_when_its_mod_card_was_used_and_its_pass_draws() -> None:
    st = clear(at(mk(2), 18))
    set_plans(st, 1, ["20", "R2a"])
    set_mods(st, 1, [1])
    st = propose_and_vote(st, 21, ["10", "R"], [FOR, None])
    me = L.view(st, 1)["me"]
    assert me["fulfil_options"] == [{"plan": "20", "value": 1, "target": 20}]
    assert me["roman_options"] == [{"plan": "R2a", "value": 1, "target": 20}]
    st = act(st, 1, "fulfil", plan="20", value=1)
    assert st["phase"] == "after" and st["players"][1]["plans"] == ["R2a"]
    assert L.legal(st, 1) == [{"type": "pass", "task": "roman"}]  # the task stays: only "pass"
    st = answer(st)
    assert st["phase"] == "propose" and "lutetia.log.roman_pass" in keys_of(st)
    assert len(st["players"][1]["mods"]) == 1


# ---------------------------------------------------------------------------------------------
# Dead plans


def test_dead_plans_offered_on_the_proposing_turn_and_draw_a_mod_card() -> None:
    st = clear(at(mk(3), 20, proposer=0))
    set_plans(st, 0, ["16", "17", "18", "R1a", "R2a", "30"])
    dead = [a["plan"] for a in L.legal(st, 0) if a["type"] == "discard_dead"]
    assert dead == ["R1a", "16", "17"]  # 17 + 3 = 20: no later proposal (21+) can reach it
    assert L.view(st, 0)["me"]["dead_plans"] == ["R1a", "16", "17"]
    assert [a for a in L.legal(st, 1) if a["type"] == "discard_dead"] == []
    with pytest.raises(RuleError) as e:
        act(st, 0, "discard_dead", plan="18")
    assert e.value.key == "lutetia.err.not_dead"
    set_plans(st, 1, ["12"])
    with pytest.raises(RuleError) as e:
        act(st, 1, "discard_dead", plan="12")
    assert e.value.key == "lutetia.err.not_your_turn"
    st = act(st, 0, "discard_dead", plan="16")
    assert st["players"][0]["dead"] == ["16"] and "16" not in st["players"][0]["plans"]
    assert len(st["players"][0]["mods"]) == 1
    assert L.view(st, None)["seats"][0]["fulfilled_count"] == 0  # it does not count
    plans = {p["id"]: p["status"] for g in L.view(st, 0)["me"]["plans"] for p in g["plans"]}
    assert plans["16"] == "dead" and plans["18"] == "open"
    st = act(st, 0, "discard_dead", plan="R1a")
    assert len(st["players"][0]["mods"]) == 2


def test_dead_limit_follows_the_largest_mod_card_in_the_deck() -> None:
    st = clear(at(mk(2, mod_3=0), 20))
    set_plans(st, 0, ["17", "18", "19"])
    assert L.dead_plans(st, 0) == ["17", "18"]


# ---------------------------------------------------------------------------------------------
# Modification deck


def test_draw_reshuffles_the_discard_pile_and_nothing_when_both_are_empty() -> None:
    st = clear(at(mk(2), 20))
    set_plans(st, 0, ["1", "2", "3"])
    st["mod"]["discard"] = st["mod"]["pile"][:2]
    st["mod"]["pile"] = []
    st = act(st, 0, "discard_dead", plan="1")
    assert "lutetia.log.reshuffle" in keys_of(st)
    assert len(st["players"][0]["mods"]) == 1 and len(st["mod"]["pile"]) == 1 and st["mod"]["discard"] == []
    st = act(st, 0, "discard_dead", plan="2")
    assert len(st["players"][0]["mods"]) == 2 and st["mod"]["pile"] == []
    st = act(st, 0, "discard_dead", plan="3")
    assert len(st["players"][0]["mods"]) == 2
    assert keys_of(st)[-1] == "lutetia.log.no_card"


def test_used_mod_cards_go_to_the_discard_pile() -> None:
    st = clear(at(mk(2), 18))
    set_plans(st, 1, ["24"])
    set_mods(st, 1, [3])
    st = propose_and_vote(st, 21, ["10", "10"], [FOR, FOR])
    st = act(st, 1, "fulfil", plan="24", value=3)
    assert st["mod"]["discard"] == [3]
    assert L.view(st, None)["mod_discard"] == 1


# ---------------------------------------------------------------------------------------------
# End and scoring (end on 53, counting back with a 3)


def test_end_on_53_last_plans_counted_back_with_a_3() -> None:
    st = clear(at(mk(3), 48, proposer=0))
    set_plans(st, 1, ["50"])
    set_mods(st, 1, [3])
    set_plans(st, 2, ["49"])
    set_mods(st, 2, [3])
    set_plans(st, 0, ["R5a", "45"])
    set_mods(st, 0, [1, 2])
    assert L.propose_targets(st) == [49, 50, 51, 52, 53]  # beyond 50: the virtual track
    st = propose_and_vote(st, 53, ["10", "10", "R"], [FOR, FOR, None])
    assert st["miraculix"] == 53 and st["phase"] == "after"
    assert L.view(st, 1)["me"]["fulfil_options"] == [{"plan": "50", "value": 3, "target": 50}]
    assert L.view(st, 2)["me"]["roman_options"] == []  # 53 counts to the last area, 49 no Roman
    st = act(st, 1, "fulfil", plan="50", value=3)
    assert st["phase"] == "after"  # seat 0 and seat 2 (R, no Roman fits) answer too
    st = answer(st)
    assert st["phase"] == "over"
    assert "lutetia.log.over" in keys_of(st)
    with pytest.raises(RuleError) as e:
        act(st, 0, "propose", to=54)
    assert e.value.key == "err.game_over"
    res = L.result(st)
    assert res is not None
    assert res["seats"][1]["fulfilled"] == ["50"]


def test_end_when_reaching_exactly_50() -> None:
    st = clear(at(mk(2), 47))
    set_plans(st, 0, ["50"])
    st = answer(propose_and_vote(st, 50, ["10", "10"], [FOR, FOR]))
    assert st["phase"] == "over" and st["players"][0]["fulfilled"] == ["50"]
    assert L.result(st)["winners"] == [0]


def test_a_rejected_vote_does_not_end_the_game() -> None:
    st = clear(at(mk(2), 49))
    st = propose_and_vote(st, 52, ["10", "70"], [FOR, AGAINST])
    assert st["phase"] == "propose" and L.result(st) is None


def test_result_most_plans_then_most_mod_cards_else_shared() -> None:
    st = clear(mk(4))
    st["phase"] = "over"
    st["players"][0]["fulfilled"] = ["1", "2", "3"]
    st["players"][1]["fulfilled"] = ["4", "5"]
    st["players"][2]["fulfilled"] = ["6", "R1a"]
    st["players"][3]["fulfilled"] = ["7", "8"]
    st["players"][1]["mods"] = [1, 2]
    st["players"][2]["mods"] = [3]
    st["players"][3]["mods"] = [3]
    res = L.result(st)
    rows = res["seats"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 3]
    assert res["winners"] == [0] and res["shared"] is False
    assert rows[0]["tiebreak"] is None
    names = [r["name"] for r in rows]
    assert rows[1]["tiebreak"] == {"key": "lutetia.tb.mods",
                                   "params": {"plans": 2, "mods": 2, "others": f"{names[2]}, {names[3]}"}}
    assert rows[2]["tiebreak"] == {"key": "lutetia.tb.shared", "params": {"plans": 2, "mods": 1, "others": names[3]}}
    assert rows[3]["tiebreak"]["params"]["others"] == names[2]
    assert rows[2]["fulfilled"] == ["6", "R1a"] and rows[2]["mods_left"] == 1
    assert res["ranking"] == [0, 1, 2, 3]
    st["players"][0]["fulfilled"] = ["1", "2"]
    st["players"][0]["mods"] = [1, 1]
    res = L.result(st)
    assert res["winners"] == [0, 1] and res["shared"] is True


def test_result_counts_unreported_physical_draws_as_cards_left() -> None:
    st = clear(mk(2))
    st["phase"] = "over"
    st["players"][0]["owed"] = 1
    assert L.result(st)["seats"][0]["mods_left"] == 1


def test_result_is_none_while_playing() -> None:
    assert L.result(mk(2)) is None


# ---------------------------------------------------------------------------------------------
# views


def test_public_view_has_the_table_state_and_no_secrets() -> None:
    st = act(mk(3), 0, "propose", to=3)
    st = act(st, 2, "choose", card="M")
    v = L.view(st, None)
    for key in ("phase", "turn", "miraculix", "asterix", "seats", "mod_pile", "log", "vote", "reveals",
                "outcome", "legal", "areas"):
        assert key in v
    assert v["asterix"] == 3 and v["miraculix"] == 0
    assert "me" not in v
    for s in v["seats"]:
        assert set(s) == {"seat", "name", "colour", "fulfilled", "fulfilled_labels", "fulfilled_count",
                          "open_count", "dead_count", "mods_count", "played", "hand_count", "entered"}
    assert v["mod_pile"] == 30
    json.dumps(v)


def test_seat_view_groups_plans_by_area_with_status() -> None:
    st = mk(3)
    me = L.view(st, 1)["me"]
    assert [g["area"] for g in me["plans"]] == [1, 2, 3, 4, 5]
    assert all(len(g["plans"]) == 2 for g in me["plans"])
    assert {p["status"] for g in me["plans"] for p in g["plans"]} == {"open"}
    assert me["hand"] == L.CARDS and me["mods"] == sorted(st["players"][1]["mods"])
    assert L.view(st, 1)["legal"] == []
    assert L.view(st, 0)["legal"][0]["type"] == "propose"


# ---------------------------------------------------------------------------------------------
# bad payloads and the catalog


@pytest.mark.parametrize("action", [
    None, [], "propose", {}, {"type": 5}, {"type": "fly", "seat": 0}, {"type": "propose", "seat": "0", "to": 1},
    {"type": "propose", "seat": 9, "to": 1}, {"type": "propose", "seat": True, "to": 1},
    {"type": "propose", "seat": 0, "to": "2"}, {"type": "propose", "seat": 0, "to": 2.0},
    {"type": "propose", "seat": 0, "to": True}, {"type": "propose", "seat": 0, "to": 10**30},
    {"type": "propose", "seat": None, "to": 1}, {"type": "lock", "seat": 0}, {"type": "declare", "seat": 0},
    {"type": "fulfil", "seat": 0, "plan": "21", "value": 1}, {"type": "discard_dead", "seat": 0, "plan": {}},
    {"type": "discard_dead", "seat": 0, "plan": "R9a"}, {"type": "report_draw", "seat": 0, "value": 1},
    {"type": "enter_hand", "seat": 0, "plans": [], "mods": []}, {"type": "skip", "seat": None},
    {"type": "reveal", "seat": None}, {"type": "pass", "seat": 0, "task": "modify"},
    {"type": "roman", "seat": 0, "plan": "R1a", "value": -1},
])
def test_bad_payloads_raise_rule_error_and_leave_the_state(action: Any) -> None:
    st = mk(3)
    before = json.dumps(st, sort_keys=True)
    with pytest.raises(RuleError):
        L.apply(st, action)
    assert json.dumps(st, sort_keys=True) == before


def test_every_catalog_key_in_all_three_languages_and_every_used_key_exists() -> None:
    for lang in ("en", "de", "fr"):
        assert set(L.MESSAGES[lang]) == set(L.MESSAGES["en"])
        assert all(L.MESSAGES[lang].values())
    src = "".join((Path(L.__file__).parent / f"{m}.py").read_text()
                  for m in ("rules", "plans", "vote", "scoring", "screens"))
    used = set(re.findall(r'"(lutetia\.[a-z_.0-9]+)"', src))
    used |= {f"lutetia.log.reveal_{s}" for s in L.SIDES} | {f"lutetia.reason.m_{s}" for s in L.SIDES}
    used |= {f"lutetia.opt.areas.{p}" for p in L.AREA_PRESETS} | {f"lutetia.colour.{c}" for c in L.COLOURS}
    used |= {f"lutetia.phase.{p}" for p in ("enter", "propose", "vote", "reveal", "after", "over")}
    used |= {f"lutetia.side.{s}" for s in L.SIDES} | {"lutetia.card.M", "lutetia.card.R"}
    used = {k for k in used if not k.endswith(".")}
    missing = sorted(k for k in used if k not in L.MESSAGES["en"])
    assert not missing, missing
    for o in L.OPTIONS:
        assert o.label in L.MESSAGES["en"] and (not o.help or o.help in L.MESSAGES["en"])
        assert all(k in L.MESSAGES["en"] for k in o.choice_labels)


def test_placeholders_match_across_languages() -> None:
    for key, en in L.MESSAGES["en"].items():
        want = set(re.findall(r"{(\w+)}", en))
        for lang in ("de", "fr"):
            assert set(re.findall(r"{(\w+)}", L.MESSAGES[lang][key])) == want, (lang, key)


def test_rule_errors_read_in_every_language() -> None:
    st = at(mk(3), 12)
    with pytest.raises(RuleError) as e:
        act(st, 0, "propose", to=30)
    assert str(e.value) == "Asterix may go to a space from 13 to 17."
    assert i18n.t("de", e.value.key, **e.value.params) == "Asterix darf auf ein Feld von 13 bis 17."
    assert "13" in i18n.t("fr", e.value.key, **e.value.params)


def test_clone_does_not_share_mutable_state() -> None:
    st = mk(2)
    st2 = act(st, 0, "propose", to=1)
    assert st["phase"] == "propose" and st["asterix"] is None
    assert st2["log"] is not st["log"] and len(st2["log"]) == len(st["log"]) + 1
    assert base.clone(st) == st


def test_a_card_drawn_for_no_roman_can_serve_the_modify_step() -> None:
    st = clear(at(mk(2), 18))
    set_plans(st, 1, ["22"])
    st["mod"]["pile"].remove(1)
    st["mod"]["pile"].append(1)  # the next card drawn is a 1
    st = propose_and_vote(st, 21, ["10", "R"], [FOR, None])
    assert L.view(st, 1)["me"]["fulfil_options"] == []
    st = act(st, 1, "pass", task="roman")  # no Roman plan: the card drawn is a 1
    assert "lutetia.log.roman_pass" in keys_of(st)
    assert L.view(st, 1)["me"]["fulfil_options"] == [{"plan": "22", "value": 1, "target": 22}]


def test_physical_unreported_draw_keeps_the_modify_task_open() -> None:
    st = mk(2, deal="physical")
    st = act(st, 0, "enter_hand", plans=[1, 2, 11, 12, 21, 25, 31, 32, 41, 42], mods=[2, 2])
    st = act(st, 1, "enter_hand", plans=[3, 4, 13, 14, 22, 23, 33, 34, 43, 44], mods=[3, 3])
    st = propose_and_vote(at(st, 18), 21, ["10", "R"], [FOR, None])
    assert st["players"][0]["fulfilled"] == ["21"]
    assert sorted(L.view(st, 1)["me"]["tasks"]) == ["modify", "roman"]
    st = act(st, 1, "pass", task="roman")
    assert st["players"][1]["owed"] == 1 and st["phase"] == "after"
    assert L.view(st, 1)["me"]["tasks"] == ["modify"] and L.view(st, 1)["me"]["fulfil_options"] == []
    assert {"type": "pass", "task": "modify"} in L.legal(st, 1)
    st = act(st, 1, "report_draw", value=1)
    assert L.view(st, 1)["me"]["fulfil_options"] == [{"plan": "22", "value": 1, "target": 22}]
    st = act(st, 1, "fulfil", plan="22", value=1)
    assert st["phase"] == "propose" and st["players"][1]["fulfilled"] == ["22"]
