"""The seat list, every row its own part (a choice, a lock, a phone waking redraws one row).

A function of what it draws: each row's props (`SeatRow`), the list's around them (`SeatList`) and
the session's callbacks (`SeatCalls`) – the screen builds them (companion/ui/assemble/,
seat_section) and never hands itself over."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import flet as ft

from companion import i18n
from companion.ui import kit, names

Props = tuple[Any, ...]  # what a part shows, named by its first item; equal (==) exactly when drawn the same


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat's row as drawn: equal (==) exactly when it is drawn the same."""

    lang: str
    host: bool  # the host's list: with its buttons (free, swap, shared device, seat a spectator)
    phase: str  # the table's: what the host's confirmations say, the shared-device switch
    i: int
    name: str
    colour: str
    status: str  # free / joined / connected / shared (Table.seat_status)
    pin: bool = False  # a shared seat with its PIN set (the host may reset it)
    mark: str = ""  # in play: "locked" / "submitted"
    you: bool = False  # this phone's own seat
    offer: tuple[tuple[str, str], ...] = ()  # (token, name): spectators the host may seat here
    chosen: bool = False  # the host's first tap of a swap was this row


@dataclass(frozen=True, slots=True)
class SeatList:
    """What the list shows around its rows."""

    lang: str
    host: bool
    rows: int
    waiting: tuple[str, ...] = ()  # the spectators' names
    hint: str | None = None  # the host's swap under way: the first seat's name


@dataclass(frozen=True, eq=False)
class SeatCalls(kit.Calls):
    """What the host's taps on the list do (the screen's session)."""

    request: Callable[[dict[str, Any]], Awaitable[Any]]  # a request to the table
    confirm: Callable[[str, str, str, Callable[[], Awaitable[None]]], None]  # ask first: title, what, yes, then
    swapping: Callable[[], int | None]  # the seat of a swap's first tap, now (None: none)
    pick: Callable[[int | None], None]  # remember a swap's first tap (None: forget it)
    seat_name: Callable[[int], str | None]  # a seat's name now (None: no such seat)
    redraw: Callable[[], None]  # the screen again (the swap's selection shows)


class SeatSection(NamedTuple):
    """The seat list to draw: its props and builder, and the same cut in two – what is around
    the rows, and each row (props, builder) – so a row can be redrawn on its own."""

    sig: Props
    build: Callable[[], ft.Control]
    around: SeatList
    rows: list[tuple[SeatRow, Callable[[], ft.Control]]]


def submitted_sets(view: dict[str, Any] | None) -> tuple[set[int], set[int]]:
    """The seats that have chosen and that have locked, from the public view (or its round)."""
    if not view:
        return set(), set()
    src = view.get("round") if isinstance(view.get("round"), dict) else view
    sub = src.get("submitted") or []
    lck = src.get("locked") or []
    return set(sub), set(lck)


def seat_panel(around: SeatList, rows: list[tuple[SeatRow, Callable[[], ft.Control]]],
               slots: dict[int, kit.Slot]) -> ft.Control:
    """The list: its title, each row in a slot of its own (`slots`, by seat), the spectators and
    the host's swap under way."""
    t = i18n.t
    items: list[ft.Control] = [kit.title(t(around.lang, "ui.seats"), 20)]
    for i, (sig, fn) in enumerate(rows):
        # Each row a slot: a choice, a lock or a phone waking redraws that row, not the list.
        items.append(kit.live(slots.setdefault(i, kit.Slot()), sig, fn, key=f"seat{i}"))
    if around.waiting:
        items.append(ft.Text(t(around.lang, "ui.host.spectators", names=", ".join(around.waiting)), size=15))
    if around.hint is not None:
        items.append(ft.Text(t(around.lang, "ui.host.swap_hint", name=around.hint), size=15, color=ft.Colors.PRIMARY))
    return kit.card(*items)


