"""The history page (`/history`, issue 21.3): the host's own computer only (Session.route checks
Server.is_host_machine on the connection's own address, never anything the browser says).

What it shows comes from `history.page_data(store, game)` (docs/HISTORY.md): the finished games
(newest first: date, game, players by rank with scores, winner), per player and game the games
played, wins, average and best score, a bar chart of wins per player, a filter by game; the host's
renames and merges (each asks first and says what it will do; every one can be undone here); the
export links (`/history/export.csv|json`, companion/history_routes.py) and the import of a JSON
export (read by a file picker, checked and written by `history.import_file`, the same call as
`POST /history/import`, its message in the host's language).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import history
from companion.games import games
from companion.table.store import StoreError
from companion.ui import kit

if TYPE_CHECKING:
    from companion.ui.screens import Screen

PAGE = 30  # games shown at first; "Show more" adds as many again
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


def game_name(scr: Screen, gid: str) -> str:
    g = games().get(gid)
    return scr.t(g.NAME) if g is not None else gid


def num(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return str(v)


def when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(float(ts)))


def history_link(scr: Screen) -> ft.Control:
    """The way to this page from the host's home screen."""
    async def go(e: Any) -> None:
        await scr.go("/history")
    return ft.Row([kit.button(scr.t("hist.ui.open"), go, primary=False)])


def history_page(scr: Screen) -> list[ft.Control]:
    if not scr.server.is_host_machine(scr.conn):  # (route() shows it to no one else either)
        return [ft.Text(scr.t("ui.home.host_only"), size=16)]
    d = data(scr)
    if d is None and DATA in scr.local and scr.local[DATA][1] is None:
        return [kit.card(ft.Text(scr.t("ui.err.store"), size=16, color=ft.Colors.RED_800))]

    async def home(e: Any) -> None:
        await scr.go("/")
    out: list[ft.Control] = [ft.Row([kit.title(scr.t("hist.ui.title")),
                                     kit.button(scr.t("hist.ui.back"), home, primary=False)],
                                    alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True)]
    if d is None:
        return [*out, ft.Container(ft.ProgressRing(), padding=40, alignment=ft.Alignment.CENTER)]
    out.append(filter_row(scr, d))
    if not d["games"]:
        out.append(kit.card(ft.Text(scr.t("hist.ui.none"), size=17)))
    else:
        out.append(ft.ResponsiveRow([ft.Container(chart(scr, d), col={"md": 12, "lg": 5}),
                                     ft.Container(stats(scr, d), col={"md": 12, "lg": 7})],
                                    spacing=14, run_spacing=14, vertical_alignment=ft.CrossAxisAlignment.START))
        out.append(games_card(scr, d))
    out.append(people_card(scr, d))
    out.append(transfer_card(scr))
    return out


def filter_row(scr: Screen, d: dict[str, Any]) -> ft.Control:
    opts = [("", scr.t("hist.ui.all"))] + [(g, game_name(scr, g)) for g in d["played"]]

    async def pick(key: str) -> None:
        scr.local["hist:game"] = key or None
        scr.local.pop("hist:shown", None)
        await changed(scr)
    return kit.choice_row(scr.t("hist.ui.filter"), opts, scr.local.get("hist:game") or "", pick)


