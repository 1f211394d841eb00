"""The host's screen (and a watcher's without the key): join card, seats, controls, the game, downloads."""

from __future__ import annotations

import base64
import contextvars
import functools
import io
from typing import TYPE_CHECKING, Any

import flet as ft
import qrcode

from companion import games
from companion.games import sealed
from companion.ui import kit
from companion.ui.views.rematch import rematch_part

if TYPE_CHECKING:
    from companion.ui.screens import Screen


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


def host(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    out: list[ft.Control] = []
    url = scr.server.join_url(t.code)
    if scr.role == "host" and t.phase == "playing" and t.state is not None:
        # During play the screen is the table's display, the host's panel beside it (issue 18.1).
        scr.parts.full = True
        return [scr.host_in_play()]
    if scr.role == "watch":
        out.append(kit.card(ft.Text(scr.t("ui.host.no_key"), size=16), bgcolor=ft.Colors.AMBER_50))
    if t.phase != "ended":
        big = t.phase == "lobby"  # once the game runs, the join card shrinks so the game gets the space
        out.append(JoinCard(scr, scr.lang, url, big, tuple(scr.server.other_bases)))
        out.append(scr.seat_part(host=scr.role == "host"))
    if scr.role == "host":
        out.append(HostControls(scr, scr.lang, t.phase, scr.can_reveal(), bool(t.shared_seats())))
        out += rematch_part(scr)  # "Play again" once the game is over (views/rematch.py)
    if t.phase == "lobby":
        out.append(ft.Text(scr.t("ui.host.lobby_hint"), size=18))
    elif t.state is not None:
        if t.phase == "ended":
            out.append(kit.title(scr.t("ui.ended"), 24))
        out += scr.undo_card() + scr.host_moves_card()
        out.append(scr.game_live())
    if scr.role == "host":
        out.append(PrintCard(scr, scr.lang, t.code, t.game_id))
    return out


def join_card(scr: Screen, url: str, big: bool) -> ft.Control:
    t = scr.table
    assert t is not None
    qr = ft.Image(src=qr_base64(url), width=260 if big else 130, height=260 if big else 130,
                  semantics_label=scr.t("ui.host.qr"))
    join = ft.Column([
        ft.Text(scr.t("ui.host.scan"), size=18),
        ft.Text(t.code, size=64 if big else 36, weight=ft.FontWeight.BOLD, selectable=True,
                semantics_label=f"{scr.t('ui.host.code')} {t.code}"),
        ft.Text(url, size=18, selectable=True),
        *[ft.Text(f"{scr.t('ui.host.other_address')} {b}/t/{t.code}", size=13,
                  color=ft.Colors.ON_SURFACE_VARIANT, selectable=True) for b in scr.server.other_bases[:4]],
    ], spacing=4, tight=True)
    return kit.card(ft.Row([qr, join], wrap=True, spacing=20))


def print_card(scr: Screen) -> ft.Control:
    """Downloads: the game's print-and-play sheets and this table's join card."""
    t = scr.table
    assert t is not None
    links: list[ft.Control] = []
    for paper in ("a4", "letter"):
        links.append(ft.OutlinedButton(content=scr.t("ui.print.join_card", paper=paper.upper()),
                                       url=f"/join-card/{t.code}.pdf?paper={paper}&lang={scr.lang}",
                                       icon=ft.Icons.QR_CODE))
    if games.spec(t.game_id).printing:  # /print/… serves the committed file or renders it (app.py)
        for paper in ("a4", "letter"):
            links.append(ft.OutlinedButton(content=scr.t("ui.print.cards", paper=paper.upper()),
                                           url=f"/print/{t.game_id}-{paper}.pdf?lang={scr.lang}",
                                           icon=ft.Icons.PRINT))
    for link in links:  # touch targets >= 44 px
        link.height = 52
        link.style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=18, vertical=14))
    return kit.card(kit.title(scr.t("ui.print.title"), 20),
                    ft.Text(scr.t("ui.print.hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Row(links, wrap=True, spacing=8))


def can_reveal(scr: Screen) -> bool:
    """Whether the game offers the host a reveal now (its legal actions say so)."""
    t = scr.table
    return t is not None and t.phase == "playing" and any(a.get("type") == "reveal" for a in t.legal(None))


def early_reveal_words(scr: Screen) -> str | None:
    """What "Reveal anyway" does before every seat has locked, by the table's rule for choices
    not locked (sealed.unlocked_rule: not counted, or counted and marked): "2 choices are not
    locked and will not count: Ann, Bob." and who has no choice yet. None: every seat has locked."""
    t = scr.table
    if t is None:
        return None
    sub, locked = scr.submitted_sets()
    seats = range(len(t.seats))
    half = [t.seats[i]["name"] for i in seats if i in sub and i not in locked]
    none = [t.seats[i]["name"] for i in seats if i not in sub and i not in locked]
    if not half and not none:
        return None
    parts = []
    if half:
        rule = sealed.unlocked_rule(t.options)
        parts.append(scr.t(f"ui.host.reveal_{rule}", n=len(half), names=", ".join(half)))
    if none:
        parts.append(scr.t("ui.host.reveal_none", names=", ".join(none)))
    return " ".join(parts)


def host_controls(scr: Screen) -> ft.Control:
    t = scr.table
    assert t is not None
    btns: list[ft.Control] = []

    async def op(e: Any, name: str) -> None:
        await scr.request({"op": name})
    if t.phase == "lobby":
        async def start(e: Any) -> None:
            await op(e, "start")
        btns.append(kit.button(scr.t("ui.host.start"), start, icon=ft.Icons.PLAY_ARROW))
    if t.phase == "playing":
        if scr.can_reveal():
            async def reveal(e: Any) -> None:
                async def go() -> None:
                    await scr.request({"op": "host_act", "action": {"type": "reveal"}})
                what = early_reveal_words(scr)
                if what is None:
                    await go()
                    return
                scr.confirm(scr.t("ui.host.reveal_confirm"), what, scr.t("ui.host.reveal_yes"), go)
            btns.append(kit.button(scr.t("ui.host.reveal"), reveal, icon=ft.Icons.VISIBILITY))

        async def end(e: Any) -> None:
            async def yes(e2: Any) -> None:
                scr.page.pop_dialog()
                await op(e2, "end")
            dlg = ft.AlertDialog(title=ft.Text(scr.t("ui.host.end_confirm")), actions=[
                ft.TextButton(content=scr.t("ui.cancel"), on_click=lambda e2: scr.page.pop_dialog()),
                ft.FilledButton(content=scr.t("ui.host.end"), on_click=yes)])
            scr.page.show_dialog(dlg)
        btns.append(kit.button(scr.t("ui.host.end"), end, primary=False, icon=ft.Icons.STOP))
    if t.phase != "lobby":
        async def undo(e: Any) -> None:
            """Says in words what it will take back (public words only), then asks."""
            tt = scr.table
            note = tt.undo_preview() if tt is not None else None
            if note is None or "refuse" in note:
                await op(e, "undo")  # nothing to undo / cannot be undone: the table's own message says why
                return

            async def go() -> None:
                await op(e, "undo")
            scr.confirm(scr.t("ui.undo.title"), scr.undo_words(note, ahead=True), scr.t("ui.undo.yes"), go)
        btns.append(kit.button(scr.t("ui.host.undo"), undo, primary=False, icon=ft.Icons.UNDO))
    if t.phase != "ended":
        btns.append(kit.button(scr.t("ui.host.another_device"), scr.show_host_link, primary=False,
                               icon=ft.Icons.QR_CODE))
    if t.phase != "ended" and t.shared_seats():  # pass-and-play (issue 29)
        from companion.ui.views.shared import device_button
        btns.append(device_button(scr))
    return ft.Row(btns, wrap=True, spacing=10)


async def host_link_used(scr: Screen) -> None:
    try:
        scr.page.pop_dialog()
    except Exception:
        pass
    scr.toast(scr.t("ui.host.another_used"))


async def show_host_link(scr: Screen, e: Any = None) -> None:
    """On request only: a QR code that makes one more device host of this table – a one-time
    link (10 minutes), so a photo of the screen later is worth nothing."""
    t = scr.table
    if t is None or scr.role != "host" or not t.is_host(scr.token):
        return
    def used() -> None:  # a device took it: the dialog goes, and the host screen says so
        contextvars.copy_context().run(scr.page.run_task, host_link_used, scr)
    url = f"{scr.server.join_base}/host/{t.code}?h={scr.server.host_ticket(t.code, used)}"
    dlg = ft.AlertDialog(title=ft.Text(scr.t("ui.host.another_device")), content=ft.Column([
        ft.Image(src=qr_base64(url), width=240, height=240, semantics_label=scr.t("ui.host.another_qr")),
        ft.Text(scr.t("ui.host.another_hint"), size=16)], tight=True, spacing=10,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        actions=[ft.FilledButton(content=scr.t("ui.host.another_done"), on_click=lambda e: scr.page.pop_dialog())])
    try:
        scr.page.show_dialog(dlg)
    except RuntimeError:
        pass


@kit.component
def JoinCard(scr: Screen, lang: str, url: str, big: bool, other_bases: tuple[str, ...]) -> ft.Control:
    """The QR code, the code and the address to join by (large in the lobby, small in play)."""
    return join_card(scr, url, big)


@kit.component
def HostControls(scr: Screen, lang: str, phase: str, can_reveal: bool, shared: bool = False) -> ft.Control:
    return scr.host_controls()


@kit.component
def PrintCard(scr: Screen, lang: str, code: str, game_id: str) -> ft.Control:
    return print_card(scr)
