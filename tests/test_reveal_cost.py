"""What a reveal sends to each screen (issue 30.10: "draw only what changed").

A reveal changes a little of each screen: the moment on top of a phone's game part (its cards, then
its outcome), the result under it, a seat row; on the host the game's public part and its buttons.
Flet sends what changed only when the parts that did not change are the same controls as before
(redrawn in place, under the same keys); a part put under a new component or key is sent again
whole – the game's part with every round's history line, the host's public part – and the server's
CPU per reveal grows with it (benchmarks/fanout.py). These tests count the messages and bytes each
screen is sent for a reveal, from the last lock until the moment has closed, against what that
screen weighs whole (a fresh session opened on the same state), after a few rounds of history.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from benchmarks import harness as H
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui.screens import Server
from companion.ui.views import display as D
from companion.ui.views import moment as M

ROUNDS = 6  # rounds of history before the measured reveal: a whole game part is large by then
PHONES = 4


async def _round(t: Any, tokens: list[str], rnd: int, last_lock: bool = True) -> None:
    await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "choice",
                                                               "question": f"Round {rnd + 1}?"}})
    for i, tok in enumerate(tokens):
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": "sv.yes" if i % 2 else "sv.no"}})
    for tok in tokens[: None if last_lock else -1]:
        await t.request(tok, {"op": "act", "action": {"type": "lock"}})


async def _whole(server: Server, route: str, prefs: dict[str, Any]) -> int:
    """The bytes a screen weighs whole: a fresh session opened on the table as it is."""
    c = H.Client(server, route, dict(prefs))
    await c.open(H.new_pubsub())
    await asyncio.sleep(M.BACKS_S + D.FLIP_S + M.HOLD_S + 0.3)  # (a moment there at opening is not played)
    await H.quiet([c], idle=0.02)
    assert c.conn is not None
    n = c.conn.bytes
    c.close()
    return n


@pytest.mark.parametrize("play", [True, False])
async def test_a_reveal_sends_each_screen_what_changed_not_the_screen_again(
        monkeypatch: pytest.MonkeyPatch, play: bool) -> None:
    monkeypatch.setattr(M, "PLAY", play)
    monkeypatch.setattr(M, "HOLD_S", 0.3)  # the moment closes sooner: its whole life is measured
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    t, tokens = H.make_table(hub, PHONES)
    clients = await H.open_table(server, H.new_pubsub(), t, tokens, host=True)
    for rnd in range(ROUNDS):
        await _round(t, tokens, rnd)
        await asyncio.sleep(M.BACKS_S + D.FLIP_S + M.HOLD_S + 0.2)
        await H.quiet(clients, idle=0.02)
    await _round(t, tokens, ROUNDS, last_lock=False)
    await H.quiet(clients, idle=0.02)
    before = [(c.conn.sent, c.conn.bytes) for c in clients if c.conn is not None]
    await t.request(tokens[-1], {"op": "act", "action": {"type": "lock"}})  # the reveal
    await asyncio.sleep(M.BACKS_S + D.FLIP_S + M.HOLD_S + 0.3)  # the moment plays and closes
    await H.quiet(clients, idle=0.02)
    assert t.state is not None and t.state["round"]["revealed"]
    sent = [(c.conn.sent - s, c.conn.bytes - b) for c, (s, b) in zip(clients, before, strict=True)
            if c.conn is not None]
    for c, (msgs, size) in zip(clients, sent, strict=True):
        whole = await _whole(server, c.route, c.prefs)
        # A phone: its game part (moment, result), its seat row, and the moment's steps (backs,
        # faces, outcome, closed) when it plays; the host: its public part, buttons, a seat row.
        assert msgs <= (8 if play else 5), (c.route, msgs)
        assert size < whole * 0.4, (c.route, size, whole)
    for c in clients:
        c.close()
    await asyncio.sleep(0)


async def test_a_reveal_sends_a_phone_its_moment_first_and_the_part_under_it_once_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At the reveal a phone is sent the moment's backs and title only: the result list under it stays
    hidden while the cards turn, so it is built and sent when they have turned (views/moment.Part), not
    at the reveal – here the cards do not turn during the test (BACKS_S is long)."""
    monkeypatch.setattr(M, "BACKS_S", 60.0)
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    t, tokens = H.make_table(hub, PHONES)
    clients = await H.open_table(server, H.new_pubsub(), t, tokens, host=True)
    phones = clients[:PHONES]
    monkeypatch.setattr(M, "PLAY", False)  # the past rounds: drawn at once
    for rnd in range(ROUNDS):
        await _round(t, tokens, rnd)
        await H.quiet(clients, idle=0.02)
    monkeypatch.setattr(M, "PLAY", True)
    await _round(t, tokens, ROUNDS, last_lock=False)
    await H.quiet(clients, idle=0.02)
    before = [c.conn.bytes for c in phones if c.conn is not None]
    await t.request(tokens[-1], {"op": "act", "action": {"type": "lock"}})  # the reveal
    await H.quiet(clients, idle=0.05)
    for c, b in zip(phones, before, strict=True):
        assert c.conn is not None
        size = c.conn.bytes - b
        fresh = H.Client(server, c.route, dict(c.prefs))
        await fresh.open(H.new_pubsub())
        await H.quiet([fresh], idle=0.02)
        assert fresh.conn is not None
        assert size < fresh.conn.bytes * 0.1, (c.route, size, fresh.conn.bytes)
        fresh.close()
    for c in clients:
        c.close()
    await asyncio.sleep(0)
