"""The screen's side of the table display (views/display.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.ui import kit
from companion.ui.assemble.for_host import host_calls
from companion.ui.views import display as _display
from companion.ui.views import host as _host

if TYPE_CHECKING:
    from companion.ui.screens import Screen




def display_drawn(scr: Screen, host_panel: bool) -> tuple[tuple[Any, ...], Callable[[], ft.Control]]:
    """The display's props (what decides its redraw) and its builder, of the table's public view."""
    def width() -> float:
        return _display.display_width(getattr(scr.page, "width", None), host_panel)
    sig = _display.display_sig(scr.ctx(host_view=True), width(), host_panel)
    return sig, lambda: _display.display(scr.ctx(host_view=True), width(), host_panel)


def display_live(scr: Screen, host_panel: bool) -> ft.Control:
    """The display in its own slot: a change at the table redraws it (Screen.render)."""
    scr.parts.display = True
    scr.parts.display_host = host_panel
    return kit.live(scr.slots.display, *display_drawn(scr, host_panel), key="display")


def redraw_display(scr: Screen) -> bool:
    """After a change at the table: the display again if what it shows changed. False when it is
    not on screen (the whole screen is drawn instead)."""
    if not scr.parts.display or scr.table is None:
        return True
    dsig, fn = display_drawn(scr, scr.parts.display_host)
    return dsig == scr.slots.display.shown or scr.slots.display.redraw(dsig, fn)


def display_page(scr: Screen) -> list[ft.Control]:
    """/display/CODE: the display alone (a second screen, a TV), or what it waits for."""
    t = scr.table
    assert t is not None
    if t.phase == "lobby" or t.state is None:
        return _display.lobby(scr.lang, t.code, scr.server.join_url(t.code), scr.seat_part(host=False))
    scr.parts.full = True  # (the display scrolls on its own: display())
    return [display_live(scr, host_panel=False)]


def display_denied(scr: Screen) -> list[ft.Control]:
    return _display.denied(scr.lang)


def join_qr_dialog(scr: Screen) -> None:
    """A late-comer's QR code, one tap from the host's display."""
    t = scr.table
    if t is None:
        return
    try:
        scr.page.show_dialog(_display.join_qr_dialog(scr.lang, t.code, scr.server.join_url(t.code),
                                                     scr.page.pop_dialog))
    except RuntimeError:
        pass


def controls_drawn(scr: Screen) -> tuple[tuple[Any, ...], Any]:
    t = scr.table
    assert t is not None
    sig = ("controls", scr.lang, t.phase, scr.can_reveal(), bool(t.shared_seats()))
    return sig, lambda: _host.HostControls(*sig[1:], host_calls(scr))


def controls_live(scr: Screen) -> ft.Control:
    """The host's buttons in play (reveal, undo, end) in a slot of their own: a reveal, which takes
    "Reveal now" away, redraws them and not the host's whole screen (Screen.render)."""
    return kit.live(scr.slots.controls, *controls_drawn(scr), key="controls")


def redraw_controls(scr: Screen) -> None:
    """After a change at the table: the host's buttons in play again if what they show changed."""
    slot = scr.slots.controls
    if not slot.on_screen() or scr.role != "host" or scr.table is None:
        return
    sig, fn = controls_drawn(scr)
    if sig != slot.shown:
        slot.redraw(sig, fn)


def host_in_play(scr: Screen) -> ft.Control:
    """The host's screen while a game runs: the display, and beside it the host's panel – the
    controls, the game's host part, and the admin (QR, seats, downloads) behind "Table admin"."""
    t = scr.table
    assert t is not None
    admin = bool(scr.local.get("admin"))

    def toggle_admin() -> None:
        scr.local["admin"] = not scr.local.get("admin")
        scr.render(force=True)
    calls = _display.AdminCalls(lambda: join_qr_dialog(scr), toggle_admin)
    side: list[ft.Control] = [controls_live(scr), _display.admin_tools(scr.lang, t.code, admin, calls)]
    if admin:
        side += [_host.JoinCard(scr.lang, t.code, scr.server.join_url(t.code), False, tuple(scr.server.other_bases)),
                 scr.seat_part(host=True),
                 _host.PrintCard(scr.lang, t.code, t.game_id)]
    side += scr.undo_card() + scr.host_moves_card()
    side.append(scr.game_live())
    return _display.in_play(display_live(scr, host_panel=True), side)
