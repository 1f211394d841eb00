"""Screens whose socket comes and goes, in-process (real Flet sessions, benchmarks/harness.py).

A table redraws only the screens that are connected: a screen leaves the table's list when its
socket drops and comes back – redrawn with what changed meanwhile – when it reconnects. A session
that never sat is let go soon after it dropped; a seated one keeps Flet's timeout. The same on
the real server: tests/reliability/test_dropped_sessions.py.
"""

from __future__ import annotations

import asyncio
import contextvars
import weakref
from datetime import UTC, datetime
from typing import Any

import pytest

import benchmarks.harness as H
from companion.sockets import SocketGuard
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui.screens import Server
from companion.ui.sessions import expire_now


async def _table(phones: int = 3, start: bool = False) -> tuple[Any, list[str], Server, Any]:
    hub = Hub(MemoryStore())
    t, tokens = H.make_table(hub, phones, start=start)
    return t, tokens, Server(hub, "http://companion.test"), H.new_pubsub()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0.02)


def _count_renders(screen: Any) -> list[bool]:
    calls: list[bool] = []
    real = screen.render

    def render(force: bool = False) -> None:
        calls.append(force)
        real(force)
    screen.render = render
    return calls


async def test_a_table_does_not_redraw_a_disconnected_screen() -> None:
    t, tokens, server, pubsub = await _table()
    clients = await H.open_table(server, pubsub, t, tokens[:2])
    away, other = clients[0], clients[1]
    assert t.presence.get(0) == 1
    await away.session.disconnect(3600)  # Flet's own path: on_disconnect
    assert away.screen._changed not in t._listeners  # the table does not even call it
    assert other.screen._changed in t._listeners
    assert t.presence.get(0) == 0  # and the seat shows away
    renders = _count_renders(away.screen)
    t.request_sync(tokens[1], {"op": "rename", "name": "Renamed"})
    await _settle()
    assert renders == []
    for c in clients:
        c.close()


async def test_a_returning_screen_is_redrawn_with_what_changed_and_then_follows_the_table() -> None:
    t, tokens, server, pubsub = await _table()
    clients = await H.open_table(server, pubsub, t, tokens[:2])
    back = clients[0]
    await back.session.disconnect(3600)
    t.request_sync(tokens[1], {"op": "rename", "name": "WhileAway"})
    conn = H.FakeConnection(asyncio.get_running_loop(), pubsub, back.prefs)
    conn.session = back.session
    conn.watch()
    await back.session.connect(conn)  # a reload / a phone waking: on_connect
    await _settle()
    assert back.screen._changed in t._listeners
    assert t.presence.get(0) == 1
    assert conn.first_after is not None  # redrawn on its return
    assert back.screen._sig == back.screen._signature()  # showing the table as it is now
    conn.watch()
    t.request_sync(tokens[1], {"op": "rename", "name": "AfterReturn"})
    await _settle()
    assert conn.first_after is not None  # and redrawn after the next change again
    for c in clients:
        c.close()


async def test_a_screen_that_drops_while_it_is_set_up_leaves_the_table_list_at_the_next_change() -> None:
    """route() subscribes (and counts the seat present) after awaiting the browser: a socket that
    dropped meanwhile must not stay on the table's list for good."""
    t, tokens, server, pubsub = await _table()
    clients = await H.open_table(server, pubsub, t, tokens[:2])
    late = clients[0]
    await late.session.disconnect(3600)
    t.subscribe(late.screen._changed)  # as route() does when its storage answered after the drop
    late.screen._present = True
    t.connect(0)
    assert late.screen._changed not in t._listeners
    assert t.presence.get(0) == 0
    for c in clients:
        c.close()


async def test_a_session_that_never_sat_is_let_go_and_a_seated_one_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_UNSEATED_GRACE", "0.05")
    t, tokens, server, pubsub = await _table()
    seated = (await H.open_table(server, pubsub, t, tokens[:1], host=False))[0]
    joining = H.Client(server, f"/t/{t.code}", {"lang": "en"})
    await joining.open(pubsub)
    assert joining.screen.token is None and joining.screen.role == "phone"
    for c in (seated, joining):
        await c.session.disconnect(3600)
    await asyncio.sleep(0.2)
    now = datetime.now(UTC)
    assert joining.session.expires_at is not None and joining.session.expires_at <= now  # Flet's sweep closes it
    assert seated.session.expires_at is not None and (seated.session.expires_at - now).total_seconds() > 3000
    for c in (seated, joining):
        c.close()


