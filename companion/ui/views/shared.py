"""The shared device (pass-and-play, issue 29): one browser plays the seats that have no phone.

It rests on a **cover** that shows public facts only: which shared seats have something to do
now ("Pass to Ann – tap when only Ann is looking", in Ann's colour), or that all of them are
done. A tap opens that seat's own screen (the game's phone screen for the seat); "Done – cover"
closes it again – as do the seat having done what it had to (it locked, its turn is over), 60 s
without a tap, the tab going to the background, and any reload or reconnect.

What is uncovered is the server's state of this session (`Shared.seat`), never anything the
browser can write: the private screen is built – and so sent – only while a seat is uncovered,
and covering drops it from the page (and this screen's local picks with it). Every tap on the
cover carries the cover's generation: a tap on a cover drawn before (a replayed message) opens
nothing. An action goes to the table as the device acting for the uncovered seat
(`Table.authorise`: the device token acts for shared seats only), and only while that very seat
is uncovered. The host opens the device from the host screen ("Open the shared device": a
one-time QR code and link, like "Host on another device"); /display/CODE never shows a private
screen.

The functions here draw: of plain values, the cover as a frozen `Cover`, and the session's
callbacks (`DeviceCalls`), not of the Screen. The cover's state, covering and uncovering, the PIN
check and a seat's game screen are the screen's side: companion/ui/assemble/for_shared.py.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion import i18n
from companion.ui import kit, names
from companion.ui.views import moment as _moment

COVER_COLOUR = "#263238"


@dataclass(frozen=True, slots=True)
class CoverSeat:
    """A shared seat as the cover shows it: its number, its name (as the host gave it) and colour."""

    seat: int
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Cover:
    """What the cover shows – public facts only."""

    phase: str
    shared: tuple[CoverSeat, ...]  # the shared seats, in seat order
    todo: tuple[int, ...]  # the shared seats that have something to do now, in seat order
    done: str | None  # the name of the seat just covered because it was done, while that holds


@dataclass(frozen=True, eq=False)
class DeviceCalls(kit.Calls):
    open: Callable[[int], Awaitable[None]]  # a seat tapped on the cover (the cover as drawn)
    cover: Callable[[], Awaitable[None]]  # back to the cover
    keep: Callable[[str, str], None]  # a field's text kept in the screen's local choices (key, text)
    poke: Callable[[], None]  # a tap on the uncovered screen (the idle timer starts again)
    enter_pin: Callable[[int, Any], Awaitable[None]]  # the PIN typed on the cover for a seat
    set_pin: Callable[[int, str], Awaitable[None]]  # a new PIN for the uncovered seat


def pin_screen(lang: str, seat: int, name: str, colour: str, typed: str, wrong: str | None,
               calls: DeviceCalls) -> list[ft.Control]:
    """Still the cover: the seat's name and colour, and a field for its PIN (`typed` so far)."""
    key = f"pin:{seat}"
    field = ft.TextField(label=i18n.t(lang, "ui.pin.enter", name=i18n.seat_name(lang, name)), password=True,
                         max_length=4, keyboard_type=ft.KeyboardType.NUMBER, text_size=34, autofocus=True,
                         width=260, key=key, value=typed)

    def on_typed(e: Any) -> None:  # kept while the table changes around it (a redraw must not clear it)
        calls.keep(key, field.value or "")
    field.on_change = on_typed

    async def go(e: Any) -> None:
        await calls.enter_pin(seat, field.value)

    async def back(e: Any) -> None:
        await calls.cover()
    field.on_submit = go
    out: list[ft.Control] = [
        ft.Row([kit.seat_dot(colour, 40),
                names.one_line(i18n.seat_name(lang, name), 32, weight=ft.FontWeight.BOLD, expand=True)]),
        field]
    if wrong:
        out.append(ft.Text(wrong, size=22, weight=ft.FontWeight.BOLD, color=ft.Colors.RED_800))
    out.append(ft.Row([kit.button(i18n.t(lang, "ui.pin.open"), go, icon=ft.Icons.LOCK_OPEN),
                       kit.button(i18n.t(lang, "ui.cancel"), back, primary=False)], wrap=True, spacing=10))
    return out


