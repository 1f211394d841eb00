"""The history page (`/history`, issue 21.3): the host's own computer only (Session.route checks
Server.is_host_machine on the connection's own address, never anything the browser says).

What it shows comes from `history.page_data(store, game)` (docs/HISTORY.md): the finished games
(newest first: date, game, players by rank with scores, winner), per player and game the games
played, wins, average and best score, a bar chart of wins per player, a filter by game; the host's
renames and merges (each asks first and says what it will do; every one can be undone here); the
export links (`/history/export.csv|json`, companion/history_routes.py) and the import of a JSON
export (read by a file picker, checked and written by `history.import_file`, the same call as
`POST /history/import`, its message in the host's language).

Functions of what they draw – the language, the page's data as read (plain values: lists and dicts
of `companion.ui.assemble.for_history.compute`), the filter and how many games are shown – and of
the session's callbacks (`HistoryCalls`), not of the Screen: the screen's side
(companion/ui/assemble/for_history.py) reads the data, keeps the filter and does the renames,
merges, undos and imports.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion import history, i18n
from companion.games import games
from companion.ui import kit

PAGE = 30  # games shown at first; "Show more" adds as many again


@dataclass(frozen=True, eq=False)
class HistoryCalls(kit.Calls):
    go: Callable[[str], Awaitable[None]]  # to an address of this app
    pick_game: Callable[[str | None], Awaitable[None]]  # the filter by game (None: all games)
    show_more: Callable[[int], None]  # show this many games
    rename: Callable[[str, str], Awaitable[None]]  # a person's new name (person, new name)
    merge: Callable[[str, str], Awaitable[None]]  # a person counted as another (person, into)
    undo: Callable[[Any], Awaitable[None]]  # a rename or merge taken back (its id)
    import_bytes: Callable[[bytes], Awaitable[None]]  # a JSON export read by the file picker
    confirm: Callable[[str, str, str, Callable[[], Awaitable[None]]], None]  # ask first: title, what, yes, then
    show_dialog: Callable[[ft.AlertDialog], None]
    pop_dialog: Callable[[], Any]


def game_name(lang: str, gid: str) -> str:
    g = games().get(gid)
    return i18n.t(lang, g.NAME) if g is not None else gid


def num(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return str(v)


def when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(float(ts)))


def history_link(lang: str, go: Callable[[str], Awaitable[None]]) -> ft.Control:
    """The way to this page from the host's home screen."""
    async def open_page(e: Any) -> None:
        await go("/history")
    return ft.Row([kit.button(i18n.t(lang, "hist.ui.open"), open_page, primary=False)])


def host_only(lang: str) -> list[ft.Control]:
    """Anyone but the host's computer (route() shows the page to no one else either)."""
    return [ft.Text(i18n.t(lang, "ui.home.host_only"), size=16)]


def history_page(lang: str, d: Mapping[str, Any] | None, failed: bool, game: str, shown: int,
                 calls: HistoryCalls) -> list[ft.Control]:
    """The page: `d` the data for the filter `game` ("" for all games; None while it is read),
    `failed` when it could not be read, `shown` how many games are listed."""
    if failed:
        return [kit.card(ft.Text(i18n.t(lang, "ui.err.store"), size=16, color=ft.Colors.RED_800))]

    async def home(e: Any) -> None:
        await calls.go("/")
    out: list[ft.Control] = [ft.Row([kit.title(i18n.t(lang, "hist.ui.title")),
                                     kit.button(i18n.t(lang, "hist.ui.back"), home, primary=False)],
                                    alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True)]
    if d is None:
        return [*out, ft.Container(ft.ProgressRing(), padding=40, alignment=ft.Alignment.CENTER)]
    out.append(filter_row(lang, d["played"], game, calls))
    if not d["games"]:
        out.append(kit.card(ft.Text(i18n.t(lang, "hist.ui.none"), size=17)))
    else:
        out.append(ft.ResponsiveRow([ft.Container(chart(lang, d), col={"md": 12, "lg": 5}),
                                     ft.Container(stats(lang, d), col={"md": 12, "lg": 7})],
                                    spacing=14, run_spacing=14, vertical_alignment=ft.CrossAxisAlignment.START))
        out.append(games_card(lang, d["games"], shown, calls))
    out.append(people_card(lang, d, calls))
    out.append(transfer_card(lang, calls))
    return out


def filter_row(lang: str, played: Sequence[str], game: str, calls: HistoryCalls) -> ft.Control:
    opts = [("", i18n.t(lang, "hist.ui.all"))] + [(g, game_name(lang, g)) for g in played]

    async def pick(key: str) -> None:
        await calls.pick_game(key or None)
    return kit.choice_row(i18n.t(lang, "hist.ui.filter"), opts, game, pick)


