"""A phone without a seat: pick a free seat (or watch), and a wrong code's message.

Functions of what they draw – `JoinSeat`s of the table's seats, plain values and the session's
callbacks (`JoinCalls`, `NameCalls`) – not of the Screen: the screen's side
(companion/ui/assemble/: join_screen, take_seat, typed_name) builds them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion import i18n
from companion.ui import kit, names


@dataclass(frozen=True, slots=True)
class JoinSeat:
    """A seat as the join screen shows it."""

    name: str
    colour: str
    taken: bool = False  # a phone has it
    shared: bool = False  # it plays on the shared device (issue 29)


@dataclass(frozen=True, eq=False)
class NameCalls(kit.Calls):
    """The name field's: what was typed (kept by the screen), and the field as drawn."""

    typed: Callable[[], str]  # what this phone typed so far ("" none)
    keep: Callable[[str], None]
    redraw: Callable[[], None]  # the screen again (a name too long is said under the field)
    drawn: Callable[[ft.TextField], None]  # the field as drawn (its value is read when a seat is tapped)


@dataclass(frozen=True, eq=False)
class JoinCalls(kit.Calls):
    take: Callable[[int, str], Awaitable[None]]  # take seat i (shown under that name)
    watch: Callable[[], Awaitable[None]]  # watch the table


@kit.component
def JoinName(lang: str, error: str | None, calls: NameCalls) -> ft.Control:
    """The name field, a part of its own: another phone taking a seat redraws the seat buttons,
    not what is being typed here (`error`: what the field says of the name typed)."""
    # a name too long is said under the field, not cut
    field = names.name_field(lang, calls.typed(), calls.keep, calls.redraw,
                             label=i18n.t(lang, "ui.phone.your_name"), text_size=20)
    calls.drawn(field)
    return field


def finding(lang: str) -> list[ft.Control]:
    """While the phone looks for the seat it held."""
    return [kit.card(ft.Row([ft.ProgressRing(width=24, height=24),
                             ft.Text(i18n.t(lang, "ui.phone.finding_seat"), size=18, expand=True)], spacing=14))]


def join_screen(lang: str, phase: str, seats: tuple[JoinSeat, ...], seat_lost: bool, name: ft.Control,
                calls: JoinCalls) -> list[ft.Control]:
    """Welcome; in the lobby with a free seat every seat as a button (a taken one disabled, in its
    place), else why not and "Watch"; `name` the name field; `seat_lost`: this phone's seat is gone."""
    def t(key: str, **kw: Any) -> str:
        return i18n.t(lang, key, **kw)
    out: list[ft.Control] = [kit.title(t("ui.phone.welcome"), 24)]
    if seat_lost:
        out.append(kit.card(ft.Text(t("ui.phone.seat_lost"), size=16), bgcolor=ft.Colors.AMBER_50))
    if phase == "lobby" and any(not (s.taken or s.shared) for s in seats):
        out.append(ft.Text(t("ui.phone.pick_seat"), size=18))
        out.append(name)
        # Every seat in its place: a seat taken meanwhile stays where it was, disabled, with its
        # new name – the buttons never move under a finger. A tap that lands on a seat taken an
        # instant before says so by the name the phone showed, and seats nobody.
        for i, s in enumerate(seats):
            if s.taken or s.shared:  # (a shared seat plays on the shared device: issue 29)
                out.append(kit.button(t("ui.phone.seat_shared" if s.shared else "ui.phone.seat_taken_by",
                                        name=s.name), None, primary=False, disabled=True, width=10_000))
                continue

            async def take(e: Any, i: int = i, shown: str = s.name) -> None:
                await calls.take(i, shown)
            out.append(kit.button(t("ui.phone.take_seat", name=s.name), take, colour=s.colour, width=10_000))
    else:
        reason = "ui.phone.full" if phase == "lobby" else "ui.phone.started"
        out.append(kit.card(ft.Text(t(reason), size=18)))
        out.append(name)

        async def watch(e: Any) -> None:
            await calls.watch()
        out.append(kit.button(t("ui.phone.watch"), watch, width=10_000))
    return out


def join_error(error: str, box: ft.Control) -> list[ft.Control]:
    """A wrong code's message, and the box to type another (`box`)."""
    return [kit.card(ft.Text(error, size=20, color=ft.Colors.RED_800), bgcolor=ft.Colors.RED_50), box]