def _big_button(label: str, hint: str, colour: str, on_click: Any, key: str) -> ft.Control:
    return ft.Container(
        content=ft.Column([
            ft.Container(kit.seat_dot(colour, 48), bgcolor=ft.Colors.WHITE, border_radius=30, padding=6),
            ft.Text(label, size=40, weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE,
                    text_align=ft.TextAlign.CENTER),
            ft.Text(hint, size=22, color=ft.Colors.WHITE, text_align=ft.TextAlign.CENTER),
        ], spacing=10, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True),
        bgcolor=colour, border_radius=22, padding=ft.Padding.symmetric(horizontal=20, vertical=36),
        on_click=on_click, ink=True, key=key, alignment=ft.Alignment.CENTER,
        border=ft.Border.all(4, ft.Colors.WHITE))


def cover_screen(lang: str, c: Cover, moment: list[ft.Control], calls: DeviceCalls) -> list[ft.Control]:
    """The cover: public facts only (names, colours, who has something to do), below the last
    reveal's public moment (`moment`: cover_moment)."""
    seats = {s.seat: s for s in c.shared}
    shared = [s.seat for s in c.shared]
    todo = list(c.todo)
    out: list[ft.Control] = []

    def opener(seat: int) -> Any:
        async def tap(e: Any) -> None:
            await calls.open(seat)
        return tap

    def name(seat: int) -> str:
        return i18n.seat_name(lang, seats[seat].name)
    out += moment
    if c.done:
        out.append(ft.Row([ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.GREEN_700, size=32),
                           ft.Text(i18n.t(lang, "ui.shared.done_note", name=c.done), size=22, expand=True)]))
    if not shared:
        out.append(ft.Text(i18n.t(lang, "ui.shared.none"), size=26, weight=ft.FontWeight.BOLD))
    elif c.phase == "lobby":
        out.append(ft.Text(i18n.t(lang, "ui.shared.lobby", names=", ".join(name(s) for s in shared)), size=28,
                           weight=ft.FontWeight.BOLD))
    elif todo:
        first = todo[0]
        out.append(_big_button(i18n.t(lang, "ui.shared.pass_to", name=name(first)),
                               i18n.t(lang, "ui.shared.tap_when", name=name(first)),
                               seats[first].colour, opener(first), f"uncover:{first}"))
        if len(todo) > 1:
            out.append(ft.Text(i18n.t(lang, "ui.shared.then", names=", ".join(name(s) for s in todo[1:])),
                               size=22))
    else:
        head = "ui.shared.ended" if c.phase == "ended" else "ui.shared.all_done"
        out.append(ft.Container(ft.Text(i18n.t(lang, head), size=34, weight=ft.FontWeight.BOLD,
                                        color=ft.Colors.WHITE, text_align=ft.TextAlign.CENTER),
                                bgcolor=COVER_COLOUR, border_radius=22, alignment=ft.Alignment.CENTER,
                                padding=ft.Padding.symmetric(horizontal=20, vertical=40)))
    others = [s for s in shared if s not in todo[:1]] if c.phase != "lobby" else []
    if others:
        out.append(ft.Text(i18n.t(lang, "ui.shared.look"), size=18, color=ft.Colors.ON_SURFACE_VARIANT))
        out.append(ft.Row([
            ft.OutlinedButton(content=ft.Row([kit.seat_dot(seats[s].colour, 18),
                                              ft.Text(name(s), size=20)], tight=True, spacing=8),
                              on_click=opener(s), height=56, key=f"uncover:{s}")
            for s in others], wrap=True, spacing=10, run_spacing=10))
    return out