def chart(lang: str, d: Mapping[str, Any]) -> ft.Control:
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
            ft.Text(i18n.t(lang, "hist.ui.wins_of", n=p["wins"], played=p["played"]), size=14)],
            spacing=8))
    return kit.card(kit.title(i18n.t(lang, "hist.ui.chart"), 20), *rows)


def stats(lang: str, d: Mapping[str, Any]) -> ft.Control:
    cols = [ft.DataColumn(ft.Text(i18n.t(lang, k))) for k in
            ("hist.ui.col.player", "hist.ui.col.game", "hist.ui.col.played", "hist.ui.col.wins",
             "hist.ui.col.avg", "hist.ui.col.best")]
    rows = [ft.DataRow(cells=[ft.DataCell(ft.Text(s["player"])), ft.DataCell(ft.Text(game_name(lang, s["game"]))),
                              ft.DataCell(ft.Text(str(s["played"]))), ft.DataCell(ft.Text(str(s["wins"]))),
                              ft.DataCell(ft.Text(num(s["average"]))), ft.DataCell(ft.Text(num(s["best"])))])
            for s in d["stats"][:200]]
    return kit.card(kit.title(i18n.t(lang, "hist.ui.stats"), 20),
                    ft.Row([ft.DataTable(columns=cols, rows=rows, column_spacing=22, data_row_min_height=36,
                                         data_row_max_height=40, heading_row_height=40)],
                           scroll=ft.ScrollMode.AUTO))


def games_card(lang: str, played: Sequence[Mapping[str, Any]], shown: int, calls: HistoryCalls) -> ft.Control:
    rows: list[ft.Control] = [kit.title(i18n.t(lang, "hist.ui.games_title", n=len(played)), 20)]
    for g in played[:shown]:
        ranked = ", ".join(f"{p['rank']}. {p['name']}" + ("" if p["score"] is None else f" {num(p['score'])}")
                           for p in g["players"])
        win = (i18n.t(lang, "hist.ui.winner", names=", ".join(g["winners"])) if g["winners"]
               else i18n.t(lang, "hist.ui.no_winner"))
        rows.append(ft.Container(ft.Column([
            ft.Text(f"{when(g['ended'])} · {game_name(lang, g['game'])} · {g['code']}", size=15,
                    weight=ft.FontWeight.BOLD),
            ft.Text(ranked, size=15),
            ft.Text(win, size=15, color=ft.Colors.PRIMARY)], spacing=2, tight=True),
            padding=ft.Padding.symmetric(vertical=4)))
    rest = len(played) - shown
    if rest > 0:
        async def more(e: Any) -> None:
            calls.show_more(shown + PAGE)
        rows.append(kit.button(i18n.t(lang, "hist.ui.more", n=min(rest, PAGE)), more, primary=False))
    return kit.card(*rows)


def people_card(lang: str, d: Mapping[str, Any], calls: HistoryCalls) -> ft.Control:
    """Every person with Rename and Merge; below, the renames and merges so far, each undoable."""
    everyone = d["everyone"]
    rows: list[ft.Control] = [kit.title(i18n.t(lang, "hist.ui.people"), 20),
                              ft.Text(i18n.t(lang, "hist.ui.people_hint"), size=14,
                                      color=ft.Colors.ON_SURFACE_VARIANT)]
    for p in everyone:
        async def ren(e: Any, p: Mapping[str, Any] = p) -> None:
            rename_dialog(lang, p, calls)

        async def mer(e: Any, p: Mapping[str, Any] = p) -> None:
            merge_dialog(lang, p, everyone, calls)
        names = ", ".join(n for n in p["names"] if n != p["player"])
        rows.append(ft.Row([
            ft.Text(p["player"] + (f" ({names})" if names else ""), size=16, expand=True),
            ft.Semantics(content=kit.button(i18n.t(lang, "hist.ui.rename"), ren, primary=False),
                         label=i18n.t(lang, "hist.ui.rename_title", name=p["player"])),
            ft.Semantics(content=kit.button(i18n.t(lang, "hist.ui.merge"), mer, primary=False,
                                            disabled=len(everyone) < 2),
                         label=i18n.t(lang, "hist.ui.merge_title", name=p["player"]))]))  # (no wrap: an expanded
        # text in a wrapping row is Flutter's grey error box, issue 30.6)
    spelled = {history.name_key(n): n for p in everyone for n in p["names"]}  # a matched name as played
    if d["aliases"]:
        rows.append(ft.Text(i18n.t(lang, "hist.ui.changes"), size=17, weight=ft.FontWeight.BOLD))
        for a in reversed(d["aliases"]):
            a = {**a, "src": spelled.get(a["src"], a["src"])}

            async def undo(e: Any, a: dict[str, Any] = a) -> None:
                undo_dialog(lang, a, calls)
            rows.append(ft.Row([
                ft.Text(i18n.t(lang, f"hist.ui.alias_{a['kind']}", src=a["src"], dst=a["dst"]), size=15,
                        expand=True),
                ft.Semantics(content=kit.button(i18n.t(lang, "hist.ui.undo"), undo, primary=False,
                                                icon=ft.Icons.UNDO),
                             label=i18n.t(lang, "hist.ui.undo_label", src=a["src"], dst=a["dst"]))]))
    return kit.card(*rows)