def seat_row(row: SeatRow, calls: SeatCalls) -> ft.Control:
    """A seat: its colour and name, its status; on the host's list the host's buttons."""
    lang, i, name = row.lang, row.i, row.name

    def t(key: str, **params: Any) -> str:
        return i18n.t(lang, key, **params)
    status = row.status
    colour = {"free": ft.Colors.GREY_500, "joined": ft.Colors.AMBER_800,
              "connected": ft.Colors.GREEN_700, "shared": ft.Colors.TEAL_700}[status]
    pills = [kit.pill(t(f"ui.status.{status}"), colour)]
    if row.mark:
        pills.append(kit.pill(t(f"ui.status.{row.mark}"),
                              ft.Colors.INDIGO_700 if row.mark == "locked" else ft.Colors.BLUE_600))
    out: list[ft.Control] = [kit.seat_dot(row.colour, 22),
                             names.one_line(i18n.seat_name(lang, name) + (f"  ({t('ui.you')})" if row.you else ""),
                                            18, expand=True),
                             *pills]
    if not row.host:
        return ft.Row(out, spacing=8)
    play = "_play" if row.phase == "playing" else ""
    out += share_buttons(row, calls)  # pass-and-play (issue 29): below
    if status not in ("free", "shared"):
        async def free(e: Any) -> None:
            async def yes() -> None:
                await calls.request({"op": "free", "seat": i})
            calls.confirm(t("ui.host.free_confirm", name=name), t("ui.host.free_what" + play, name=name),
                          t("ui.host.free_yes"), yes)
        # An icon has no text: its tooltip names it, and it is a button to screen readers and tests.
        out.append(ft.Semantics(button=True, content=ft.IconButton(
            ft.Icons.PERSON_REMOVE, on_click=free, width=48, height=48, icon_size=26,
            tooltip=t("ui.host.free", name=name))))
    elif status == "free":
        for tok, spectator in row.offer:
            async def seat_them(e: Any, tok: str = tok) -> None:
                await calls.request({"op": "seat", "seat": i, "token": tok})
            out.append(ft.TextButton(content=t("ui.host.seat_them", name=spectator), on_click=seat_them))

    async def swap(e: Any) -> None:
        first = calls.swapping()
        if first is None:
            calls.pick(i)
        else:
            calls.pick(None)
            a = calls.seat_name(first) if first != i else None
            if a is not None:
                async def yes() -> None:
                    await calls.request({"op": "swap", "a": first, "b": i})
                calls.confirm(t("ui.host.swap_confirm", a=a, b=name), t("ui.host.swap_what" + play, a=a, b=name),
                              t("ui.host.swap_yes"), yes)
        calls.redraw()
    out.append(ft.Semantics(button=True, content=ft.IconButton(
        ft.Icons.SWAP_VERT, on_click=swap, width=48, height=48, icon_size=26,
        tooltip=t("ui.host.swap", name=name), selected=row.chosen,
        icon_color=ft.Colors.PRIMARY if row.chosen else None)))
    return ft.Row(out, spacing=8)


def share_buttons(row: SeatRow, calls: SeatCalls) -> list[ft.Control]:
    """The host's switch between a phone and the shared device for the row's seat (issue 29), each
    way with a confirmation like every seat change: to the shared device (a phone on the seat leaves
    it), or back to a free seat a phone can take."""
    if row.phase == "ended":
        return []
    lang, i, name = row.lang, row.i, row.name

    def t(key: str, **params: Any) -> str:
        return i18n.t(lang, key, **params)
    shared = row.status == "shared"
    play = "_play" if row.phase == "playing" else ""

    async def ask(e: Any) -> None:
        async def yes() -> None:
            await calls.request({"op": "share", "seat": i, "shared": not shared})
        if shared:
            calls.confirm(t("ui.share.back_confirm", name=name), t("ui.share.back_what" + play, name=name),
                          t("ui.share.back_yes"), yes)
        else:
            calls.confirm(t("ui.share.to_confirm", name=name), t("ui.share.to_what" + play, name=name),
                          t("ui.share.to_yes"), yes)
    tip = t("ui.share.back" if shared else "ui.share.to", name=name)
    # (an icon has no text: its tooltip names it, and it is a button to screen readers and tests)
    out: list[ft.Control] = [ft.Semantics(button=True, content=ft.IconButton(
        ft.Icons.PHONE_ANDROID if shared else ft.Icons.TABLET_ANDROID, on_click=ask, width=48, height=48,
        icon_size=26, tooltip=tip))]
    if shared and row.pin:
        async def reset(e: Any) -> None:
            async def yes() -> None:
                await calls.request({"op": "reset_pin", "seat": i})
            calls.confirm(t("ui.pin.reset_confirm", name=name), t("ui.pin.reset_what", name=name),
                          t("ui.pin.reset_yes"), yes)
        out.append(ft.Semantics(button=True, content=ft.IconButton(
            ft.Icons.LOCK_RESET, on_click=reset, width=48, height=48, icon_size=26,
            tooltip=t("ui.pin.reset", name=name))))
    return out
