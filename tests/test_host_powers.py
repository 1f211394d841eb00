"""What a host can do, and what everybody sees of it (issue 17 item 3, docs/RELIABILITY.md "Host powers").

In-process, with real Flet sessions (tests/reliability/test_flet_messages.py's recording client).
"""

from __future__ import annotations

import asyncio
from typing import Any

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


async def test_the_host_deletes_an_ended_table_from_the_home_screen_after_a_confirmation() -> None:
    """Issue 17 item 6: the host can delete ended or abandoned tables (never one in play); it asks
    first and says it cannot be undone; a phone on the Wi-Fi has no such button."""
    import tempfile
    from pathlib import Path

    from companion.table.store import SQLiteStore

    with tempfile.TemporaryDirectory() as d:
        hub = Hub(SQLiteStore(Path(d)))
        ended = hub.create("sealed_vote", {}, [{"name": "A"}, {"name": "B"}])
        ended.request_sync(ended.host_token, {"op": "start"})
        ended.request_sync(ended.host_token, {"op": "end"})
        playing = hub.create("sealed_vote", {}, [{"name": "C"}, {"name": "D"}])
        server = Server(hub, "http://companion.test")
        reset = boot.CONN.set(boot.Conn("127.0.0.1", {}))
        try:
            home = await open_page(server, "/", "host", {})
        finally:
            boot.CONN.reset(reset)
        screen = home.session.page.data  # type: ignore[union-attr]
        asked: list[tuple[str, str]] = []
        yes: list[Any] = []
        screen.confirm = lambda title, what, label, fn: (asked.append((title, what)), yes.append(fn))
        rows = screen.old_tables()
        assert rows and any(ended.code in x for x in home.texts())  # listed on the home screen
        codes = [m.code for m in hub.metas() if hub.deletable(m)]
        assert codes == [ended.code]  # the table in play is not offered
        # the delete button of the ended table: it asks, and only "yes" deletes
        import flet as ft

        def buttons(c: Any) -> list[Any]:
            out = []
            stack = [c]
            while stack:
                x = stack.pop()
                if isinstance(x, (ft.FilledButton, ft.OutlinedButton)) and x.content == "Delete":
                    out.append(x)
                for name in ("content", "controls"):
                    v = getattr(x, name, None)
                    stack += v if isinstance(v, list) else [v] if isinstance(v, ft.Control) else []
            return out
        (delete,) = buttons(rows[0])
        await delete.on_click(None)
        assert asked and "cannot be undone" in asked[0][1] and hub.store.meta(ended.code) is not None
        await yes[0]()
        assert hub.store.meta(ended.code) is None and hub.get(ended.code) is None
        assert hub.get(playing.code) is not None
        hub.store.close()


async def test_reveal_before_everyone_locked_asks_and_names_who_is_open() -> None:
    """A tap on "Reveal now" while seats are still open asks first and names them; nothing is
    revealed until the host says yes. With every seat locked it reveals at once."""
    import flet as ft

    t, tokens, host, _phones = await table_with_pages("sealed_vote", {"mode": "number", "min": 0, "max": 9}, 3, "RVLA")
    await t.request(tokens[0], {"op": "act", "action": {"type": "submit", "value": 3}})
    await t.request(tokens[0], {"op": "act", "action": {"type": "lock"}})
    await t.request(tokens[1], {"op": "act", "action": {"type": "submit", "value": 4}})
    screen = host.session.page.data  # type: ignore[union-attr]
    asked: list[str] = []
    yes: list[Any] = []
    screen.confirm = lambda title, what, label, fn: (asked.append(what), yes.append(fn))

    def reveal_button() -> Any:
        stack: list[Any] = [screen.host_controls()]
        while stack:
            x = stack.pop()
            if isinstance(x, ft.FilledButton) and x.content == "Reveal now":
                return x
            for name in ("content", "controls"):
                v = getattr(x, name, None)
                stack += v if isinstance(v, list) else [v] if isinstance(v, ft.Control) else []
        raise AssertionError("no Reveal now button")
    await reveal_button().on_click(None)
    assert asked == ["1 choice is not locked and will not count: Player1. No choice yet (counts as none): Player2."]
    assert not t.view(None)["round"]["revealed"]
    await yes[0]()
    assert t.view(None)["round"]["revealed"]
    assert t.view(None)["round"]["choices"] == {"0": 3, "1": None, "2": None}  # (the default: not counted)
