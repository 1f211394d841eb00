"""The host's screen (and a watcher's without the key): join card, seats, controls, the game, downloads.

Functions of what they draw – plain values and a `HostCalls` of the session's callbacks – not of the
Screen: the screen's side (companion/ui/assemble/: host, show_host_link) puts them together with
the seat list, the game's part and "Play again"."""

from __future__ import annotations

import base64
import functools
import io
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import flet as ft
import qrcode

from companion import games, i18n
from companion.games import sealed
from companion.table.table import Table
from companion.ui import kit
from companion.ui.views.seats import submitted_sets


@functools.lru_cache(maxsize=512)  # the host re-renders on every change: ~40 ms saved each time


def qr_png(data: str, box: int = 10) -> bytes:
    qr = qrcode.QRCode(border=2, box_size=box, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(data)
    qr.make(fit=True)
    buf = io.BytesIO()
    qr.make_image(fill_color="black", back_color="white").save(buf, format="PNG")
    return buf.getvalue()


@functools.lru_cache(maxsize=512)


def qr_base64(data: str, box: int = 10) -> str:
    """The QR code as base64 text for `ft.Image`: raw bytes do not show in WebKit and Firefox
    (shared/guide/FLET.md), and this image never needs an HTTP route (which would need the key)."""
    return base64.b64encode(qr_png(data, box)).decode("ascii")


def watch_note(lang: str) -> ft.Control:
    """A watcher's host screen (no host key): it only watches."""
    return kit.card(ft.Text(i18n.t(lang, "ui.host.no_key"), size=16), bgcolor=ft.Colors.AMBER_50)


def lobby_hint(lang: str) -> ft.Control:
    return ft.Text(i18n.t(lang, "ui.host.lobby_hint"), size=18)


def ended_title(lang: str) -> ft.Control:
    return kit.title(i18n.t(lang, "ui.ended"), 24)


def join_card(lang: str, code: str, url: str, big: bool, other_bases: tuple[str, ...]) -> ft.Control:
    """The QR code, the code and the address to join by (large in the lobby, small in play), and
    the table's address on the computer's other networks."""
    def t(key: str) -> str:
        return i18n.t(lang, key)
    qr = ft.Image(src=qr_base64(url), width=260 if big else 130, height=260 if big else 130,
                  semantics_label=t("ui.host.qr"))
    join = ft.Column([
        ft.Text(t("ui.host.scan"), size=18),
        ft.Text(code, size=64 if big else 36, weight=ft.FontWeight.BOLD, selectable=True,
                semantics_label=f"{t('ui.host.code')} {code}"),
        ft.Text(url, size=18, selectable=True),
        *[ft.Text(f"{t('ui.host.other_address')} {b}/t/{code}", size=13,
                  color=ft.Colors.ON_SURFACE_VARIANT, selectable=True) for b in other_bases[:4]],
    ], spacing=4, tight=True)
    return kit.card(ft.Row([qr, join], wrap=True, spacing=20))


def print_card(lang: str, code: str, game_id: str) -> ft.Control:
    """Downloads: the game's print-and-play sheets and this table's join card."""
    def t(key: str, **kw: Any) -> str:
        return i18n.t(lang, key, **kw)
    links: list[ft.Control] = []
    for paper in ("a4", "letter"):
        links.append(ft.OutlinedButton(content=t("ui.print.join_card", paper=paper.upper()),
                                       url=f"/join-card/{code}.pdf?paper={paper}&lang={lang}",
                                       icon=ft.Icons.QR_CODE))
    if games.spec(game_id).printing:  # /print/… serves the committed file or renders it (app.py)
        for paper in ("a4", "letter"):
            links.append(ft.OutlinedButton(content=t("ui.print.cards", paper=paper.upper()),
                                           url=f"/print/{game_id}-{paper}.pdf?lang={lang}",
                                           icon=ft.Icons.PRINT))
    for link in links:  # touch targets >= 44 px
        link.height = 52
        link.style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=18, vertical=14))
    return kit.card(kit.title(t("ui.print.title"), 20),
                    ft.Text(t("ui.print.hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Row(links, wrap=True, spacing=8))


def can_reveal(t: Table | None) -> bool:
    """Whether the game offers the host a reveal now (its legal actions say so)."""
    return t is not None and t.phase == "playing" and any(a.get("type") == "reveal" for a in t.legal(None))


def early_reveal_words(t: Table | None, lang: str) -> str | None:
    """What "Reveal anyway" does before every seat has locked, by the table's rule for choices
    not locked (sealed.unlocked_rule: not counted, or counted and marked): "2 choices are not
    locked and will not count: Ann, Bob." and who has no choice yet. None: every seat has locked."""
    if t is None:
        return None
    sub, locked = submitted_sets(t.view(None))
    seats = range(len(t.seats))
    half = [t.seats[i]["name"] for i in seats if i in sub and i not in locked]
    none = [t.seats[i]["name"] for i in seats if i not in sub and i not in locked]
    if not half and not none:
        return None
    parts = []
    if half:
        rule = sealed.unlocked_rule(t.options)
        parts.append(i18n.t(lang, f"ui.host.reveal_{rule}", n=len(half), names=", ".join(half)))
    if none:
        parts.append(i18n.t(lang, "ui.host.reveal_none", names=", ".join(none)))
    return " ".join(parts)


@dataclass(frozen=True, eq=False)
class HostCalls(kit.Calls):
    """What the host's buttons do (the screen's session), read when tapped."""

    request: Callable[[dict[str, Any]], Awaitable[Any]]  # a request to the table
    confirm: Callable[[str, str, str, Callable[[], Awaitable[None]]], None]  # ask first: title, what, yes, then
    show: Callable[[ft.DialogControl], None]  # a dialog on the screen
    close: Callable[[], None]  # the dialog away
    reveal_words: Callable[[], str | None]  # early_reveal_words now (None: every seat has locked)
    undo_note: Callable[[], dict[str, Any] | None]  # what an undo would take back now (Table.undo_preview)
    undo_words: Callable[[dict[str, Any]], str]  # that in words, ahead of it (common.undo_words)
    another_device: Callable[[Any], Awaitable[None]]  # the one-time QR code for one more host device
    open_device: Callable[[Any], Awaitable[None]]  # the shared device's link (pass-and-play, issue 29)


def host_controls(lang: str, phase: str, reveal: bool, shared: bool, calls: HostCalls) -> ft.Control:
    """The host's buttons: start; reveal (asking first when a seat has not locked), end, undo
    (saying what it takes back); another host device; the shared device."""
    def t(key: str) -> str:
        return i18n.t(lang, key)
    btns: list[ft.Control] = []

    async def op(e: Any, name: str) -> None:
        await calls.request({"op": name})
    if phase == "lobby":
        async def start(e: Any) -> None:
            await op(e, "start")
        btns.append(kit.button(t("ui.host.start"), start, icon=ft.Icons.PLAY_ARROW))
    if phase == "playing":
        if reveal:
            async def reveal_now(e: Any) -> None:
                async def go() -> None:
                    await calls.request({"op": "host_act", "action": {"type": "reveal"}})
                what = calls.reveal_words()
                if what is None:
                    await go()
                    return
                calls.confirm(t("ui.host.reveal_confirm"), what, t("ui.host.reveal_yes"), go)
            btns.append(kit.button(t("ui.host.reveal"), reveal_now, icon=ft.Icons.VISIBILITY))

        async def end(e: Any) -> None:
            async def yes(e2: Any) -> None:
                calls.close()
                await op(e2, "end")
            calls.show(ft.AlertDialog(title=ft.Text(t("ui.host.end_confirm")), actions=[
                ft.TextButton(content=t("ui.cancel"), on_click=lambda e2: calls.close()),
                ft.FilledButton(content=t("ui.host.end"), on_click=yes)]))
        btns.append(kit.button(t("ui.host.end"), end, primary=False, icon=ft.Icons.STOP))
    if phase != "lobby":
        async def undo(e: Any) -> None:
            """Says in words what it will take back (public words only), then asks."""
            note = calls.undo_note()
            if note is None or "refuse" in note:
                await op(e, "undo")  # nothing to undo / cannot be undone: the table's own message says why
                return

            async def go() -> None:
                await op(e, "undo")
            calls.confirm(t("ui.undo.title"), calls.undo_words(note), t("ui.undo.yes"), go)
        btns.append(kit.button(t("ui.host.undo"), undo, primary=False, icon=ft.Icons.UNDO))
    if phase != "ended":
        btns.append(kit.button(t("ui.host.another_device"), calls.another_device, primary=False,
                               icon=ft.Icons.QR_CODE))
    if phase != "ended" and shared:  # pass-and-play (issue 29)
        btns.append(kit.button(t("ui.shared.open"), calls.open_device, primary=False, icon=ft.Icons.TABLET_ANDROID))
    return ft.Row(btns, wrap=True, spacing=10)


def host_link_dialog(lang: str, url: str, close: Callable[[], Any]) -> ft.AlertDialog:
    """The one-time link that makes one more device host of this table, as a QR code."""
    def t(key: str) -> str:
        return i18n.t(lang, key)
    return ft.AlertDialog(title=ft.Text(t("ui.host.another_device")), content=ft.Column([
        ft.Image(src=qr_base64(url), width=240, height=240, semantics_label=t("ui.host.another_qr")),
        ft.Text(t("ui.host.another_hint"), size=16)], tight=True, spacing=10,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        actions=[ft.FilledButton(content=t("ui.host.another_done"), on_click=lambda e: close())])


@kit.component
def JoinCard(lang: str, code: str, url: str, big: bool, other_bases: tuple[str, ...]) -> ft.Control:
    """The QR code, the code and the address to join by (large in the lobby, small in play)."""
    return join_card(lang, code, url, big, other_bases)


@kit.component
def HostControls(lang: str, phase: str, can_reveal: bool, shared: bool, calls: HostCalls) -> ft.Control:
    return host_controls(lang, phase, can_reveal, shared, calls)


@kit.component
def PrintCard(lang: str, code: str, game_id: str) -> ft.Control:
    return print_card(lang, code, game_id)
