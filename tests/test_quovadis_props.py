"""Quo Vadis property tests: random legal play keeps laurels conserved, totals secret, replays exact,
and junk payloads only ever raise RuleError without touching the state."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import RuleError
from companion.games.quovadis import rules as qv
from tests.gameplay import random_step

NAMES = [{"name": n, "colour": c} for n, c in
         [("Ann", "red"), ("Bob", "blue"), ("Cy", "green"), ("Dee", "yellow"), ("Eve", "black")]]

options_st = st.fixed_dictionaries({
    "ballot": st.sampled_from(["open", "secret"]),
    "support_laurel": st.booleans(),
    "binding": st.booleans(),
    "caesar_chip": st.sampled_from(["immediately", "end_of_round"]),
    "supply": st.sampled_from([0, 2, 18]),
    "chips_3": st.sampled_from([2, 15]),
})

FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(seed: int, n: int, options: dict, steps: int, check=None):
    """Random legal play (the game's own sample(), tests/gameplay.py); returns (final state, action
    log, states)."""
    r = random.Random(seed)
    state = qv.setup(options, NAMES[:n], seed)
    log, states = [], [state]
    for _ in range(steps):
        if state["phase"] == "over":
            break
        action = random_step("quovadis", state, n, r)
        assert action is not None, "somebody can always act"
        new = qv.apply(state, action)
        log.append(action)
        states.append(new)
        if check:
            check(state, new, action)
        state = new
    return state, log, states


def _conserved(state):
    assert qv.laurels_in_play(state) == state["laurels_total"]
    assert state["supply"] >= 0
    for s in range(state["n"]):
        assert qv.total(state, s) >= 0
        on_board = sum(occ.count(s) for occ in state["board"].values())
        assert on_board + state["players"][s]["reserve"] == state["options"]["senators"]
    for node, occ in state["board"].items():
        assert len(occ) <= qv.SEATS[int(node)]


@FAST
@given(seed=st.integers(0, 10_000), n=st.integers(3, 5), options=options_st)
def test_laurels_conserved(seed, n, options):
    def check(old, new, action):
        _conserved(new)

    state, _, _ = play(seed, n, options, 80, check)
    _conserved(state)


def _perturb(state, seat):
    s = json.loads(json.dumps(state))
    p = s["players"][seat]
    p["received"] += 977
    p["chips"].append({"value": 5, "caesar": True, "path": "9-13"})
    s["plog"][str(seat)].append({"key": "quovadis.plog.received", "params": {"n": 977}})
    return s


@FAST
@given(seed=st.integers(0, 10_000), n=st.integers(3, 5), options=options_st)
def test_totals_never_reach_other_views_before_the_end(seed, n, options):
    _, _, states = play(seed, n, options, 60)
    for state in states[::5] + states[-1:]:
        if state["phase"] == "over":
            continue
        for owner in range(n):
            changed = _perturb(state, owner)
            for viewer in [None, *range(n)]:
                if viewer == owner:
                    continue
                v = qv.view(state, viewer)
                assert v == qv.view(changed, viewer)
                me = v.get("me")
                assert me is None or me["seat"] == viewer
                assert qv.result(state) is None and v["result"] is None
        pub = json.dumps(qv.view(state, None))
        assert '"total"' not in pub and '"me"' not in pub


@FAST
@given(seed=st.integers(0, 10_000), n=st.integers(3, 5), options=options_st)
def test_replay_identical_from_action_log(seed, n, options):
    state, log, _ = play(seed, n, options, 80)
    again = qv.setup(options, NAMES[:n], seed)
    for a in json.loads(json.dumps(log)):
        again = json.loads(json.dumps(qv.apply(again, a)))  # json round-trip between steps
    assert again == state
    assert qv.view(again, None) == qv.view(state, None)
    assert qv.result(again) == qv.result(state)


junk_value = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True),
                       st.text(max_size=8), st.lists(st.integers(-3, 20), max_size=3),
                       st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
                       st.sampled_from(["9-13", "0-4", "1-8", "13-9", "x-y", "-"]))
junk_action = st.one_of(
    junk_value,
    st.dictionaries(
        st.sampled_from(["type", "seat", "node", "from", "to", "path", "yes", "amount", "text", "x"]),
        st.one_of(junk_value, st.sampled_from(list(qv.ACTION_TYPES)), st.integers(-2, 16)),
        max_size=6),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n=st.integers(3, 5), options=options_st, steps=st.integers(0, 40),
       junk=st.lists(junk_action, min_size=1, max_size=6))
def test_fuzzed_payloads_only_rule_errors_state_unchanged(seed, n, options, steps, junk):
    state, _, _ = play(seed, n, options, steps)
    snap = json.dumps(state, sort_keys=True)
    for action in junk:
        try:
            new = qv.apply(state, action)
        except RuleError as e:
            assert isinstance(e.key, str) and str(e)
        else:  # a junk payload that happens to be legal is fine – it must be a legal action
            _conserved(new)
            json.dumps(new)
        assert json.dumps(state, sort_keys=True) == snap


def test_seeded_games_reach_the_end_with_a_qualified_winner():
    ended = 0
    for seed in range(8):
        n = 3 + seed % 3
        opts = {"ballot": "secret" if seed % 2 else "open",
                "caesar_chip": "end_of_round" if seed % 4 == 1 else "immediately"}
        state, _, _ = play(seed, n, opts, 1500)
        _conserved(state)
        if state["phase"] != "over":
            continue
        ended += 1
        r = qv.result(state)
        assert len(state["board"]["13"]) == 5 and len(r["arrival"]) == 5
        assert r["winner"] in r["qualified"] and set(r["qualified"]) == set(r["arrival"])
        best = max(r["totals"][str(s)] for s in r["qualified"])
        assert r["totals"][str(r["winner"])] == best
        assert qv.view(state, None)["result"]["totals"] == r["totals"]
    assert ended >= 4