async def test_a_session_that_returns_within_the_grace_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_UNSEATED_GRACE", "0.1")
    t, tokens, server, pubsub = await _table()
    joining = H.Client(server, f"/t/{t.code}", {"lang": "en"})
    await joining.open(pubsub)
    await joining.session.disconnect(3600)
    conn = H.FakeConnection(asyncio.get_running_loop(), pubsub, joining.prefs)
    conn.session = joining.session
    await joining.session.connect(conn)
    await asyncio.sleep(0.3)
    assert joining.session.expires_at is None
    await joining.session.disconnect(3600)  # and a later drop waits the whole grace again
    assert (joining.session.expires_at - datetime.now(UTC)).total_seconds() > 3000
    joining.close()


async def test_expire_now_moves_a_disconnected_flet_session_expiry_to_now() -> None:
    """Pins the Flet 1.0.5 internal that companion/ui/sessions.py sets."""
    t, tokens, server, pubsub = await _table()
    c = H.Client(server, "/", {"lang": "en"})
    await c.open(pubsub)
    expire_now(c.session)
    assert c.session.expires_at is None  # still connected: untouched
    await c.session.disconnect(3600)
    expire_now(c.session)
    assert c.session.expires_at is not None and c.session.expires_at <= datetime.now(UTC)
    c.close()


# ---------- the socket guard (companion/sockets.py) on its own ----------

class FakeSocket:
    """The server side of one WebSocket: a receive queue, and sends that fail once the peer is gone."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.incoming.put_nowait({"type": "websocket.connect"})
        self.sent: list[dict[str, Any]] = []
        self.gone = False

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send(self, message: dict[str, Any]) -> None:
        if self.gone and message["type"] == "websocket.send":
            raise RuntimeError("Unexpected ASGI message 'websocket.send', after sending 'websocket.close'")
        self.sent.append(message)

    def drop(self) -> None:
        self.gone = True
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1006})


def _scope(client: str) -> dict[str, Any]:
    return {"type": "websocket", "path": "/ws", "client": (client, 5000)}


async def test_the_guard_drops_sends_to_a_gone_socket_so_the_handler_ends_cleanly() -> None:
    guard = SocketGuard(per_client=4)
    sock = FakeSocket()
    ended: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:  # Flet's shape: receive, then send
        await receive()
        await send({"type": "websocket.accept"})
        sock.drop()
        await send({"type": "websocket.send", "bytes": b"first screen"})  # to a dead peer: no error
        assert (await receive())["type"] == "websocket.disconnect"
        ended.append("clean")
    await guard(app, _scope("10.0.0.9"), sock.receive, sock.send)
    assert ended == ["clean"] and guard.count("10.0.0.9") == 0


async def test_the_guard_ends_a_handler_that_waits_for_ever_after_its_socket_dropped() -> None:
    guard = SocketGuard(per_client=4, linger=0.05)
    sock = FakeSocket()

    async def app(scope: Any, receive: Any, send: Any) -> None:  # a socket gone before registering
        await receive()
        await send({"type": "websocket.accept"})
        sock.drop()
        await receive()
        await asyncio.Event().wait()  # Flet: the send loop nobody stops
    await asyncio.wait_for(guard(app, _scope("10.0.0.9"), sock.receive, sock.send), 2)
    assert guard.cancelled == 1 and guard.count("10.0.0.9") == 0


async def test_the_guard_refuses_a_client_above_its_cap_and_not_another() -> None:
    guard = SocketGuard(per_client=2)
    release = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await release.wait()
    socks = [FakeSocket() for _ in range(4)]
    held = [asyncio.ensure_future(guard(app, _scope("10.0.0.9"), s.receive, s.send)) for s in socks[:2]]
    await _settle()
    await guard(app, _scope("10.0.0.9"), socks[2].receive, socks[2].send)  # refused: returns at once
    assert socks[2].sent == [{"type": "websocket.close", "code": 1008}]
    other = asyncio.ensure_future(guard(app, _scope("10.0.0.8"), socks[3].receive, socks[3].send))
    await _settle()
    assert socks[3].sent == [{"type": "websocket.accept"}]
    assert (guard.count("10.0.0.9"), guard.count("10.0.0.8"), guard.refused) == (2, 1, 1)
    release.set()
    await asyncio.gather(*held, other)
    assert guard.open == {}


async def test_a_burst_of_closed_sessions_is_followed_by_a_full_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed session is one reference cycle: only the cycle collector frees it (sessions.py)."""
    import gc

    from companion.ui import sessions

    monkeypatch.setattr(sessions, "COLLECT_AFTER", 3)
    monkeypatch.setattr(sessions, "COLLECT_GAP", 0.0)
    monkeypatch.setattr(sessions._Collector, "closed", 0)
    monkeypatch.setattr(sessions._Collector, "pending", None)
    monkeypatch.setattr(sessions._Collector, "runs", 0)
    monkeypatch.setattr(sessions._Collector, "tail", None)
    monkeypatch.setattr(sessions._Collector, "burst", 0)
    monkeypatch.setattr(sessions, "TAIL_DELAY", 0.3)
    t, tokens, server, pubsub = await _table()
    loop = asyncio.get_running_loop()

    async def opened() -> H.Client:
        # (each in a context of its own, as Flet runs a session's page: the harness sets Flet's
        # "current page" in it, which must not keep a screen alive in the test's own context)
        c = H.Client(server, f"/t/{t.code}", {"lang": "en"})
        await loop.create_task(c.open(pubsub), context=contextvars.Context())
        return c

    clients = [await opened() for _ in range(3)]
    screens = [weakref.ref(c.screen) for c in clients]
    gc.disable()  # only the collector under test may find the cycles
    async def collected(runs: int) -> None:
        """Until the collector has run `runs` times in all (its timers: TAIL_DELAY after a burst's
        last close), however late a loaded machine runs them."""
        deadline = loop.time() + 10
        while sessions._Collector.runs < runs and loop.time() < deadline:
            await asyncio.sleep(0.05)
        assert sessions._Collector.runs >= runs

    try:
        for c in clients:
            c.session.close()  # as Flet's sweep does: on_close, dispatched in a task
        # The test lets go of them before the loop runs again: the collection may come as soon as
        # TAIL_DELAY after the close events – on a loaded machine before any settling here is over.
        clients.clear()
        del c
        await collected(1)  # the burst's tail
        assert [r() for r in screens] == [None, None, None]  # freed: only a collection could
        late = await opened()  # the tail of the burst
        screens = [weakref.ref(late.screen)]
        late.session.close()
        del late
        await collected(2)  # one close after a collection: the same burst's tail (RECENT)
        assert screens[0]() is None
    finally:
        gc.enable()


