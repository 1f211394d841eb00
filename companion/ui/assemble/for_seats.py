"""The screen's side of the seat list (views/seats.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.ui import kit
from companion.ui.views import seats as _seats

if TYPE_CHECKING:
    from companion.ui.screens import Screen




def submitted_sets(scr: Screen) -> tuple[set[int], set[int]]:
    t = scr.table
    return _seats.submitted_sets(t.view(None) if t is not None else None)


def seat_calls(scr: Screen) -> _seats.SeatCalls:
    def pick(i: int | None) -> None:
        if i is None:
            scr.local.pop("swap_from", None)
        else:
            scr.local["swap_from"] = i

    def seat_name(i: int) -> str | None:
        t = scr.table
        return t.seats[i]["name"] if t is not None and 0 <= i < len(t.seats) else None
    return _seats.SeatCalls(scr.request, scr.confirm, lambda: scr.local.get("swap_from"), pick, seat_name,
                            lambda: scr.render(force=True))


def seat_section(scr: Screen, host: bool) -> _seats.SeatSection:
    """The seat list: what is around its rows, and each row (props, builder)."""
    t = scr.table
    assert t is not None
    sub, lck = scr.submitted_sets()
    swap_from = scr.local.get("swap_from")
    waiting = list(t.spectators.items())
    calls = seat_calls(scr)
    rows: list[tuple[_seats.SeatRow, Callable[[], ft.Control]]] = []
    for i, s in enumerate(t.public_seats()):
        mark = ""
        if t.phase == "playing":
            mark = "locked" if i in lck else "submitted" if i in sub else ""
        row = _seats.SeatRow(scr.lang, host, t.phase, i, s["name"], s["colour"], s["status"], bool(s.get("pin")),
                             mark, i == scr.seat, tuple(waiting[:3]) if host and s["status"] == "free" else (),
                             swap_from == i)
        rows.append((row, lambda row=row: _seats.seat_row(row, calls)))
    hint = t.seats[swap_from]["name"] if host and swap_from is not None else None
    around = _seats.SeatList(scr.lang, host, len(rows), tuple(n for _, n in waiting), hint)

    def build() -> ft.Control:
        scr.seats_shown = around  # (Screen._redraw_seats: the rows alone while this is unchanged)
        return _seats.seat_panel(around, rows, scr.slots.rows)
    return _seats.SeatSection(("seat list", around, tuple(r for r, _ in rows)), build, around, rows)


def seat_part(scr: Screen, host: bool) -> ft.Control:
    """The seat list, in a slot of its own (Screen.render redraws it, or its rows, on their own)."""
    scr.parts.seats = True
    scr.parts.seats_host = host
    seats = scr.seat_section(host)
    return kit.live(scr.slots.seats, seats.sig, seats.build, key="seats")
