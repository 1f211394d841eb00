"""Undo of a reveal: the round reopens with EVERY choice of it cleared – everyone chooses again.

A reveal cannot be un-seen: reopening a round with the choices standing would let a player who has
seen everyone's choice change theirs and flip the outcome (issue 30, item 1). The table's undo of
the action that revealed a sealed round (the host's forced reveal, the last lock, the last secret
ballot vote) drops it and every choice action of that round; the words say so before and after,
a restart gives the same state, and an older log's undo entries replay as they did.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.soak import new_table, random_request
from companion.games import spec as game_spec
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui.screens import undo_words

# options that make every game's choices sealed (Quo Vadis votes openly by default)
SEALED_OPTIONS: dict[str, dict[str, Any]] = {"quovadis": {"ballot": "secret"}, "lutece": {"bribes": "sealed"}}


def _sealed_table(store: Any, code: str, game_id: str, seed: int, options: dict[str, Any] | None = None) -> Any:
    return new_table(store, code, game_id, 4, seed=seed, options=options or SEALED_OPTIONS.get(game_id))


def _qv_round(s: dict[str, Any]) -> Any:
    v = s["vote"]
    return ((s["round_no"], s["turn"], v["mover"], v["from"], v["to"]), v["round"]) if v and v["secret"] else None


# Where each game keeps its sealed round, (key, round) – written out here, independent of the games'
# own `sealed_round` hooks, so the property holds the table to it and not to itself.
ROUND = {
    "sealed_vote": lambda s: (s["round_no"], s["round"]),
    "lutetia": lambda s: None if s["vote"] is None else (s["votes"], s["vote"]),
    "lutece": lambda s: (s["round"], s["sealed"]),
    "quovadis": _qv_round,
}
CHOICES = {"sealed_vote": {"submit", "lock"}, "lutetia": {"choose", "lock"},
           "lutece": {"pick", "bribe", "clear_bribes", "lock"}, "quovadis": {"vote"}}


def _open(found: Any) -> bool:
    return found is not None and not found[1]["revealed"]


def _revealed(before: Any, after: Any) -> bool:
    """Written out here (not the code under test): open before, revealed or gone after, same round."""
    return _open(before) and (after is None or (after[0] == before[0] and after[1]["revealed"]))


def _sv_table(store: Any) -> tuple[Table, list[str]]:
    t = Table.create(store, "SVUR", "sealed_vote", {}, [{"name": n} for n in ("Ann", "Bob", "Cy")], seed=1)
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(3)]
    t.request_sync(t.host_token, {"op": "start"})
    return t, tokens


def _act(t: Table, token: str, **action: Any) -> None:
    t.request_sync(token, {"op": "act", "action": action})


def test_sealed_vote_forced_reveal_undone_clears_every_choice() -> None:
    """The story of the issue: two locked, one chose without locking, the host reveals anyway and
    takes it back – nobody's choice stands, the unlocked player cannot flip the outcome."""
    store = MemoryStore()
    t, tok = _sv_table(store)
    _act(t, tok[0], type="submit", value="sv.yes")
    _act(t, tok[1], type="submit", value="sv.no")
    _act(t, tok[2], type="submit", value="sv.yes")
    _act(t, tok[0], type="lock")
    _act(t, tok[1], type="lock")
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "reveal"}})
    assert t.view(None)["round"]["revealed"]
    note = t.undo_preview()
    assert note is not None and note.get("cleared")
    assert undo_words(t, "en", note, ahead=True) == (
        "This takes back the reveal: every choice of this round is cleared and everyone chooses again.")
    t.request_sync(t.host_token, {"op": "undo"})
    rnd = t.view(None)["round"]
    assert rnd["revealed"] is False and rnd["submitted"] == [] and rnd["locked"] == []
    for s in range(3):
        assert t.view(s)["round"]["mine"] is None
        assert t.legal(s) == [{"type": "submit"}]  # everyone chooses again (nothing to lock yet)
    assert t.last_undo is not None and t.last_undo.get("cleared")
    for lang in ("en", "de", "fr"):
        words = undo_words(t, lang, t.last_undo, ahead=False)
        assert words and "{" not in words
    assert undo_words(t, "en", t.last_undo, ahead=False) == (
        "The host took back the reveal: every choice of this round is cleared – everyone chooses again.")
    again = Table.load(store, "SVUR")
    assert again.state == t.state and again.actions == t.actions and again.last_undo == t.last_undo
    assert t.replay(t.actions) == t.state
    # the round goes on from scratch: the formerly unlocked seat chooses with everyone else
    _act(t, tok[2], type="submit", value="sv.no")
    assert t.view(None)["round"]["submitted"] == [2]


