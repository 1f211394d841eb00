"""The screen's side of the host's screen and a spectator's phone (views/host.py, views/spectator.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.ui.views import host as _host
from companion.ui.views import spectator as _spectator

if TYPE_CHECKING:
    from companion.ui.screens import Screen




def can_reveal(scr: Screen) -> bool:
    return _host.can_reveal(scr.table)


def host_calls(scr: Screen) -> _host.HostCalls:
    from companion.ui.assemble.for_shared import show_device_link

    def undo_note() -> dict[str, Any] | None:
        t = scr.table
        return t.undo_preview() if t is not None else None

    async def open_device(e: Any) -> None:
        await show_device_link(scr, e)
    return _host.HostCalls(scr.request, scr.confirm, scr.page.show_dialog, scr.page.pop_dialog,
                           lambda: _host.early_reveal_words(scr.table, scr.lang), undo_note,
                           lambda note: scr.undo_words(note, ahead=True), scr.show_host_link, open_device)


def host_controls(scr: Screen) -> ft.Control:
    """The host's buttons as the table is now (views/host.host_controls)."""
    t = scr.table
    assert t is not None
    return _host.host_controls(scr.lang, t.phase, scr.can_reveal(), bool(t.shared_seats()), host_calls(scr))


def host(scr: Screen) -> list[ft.Control]:
    """The host's screen (a watcher's without the key): in play the display and the host's panel,
    else the join card, the seats, the host's buttons, the game, "Play again" and the downloads."""
    t = scr.table
    assert t is not None
    out: list[ft.Control] = []
    url = scr.server.join_url(t.code)
    if scr.role == "host" and t.phase == "playing" and t.state is not None:
        # During play the screen is the table's display, the host's panel beside it (issue 18.1).
        scr.parts.full = True
        return [scr.host_in_play()]
    if scr.role == "watch":
        out.append(_host.watch_note(scr.lang))
    if t.phase != "ended":
        big = t.phase == "lobby"  # once the game runs, the join card shrinks so the game gets the space
        out.append(_host.JoinCard(scr.lang, t.code, url, big, tuple(scr.server.other_bases)))
        out.append(scr.seat_part(host=scr.role == "host"))
    if scr.role == "host":
        out.append(_host.HostControls(scr.lang, t.phase, scr.can_reveal(), bool(t.shared_seats()), host_calls(scr)))
        out += scr.rematch_part()  # "Play again" once the game is over (views/rematch.py)
    if t.phase == "lobby":
        out.append(_host.lobby_hint(scr.lang))
    elif t.state is not None:
        if t.phase == "ended":
            out.append(_host.ended_title(scr.lang))
        out += scr.undo_card() + scr.host_moves_card()
        out.append(scr.game_live())
    if scr.role == "host":
        out.append(_host.PrintCard(scr.lang, t.code, t.game_id))
    return out


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
    try:
        scr.page.show_dialog(_host.host_link_dialog(scr.lang, url, scr.page.pop_dialog))
    except RuntimeError:
        pass


def spectator(scr: Screen) -> list[ft.Control]:
    """A spectator's phone (views/spectator.py): the public game screen and the seats."""
    t = scr.table
    assert t is not None
    out: list[ft.Control] = [_spectator.spectating_note(scr.lang)]
    if t.state is not None:
        out.append(scr.game_live())
    out.append(scr.seat_part(host=False))
    return out
