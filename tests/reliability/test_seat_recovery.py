"""A phone must find its seat even when its browser storage answers late or not at all.

Found by the browser tests (docs/RELIABILITY.md, "Found"): the screens read the seat
token from `SharedPreferences` (the browser's localStorage) with a 5 s timeout and, when that
times out, show the join screen – for the rest of that Flet session, as a reload reuses it. In a
session Flet re-creates after a server restart the storage never answers (Flet issue #6412), and on
a loaded machine a fresh tab can answer later than 5 s.

In-process, with the same real Flet sessions and fake browser connection as
`test_flet_messages.py`; the storage of the "browser" answers after a delay or never. Fixed in
`companion/ui/screens.py`: the seat token is kept in the tab's address too (`/t/CODE?s=TOKEN`,
which a re-registering client sends), and a storage answer that comes late is not taken for "no
seat" – the phone says it is looking for its seat (no join buttons meanwhile) and is seated when
the answer arrives. A token found only in storage (a host screen opened from the home list, a
phone back in a new tab) is then put into the address too (the last two tests), so a later
restart cannot lose it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest
from flet.messaging.protocol import Message, MessageAction

from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui.screens import Server
from tests.reliability.test_flet_messages import ENCODE, RecordingClient, open_page, settle

CODE = "SEAT"


class LateStorage(RecordingClient):
    """A tab whose storage answers after `delay` seconds (None: never)."""

    delay: float | None = None

    def send_message(self, message: Message) -> None:
        b = message.body
        if message.action == MessageAction.INVOKE_METHOD and b.name in ("get", "set"):
            self.frames.append((message.action.value, msgpack.packb([message.action, b], default=ENCODE)))
            if self.delay is None:
                return  # never answered: the call times out on the server side
            args = b.args or {}
            if b.name == "get":
                res: Any = self.prefs.get(args.get("key"))
            else:
                self.prefs[args["key"]] = args["value"]
                res = True
            assert self.session is not None
            self.loop.call_later(self.delay, self.session.handle_invoke_method_results, b.control_id, b.call_id,
                                 res, None)
            return
        if message.action == MessageAction.INVOKE_METHOD and b.name == "push_route":  # a new address
            self.frames.append((message.action.value, msgpack.packb([message.action, b], default=ENCODE)))
            assert self.session is not None
            self.loop.call_soon(self.session.handle_invoke_method_results, b.control_id, b.call_id, None, None)
            return
        super().send_message(message)


def seated(conn: RecordingClient, name: str) -> bool:
    texts = conn.texts()
    return any(t.startswith(name) and "(you)" in t for t in texts) and "Welcome to the table" not in texts


async def table() -> tuple[Server, Table, str]:
    hub = Hub(MemoryStore())
    server = Server(hub, "http://companion.test")
    t = Table.create(hub.store, CODE, "sealed_vote", {}, [{"name": "Ana"}, {"name": "Ben"}], 1)
    hub.add(t)
    token = t.request_sync(None, {"op": "join", "seat": 0})["token"]
    return server, t, token


async def open_with_storage(server: Server, route: str, token: str, delay: float | None,
                            prefs: dict[str, Any] | None = None) -> RecordingClient:
    LateStorage.delay = delay
    import tests.reliability.test_flet_messages as fm
    real = fm.RecordingClient
    fm.RecordingClient = LateStorage  # open_page builds the connection by this name
    try:
        return await open_page(server, route, "phone", prefs if prefs is not None else {f"seat:{CODE}": token})
    finally:
        fm.RecordingClient = real


async def test_the_harness_seats_a_phone_whose_storage_answers() -> None:
    server, t, token = await table()
    conn = await open_with_storage(server, f"/t/{CODE}", token, 0.01)
    await asyncio.sleep(0.2)
    await settle()
    assert seated(conn, "Ana"), conn.texts()


@pytest.mark.slow
async def test_a_phone_whose_storage_answers_after_6_seconds_gets_its_seat() -> None:
    server, t, token = await table()
    conn = await open_with_storage(server, f"/t/{CODE}", token, 6.0)
    await asyncio.sleep(7)
    await settle()
    assert seated(conn, "Ana"), "the phone shows the join screen although its browser holds its seat token"


@pytest.mark.slow
async def test_a_phone_whose_storage_never_answers_gets_its_seat_from_its_address() -> None:
    server, t, token = await table()
    conn = await open_with_storage(server, f"/t/{CODE}?s={token}", token, None)
    await settle()
    assert seated(conn, "Ana"), "a re-created session (storage dead, Flet #6412) shows the join screen"


def sent_address(conn: RecordingClient, prefix: str) -> bool:
    return any(isinstance(v, str) and v.startswith(prefix) for v in conn.values())


async def test_a_host_screen_opened_from_storage_keeps_its_key_out_of_the_address() -> None:
    """The host screen opened as /host/CODE finds its key in storage; the key must NOT go into the
    address (the host screen is what the whole table looks at: issue 17 item 3) – the page keeps it
    in the table's host cookie instead (companion/ui/boot.py), see the next test."""
    server, t, token = await table()
    conn = await open_with_storage(server, f"/host/{CODE}", token, 0.01, prefs={f"host:{CODE}": t.host_token})
    await asyncio.sleep(0.2)
    await settle()
    assert conn.session is not None and conn.session.page.data.role == "host"
    assert not sent_address(conn, f"/host/{CODE}?"), "the host key went into the tab's address"
    shown = conn.values(patches_only=True)
    assert not any(isinstance(v, str) and t.host_token in v for v in shown), "the key is drawn on the screen"


async def test_a_re_created_host_session_finds_its_key_in_the_cookie() -> None:
    """After a server restart Flet re-creates the host tab's session without working storage
    (Flet #6412); its handshake still carries the table's host cookie, so it is the host again."""
    from companion.ui import boot

    server, t, token = await table()
    reset = boot.CONN.set(boot.Conn("127.0.0.1", {CODE: t.host_token}))
    try:
        conn = await open_with_storage(server, f"/host/{CODE}", token, None, prefs={})
    finally:
        boot.CONN.reset(reset)
    await settle()
    assert conn.session is not None and conn.session.page.data.role == "host"
    # a cookie with a wrong key is a watcher, like no key at all
    reset = boot.CONN.set(boot.Conn("127.0.0.1", {CODE: "forged"}))
    try:
        conn = await open_with_storage(server, f"/host/{CODE}", token, 0.01, prefs={})
    finally:
        boot.CONN.reset(reset)
    await settle()
    assert conn.session is not None and conn.session.page.data.role == "watch"


async def test_a_phone_seated_from_storage_puts_its_token_in_the_address() -> None:
    """A phone that comes back through a new tab or a reopened browser at /t/CODE is seated from
    storage; the token must then go into the address as well (same reason)."""
    server, t, token = await table()
    conn = await open_with_storage(server, f"/t/{CODE}", token, 0.01)
    await asyncio.sleep(0.2)
    await settle()
    assert seated(conn, "Ana")
    assert sent_address(conn, f"/t/{CODE}?s={token}"), "the seat token is not in the tab's address"