def rename_dialog(lang: str, p: Mapping[str, Any], calls: HistoryCalls) -> None:
    field = ft.TextField(label=i18n.t(lang, "hist.ui.new_name"), value=p["player"], max_length=24, autofocus=True)

    async def ok(e: Any) -> None:
        new = (field.value or "").strip()
        calls.pop_dialog()
        if not new or new == p["player"]:
            return
        await calls.rename(p["player"], new)
    field.on_submit = ok
    dlg = ft.AlertDialog(
        title=ft.Text(i18n.t(lang, "hist.ui.rename_title", name=p["player"])),
        content=ft.Column([ft.Text(i18n.t(lang, "hist.ui.rename_what", name=p["player"], n=p["played"]), size=16),
                           field], tight=True, width=420),
        actions=[ft.TextButton(content=i18n.t(lang, "ui.cancel"), on_click=lambda e: calls.pop_dialog()),
                 ft.FilledButton(content=i18n.t(lang, "hist.ui.rename"), on_click=ok)])
    calls.show_dialog(dlg)


def merge_dialog(lang: str, p: Mapping[str, Any], everyone: Sequence[Mapping[str, Any]],
                 calls: HistoryCalls) -> None:
    """First who `p` really is (one button per other person), then what the merge will do."""
    async def pick(e: Any, into: Mapping[str, Any]) -> None:
        calls.pop_dialog()

        async def yes() -> None:
            await calls.merge(p["player"], into["player"])
        calls.confirm(i18n.t(lang, "hist.ui.merge_confirm", name=p["player"], into=into["player"]),
                      i18n.t(lang, "hist.ui.merge_what", name=p["player"], into=into["player"], n=p["played"]),
                      i18n.t(lang, "hist.ui.merge"), yes)
    choices: list[ft.Control] = []
    for o in everyone:
        if o["key"] == p["key"]:
            continue

        async def chosen(e: Any, o: Mapping[str, Any] = o) -> None:
            await pick(e, o)
        choices.append(ft.OutlinedButton(content=o["player"], on_click=chosen, height=48))
    dlg = ft.AlertDialog(
        title=ft.Text(i18n.t(lang, "hist.ui.merge_title", name=p["player"])),
        content=ft.Column([ft.Text(i18n.t(lang, "hist.ui.merge_pick", name=p["player"]), size=16),
                           ft.Row(choices, wrap=True, spacing=8, run_spacing=8)],
                          tight=True, width=420, scroll=ft.ScrollMode.AUTO),
        actions=[ft.TextButton(content=i18n.t(lang, "ui.cancel"), on_click=lambda e: calls.pop_dialog())])
    calls.show_dialog(dlg)


def undo_dialog(lang: str, a: Mapping[str, Any], calls: HistoryCalls) -> None:
    async def yes() -> None:
        await calls.undo(a["id"])
    calls.confirm(i18n.t(lang, "hist.ui.undo_title"), i18n.t(lang, f"hist.ui.undo_{a['kind']}", src=a["src"],
                                                              dst=a["dst"]),
                  i18n.t(lang, "hist.ui.undo"), yes)


def transfer_card(lang: str, calls: HistoryCalls) -> ft.Control:
    links: list[ft.Control] = [
        ft.OutlinedButton(content=i18n.t(lang, "hist.ui.export_csv"), url="/history/export.csv", height=52),
        ft.OutlinedButton(content=i18n.t(lang, "hist.ui.export_json"), url="/history/export.json", height=52)]

    async def pick(e: Any) -> None:
        picker = ft.FilePicker()
        try:
            files = await picker.pick_files(allowed_extensions=["json"], with_data=True)
        except Exception:
            return
        if files and files[0].bytes is not None:
            await calls.import_bytes(files[0].bytes)
    links.append(kit.button(i18n.t(lang, "hist.ui.import"), pick, primary=False, icon=ft.Icons.ADD))
    return kit.card(kit.title(i18n.t(lang, "hist.ui.transfer"), 20),
                    ft.Text(i18n.t(lang, "hist.ui.transfer_hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Row(links, wrap=True, spacing=8))