def test_sealed_vote_last_lock_undone_clears_every_choice_but_keeps_the_question() -> None:
    store = MemoryStore()
    t, tok = _sv_table(store)
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "number", "question": "Bid",
                                                                "min": 0, "max": 20}})
    for i, v in enumerate((3, 9, 4)):
        _act(t, tok[i], type="submit", value=v)
        _act(t, tok[i], type="lock")  # the last lock reveals
    assert t.view(None)["phase"] == "revealed"
    t.request_sync(t.host_token, {"op": "undo"})
    v = t.view(None)
    assert v["phase"] == "voting" and v["question"]["question"] == "Bid"  # the host's question stays
    assert v["round"]["submitted"] == [] and v["round"]["locked"] == []
    assert v["history"] == [{"round_no": 1, "question": t.state["history"][0]["question"], "abandoned": True}]
    assert Table.load(store, "SVUR").state == t.state


def test_an_old_logs_undo_replays_as_it_did() -> None:
    """A log written before this rule ({"k": "undo"} without "reveal") loads as it always did."""
    store = MemoryStore()
    t, tok = _sv_table(store)
    _act(t, tok[0], type="submit", value="sv.yes")
    _act(t, tok[0], type="lock")
    _act(t, tok[1], type="submit", value="sv.no")
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "reveal"}})
    t.submit_sync({"k": "undo"})  # an old entry
    assert t.view(None)["round"]["submitted"] == [0, 1]  # as before: only the reveal went
    again = Table.load(store, "SVUR")
    assert again.state == t.state and again.actions == t.actions


def test_undo_of_an_undone_reveal_goes_on_step_by_step() -> None:
    """After the reveal is taken back, the next undo takes back what came before the round."""
    store = MemoryStore()
    t, tok = _sv_table(store)
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "choice", "question": "Q"}})
    _act(t, tok[0], type="submit", value="sv.yes")
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "reveal"}})
    t.request_sync(t.host_token, {"op": "undo"})
    assert [a["type"] for a in t.actions] == ["ask"]
    note = t.undo_preview()
    assert note is not None and not note.get("cleared")  # the question was no reveal
    t.request_sync(t.host_token, {"op": "undo"})
    assert t.actions == [] and Table.load(store, "SVUR").state == t.state


def _play_to_reveals(game_id: str, seed: int, options: dict[str, Any] | None = None, want: int = 2,
                     steps: int = 600) -> int:
    """Random play; every time an action reveals a sealed round, the host undoes it and the round
    must be open again, same round, with no choice made – on this table, after a restart and in
    the replay. Returns how many reveals were taken back."""
    store = MemoryStore()
    code = f"U{seed % 1000:03d}"
    p = _sealed_table(store, code, game_id, seed, options)
    t = p.table
    sp = game_spec(game_id)
    find = ROUND[game_id]
    r = random.Random(seed)
    done = 0
    for _ in range(steps):
        if t.phase != "playing" or sp.done(t.state):
            break
        req = random_request(p, r)
        if req is None:
            break
        before = find(t.state)
        assert sp.sealed_round(t.state) == before  # the game's own hook finds the same round
        t.request_sync(*req)
        if t.phase != "playing" or not _revealed(before, find(t.state)):
            continue
        assert before is not None
        note = t.undo_preview()
        assert note is not None and note.get("cleared"), note
        t.request_sync(t.host_token, {"op": "undo"})
        done += 1
        now = find(t.state)
        assert now is not None and now[0] == before[0] and not now[1]["revealed"]
        assert now[1]["choices"] == {} and now[1]["locked"] == [], (game_id, now)
        assert now[1]["seats"] == before[1]["seats"]
        assert t.last_undo == note
        for s in now[1]["seats"]:  # every seat of the round may choose again
            assert t.legal(s), (game_id, s)
        if game_id == "lutece":  # no bribe stands either: every coin back in its purse
            assert t.state["stakes"] == {}
        again = Table.load(store, code)
        assert again.state == t.state and again.actions == t.actions and again.last_undo == t.last_undo
        assert t.replay(t.actions) == t.state
        if done >= want:
            break
    return done