async def test_past_the_budget_the_oldest_dropped_never_seated_sessions_are_ended_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """1,000 tabs opened and dropped kept ≈ 1,000 sessions for the grace and Flet's sweep: at most
    WAITING_MAX wait; the oldest past it are ended now (a seated phone is not counted)."""
    from companion.ui import sessions

    monkeypatch.setenv("COMPANION_UNSEATED_GRACE", "30")
    monkeypatch.setattr(sessions, "WAITING_MAX", 2)
    monkeypatch.setattr(sessions._Waiting, "order", {})
    t, tokens, server, pubsub = await _table()
    seated = (await H.open_table(server, pubsub, t, tokens[:1], host=False))[0]
    joining = [H.Client(server, f"/t/{t.code}", {"lang": "en"}) for _ in range(4)]
    for c in joining:
        await c.open(pubsub)
    await seated.session.disconnect(3600)
    for c in joining:
        await c.session.disconnect(3600)
    now = datetime.now(UTC)
    ended = [c.session.expires_at is not None and c.session.expires_at <= now for c in joining]
    assert ended == [True, True, False, False]  # the two oldest at once, the others wait their grace
    assert (seated.session.expires_at - now).total_seconds() > 3000
    assert len(sessions._Waiting.order) == 2
    conn = H.FakeConnection(asyncio.get_running_loop(), pubsub, joining[3].prefs)  # one comes back:
    conn.session = joining[3].session
    await joining[3].session.connect(conn)
    assert len(sessions._Waiting.order) == 1  # it no longer waits to be ended
    for c in (seated, *joining):
        c.close()


async def test_a_session_closed_before_its_storage_answered_frees_its_screen_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab dropped right after it registered never answers the storage reads: its screen waited
    5 s for each, then 15 s more (the 'looking for your seat' timer), after Flet had closed the
    session – in a burst of dropped tabs, hundreds of dead screens at once. On close, the reads
    and the timer are cancelled, the screen follows no table, and the collector can free it."""
    import gc
    import weakref

    class Mute(H.FakeConnection):
        def send_message(self, message: Any) -> None:
            body = getattr(message, "body", None)
            if getattr(body, "name", None) == "get":
                return  # a storage read that is never answered
            super().send_message(message)

    monkeypatch.setattr(H, "FakeConnection", Mute)
    t, tokens, server, pubsub = await _table()
    c = H.Client(server, f"/t/{t.code}", {"lang": "en"})
    # (in a context of its own, as Flet runs each session's page: the harness sets Flet's "current
    # page" in it, which must not keep the page alive in the test's own context)
    opening = asyncio.get_running_loop().create_task(c.open(pubsub), context=contextvars.Context())
    await asyncio.sleep(0.3)
    assert c.session is not None
    screen = c.session.page.data
    ref = weakref.ref(screen)
    del screen
    c.session.close()  # as Flet's sweep does: on_close in a task
    await asyncio.wait_for(opening, 2)  # route() stops at once, not after the 5 s read
    await _settle()
    assert not t._listeners
    c.session = None
    c.conn = None
    del opening
    gc.collect()
    assert ref() is None
