"""What a host can do, and what everybody sees of it (issue 17 item 3, docs/RELIABILITY.md "Host powers").

In-process, with real Flet sessions (tests/reliability/test_flet_messages.py's recording client).
"""

from __future__ import annotations

import asyncio

from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui import boot
from companion.ui.screens import Server
from tests.reliability.test_flet_messages import open_page, settle, table_with_pages


async def test_a_seat_swap_during_play_is_shown_on_every_screen_and_survives_a_reload() -> None:
    t, _tokens, host, phones = await table_with_pages("sealed_vote", {}, 3, "SWAP")
    await t.request(t.host_token, {"op": "swap", "a": 0, "b": 2})
    await t.request(t.host_token, {"op": "free", "seat": 1})
    for _ in range(3):
        await settle()
    line = "The host swapped the seats of Player0 and Player2: each now plays the other's seat."
    for screen in [host, phones[0], phones[2]]:  # (phones[1] left its seat: it shows the join screen)
        assert line in screen.texts(), screen.name
        assert "The host freed the seat of Player1." in screen.texts(), screen.name
    again = Table.load(t.store, t.code)  # derived from the log: the same after a restart
    assert again.host_moves == t.host_moves == [{"op": "swap", "a": "Player0", "b": "Player2"},
                                                 {"op": "free", "name": "Player1"}]


def test_seat_changes_in_the_lobby_are_not_news() -> None:
    hub = Hub(MemoryStore())
    t = hub.create("sealed_vote", {}, [{"name": "A"}, {"name": "B"}])
    t.request_sync(None, {"op": "join", "seat": 0})
    t.request_sync(t.host_token, {"op": "swap", "a": 0, "b": 1})
    assert t.host_moves == []


async def test_a_one_time_link_makes_another_device_host_once() -> None:
    hub = Hub(MemoryStore())
    server = Server(hub, "http://companion.test")
    t = Table.create(hub.store, "TICK", "sealed_vote", {}, [{"name": "A"}, {"name": "B"}], 1)
    hub.tables["TICK"] = t
    ticket = server.host_ticket("TICK")
    second = await open_page(server, f"/host/TICK?h={ticket}", "tablet", {})
    for _ in range(40):  # the key is stored, then the page opened anew at /host/TICK (no key in it)
        await asyncio.sleep(0.2)
        if second.prefs.get("host:TICK") == t.host_token:
            break
    assert second.prefs.get("host:TICK") == t.host_token
    # the same link again (a photo of the screen): used up, so only a watcher
    third = await open_page(server, f"/host/TICK?h={ticket}", "photo", {})
    await settle()
    assert third.session is not None and third.session.page.data.role == "watch"
    assert "host:TICK" not in third.prefs
    # a link made for another table does not open this one
    other = server.host_ticket("ELSE")
    fourth = await open_page(server, f"/host/TICK?h={other}", "other", {})
    await settle()
    assert fourth.session is not None and fourth.session.page.data.role == "watch"


async def test_the_home_screen_is_the_hosts_by_the_connection_not_by_what_the_page_says() -> None:
    hub = Hub(MemoryStore())
    hub.create("sealed_vote", {}, [{"name": "A"}, {"name": "B"}])
    code = next(iter(hub.tables))
    server = Server(hub, "http://companion.test")
    reset = boot.CONN.set(boot.Conn("192.0.2.40", {}))  # a phone on the Wi-Fi
    try:
        phone = await open_page(server, "/", "phone", {})
    finally:
        boot.CONN.reset(reset)
    assert code not in " ".join(phone.texts()) and "Create table" not in phone.texts()
    reset = boot.CONN.set(boot.Conn("127.0.0.1", {}))  # the host's own computer
    try:
        host = await open_page(server, "/", "host", {})
    finally:
        boot.CONN.reset(reset)
    assert "Create table" in host.texts() and any(code in x for x in host.texts())
