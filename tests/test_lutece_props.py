"""Lutèce property tests: gold conservation, no leaked secret, replay, fuzzed payloads."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import sealed
from companion.games.base import RuleError
from companion.games.lutece import rules as L
from tests.gameplay import random_step

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options_st = st.fixed_dictionaries({
    "bribes": st.sampled_from(["open", "sealed"]),
    "bank": st.sampled_from(["unlimited", "46"]),
    "sole_bribe": st.sampled_from(["bank", "refund"]),
    "bribe_tie": st.sampled_from(["nobody", "seat_order"]),
    "all_equal": st.sampled_from([4, 10, 0]),
    "characters_deck": st.sampled_from([0, 3, 8]),
    "places_deck": st.sampled_from([0, 2, 8]),
})


def seats(n: int) -> list[dict[str, Any]]:
    return [{"name": f"P{i}", "colour": "red"} for i in range(n)]


def draw_action(data: st.DataObject, state: dict[str, Any]) -> dict[str, Any] | None:
    """The game's own random player (sample(), tests/gameplay.py), seeded by hypothesis."""
    return random_step("lutece", state, len(state["names"]), random.Random(data.draw(st.integers(0, 2**32))))


def total_expected(state: dict[str, Any]) -> int:
    return 46 if state["options"]["bank"] == "46" else 0


def twin_with_other_secrets(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The same public situation, but `seat` chose other cards (and, sealed, other bribe amounts)."""
    rnd = state["sealed"]
    if state["phase"] != "choose" or rnd["revealed"] or not sealed.has_submitted(rnd, seat):
        return None
    twin = copy.deepcopy(state)
    pick = sealed.choice(twin["sealed"], seat)
    alt = ["R", "R"] if pick != ["R", "R"] else [twin["letters"][-1], twin["numerals"][0]]
    twin["sealed"]["choices"][str(seat)] = alt
    if twin["options"]["bribes"] == "sealed":
        stakes = twin["stakes"].pop(str(seat), [0, 0])
        total = sum(stakes) + twin["gold"][seat]
        twin["stakes"][str(seat)] = [0, total]  # all-in on the other card
        twin["gold"][seat] = 0
    return twin


@SETTINGS
@given(n=st.integers(2, 5), opts=options_st, data=st.data())
def test_random_play_conserves_gold_hides_secrets_replays(n: int, opts: dict[str, Any], data: Any) -> None:
    state = L.setup(opts, seats(n), seed=3)
    start = copy.deepcopy(state)
    log: list[dict[str, Any]] = []
    for _ in range(data.draw(st.integers(10, 70))):
        action = draw_action(data, state)
        if action is None:
            break
        before = copy.deepcopy(state)
        state = L.apply(state, action)
        assert before == copy.deepcopy(before)  # (deepcopy sanity)
        log.append(action)
        # conservation
        assert L.gold_total(state) == total_expected(state)
        assert all(g >= 0 for g in state["gold"])
        if opts["bank"] == "46":
            assert state["bank"] >= 0
        assert all(s["coins"] >= 0 for s in state["slots"].values())
        # JSON round trip keeps behaviour
        assert json.loads(json.dumps(state)) == state
        # no secret in the host view or in another seat's view
        s = data.draw(st.integers(0, n - 1))
        twin = twin_with_other_secrets(state, s)
        if twin is not None:
            assert L.view(twin, None) == L.view(state, None)
            other = (s + 1) % n
            assert L.view(twin, other) == L.view(state, other)
        json.dumps(L.view(state, None))
        if state["phase"] == "over":
            assert L.result(state) is not None
            break
    # replay from the action log
    again = start
    for a in log:
        again = L.apply(again, a)
    assert again == state


def test_host_view_has_no_picks_and_no_sealed_amounts() -> None:
    state = L.setup({"bribes": "sealed"}, seats(3), seed=1)
    state = L.apply(state, {"seat": 0, "type": "pick", "cards": ["C", "III"]})
    state = L.apply(state, {"seat": 0, "type": "bribe", "card": 0, "amount": 4})
    text = json.dumps(L.view(state, None))
    assert '"C", "III"' not in text and "[4, 0]" not in text and '"me"' not in text
    for v in (L.view(state, None), L.view(state, 1)):
        assert "me" not in v or (v["me"]["seat"] == 1 and v["me"]["pick"] is None)
        assert v["players"][0]["gold"] == 5 and v["players"][0]["stakes"] is None
        assert v["players"][0]["picked"] and v["players"][0]["cards_down"] == 2
    assert L.view(state, 0)["me"]["pick"] == ["C", "III"]


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=True)
    | st.text(max_size=6) | st.sampled_from(["A", "I", "R", "V", "E", "III"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
types = st.sampled_from(list(L._HANDLERS) + ["", "nope", "Pick"]) | junk


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 5), bribes=st.sampled_from(["open", "sealed"]), phase_steps=st.integers(0, 3),
       payload=st.dictionaries(
           st.sampled_from(["seat", "cards", "card", "amount", "slot", "cost", "for", "glaive", "pain",
                            "potion", "cervoise", "places", "type"]), junk, max_size=6),
       kind=types, seat=st.none() | st.integers(-2, 6) | junk)
def test_fuzzed_payloads_only_rule_errors_and_no_change(
    n: int, bribes: str, phase_steps: int, payload: dict[str, Any], kind: Any, seat: Any
) -> None:
    state = L.setup({"bribes": bribes}, seats(n), seed=5)
    # bring the game into a few different phases
    if phase_steps >= 1:
        state = L.apply(state, {"seat": 0, "type": "pick", "cards": ["A", "R"]})
        state = L.apply(state, {"seat": 0, "type": "bribe", "card": 0, "amount": 2})
    if phase_steps >= 2:
        state = L.apply(state, {"seat": None, "type": "reveal"})
    if phase_steps >= 3:
        state = L.apply(state, {"seat": None, "type": "end_game"})
    before = copy.deepcopy(state)
    action = {**payload, "type": kind, "seat": seat}
    try:
        new = L.apply(state, action)
    except RuleError as e:
        assert e.key and str(e)
    else:
        assert L.gold_total(new) == L.gold_total(before)
    assert state == before
    # non-dict payloads too
    for bad in (None, [], "lock", 3):
        try:
            L.apply(state, bad)  # type: ignore[arg-type]
        except RuleError:
            pass
    assert state == before