def chart(scr: Screen, d: dict[str, Any]) -> ft.Control:
    """Wins per player as bars (Containers): the longest bar is the most wins."""
    people = sorted(d["players"], key=lambda p: (-p["wins"], -p["played"], p["player"].casefold()))[:12]
    top = max([p["wins"] for p in people] + [1])
    rows: list[ft.Control] = []
    for p in people:
        w = 200 * p["wins"] / top
        rows.append(ft.Row([
            ft.Text(p["player"], size=15, width=110, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
            ft.Container(width=max(w, 3), height=22, border_radius=6,
                         bgcolor=ft.Colors.PRIMARY if p["wins"] else ft.Colors.OUTLINE_VARIANT),
            ft.Text(scr.t("hist.ui.wins_of", n=p["wins"], played=p["played"]), size=14)],
            spacing=8))
    return kit.card(kit.title(scr.t("hist.ui.chart"), 20), *rows)


def stats(scr: Screen, d: dict[str, Any]) -> ft.Control:
    cols = [ft.DataColumn(ft.Text(scr.t(k))) for k in
            ("hist.ui.col.player", "hist.ui.col.game", "hist.ui.col.played", "hist.ui.col.wins",
             "hist.ui.col.avg", "hist.ui.col.best")]
    rows = [ft.DataRow(cells=[ft.DataCell(ft.Text(s["player"])), ft.DataCell(ft.Text(game_name(scr, s["game"]))),
                              ft.DataCell(ft.Text(str(s["played"]))), ft.DataCell(ft.Text(str(s["wins"]))),
                              ft.DataCell(ft.Text(num(s["average"]))), ft.DataCell(ft.Text(num(s["best"])))])
            for s in d["stats"][:200]]
    return kit.card(kit.title(scr.t("hist.ui.stats"), 20),
                    ft.Row([ft.DataTable(columns=cols, rows=rows, column_spacing=22, data_row_min_height=36,
                                         data_row_max_height=40, heading_row_height=40)],
                           scroll=ft.ScrollMode.AUTO))


def games_card(scr: Screen, d: dict[str, Any]) -> ft.Control:
    shown = scr.local.get("hist:shown", PAGE)
    rows: list[ft.Control] = [kit.title(scr.t("hist.ui.games_title", n=len(d["games"])), 20)]
    for g in d["games"][:shown]:
        ranked = ", ".join(f"{p['rank']}. {p['name']}" + ("" if p["score"] is None else f" {num(p['score'])}")
                           for p in g["players"])
        win = (scr.t("hist.ui.winner", names=", ".join(g["winners"])) if g["winners"]
               else scr.t("hist.ui.no_winner"))
        rows.append(ft.Container(ft.Column([
            ft.Text(f"{when(g['ended'])} · {game_name(scr, g['game'])} · {g['code']}", size=15,
                    weight=ft.FontWeight.BOLD),
            ft.Text(ranked, size=15),
            ft.Text(win, size=15, color=ft.Colors.PRIMARY)], spacing=2, tight=True),
            padding=ft.Padding.symmetric(vertical=4)))
    rest = len(d["games"]) - shown
    if rest > 0:
        async def more(e: Any) -> None:
            scr.local["hist:shown"] = shown + PAGE
            scr.render(force=True)
        rows.append(kit.button(scr.t("hist.ui.more", n=min(rest, PAGE)), more, primary=False))
    return kit.card(*rows)


def people_card(scr: Screen, d: dict[str, Any]) -> ft.Control:
    """Every person with Rename and Merge; below, the renames and merges so far, each undoable."""
    everyone = d["everyone"]
    rows: list[ft.Control] = [kit.title(scr.t("hist.ui.people"), 20),
                              ft.Text(scr.t("hist.ui.people_hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT)]
    for p in everyone:
        async def ren(e: Any, p: dict[str, Any] = p) -> None:
            rename_dialog(scr, p)

        async def mer(e: Any, p: dict[str, Any] = p) -> None:
            merge_dialog(scr, p, everyone)
        names = ", ".join(n for n in p["names"] if n != p["player"])
        rows.append(ft.Row([
            ft.Text(p["player"] + (f" ({names})" if names else ""), size=16, expand=True),
            ft.Semantics(content=kit.button(scr.t("hist.ui.rename"), ren, primary=False),
                         label=scr.t("hist.ui.rename_title", name=p["player"])),
            ft.Semantics(content=kit.button(scr.t("hist.ui.merge"), mer, primary=False,
                                            disabled=len(everyone) < 2),
                         label=scr.t("hist.ui.merge_title", name=p["player"]))]))  # (no wrap: an expanded text in a
        # wrapping row is Flutter's grey error box, issue 30.6)
    spelled = {history.name_key(n): n for p in everyone for n in p["names"]}  # a matched name as played
    if d["aliases"]:
        rows.append(ft.Text(scr.t("hist.ui.changes"), size=17, weight=ft.FontWeight.BOLD))
        for a in reversed(d["aliases"]):
            a = {**a, "src": spelled.get(a["src"], a["src"])}

            async def undo(e: Any, a: dict[str, Any] = a) -> None:
                undo_dialog(scr, a)
            rows.append(ft.Row([
                ft.Text(scr.t(f"hist.ui.alias_{a['kind']}", src=a["src"], dst=a["dst"]), size=15, expand=True),
                ft.Semantics(content=kit.button(scr.t("hist.ui.undo"), undo, primary=False, icon=ft.Icons.UNDO),
                             label=scr.t("hist.ui.undo_label", src=a["src"], dst=a["dst"]))]))
    return kit.card(*rows)


def fail(scr: Screen, ex: Exception) -> None:
    if isinstance(ex, history.HistoryError):
        scr.toast(ex.text(scr.lang), True)
    else:
        scr.toast(scr.t("ui.err.store"), True)


def rename_dialog(scr: Screen, p: dict[str, Any]) -> None:
    field = ft.TextField(label=scr.t("hist.ui.new_name"), value=p["player"], max_length=24, autofocus=True)

    async def ok(e: Any) -> None:
        new = (field.value or "").strip()
        scr.page.pop_dialog()
        if not new or new == p["player"] or not scr.server.is_host_machine(scr.conn):
            return
        try:
            await asyncio.to_thread(history.rename, scr.hub.store, p["player"], new)
        except (history.HistoryError, StoreError) as ex:
            fail(scr, ex)
            return
        scr.toast(scr.t("hist.ui.renamed", name=p["player"], new=new))
        await changed(scr)
    field.on_submit = ok
    dlg = ft.AlertDialog(
        title=ft.Text(scr.t("hist.ui.rename_title", name=p["player"])),
        content=ft.Column([ft.Text(scr.t("hist.ui.rename_what", name=p["player"], n=p["played"]), size=16),
                           field], tight=True, width=420),
        actions=[ft.TextButton(content=scr.t("ui.cancel"), on_click=lambda e: scr.page.pop_dialog()),
                 ft.FilledButton(content=scr.t("hist.ui.rename"), on_click=ok)])
    scr.local["hist:dialog"] = dlg  # (tests read it)
    scr.page.show_dialog(dlg)


def merge_dialog(scr: Screen, p: dict[str, Any], everyone: list[dict[str, Any]]) -> None:
    """First who `p` really is (one button per other person), then what the merge will do."""
    async def pick(e: Any, into: dict[str, Any]) -> None:
        scr.page.pop_dialog()

        async def yes() -> None:
            if not scr.server.is_host_machine(scr.conn):
                return
            try:
                await asyncio.to_thread(history.merge, scr.hub.store, p["player"], into["player"])
            except (history.HistoryError, StoreError) as ex:
                fail(scr, ex)
                return
            scr.toast(scr.t("hist.ui.merged", name=p["player"], into=into["player"]))
            await changed(scr)
        scr.confirm(scr.t("hist.ui.merge_confirm", name=p["player"], into=into["player"]),
                    scr.t("hist.ui.merge_what", name=p["player"], into=into["player"], n=p["played"]),
                    scr.t("hist.ui.merge"), yes)
    choices: list[ft.Control] = []
    for o in everyone:
        if o["key"] == p["key"]:
            continue

        async def chosen(e: Any, o: dict[str, Any] = o) -> None:
            await pick(e, o)
        choices.append(ft.OutlinedButton(content=o["player"], on_click=chosen, height=48))
    dlg = ft.AlertDialog(
        title=ft.Text(scr.t("hist.ui.merge_title", name=p["player"])),
        content=ft.Column([ft.Text(scr.t("hist.ui.merge_pick", name=p["player"]), size=16),
                           ft.Row(choices, wrap=True, spacing=8, run_spacing=8)],
                          tight=True, width=420, scroll=ft.ScrollMode.AUTO),
        actions=[ft.TextButton(content=scr.t("ui.cancel"), on_click=lambda e: scr.page.pop_dialog())])
    scr.local["hist:dialog"] = dlg
    scr.page.show_dialog(dlg)


def undo_dialog(scr: Screen, a: dict[str, Any]) -> None:
    async def yes() -> None:
        if not scr.server.is_host_machine(scr.conn):
            return
        try:
            await asyncio.to_thread(history.undo_alias, scr.hub.store, a["id"])
        except (history.HistoryError, StoreError) as ex:
            fail(scr, ex)
            return
        scr.toast(scr.t("hist.ui.undone"))
        await changed(scr)
    scr.confirm(scr.t("hist.ui.undo_title"), scr.t(f"hist.ui.undo_{a['kind']}", src=a["src"], dst=a["dst"]),
                scr.t("hist.ui.undo"), yes)


def transfer_card(scr: Screen) -> ft.Control:
    links: list[ft.Control] = [
        ft.OutlinedButton(content=scr.t("hist.ui.export_csv"), url="/history/export.csv", height=52),
        ft.OutlinedButton(content=scr.t("hist.ui.export_json"), url="/history/export.json", height=52)]

    async def pick(e: Any) -> None:
        picker = ft.FilePicker()
        try:
            files = await picker.pick_files(allowed_extensions=["json"], with_data=True)
        except Exception:
            return
        if files and files[0].bytes is not None:
            await import_bytes(scr, files[0].bytes)
    links.append(kit.button(scr.t("hist.ui.import"), pick, primary=False, icon=ft.Icons.ADD))
    return kit.card(kit.title(scr.t("hist.ui.transfer"), 20),
                    ft.Text(scr.t("hist.ui.transfer_hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Row(links, wrap=True, spacing=8))


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
