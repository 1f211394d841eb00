"""Parts of every screen: the top bar, what the host undid or moved, confirmations – functions of
what they draw (the screen's side, companion/ui/assemble/, builds their arguments and places the
game's part)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion import i18n
from companion.table.table import Table
from companion.ui import kit
from companion.ui.kit import UiContext


def undo_words(table: Table, lang: str, note: dict[str, Any], ahead: bool) -> str:
    """An undo in words – before it (ahead: "This takes back: …") or after it ("The host undid: …")
    – from Table.undo_preview: the public log lines the action added or, where it showed the table
    nothing, only whose it was (never what: "a private action of Bob")."""
    pre = "ui.undo." if ahead else "ui.undone."
    if note.get("reopen"):
        return i18n.t(lang, pre + "reopen")
    if note.get("cleared"):  # a reveal taken back: the round reopens with every choice cleared
        return i18n.t(lang, pre + "reveal")
    seat = note.get("seat")
    name = table.seats[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(table.seats) else None
    msgs = note.get("msgs") or []
    if msgs and table.state is not None:
        ctx = UiContext(table, None, None, lang, True, lambda *a: None, {}, lambda: None)
        return i18n.t(lang, pre + "public", what=" ".join(ctx.msg(m) for m in msgs))
    if name is None:
        return i18n.t(lang, pre + "host")
    return i18n.t(lang, pre + "private", name=name)


@dataclass(frozen=True, eq=False)
class BarCalls(kit.Calls):
    """What the top bar's taps do: another language, the reveal chime on or off (ui/sound.py)."""

    set_lang: Callable[[str], Awaitable[None]]
    flip_sound: Callable[[], Awaitable[None]]


@kit.component
def TopBar(lang: str, left: str, sound_on: bool | None, calls: BarCalls) -> ft.Control:
    """The bar at the top of every screen: the game and the table's code (`left`), the reveal
    chime's switch where the screen offers it (`sound_on` None: not offered), the three languages."""
    langs: list[ft.Control] = []
    if sound_on is not None:  # the reveal chime's switch (ui/sound.py), remembered by this browser
        async def flip(e: Any) -> None:
            await calls.flip_sound()
        word = i18n.t(lang, "ui.sound.mute" if sound_on else "ui.sound.unmute")
        langs.append(ft.Semantics(button=True, content=ft.IconButton(
            ft.Icons.VOLUME_UP if sound_on else ft.Icons.VOLUME_OFF, on_click=flip, tooltip=word,
            width=48, height=48, icon_size=24, icon_color=ft.Colors.ON_PRIMARY_CONTAINER)))
    for code in i18n.LANGS:
        async def pick(e: Any, code: str = code) -> None:
            await calls.set_lang(code)
        langs.append(ft.TextButton(
            content=ft.Text(code.upper(), size=15,
                            weight=ft.FontWeight.BOLD if code == lang else ft.FontWeight.NORMAL),
            on_click=pick, tooltip=i18n.LANG_NAMES[code], height=48, width=48))  # >= 44 px targets
    return ft.Container(
        content=ft.Row([ft.Text(left, size=17, weight=ft.FontWeight.BOLD, expand=True,
                                color=ft.Colors.ON_PRIMARY_CONTAINER), *langs], spacing=0),
        bgcolor=ft.Colors.PRIMARY_CONTAINER, padding=ft.Padding.symmetric(horizontal=12, vertical=4))


def host_moves_card(lang: str, host_moves: Sequence[Mapping[str, Any]]) -> list[ft.Control]:
    """Every seat the host freed or swapped during the game (Table.host_moves), on every screen
    (the last one first): a swap gives a phone another seat's private screen, so the whole table
    sees it."""
    if not host_moves:
        return []
    moves = list(reversed(host_moves))

    def line(m: Mapping[str, Any]) -> str:
        if m["op"] == "swap":
            return i18n.t(lang, "ui.moves.swap", a=m["a"], b=m["b"])
        if m["op"] in ("share", "unshare", "pin_reset"):  # (pass-and-play, issue 29)
            return i18n.t(lang, f"ui.moves.{m['op']}", name=m["name"])
        return i18n.t(lang, "ui.moves.free", name=m["name"])

    return [HostMoves(tuple(line(m) for m in moves[:5]))]


@kit.component
def HostMoves(lines: tuple[str, ...]) -> ft.Control:
    """The last host move in large type, the four before it under it."""
    rows: list[ft.Control] = [ft.Row([ft.Icon(ft.Icons.SWAP_VERT, color=ft.Colors.DEEP_ORANGE_800, size=26),
                                      ft.Text(lines[0], size=18, weight=ft.FontWeight.W_600,
                                              expand=True)], spacing=8)]
    rows += [ft.Text(line, size=14, color=ft.Colors.ON_SURFACE_VARIANT) for line in lines[1:]]
    return kit.card(*rows, bgcolor=ft.Colors.ORANGE_50)


def undo_card(words: str | None) -> list[ft.Control]:
    """After the host's undo, every screen says what was taken back (until the next action): the
    undo in words (undo_words), None when there is none."""
    if words is None:
        return []
    return [UndoCard(words)]


@kit.component
def UndoCard(text: str) -> ft.Control:
    return kit.card(ft.Row([
        ft.Icon(ft.Icons.UNDO, color=ft.Colors.DEEP_ORANGE_800, size=26),
        ft.Text(text, size=18, weight=ft.FontWeight.W_600, expand=True)], spacing=8),
        bgcolor=ft.Colors.ORANGE_50)


def confirm_dialog(lang: str, title: str, what: str, yes_label: str, yes: Callable[[], Awaitable[Any]],
                   close: Callable[[], Any]) -> ft.AlertDialog:
    """Ask before something that cannot be taken back: says what it will do, Cancel first. `close`
    takes the dialog away (the screen's page), before `yes` runs."""
    async def ok(e: Any) -> None:
        close()
        await yes()
    return ft.AlertDialog(title=ft.Text(title), content=ft.Text(what, size=17), actions=[
        ft.TextButton(content=i18n.t(lang, "ui.cancel"), on_click=lambda e: close()),
        ft.FilledButton(content=yes_label, on_click=ok)])
