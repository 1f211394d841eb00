"""Lutèce rules: setup, choosing and bribing, every resolution case, refill, end of game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion import i18n
from companion.games.base import RuleError
from companion.games.lutece import rules as L

i18n.register(L.MESSAGES)


def seats(n: int) -> list[dict[str, Any]]:
    return [{"name": nm, "colour": c} for nm, c in zip("Ann Bob Cid Dee Eve".split(), "rgbyp", strict=True)][:n]


def new(n: int = 3, **opts: Any) -> dict[str, Any]:
    return L.setup(opts, seats(n), seed=7)


def act(state: dict[str, Any], seat: int | None, **action: Any) -> dict[str, Any]:
    return L.apply(state, {"seat": seat, **action})


def play(state: dict[str, Any], picks: dict[int, tuple[list[str], list[int]]]) -> dict[str, Any]:
    """One choose step: the given seats pick and bribe and lock; the host reveals if others are idle."""
    for s, (cards, bribes) in picks.items():
        state = act(state, s, type="pick", cards=cards)
        for i, b in enumerate(bribes):
            if b:
                state = act(state, s, type="bribe", card=i, amount=b)
    for s in picks:
        state = act(state, s, type="lock")
    if state["phase"] == "choose":
        state = act(state, None, type="reveal")
    return state


def keys(state: dict[str, Any]) -> list[str]:
    return [e["key"] for e in state["resolution"]]


def refill(state: dict[str, Any], cost: int = 0) -> dict[str, Any]:
    for sid in L.view(state, None)["refill"]["pending"]:
        state = act(state, None, type="set_cost", slot=sid, cost=cost)
    return act(state, None, type="next_round")


# --------------------------------------------------------------------------- setup

@pytest.mark.parametrize("n,letters,numerals", [
    (2, "A B C", "I II III"), (3, "A B C", "I II III"),
    (4, "A B C D", "I II III IV"), (5, "A B C D E", "I II III IV V"),
])
def test_setup_per_player_count(n: int, letters: str, numerals: str) -> None:
    st = new(n)
    assert st["letters"] == letters.split() and st["numerals"] == numerals.split()
    v = L.view(st, 0)
    assert [s["id"] for s in v["slots"]] == letters.split() + numerals.split()
    assert v["me"]["hand"] == letters.split() + numerals.split() + ["R", "R"]
    assert all(p["gold"] == 5 for p in v["players"])
    assert all(s["cost"] == 0 and s["coins"] == 0 for s in v["slots"])
    assert st["bank"] == -5 * n and v["bank"] is None and v["bank_unlimited"]
    assert L.gold_total(st) == 0
    json.loads(json.dumps(st))


def test_setup_finite_bank_and_bad_counts() -> None:
    st = new(5, bank="46")
    assert st["bank"] == 46 - 25 and L.gold_total(st) == 46
    assert L.view(st, None)["bank"] == 21
    for n in (1, 6):
        with pytest.raises(RuleError):
            L.setup({}, seats(5) + [{"name": "X"}] if n == 6 else seats(1), 1)
    with pytest.raises(RuleError):
        L.setup({"bribes": "whisper"}, seats(3), 1)


def test_set_cost_host_only_and_range() -> None:
    st = new()
    st = act(st, None, type="set_cost", slot="B", cost=2)
    assert L.view(st, None)["slots"][1]["cost"] == 2
    with pytest.raises(RuleError) as e:
        act(st, 0, type="set_cost", slot="A", cost=1)
    assert e.value.key == "err.host_only"
    for bad in (4, -1, "2", 1.0, True, None):
        with pytest.raises(RuleError):
            act(st, None, type="set_cost", slot="A", cost=bad)
    with pytest.raises(RuleError) as e:
        act(st, None, type="set_cost", slot="D", cost=1)
    assert e.value.key == "lutece.err.no_slot"


# --------------------------------------------------------------------------- choose & bribe

def test_pick_validation() -> None:
    st = new()
    for bad in (["A"], ["A", "A"], ["A", "D"], ["R", "R", "A"], "AB", None, [1, 2], ["R", "IV"]):
        with pytest.raises(RuleError):
            act(st, 0, type="pick", cards=bad)
    st = act(st, 0, type="pick", cards=["R", "R"])
    st = act(st, 0, type="pick", cards=["III", "R"])
    assert L.view(st, 0)["me"]["pick"] == ["III", "R"]
    with pytest.raises(RuleError):
        act(st, None, type="pick", cards=["A", "B"])


def test_bribe_never_exceeds_purse_with_numbers() -> None:
    st = new()
    st = act(st, 0, type="pick", cards=["A", "R"])
    st = act(st, 0, type="bribe", card=0, amount=3)
    with pytest.raises(RuleError) as e:
        act(st, 0, type="bribe", card=1, amount=3)
    assert e.value.key == "lutece.err.bribe_purse" and e.value.params == {"gold": 2, "amount": 3}
    assert "only 2 gold" in str(e.value) and "3" in str(e.value)
    for bad in (0, -1, 1.5, "1", True):
        with pytest.raises(RuleError):
            act(st, 0, type="bribe", card=0, amount=bad)
    for bad in (2, -1, "0", None, 0.0):
        with pytest.raises(RuleError):
            act(st, 0, type="bribe", card=bad, amount=1)
    with pytest.raises(RuleError) as e:
        act(st, 1, type="bribe", card=0, amount=1)
    assert e.value.key == "lutece.err.pick_first"


def test_open_bribes_add_only_public_and_fix_the_pick() -> None:
    st = new()
    st = act(st, 0, type="pick", cards=["B", "I"])
    st = act(st, 0, type="bribe", card=1, amount=2)
    st = act(st, 0, type="bribe", card=1, amount=1)
    pub = L.view(st, None)["players"][0]
    assert pub["stakes"] == [0, 3] and pub["gold"] == 2 and pub["cards_down"] == 2
    with pytest.raises(RuleError) as e:
        act(st, 0, type="clear_bribes")
    assert e.value.key == "lutece.err.only_add"
    with pytest.raises(RuleError) as e:
        act(st, 0, type="pick", cards=["A", "I"])
    assert e.value.key == "lutece.err.pick_fixed"
    st = act(st, 0, type="lock")
    with pytest.raises(RuleError):
        act(st, 0, type="bribe", card=0, amount=1)


def test_sealed_bribes_hidden_changeable_until_lock() -> None:
    st = new(bribes="sealed")
    st = act(st, 0, type="pick", cards=["B", "I"])
    st = act(st, 0, type="bribe", card=0, amount=4)
    pub = L.view(st, None)["players"][0]
    assert pub["stakes"] is None and pub["gold"] == 5
    me = L.view(st, 0)["me"]
    assert me["stakes"] == [4, 0] and me["purse"] == 1
    st = act(st, 0, type="clear_bribes")
    assert L.view(st, 0)["me"]["purse"] == 5
    st = act(st, 0, type="bribe", card=1, amount=2)
    st = act(st, 0, type="pick", cards=["C", "R"])  # a new pick takes the coins back
    assert L.view(st, 0)["me"]["purse"] == 5


def test_reveal_only_when_all_locked() -> None:
    st = new(2)
    st = act(st, 0, type="pick", cards=["A", "R"])
    st = act(st, 0, type="lock")
    with pytest.raises(RuleError):
        act(st, 0, type="lock")
    assert st["phase"] == "choose" and L.view(st, None)["players"][0]["locked"]
    with pytest.raises(RuleError):
        act(st, 1, type="lock")  # nothing chosen yet
    st = act(st, 1, type="pick", cards=["B", "I"])
    st = act(st, 1, type="lock")
    assert st["phase"] == "refill"


# --------------------------------------------------------------------------- resolution

def test_no_claimant_card_gains_coin_and_coins_accumulate() -> None:
    st = new(2)
    for r in range(3):
        st = play(st, {0: (["A", "R"], [0, 0]), 1: (["B", "R"], [0, 0])})
        assert st["slots"]["C"]["coins"] == r + 1
        assert "lutece.ev.unclaimed" in keys(st)
        st = refill(st)
    # round 4: Ann (start passes: round 4 start = seat 1) claims C alone and takes the 3 coins
    gold = st["gold"][0]
    st = act(st, None, type="set_cost", slot="C", cost=2)
    st = play(st, {0: (["C", "I"], [1, 0]), 1: (["A", "R"], [0, 0])})
    assert st["slots"]["C"]["coins"] == 0 and st["slots"]["C"]["pending"]
    # bribe 1 to the bank, cost 2, +3 coins from C; I also has 3 coins
    assert st["gold"][0] == gold - 1 - 2 + 3 + 3
    assert {"slot": "C", "round": 4, "cost": 2} in st["taken"][0]


def test_one_claimant_pays_cost_takes_coins_bribe_to_bank() -> None:
    st = new(2)
    st = act(st, None, type="set_cost", slot="A", cost=3)
    st = play(st, {0: (["A", "R"], [2, 0]), 1: (["B", "I"], [0, 0])})
    # Ann: 5 - 2 bribe + 3 Revenus - 3 cost = 3
    assert st["gold"][0] == 3
    assert st["taken"][0] == [{"slot": "A", "round": 1, "cost": 3}]
    assert "lutece.ev.take_sole" in keys(st)
    ev = next(e for e in st["resolution"] if e["key"] == "lutece.ev.take_sole" and e["params"]["slot"] == "A")
    assert ev["params"] == {"slot": "A", "name": "Ann", "seat": 0, "bribe": 2, "cost": 3, "coins": 0}
    assert L.gold_total(st) == 0


def test_one_claimant_refund_option() -> None:
    st = new(2, sole_bribe="refund")
    st = act(st, None, type="set_cost", slot="A", cost=1)
    st = play(st, {0: (["A", "II"], [2, 0]), 1: (["B", "I"], [0, 0])})
    assert st["gold"][0] == 5 - 1
    assert "lutece.ev.sole_refund" in keys(st)


def test_several_claimants_highest_bribe_wins_others_refunded_plus_one() -> None:
    st = new(3)
    st = act(st, None, type="set_cost", slot="II", cost=1)
    st = play(st, {0: (["II", "A"], [3, 0]), 1: (["II", "B"], [1, 0]), 2: (["II", "C"], [0, 0])})
    # Ann wins II: 5 - 3 (bribe to bank) - 1 (cost) = 1; she also takes A alone (cost 0)
    assert st["gold"] == [1, 5 + 1, 5 + 1]
    assert [t["slot"] for t in st["taken"][0]] == ["A", "II"]
    k = keys(st)
    assert k.count("lutece.ev.refund") == 2 and "lutece.ev.take" in k
    win = next(e for e in st["resolution"] if e["key"] == "lutece.ev.take")
    assert win["params"]["bribe"] == 3 and win["params"]["cost"] == 1 and win["params"]["name"] == "Ann"


def test_tie_at_top_nobody_default() -> None:
    st = new(3)
    st = play(st, {0: (["A", "R"], [2, 0]), 1: (["A", "R"], [2, 0]), 2: (["A", "R"], [1, 0])})
    assert "lutece.ev.tie_nobody" in keys(st)
    assert keys(st).count("lutece.ev.refund_tie") == 3 and "lutece.ev.refund" not in keys(st)
    assert st["gold"] == [5 + 3 + 1, 5 + 3 + 1, 5 + 3 + 1]
    assert st["slots"]["A"]["coins"] == 1 and not st["slots"]["A"]["pending"]
    assert all(not t for t in st["taken"])


def test_tie_at_top_seat_order_first_after_start_player() -> None:
    st = new(3, bribe_tie="seat_order")
    st = play(st, {0: (["A", "R"], [2, 0]), 1: (["A", "R"], [2, 0]), 2: (["A", "R"], [1, 0])})
    assert "lutece.ev.tie_seat_order" in keys(st)
    assert st["taken"][0] and st["gold"][0] == 5 - 2 + 3
    assert st["gold"][1] == 5 + 3 + 1 and st["gold"][2] == 5 + 3 + 1
    # next round the start player is Bob: with the same tie, Bob (start) wins... and from Cid's start
    st = refill(st)
    assert st["start"] == 1
    st = play(st, {0: (["B", "R"], [1, 0]), 1: (["B", "R"], [1, 0]), 2: (["B", "R"], [1, 0])})
    assert st["taken"][1] and st["taken"][1][0]["slot"] == "B"
    st = refill(st)
    st = play(st, {0: (["C", "R"], [1, 0]), 1: (["C", "R"], [1, 0])})
    assert st["start"] == 2 and st["taken"][0][-1]["slot"] == "C"  # after Cid comes Ann


def test_sole_winner_who_cannot_pay_does_not_take_the_card() -> None:
    st = new(2)
    st = act(st, None, type="set_cost", slot="I", cost=3)
    st = play(st, {0: (["I", "A"], [2, 1]), 1: (["B", "C"], [0, 0])})
    # Ann has 5-2-1 = 2 < 3 when I is resolved (A is taken for free first): gets bribe 2 back + 1
    ev = next(e for e in st["resolution"] if e["key"] == "lutece.ev.cannot_pay")
    assert ev["params"] == {"slot": "I", "name": "Ann", "seat": 0, "cost": 3, "gold": 2, "bribe": 2, "bonus": 1}
    text = i18n.t("en", ev["key"], **ev["params"])
    assert "cannot pay" in text and "NOT take" in text
    assert [t["slot"] for t in st["taken"][0]] == ["A"]
    assert st["gold"][0] == 5 - 2 - 1 + 2 + 1
    assert st["slots"]["I"]["coins"] == 1 and not st["slots"]["I"]["pending"]


def test_contested_winner_cannot_pay_next_highest_takes() -> None:
    st = new(3)
    st = act(st, None, type="set_cost", slot="B", cost=2)
    st = play(st, {0: (["B", "I"], [4, 0]), 1: (["B", "II"], [1, 0]), 2: (["B", "III"], [0, 0])})
    k = keys(st)
    assert k.index("lutece.ev.cannot_pay") < k.index("lutece.ev.take")
    # Ann: had 1 < 2 -> refunded 4 + 1 = 6; Bob takes B: 5-1-2 = 2; Cid refunded 0 + 1
    assert st["gold"][0] == 6 and st["takers"]["B"] == 1
    assert st["gold"][2] == 6


def test_nobody_can_pay_card_stays_with_extra_coin() -> None:
    st = new(2)
    st = act(st, None, type="set_cost", slot="A", cost=3)
    st = play(st, {0: (["A", "B"], [4, 0]), 1: (["A", "C"], [3, 0])})
    assert keys(st).count("lutece.ev.cannot_pay") == 2
    assert "A" not in st["takers"] and st["slots"]["A"]["coins"] == 1
    assert st["gold"] == [6, 6]


def test_coins_on_card_count_towards_cost() -> None:
    st = new(2)
    st = play(st, {0: (["B", "C"], [0, 0]), 1: (["B", "C"], [1, 0])})
    st = refill(st)  # A now has 1 coin, start: Bob
    st = act(st, None, type="set_cost", slot="A", cost=3)
    st = play(st, {0: (["A", "B"], [3, 0]), 1: (["I", "II"], [0, 0])})
    # Ann after bribe 2 + 1 coin on A = 3 -> pays
    assert st["takers"]["A"] == 0


def test_revenus_paid_before_resolution_not_for_bribes() -> None:
    st = new(2)
    st = act(st, None, type="set_cost", slot="A", cost=3)
    st = act(st, 0, type="pick", cards=["A", "R"])
    st = act(st, 0, type="bribe", card=0, amount=5)
    with pytest.raises(RuleError) as e:  # Revenus of this round cannot fund a bribe
        act(st, 0, type="bribe", card=0, amount=1)
    assert e.value.params == {"gold": 0, "amount": 1}
    st = act(st, 0, type="lock")
    st = play(st, {1: (["B", "R"], [0, 0])})
    k = keys(st)
    assert k.index("lutece.ev.revenus") < k.index("lutece.ev.claim")
    assert st["takers"]["A"] == 0 and st["gold"][0] == 0  # 0 + 3 Revenus - 3 cost


def test_bluff_bribe_on_revenus_comes_back() -> None:
    st = new(2)
    st = play(st, {0: (["R", "R"], [2, 1]), 1: (["B", "R"], [0, 0])})
    assert "lutece.ev.bluff_back" in keys(st)
    assert st["gold"][0] == 5 + 6


def test_finite_bank_runs_dry() -> None:
    st = new(5, bank="46")
    st["bank"] = 4  # fewer coins on the table: move the rest onto the players
    st["gold"][0] += 46 - 25 - 4
    assert L.gold_total(st) == 46
    st = play(st, {
        0: (["R", "R"], [0, 0]), 1: (["A", "I"], [1, 0]), 2: (["A", "I"], [2, 0]),
        3: (["B", "II"], [0, 0]), 4: (["B", "II"], [0, 0]),
    })
    k = keys(st)
    assert "lutece.ev.revenus" in k and "lutece.ev.revenus_short" in k
    assert st["bank"] >= 0 and L.gold_total(st) == 46
    assert "lutece.ev.refund_no_bonus" in k or "lutece.ev.bank_empty_card" in k


# --------------------------------------------------------------------------- refill & end

def test_refill_needs_costs_and_start_player_passes_left() -> None:
    st = new(3)
    st = play(st, {0: (["A", "I"], [0, 0])})
    v = L.view(st, None)
    assert v["refill"]["pending"] == ["A", "I"] and not v["refill"]["can_next"]
    assert v["refill"]["ask_decks"] and v["refill"]["question"] == "lutece.q.decks_refill"
    assert [s["cost"] for s in v["slots"]][:1] == [None]
    with pytest.raises(RuleError) as e:
        act(st, None, type="next_round")
    assert e.value.key == "lutece.err.costs_missing" and "A, I" in str(e.value)
    st = act(st, 0, type="set_cost", slot="A", cost=2)  # the taker may enter it
    with pytest.raises(RuleError):
        act(st, 1, type="set_cost", slot="I", cost=2)
    st = act(st, None, type="set_cost", slot="I", cost=1)
    st = act(st, None, type="next_round")
    assert st["start"] == 1 and st["round"] == 2 and st["phase"] == "choose"
    assert st["slots"]["A"]["cost"] == 2 and st["slots"]["I"]["cost"] == 1


def test_host_ends_game_by_hand_when_decks_unknown() -> None:
    st = new(2)
    st = play(st, {0: (["A", "R"], [0, 0])})
    st = act(st, None, type="end_game")
    assert st["phase"] == "scoring" and L.view(st, None)["end_reason"]["reason"] == "host"


def test_known_decks_count_down_and_end() -> None:
    st = new(2, characters_deck=2, places_deck=5)
    st = play(st, {0: (["A", "B"], [0, 0])})
    assert st["decks"] == {"characters": 0, "places": 5}
    assert not L.view(st, None)["refill"]["ask_decks"]
    st = refill(st)
    st = play(st, {0: (["I", "II"], [0, 0])})
    assert st["phase"] == "refill" and st["decks"]["places"] == 3
    st = refill(st)
    st = play(st, {1: (["C", "R"], [0, 0])})
    assert st["phase"] == "scoring"
    assert st["end_reason"] == {"reason": "deck", "deck": "characters", "needed": 1, "left": 0}
    assert st["log"][-1]["key"] == "lutece.ev.end_deck_characters"


def test_scoring_flow_and_game_over() -> None:
    st = new(2)
    st = play(st, {0: (["A", "R"], [0, 0])})
    st = act(st, None, type="end_game")
    with pytest.raises(RuleError):
        act(st, None, type="confirm_scores")
    st = act(st, 0, type="score", glaive=2, pain=0, potion=1, cervoise=0, places=3)
    st = act(st, None, type="score", **{"for": 1}, glaive=1, pain=0, potion=1, cervoise=2, places=0)
    v = L.view(st, 1)
    assert v["players"][0]["score"]["glaive"] == 2  # visible to all
    with pytest.raises(RuleError):
        act(st, 0, type="score", glaive=-1, pain=0, potion=0, cervoise=0, places=0)
    with pytest.raises(RuleError):
        act(st, 0, type="confirm_scores")
    st = act(st, None, type="confirm_scores")
    assert st["phase"] == "over"
    res = L.result(st)
    assert res is not None and res["winners"] == [0]
    with pytest.raises(RuleError) as e:
        act(st, 0, type="score", glaive=0, pain=0, potion=0, cervoise=0, places=0)
    assert e.value.key == "err.game_over"


def test_catalog_complete_in_three_languages() -> None:
    en, de, fr = (set(L.MESSAGES[x]) for x in ("en", "de", "fr"))
    assert en == de == fr
    from companion import i18n

    for o in L.OPTIONS:  # the game's own words, or the platform's for an option every sealed game has
        assert all(k in en or i18n.has(k) for k in (o.label, o.help, *o.choice_labels)), o
    for lang in ("en", "de", "fr"):
        for k, text in L.MESSAGES[lang].items():
            assert text.strip(), k


def test_unknown_decks_ask_every_round_even_without_empty_slots() -> None:
    st = play(new(2), {})
    v = L.view(st, None)
    assert v["refill"]["ask_decks"] and v["refill"]["can_next"] and not v["refill"]["pending"]
    half = play(new(2, characters_deck=5), {})
    assert L.view(half, None)["refill"]["ask_decks"]  # places deck still unknown
    known = play(new(2, characters_deck=5, places_deck=5), {})
    assert not L.view(known, None)["refill"]["ask_decks"]