def cover_moment(lang: str, m: Any, rendering: bool) -> list[ft.Control]:
    """The last reveal on the cover (issue 29.5): the display's public moment `m` (its seat's line
    already taken out). Outside a Flet render (`rendering` False, as a test builds it): the moment
    at its end."""
    if not rendering:
        return [ft.Column([ft.Text(m.title, size=18, weight=ft.FontWeight.BOLD),
                           ft.Row([_moment.face(m, c) for c in m.cards], wrap=True),
                           *[ft.Text(x, size=18) for x in m.outcome]], tight=True)]
    return [_moment.SeatMoment(m, lang, key=f"cover-moment:{m.key}")]


def seat_screen(lang: str, name: str, colour: str, game: list[ft.Control], pin_card: list[ft.Control],
                calls: DeviceCalls) -> list[ft.Control]:
    """An uncovered seat: its own game screen (`game`), "Done – cover" above and below it."""
    async def done(e: Any) -> None:
        await calls.cover()

    def done_button(key: str) -> ft.Control:  # (keys differ: Flutter refuses two alike in one column)
        return ft.FilledButton(content=ft.Text(i18n.t(lang, "ui.shared.done"), size=22, weight=ft.FontWeight.BOLD),
                               icon=ft.Icons.VISIBILITY_OFF, on_click=done, height=64, width=10_000,
                               key=key)
    header = ft.Row([kit.seat_dot(colour, 30),
                     names.one_line(i18n.t(lang, "ui.shared.screen_of", name=i18n.seat_name(lang, name)), 26,
                                    weight=ft.FontWeight.BOLD, expand=True)], spacing=10)
    return [header, done_button("cover"), *game, done_button("cover-end"), *pin_card]


def render_error(lang: str) -> list[ft.Control]:
    return [ft.Text(i18n.t(lang, "ui.err.render"), size=18, color=ft.Colors.RED_700)]


def set_pin_card(lang: str, seat: int, typed: str, calls: DeviceCalls) -> list[ft.Control]:
    """A seat without a PIN: its player may set one (4 digits), here behind the cover."""
    key = f"pin-new:{seat}"
    field = ft.TextField(label=i18n.t(lang, "ui.pin.new"), password=True, max_length=4, value=typed,
                         keyboard_type=ft.KeyboardType.NUMBER, text_size=24, width=200, key=key)

    def on_typed(e: Any) -> None:
        calls.keep(key, field.value or "")
        calls.poke()
    field.on_change = on_typed

    async def set_it(e: Any) -> None:
        await calls.set_pin(seat, (field.value or "").strip())
    field.on_submit = set_it
    return [kit.card(ft.Text(i18n.t(lang, "ui.pin.offer"), size=16),
                     ft.Row([field, kit.button(i18n.t(lang, "ui.pin.set"), set_it, primary=False, icon=ft.Icons.LOCK)],
                            wrap=True, spacing=10))]


def denied(lang: str) -> list[ft.Control]:
    return [kit.card(ft.Text(i18n.t(lang, "ui.shared.denied"), size=20), bgcolor=ft.Colors.AMBER_50)]


def device_link_dialog(lang: str, url: str, pop: Callable[[], Any]) -> ft.AlertDialog:
    """A one-time QR code and link that makes a browser the table's shared device."""
    from companion.ui.views.host import qr_base64
    return ft.AlertDialog(title=ft.Text(i18n.t(lang, "ui.shared.open")), content=ft.Column([
        ft.Image(src=qr_base64(url), width=240, height=240, semantics_label=i18n.t(lang, "ui.shared.open_qr")),
        ft.Text(i18n.t(lang, "ui.shared.open_hint"), size=16),
        ft.OutlinedButton(content=i18n.t(lang, "ui.shared.open_here"), url=ft.Url(url, target=ft.UrlTarget.BLANK),
                          icon=ft.Icons.OPEN_IN_NEW, height=52)], tight=True, spacing=10,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        actions=[ft.FilledButton(content=i18n.t(lang, "ui.host.another_done"), on_click=lambda e: pop())])
