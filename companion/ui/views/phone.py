"""A seated phone: its seat, rename and "not me" before the start, then its own game screen.

Functions of what they draw and of a `PhoneCalls` of the session's callbacks; the screen's side
(companion/ui/assemble/: phone, turn_part) puts them together with the game's part and the seat list."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion import i18n
from companion.ui import kit, names

# The page's title while it is this seat's turn: the page's script (companion/page.py TURN_JS)
# vibrates the phone when the title starts with this mark, and a desktop tab shows it.
TURN_MARK = "\u25b6 "
TITLE = "Tabletop Companion"


def turn_slot(lang: str, now: bool) -> ft.Control:
    """What the banner's slot shows: the banner while it is this seat's turn, else nothing."""
    return turn_banner(lang) if now else ft.Container(visible=False)


def turn_banner(lang: str) -> ft.Control:
    """Big, on top of the phone's game screen while it is this seat's turn."""
    return ft.Container(
        ft.Row([ft.Icon(ft.Icons.PLAY_ARROW, size=40, color=ft.Colors.BLACK),
                ft.Column([ft.Text(i18n.t(lang, "ui.turn.banner"), size=28, weight=ft.FontWeight.BOLD,
                                   color=ft.Colors.BLACK),
                           ft.Text(i18n.t(lang, "ui.turn.hint"), size=16, color=ft.Colors.BLACK)],
                          spacing=2, expand=True)], spacing=12),
        bgcolor=ft.Colors.AMBER_400, border_radius=14, padding=ft.Padding.symmetric(horizontal=16, vertical=12),
        border=ft.Border.all(3, ft.Colors.AMBER_900))


@dataclass(frozen=True, eq=False)
class PhoneCalls(kit.Calls):
    """What a seated phone's taps do before the start (the screen's session)."""

    typed: Callable[[], str | None]  # the new name typed so far (None: none), kept by the screen
    keep: Callable[[str], None]  # keep what is typed
    redraw: Callable[[], None]  # the screen again (a name too long is said under the field)
    rename: Callable[[str], Awaitable[Any]]  # ask the table for the new name
    leave: Callable[[Any], Awaitable[None]]  # give the seat back ("not me")


def waiting_start(lang: str) -> ft.Control:
    """A seated phone before the start."""
    return kit.card(ft.Text(i18n.t(lang, "ui.phone.waiting_start"), size=20))


def ended_title(lang: str) -> ft.Control:
    return kit.title(i18n.t(lang, "ui.ended"), 22)


@kit.component
def SeatHeader(you_are: str, colour: str) -> ft.Control:
    """"You are Ann" in large type beside the seat's colour and mark, in a frame of that colour: which
    seat this phone holds, read at a glance (issue 30.8)."""
    return ft.Container(
        content=ft.Row([kit.seat_dot(colour, 48),
                        ft.Text(you_are, size=30, weight=ft.FontWeight.BOLD, expand=True, max_lines=2,
                                overflow=ft.TextOverflow.ELLIPSIS)], spacing=12),
        border=ft.Border.all(4, colour), border_radius=16, padding=ft.Padding.symmetric(horizontal=12, vertical=8))


@kit.component
def RenameRow(lang: str, name: str, error: str | None, calls: PhoneCalls) -> ft.Control:
    """The seat's name in a field, and "Rename" (`error`: what the field says of the name typed)."""
    typed = calls.typed()
    # a name too long is said under the field, not cut
    field = names.name_field(lang, name if typed is None else typed, calls.keep, calls.redraw,
                             label=i18n.t(lang, "ui.phone.your_name"))

    async def rename(e: Any) -> None:
        await calls.rename(field.value or "")
    field.on_submit = rename
    return ft.Row([ft.Container(field, expand=True),
                   kit.button(i18n.t(lang, "ui.phone.rename"), rename, primary=False)])


@kit.component
def NotMe(lang: str, name: str, calls: PhoneCalls) -> ft.Control:
    """Before the start: give the seat back (a tap on the wrong one)."""
    return kit.button(i18n.t(lang, "ui.phone.not_me", name=name), calls.leave, primary=False, icon=ft.Icons.UNDO)
