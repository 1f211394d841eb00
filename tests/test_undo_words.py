"""Undo says in words what it takes back – public words only – and every screen says what the host undid.

Every game from the registry, driven at random: before each undo `Table.undo_preview()` names whose
action it was and the public log lines it added (no lines: "a private action of …", never what it
was); after it, `Table.last_undo` holds the same words for every screen, derived from the log (a
restart keeps them) and gone with the next action.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.soak import new_table, pick_action, random_request
from companion.games import games
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui.screens import undo_words

LANGS = ("en", "de", "fr")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_undo_preview_is_the_public_log_of_the_last_action(game_id: str) -> None:
    r = random.Random(7)
    store = MemoryStore()
    p = new_table(store, "UNDO", game_id, 4, seed=11)
    t = p.table
    undos = 0
    for _ in range(120):
        req = random_request(p, r)
        if req is None:
            break
        token, op = req
        before = (t.view(None) or {}).get("log")
        t.request_sync(token, op)
        if t.phase != "playing":
            break
        after = (t.view(None) or {}).get("log")
        note = t.undo_preview()
        assert note is not None
        seat = None if token == t.host_token else p.tokens.index(token)
        assert note["seat"] == seat
        grown = after[len(before):] if isinstance(after, list) and isinstance(before, list) else []
        assert note["msgs"] == grown  # exactly what the table was shown, nothing else
        if r.random() < 0.3:
            state_before = t.replay(t.actions[:-1])
            t.request_sync(t.host_token, {"op": "undo"})
            undos += 1
            assert t.last_undo == note
            if not note.get("cleared"):  # (a reveal taken back clears its round too: tests/test_undo_reveal.py)
                assert t.state == state_before
            for lang in LANGS:
                words = undo_words(t, lang, note, ahead=False)
                assert words and "{" not in words
            # the same words after a restart (derived from the log)
            again = Table.load(store, "UNDO")
            assert again.last_undo == note
            if note.get("cleared"):  # the round is open and empty again: someone chooses anew
                again_req = random_request(p, r)
                assert again_req is not None
                t.request_sync(*again_req)
            else:
                t.request_sync(token, op)  # the action again: the note goes
            assert t.last_undo is None
    assert undos > 0


def test_a_private_action_is_named_not_shown() -> None:
    """A sealed choice taken back: the words name whose it was, never the choice."""
    store = MemoryStore()
    t = Table.create(store, "PRIV", "sealed_vote", {}, [{"name": "Ann"}, {"name": "Bob"}], seed=1)
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(2)]
    t.request_sync(t.host_token, {"op": "start"})
    r = random.Random(3)
    while True:  # a sealed choice (not a lock)
        action = pick_action("sealed_vote", t.state or {}, 1, t.legal(1), r)
        if action is not None and action["type"] == "submit":
            break
    t.request_sync(tokens[1], {"op": "act", "action": action})
    secret = str(action["value"])
    note = t.undo_preview()
    assert note == {"seat": 1, "msgs": []}
    assert undo_words(t, "en", note, ahead=True) == \
        "This takes back a private action of Bob (what it was stays secret)."
    assert secret not in undo_words(t, "en", note, ahead=True)
    t.request_sync(t.host_token, {"op": "undo"})
    for lang, text in [("en", "The host undid a private action of Bob."),
                       ("de", "Der Gastgeber hat eine geheime Aktion von Bob zurückgenommen."),
                       ("fr", "L’hôte a annulé une action secrète de Bob.")]:
        assert undo_words(t, lang, t.last_undo or {}, ahead=False) == text


def test_undo_of_the_end_reopens() -> None:
    store = MemoryStore()
    t = Table.create(store, "ENDS", "sealed_vote", {}, [{"name": "Ann"}, {"name": "Bob"}], seed=1)
    t.request_sync(t.host_token, {"op": "start"})
    t.request_sync(t.host_token, {"op": "end"})
    assert t.undo_preview() == {"reopen": True}
    assert undo_words(t, "en", {"reopen": True}, ahead=True) == "This reopens the ended game where it stopped."
    t.request_sync(t.host_token, {"op": "undo"})
    assert t.phase == "playing" and t.last_undo == {"reopen": True}
