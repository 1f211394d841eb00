"""Issue 21.2/21.3 screens, in-process (real Flet sessions over benchmarks/harness.py): the history
page (content, the host's computer only, rename / merge / undo through its dialogs, import) and
"Play again" with the phones following to the new table with their seats."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import flet as ft

import benchmarks.harness as H
from companion import history
from companion.table.hub import Hub, follow_up
from companion.table.store import SQLiteStore
from companion.ui import boot
from companion.ui.assemble import for_history as ah
from companion.ui.screens import Server
from companion.ui.views import history as hv
from tests import ui_harness as U
from tests.historyplay import finished_table

HOST = boot.Conn("127.0.0.1", {})  # the host's own computer
PHONE = boot.Conn("192.0.2.40", {})  # a phone on the Wi-Fi


def _hub(tmp_path: Path) -> Hub:
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    for i, (code, game, names) in enumerate([("AAAA", "lutece", ["Ann", "Bob", "Cy"]),
                                             ("BBBB", "lutece", ["ann", "Bob", "Annie"]),
                                             ("CCCC", "quovadis", ["Ann", "Bob", "Cy"])]):
        p = finished_table(store, code, game, seed=3 + i, phones=3, names=names)
        hub.add(p.table)
    return hub


async def _open(server: Server, route: str, conn: boot.Conn, prefs: dict[str, Any] | None = None) -> H.Client:
    reset = boot.CONN.set(conn)
    try:
        return await H.Client(server, route, prefs if prefs is not None else {"lang": "en"}).open(H.new_pubsub())
    finally:
        boot.CONN.reset(reset)


def _dialog(c: H.Client) -> Any:
    return c.session.page._dialogs.controls[-1]


async def _press(controls: Any, label: str) -> None:
    b = U.buttons(controls)[label]
    await b.on_click(None)


async def test_the_history_page_shows_games_stats_and_chart_on_the_hosts_computer(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    server = Server(hub, "http://companion.test")
    c = await _open(server, "/history", HOST)
    scr = c.screen
    assert scr.role == "history"
    for _ in range(100):  # the page reads its data in a worker thread, then draws it
        if ah.DATA in scr.local:
            break
        await asyncio.sleep(0.02)
    assert scr.local[ah.DATA][1]["games"]
    shown = U.text(ah.history_page(scr))
    d = history.page_data(hub.store)
    assert "3 games played" in shown and "Wins per player" in shown and "Per player and game" in shown
    assert "Lutèce" in shown and "Quo Vadis" in shown
    for g in d["games"]:
        assert f"Winner: {', '.join(g['winners'])}" in shown
        first = g["players"][0]
        assert f"1. {first['name']} {first['score']}" in shown
    for s in d["stats"]:
        assert s["player"] in shown
    # "ann" and "Ann" are one person (matched by name): the chart has one bar for her
    bars = [x for x in U.texts(hv.chart(scr.lang, d)) if x.casefold() == "ann"]
    assert bars == ["Ann"]
    # the filter by game
    await _press(ah.history_page(scr), "Quo Vadis")
    assert "1 game played" in U.text(ah.history_page(scr))
    # the home screen of the host's computer links to it
    home = await _open(server, "/", HOST)
    assert "Game history and statistics" in U.buttons(home.screen.home())
    # in German
    await scr.set_lang("de")
    assert "Siege pro Person" in U.text(ah.history_page(scr))
    for x in (c, home):
        x.close()


async def test_the_history_page_is_not_shown_to_a_phone(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    server = Server(hub, "http://companion.test")
    c = await _open(server, "/history", PHONE)
    assert c.screen.role == "home"
    page = U.text(c.screen.build())
    assert "Wins per player" not in page and "Ann" not in page
    assert "Game history and statistics" not in U.buttons(c.screen.home())
    assert "Wins per player" not in U.text(ah.history_page(c.screen))  # (even if it were drawn)
    c.close()


async def test_rename_merge_and_undo_through_the_page(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    server = Server(hub, "http://companion.test")
    c = await _open(server, "/history", HOST)
    scr = c.screen
    people = hv.people_card(scr.lang, await ah.ready(scr), ah.history_calls(scr))
    # rename Cy -> Cyrus: the dialog says what it will do, then does it
    rows = [r for r in U.controls_of(people) if isinstance(r, ft.Row) and U.texts(r)[:1] == ["Cy"]]
    await U.buttons(rows[0])["Rename"].on_click(None)
    dlg = _dialog(c)
    assert "Cy is shown with the new name in all of their games (2 games)" in U.text(dlg.content)
    U.fields(dlg.content)["New name"].value = "Cyrus"
    await U.buttons(dlg.actions)["Rename"].on_click(None)
    await asyncio.sleep(0.05)
    d = history.page_data(hub.store)
    assert "Cyrus" in [p["player"] for p in d["players"]] and "Cy" not in [p["player"] for p in d["players"]]
    assert "Cy renamed to Cyrus" in U.text(ah.history_page(scr))
    # merge Annie into Ann: pick who, then a confirmation that says what happens
    people = hv.people_card(scr.lang, ah.data(scr), ah.history_calls(scr))  # (read again after the rename)
    rows = [r for r in U.controls_of(people) if isinstance(r, ft.Row) and U.texts(r)[:1] == ["Annie"]]
    await U.buttons(rows[0])["Merge"].on_click(None)
    await U.buttons(_dialog(c).content)["Ann"].on_click(None)
    confirm = _dialog(c)
    assert "Every game of Annie (1 game) counts for Ann" in U.text(confirm.content)
    await U.buttons(confirm.actions)["Merge"].on_click(None)
    await asyncio.sleep(0.05)
    d = history.page_data(hub.store)
    assert "Annie" not in [p["player"] for p in d["players"]]
    ann = next(p for p in d["players"] if p["player"] == "Ann")
    assert ann["played"] == 3 and "Annie" in ann["names"]
    # undo the merge from the page (asks first)
    page = ah.history_page(scr)
    undo_rows = [r for r in U.controls_of(page) if isinstance(r, ft.Row) and "Annie merged into Ann" in U.texts(r)]
    await U.buttons(undo_rows[0])["Undo"].on_click(None)
    confirm = _dialog(c)
    assert "Annie counts as a player of their own again" in U.text(confirm.content)
    await U.buttons(confirm.actions)["Undo"].on_click(None)
    await asyncio.sleep(0.05)
    d = history.page_data(hub.store)
    assert "Annie" in [p["player"] for p in d["players"]] and len(d["aliases"]) == 1
    c.close()


async def test_import_through_the_page_says_what_it_did_in_the_hosts_language(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    exported = history.export_json(hub.store.history(), hub.store.aliases())
    other = Hub(SQLiteStore(tmp_path / "other"))
    server = Server(other, "http://companion.test")
    c = await _open(server, "/history", HOST, {"lang": "fr"})
    scr = c.screen
    toasts: list[tuple[str, bool]] = []
    scr.toast = lambda m, error=False: toasts.append((m, error))  # type: ignore[method-assign]
    await ah.ready(scr)
    await ah.import_bytes(scr, exported.encode())
    await ah.import_bytes(scr, exported.encode())
    await ah.import_bytes(scr, b"{not json")
    assert toasts[0] == (history.t("fr", "hist.imported", n=3, dup=0), False)
    assert toasts[1] == (history.t("fr", "hist.imported", n=0, dup=3), False)
    assert toasts[2][1] and "Nothing" not in toasts[2][0] and toasts[2][0]
    assert len(other.store.history()) == 3
    assert "3 parties jouées" in U.text(ah.history_page(scr))
    c.close()


async def test_play_again_moves_the_phones_to_the_new_table_with_their_seats(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    p = finished_table(store, "OLDT", "sealed_vote", seed=2, phones=3)
    old = p.table
    hub.add(old)
    server = Server(hub, "http://companion.test")
    pubsub = H.new_pubsub()
    phones = [await H.Client(server, f"/t/{old.code}", {f"seat:{old.code}": tok, "lang": "en"}).open(pubsub)
              for tok in p.tokens]
    host = await _open(server, f"/host/{old.code}", HOST, {f"host:{old.code}": old.host_token, "lang": "de"})
    scr = host.screen
    assert scr.role == "host" and old.phase == "ended"
    card = scr.rematch_part()
    assert "Nochmal spielen" in U.buttons(card)
    await U.buttons(card)["Nochmal spielen"].on_click(None)
    dlg = _dialog(host)
    what = U.text(dlg.content)
    assert "mit denselben Personen, Plätzen, Farben und Optionen" in what and "P1, P2, P3" in what
    assert any(isinstance(x, ft.Dropdown) for x in U.controls_of(dlg.content))  # the options, prefilled
    mode = next(x for x in U.controls_of(dlg.content) if isinstance(x, ft.Dropdown))
    assert mode.value == str(old.options["mode"])
    await U.buttons(dlg.actions)["Nochmal spielen"].on_click(None)
    await H.quiet([*phones, host])
    new_code = follow_up(old)
    assert new_code and new_code != old.code
    new = hub.get(new_code)
    assert new is not None and new.game_id == old.game_id and new.options == old.options
    for i, c in enumerate(phones):
        ps = c.screen
        assert ps.table is new and ps.seat == i and ps.token == p.tokens[i]
        assert ps._route == f"/t/{new_code}?s={p.tokens[i]}"
        assert c.prefs[f"seat:{new_code}"] == p.tokens[i]  # the seat token, stored for the new code
    assert c.prefs[f"seat:{old.code}"] == p.tokens[-1]  # (the old one stays: the old game is readable)
    assert host.prefs[f"host:{new_code}"] == old.host_token  # the host's key for the new table
    # the finished game stays readable at its old address, and shows the way on
    again = await H.Client(server, f"/t/{old.code}", {f"seat:{old.code}": p.tokens[0], "lang": "en"}).open(pubsub)
    assert again.screen.table is old and again.screen.seat == 0
    assert "Tisch " + new_code in U.text(scr.rematch_part())
    for x in (*phones, host, again):
        x.close()


async def test_a_phone_asleep_during_the_rematch_follows_when_it_wakes(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    p = finished_table(store, "NAPS", "sealed_vote", seed=5, phones=2)
    hub.add(p.table)
    server = Server(hub, "http://companion.test")
    pubsub = H.new_pubsub()
    phone = await H.Client(server, "/t/NAPS", {"seat:NAPS": p.tokens[1], "lang": "en"}).open(pubsub)
    await phone.session.disconnect(3600)
    new = await hub.rematch_async("NAPS")
    assert phone.screen.table is p.table  # asleep: still on the old table
    conn = H.FakeConnection(asyncio.get_running_loop(), pubsub, phone.prefs)
    conn.session = phone.session
    await phone.session.connect(conn)
    await H.quiet([phone])
    assert phone.screen.table is new and phone.screen.seat == 1
    assert phone.prefs[f"seat:{new.code}"] == p.tokens[1]
    phone.close()

