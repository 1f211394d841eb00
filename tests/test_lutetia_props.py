"""LUTETIA property tests: random legal games end, conserve every card, keep secrets, replay.

A game is driven by picking random actions from legal() of every seat and the host; a seat that
has already chosen a vote card only locks (re-choosing forever would just make games long).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from companion.games.base import RuleError
from companion.games.lutetia import rules as L
from tests.gameplay import random_step

MAX_STEPS = 4000

OPTIONS = hs.fixed_dictionaries({
    "deal": hs.sampled_from(["digital", "physical"]),
    "declare": hs.sampled_from(["at_reveal", "sealed"]),
    "holder_may_also_modify": hs.booleans(),
    "roman_position": hs.sampled_from(["after_vote", "before_vote"]),
    "mod_1": hs.sampled_from([0, 2, 12]),
    "mod_2": hs.sampled_from([1, 12]),
    "mod_3": hs.sampled_from([0, 12]),
    "areas": hs.sampled_from(L.AREA_PRESETS),
})


def seats(n: int) -> list[dict[str, str]]:
    return [{"name": f"P{i}", "colour": f"c{i}"} for i in range(n)]


def check_conservation(st: dict[str, Any]) -> None:
    plans = Counter(st["out"])
    for p in st["players"]:
        plans.update(p["plans"] + p["fulfilled"] + p["dead"])
        assert sorted(p["hand"] + p["played"]) == sorted(L.CARDS)
    assert plans == Counter(L.ALL_PLANS)
    mods = Counter(st["mod"]["pile"] + st["mod"]["discard"])
    for p in st["players"]:
        mods.update(p["mods"])
    counts = st["mod"]["counts"]
    assert mods == Counter({v: counts[str(v)] for v in L.MOD_VALUES if counts[str(v)]})
    assert sum(p["owed"] for p in st["players"]) <= len(st["mod"]["pile"])
    if st["options"]["deal"] == "digital":
        assert all(p["owed"] == 0 for p in st["players"])


def perturb(st: dict[str, Any], k: int, r: random.Random) -> dict[str, Any]:
    """Change every secret of seat k (open/dead plans, mod values, unrevealed vote card)."""
    s = json.loads(json.dumps(st))
    p = s["players"][k]
    for key in ("plans", "dead"):
        for i, pid in enumerate(p[key]):
            same = [x for x in s["out"] if L.plan_area(x) == L.plan_area(pid)]
            if same:
                new = r.choice(same)
                s["out"].remove(new)
                s["out"].append(pid)
                p[key][i] = new
    p["mods"] = sorted(r.choice([1, 2, 3]) for _ in p["mods"])
    hidden = s["phase"] == "vote" or (
        s["phase"] == "reveal" and k in s["reveal"]["order"][len(s["reveal"]["entries"]):])
    if hidden and str(k) in s["vote"]["choices"]:
        card = r.choice(p["hand"])
        side = None if (card == "R" or s["options"]["declare"] == "at_reveal") else r.choice(L.SIDES)
        s["vote"]["choices"][str(k)] = {"card": card, "side": side}
    return s


def check_secrets(st: dict[str, Any], r: random.Random) -> None:
    pub = L.view(st, None)
    assert "me" not in pub
    json.dumps(pub)
    k = r.randrange(st["n"])
    other = perturb(st, k, r)
    for j in [None, *range(st["n"])]:
        if j == k:
            continue
        a = json.dumps(L.view(st, j), sort_keys=True)
        b = json.dumps(L.view(other, j), sort_keys=True)
        assert a == b, f"seat {j} sees a secret of seat {k} in phase {st['phase']}"
    me = L.view(st, k)["me"]
    assert me["seat"] == k
    assert sorted(p["id"] for g in me["plans"] for p in g["plans"] if p["status"] == "open") == sorted(
        st["players"][k]["plans"])


def play(seed: int, n: int, opts: dict[str, Any], checks: bool = True) -> tuple[list[dict[str, Any]], list]:
    """A random legal game; with checks: conservation every step, secrets and purity now and then."""
    r = random.Random(seed)
    st = L.setup(opts, seats(n), seed)
    states = [st]
    actions: list[dict[str, Any]] = []
    for step in range(MAX_STEPS):
        if st["phase"] == "over":
            break
        a = random_step("lutetia", st, n, r)  # the game's own sample() (tests/gameplay.py)
        assert a is not None, f"no legal action in phase {st['phase']}"
        probe = checks and step % 15 == 0
        before = json.dumps(st, sort_keys=True) if probe else ""
        st = L.apply(st, a)  # every legal action applies
        if probe:
            assert json.dumps(states[-1], sort_keys=True) == before  # the input is never mutated
            check_secrets(st, r)
        actions.append(a)
        states.append(st)
        if checks:
            check_conservation(st)
    return states, actions


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**9), n=hs.integers(2, 6), opts=OPTIONS)
def test_random_legal_games_end_conserve_cards_and_keep_secrets(seed: int, n: int, opts: dict[str, Any]) -> None:
    states, actions = play(seed, n, opts)
    final = states[-1]
    assert final["phase"] == "over", f"no end after {len(actions)} steps"
    assert final["miraculix"] >= L.END
    res = L.result(final)
    assert res is not None and len(res["seats"]) == n
    best = max(r["fulfilled_count"] for r in res["seats"])
    for row in res["seats"]:
        assert row["fulfilled_count"] == len(row["fulfilled"])
        if row["rank"] == 1:
            assert row["fulfilled_count"] == best
    check_secrets(final, random.Random(seed))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10**9), n=hs.integers(2, 6), opts=OPTIONS, cut=hs.floats(0, 1))
def test_replay_from_the_action_log_and_json_round_trip(seed: int, n: int, opts: dict[str, Any],
                                                       cut: float) -> None:
    states, actions = play(seed, n, opts, checks=False)
    st = L.setup(opts, seats(n), seed)
    i = int(cut * len(actions))
    for a in actions[:i]:
        st = L.apply(st, a)
    assert st == states[i]
    st = json.loads(json.dumps(st))  # a restart: state from JSON, then the rest of the log
    for a in actions[i:]:
        st = L.apply(st, json.loads(json.dumps(a)))
    assert json.dumps(st, sort_keys=True) == json.dumps(states[-1], sort_keys=True)


JSONISH = hs.recursive(
    hs.none() | hs.booleans() | hs.integers(-10**12, 10**12) | hs.floats(allow_nan=False)
    | hs.text(max_size=6) | hs.sampled_from(["R", "M", "10", "70", "R3", "R3a", "21", "for", "against",
                                             "modify", "roman"]),
    lambda inner: hs.lists(inner, max_size=11) | hs.dictionaries(hs.text(max_size=4), inner, max_size=3),
    max_leaves=15,
)
TYPES = hs.sampled_from(["enter_hand", "report_draw", "discard_dead", "propose", "choose", "lock", "declare",
                         "fulfil", "roman", "pass", "reveal", "skip", "", "PROPOSE", "undo"])
FIELDS = hs.sampled_from(["to", "card", "side", "plan", "value", "task", "plans", "mods"])


def _sample_states() -> list[dict[str, Any]]:
    """States from every phase, digital and physical."""
    out: list[dict[str, Any]] = []
    for seed, opts in ((3, {}), (4, {"deal": "physical"}), (5, {"declare": "sealed"})):
        states, _ = play(seed, 3 + seed % 3, opts, checks=False)
        seen: set[str] = set()
        for s in states:
            key = s["phase"] + str(any(p["owed"] for p in s["players"]))
            if key not in seen:
                seen.add(key)
                out.append(s)
    return out


SAMPLES = _sample_states()
FROZEN = [json.dumps(s, sort_keys=True) for s in SAMPLES]


@settings(max_examples=150, deadline=None)
@given(which=hs.integers(0, 10**6), kind=TYPES, seat=hs.none() | hs.integers(-2, 7) | JSONISH,
       fields=hs.dictionaries(FIELDS, JSONISH, max_size=4))
def test_fuzzed_payloads_only_rule_errors_and_state_unchanged(which: int, kind: str, seat: Any,
                                                              fields: dict[str, Any]) -> None:
    st = SAMPLES[which % len(SAMPLES)]
    action = {**fields, "type": kind, "seat": seat}
    try:
        new = L.apply(st, action)
    except RuleError:
        pass
    else:
        json.dumps(new)
        check_conservation(new)
    assert json.dumps(st, sort_keys=True) == FROZEN[which % len(SAMPLES)]


@settings(max_examples=60, deadline=None)
@given(which=hs.integers(0, 10**6), payload=JSONISH)
def test_fuzzed_whole_actions(which: int, payload: Any) -> None:
    st = SAMPLES[which % len(SAMPLES)]
    try:
        L.apply(st, payload)
    except RuleError:
        pass
    assert json.dumps(st, sort_keys=True) == FROZEN[which % len(SAMPLES)]
