"""The screen's side of the history page (views/history.py): its data, read in a worker thread and
kept in the screen's local choices with the filter and how many games are shown, and what its taps
do – renames, merges, undos and imports, on the host's own computer only."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import history
from companion.table.store import StoreError
from companion.ui.views import history as _history

if TYPE_CHECKING:
    from companion.ui.screens import Screen

DATA = "hist:data"  # scr.local: (filter, the page's data) – read again after every change
LOADING = "hist:loading"


def compute(store: Any, game: str | None) -> dict[str, Any]:
    """history.page_data(store, game) plus what the page needs over all games (the people to
    rename and merge, the games to filter by), from one read of the records and aliases."""
    records = store.history()
    aliases = store.aliases()
    people = history.People(records, aliases)
    shown = [r for r in records if game is None or r["game"] == game]
    out = {"games": history.games_list(shown, people=people), "stats": history.player_stats(shown, people=people),
           "players": history.players(shown, people=people), "aliases": aliases}
    out["everyone"] = out["players"] if game is None else history.players(records, people=people)
    out["played"] = sorted({r["game"] for r in records})
    return out


async def ready(scr: Screen) -> dict[str, Any]:
    """Read the page's data (in a worker thread: the event loop serves every table meanwhile)."""
    game = scr.local.get("hist:game")
    d = await asyncio.to_thread(compute, scr.hub.store, game)
    scr.local[DATA] = (game, d)
    return d


def data(scr: Screen) -> dict[str, Any] | None:
    """The page's data if read for the filter shown; else None, and it is read (then drawn)."""
    game = scr.local.get("hist:game")
    cached = scr.local.get(DATA)
    if cached is not None and cached[0] == game:
        return cached[1]
    if scr.local.get(LOADING) is None:
        scr.local[LOADING] = True
        local = scr.local

        async def load() -> None:
            try:
                await ready(scr)
            except StoreError:
                local[DATA] = (game, None)
            finally:
                local.pop(LOADING, None)
            if scr.local is local and scr.role == "history":  # (still this page)
                scr.render(force=True)
        contextvars.copy_context().run(scr.page.run_task, load)
    return None


async def changed(scr: Screen) -> None:
    """After a rename, merge, undo or import: read again, draw again."""
    try:
        await ready(scr)
    except StoreError:
        scr.toast(scr.t("ui.err.store"), True)
    scr.render(force=True)


def fail(scr: Screen, ex: Exception) -> None:
    if isinstance(ex, history.HistoryError):
        scr.toast(ex.text(scr.lang), True)
    else:
        scr.toast(scr.t("ui.err.store"), True)


async def import_bytes(scr: Screen, data: bytes) -> None:
    """Import a JSON export (as POST /history/import does) and say what happened."""
    if not scr.server.is_host_machine(scr.conn):
        return
    try:
        added, dup = await asyncio.to_thread(history.import_file, scr.hub.store, data)
    except (history.HistoryError, StoreError) as ex:
        fail(scr, ex)
        return
    scr.toast(history.t(scr.lang, "hist.imported", n=added, dup=dup))
    await changed(scr)


def history_calls(scr: Screen) -> _history.HistoryCalls:
    async def pick_game(game: str | None) -> None:
        scr.local["hist:game"] = game
        scr.local.pop("hist:shown", None)
        await changed(scr)

    def show_more(n: int) -> None:
        scr.local["hist:shown"] = n
        scr.render(force=True)

    async def change(do: Callable[..., Any], name: str, other: str, said: str, **words: str) -> None:
        """A rename or a merge of the history's names: on the host's own computer only; its refusal
        or the store's failure said, else what was done – and the page read again."""
        if not scr.server.is_host_machine(scr.conn):
            return
        try:
            await asyncio.to_thread(do, scr.hub.store, name, other)
        except (history.HistoryError, StoreError) as ex:
            fail(scr, ex)
            return
        scr.toast(scr.t(said, name=name, **words))
        await changed(scr)

    async def rename(name: str, new: str) -> None:
        await change(history.rename, name, new, "hist.ui.renamed", new=new)

    async def merge(name: str, into: str) -> None:
        await change(history.merge, name, into, "hist.ui.merged", into=into)

    async def undo(alias: Any) -> None:
        if not scr.server.is_host_machine(scr.conn):
            return
        try:
            await asyncio.to_thread(history.undo_alias, scr.hub.store, alias)
        except (history.HistoryError, StoreError) as ex:
            fail(scr, ex)
            return
        scr.toast(scr.t("hist.ui.undone"))
        await changed(scr)

    async def take(raw: bytes) -> None:
        await import_bytes(scr, raw)

    def show_dialog(dlg: ft.AlertDialog) -> None:
        scr.local["hist:dialog"] = dlg  # (tests read it)
        scr.page.show_dialog(dlg)
    return _history.HistoryCalls(scr.go, pick_game, show_more, rename, merge, undo, take,
                                 lambda *a: scr.confirm(*a), show_dialog, lambda: scr.page.pop_dialog())


def history_page(scr: Screen) -> list[ft.Control]:
    """/history: the page of the host's own computer, drawn from its data once read."""
    if not scr.server.is_host_machine(scr.conn):  # (route() shows it to no one else either)
        return _history.host_only(scr.lang)
    d = data(scr)
    failed = d is None and DATA in scr.local and scr.local[DATA][1] is None
    return _history.history_page(scr.lang, d, failed, scr.local.get("hist:game") or "",
                                 scr.local.get("hist:shown", _history.PAGE), history_calls(scr))


def history_link(scr: Screen) -> ft.Control:
    return _history.history_link(scr.lang, scr.go)