def test_every_game_undo_of_a_reveal_reopens_the_round_empty() -> None:
    found = {g: 0 for g in ("sealed_vote", "lutetia", "lutece", "quovadis")}
    for game_id in found:
        for seed in range(1, 40):
            found[game_id] += _play_to_reveals(game_id, seed)
            if found[game_id] >= 3:
                break
    assert all(n >= 3 for n in found.values()), found


def test_lutece_open_bribes_and_lutetia_declared_at_the_reveal() -> None:
    """The other ways of playing: Lutèce's open bribes, Lutetia's sides declared at the reveal."""
    assert sum(_play_to_reveals("lutece", s, {"bribes": "open"}) for s in range(1, 12)) >= 2
    assert sum(_play_to_reveals("lutetia", s, {"declare": "sealed"}) for s in range(1, 12)) >= 2


# ---------------------------------------------------------------- the property


def _choice_ids(t: Table, key: Any) -> set[int]:
    """ids of the seat actions in the table's effective actions that changed round `key`'s choices."""
    find = ROUND[t.game_id]
    out: set[int] = set()
    state = t.replay([])
    for a in t.actions:
        nxt = t.game.apply(state, a)
        f0, f1 = find(state), find(nxt)
        if _open(f0) and f0[0] == key and a.get("seat") is not None:
            changed = f1 is None or f1[0] != key or f1[1]["choices"] != f0[1]["choices"] \
                or f1[1]["locked"] != f0[1]["locked"]
            if changed or a.get("type") in CHOICES[t.game_id]:
                out.add(id(a))
        state = nxt
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(["sealed_vote", "lutetia", "lutece", "quovadis"]),
       seed=st.integers(0, 10_000), undo_p=st.floats(0.05, 0.5))
def test_no_round_reopens_with_a_choice_made_before_its_reveal(game_id: str, seed: int, undo_p: float) -> None:
    """Random play with random undos: after any undo, no open round holds a choice (an action in the
    effective log) that was already made when that round was revealed."""
    store = MemoryStore()
    p = _sealed_table(store, "PROP", game_id, seed)
    t = p.table
    sp = game_spec(game_id)
    find = ROUND[game_id]
    r = random.Random(seed)
    shown: dict[Any, tuple[set[int], list[Any]]] = {}  # round key -> ids of its choices at its reveal
    just = False  # the last action revealed a round: undo it mostly
    for _ in range(250):
        if t.phase != "playing" or sp.done(t.state):
            break
        undo = t.actions and r.random() < (0.8 if just else undo_p)
        just = False
        if undo:
            t.request_sync(t.host_token, {"op": "undo"})
            now = find(t.state)
            if _open(now) and now[0] in shown:
                ids, _keep = shown[now[0]]
                assert not (_choice_ids(t, now[0]) & ids), (game_id, seed, now)
            continue
        req = random_request(p, r)
        if req is None:
            break
        before = find(t.state)
        t.request_sync(*req)
        if _revealed(before, find(t.state)):
            assert before is not None
            just = True
            ids = {id(a) for a in t.actions}
            prev = shown.get(before[0], (set(), []))
            shown[before[0]] = (prev[0] | ids, prev[1] + list(t.actions))
    assert Table.load(store, "PROP").state == t.state
