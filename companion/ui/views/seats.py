"""The seat list, every row its own part (a choice, a lock, a phone waking redraws one row)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import flet as ft

from companion import i18n
from companion.ui import kit, names

if TYPE_CHECKING:
    from companion.ui.screens import Screen


Props = tuple[Any, ...]  # what a part shows, named by its first item; equal (==) exactly when drawn the same


class SeatSection(NamedTuple):
    """The seat list to draw: its props and builder, and the same cut in two – what is around
    the rows, and each row (props, builder) – so a row can be redrawn on its own. The props are
    plain tuples of what is shown (Table.public_seats gives fresh dicts, never changed after)."""

    sig: Props
    build: Callable[[], ft.Control]
    around: Props
    rows: list[tuple[Props, Callable[[], ft.Control]]]


def submitted_sets(scr: Screen) -> tuple[set[int], set[int]]:
    t = scr.table
    v = t.view(None) if t is not None else None
    if not v:
        return set(), set()
    src = v.get("round") if isinstance(v.get("round"), dict) else v
    sub = src.get("submitted") or []
    lck = src.get("locked") or []
    return set(sub), set(lck)


def seat_section(scr: Screen, host: bool) -> SeatSection:
    """The seat list: what is around its rows, and each row (props, builder)."""
    t = scr.table
    assert t is not None
    sub, lck = scr.submitted_sets()
    swap_from = scr.local.get("swap_from")
    waiting = list(t.spectators.items())
    rows: list[tuple[Props, Callable[[], ft.Control]]] = []
    for i, s in enumerate(t.public_seats()):
        mark = ""
        if t.phase == "playing":
            mark = "locked" if i in lck else "submitted" if i in sub else ""
        offer = waiting[:3] if host and s["status"] == "free" else []
        rows.append((("seat", scr.lang, host, i, s, mark, i == scr.seat, tuple(offer), swap_from == i),
                     lambda i=i, s=s, mark=mark, offer=offer: scr.seat_row(host, i, s, mark, offer)))
    hint = t.seats[swap_from]["name"] if host and swap_from is not None else None
    around = ("seats", scr.lang, host, len(rows), tuple(n for _, n in waiting), hint)
    sig = ("seat list", around, tuple(r[0] for r in rows))
    return SeatSection(sig, lambda: scr.seat_panel(around, rows, waiting, hint), around, rows)


def seat_part(scr: Screen, host: bool) -> ft.Control:
    """The seat list, in a slot of its own (see render)."""
    scr.parts.seats = True
    scr.parts.seats_host = host
    seats = scr.seat_section(host)
    return kit.live(scr.slots.seats, seats.sig, seats.build, key="seats")


def seat_panel(scr: Screen, around: Props, rows: list[tuple[Props, Callable[[], ft.Control]]],
               waiting: list[tuple[str, str]], hint: str | None) -> ft.Control:
    scr.seats_shown = around
    items: list[ft.Control] = [kit.title(scr.t("ui.seats"), 20)]
    for i, (sig, fn) in enumerate(rows):
        # Each row a slot: a choice, a lock or a phone waking redraws that row, not the list.
        items.append(kit.live(scr.slots.rows.setdefault(i, kit.Slot()), sig, fn, key=f"seat{i}"))
    if waiting:
        items.append(ft.Text(scr.t("ui.host.spectators", names=", ".join(n for _, n in waiting)), size=15))
    if hint is not None:
        items.append(ft.Text(scr.t("ui.host.swap_hint", name=hint), size=15, color=ft.Colors.PRIMARY))
    return kit.card(*items)


def seat_row(scr: Screen, host: bool, i: int, s: dict[str, Any], mark: str,
             offer: list[tuple[str, str]]) -> ft.Control:
    status = s["status"]
    colour = {"free": ft.Colors.GREY_500, "joined": ft.Colors.AMBER_800,
              "connected": ft.Colors.GREEN_700, "shared": ft.Colors.TEAL_700}[status]
    pills = [kit.pill(scr.t(f"ui.status.{status}"), colour)]
    if mark:
        pills.append(kit.pill(scr.t(f"ui.status.{mark}"),
                              ft.Colors.INDIGO_700 if mark == "locked" else ft.Colors.BLUE_600))
    row: list[ft.Control] = [kit.seat_dot(s["colour"], 22),
                             names.one_line(i18n.seat_name(scr.lang, s["name"])
                                            + (f"  ({scr.t('ui.you')})" if i == scr.seat else ""), 18, expand=True),
                             *pills]
    if host:
        row += share_buttons(scr, i, s)  # pass-and-play (issue 29): below
        if status not in ("free", "shared"):
            async def free(e: Any) -> None:
                async def yes() -> None:
                    await scr.request({"op": "free", "seat": i})
                scr.confirm(scr.t("ui.host.free_confirm", name=s["name"]),
                             scr.t("ui.host.free_what" + ("_play" if scr.table and scr.table.phase == "playing"
                                                           else ""), name=s["name"]),
                             scr.t("ui.host.free_yes"), yes)
            # An icon has no text: its tooltip names it, and it is a button to screen readers and tests.
            row.append(ft.Semantics(button=True, content=ft.IconButton(
                ft.Icons.PERSON_REMOVE, on_click=free, width=48, height=48, icon_size=26,
                tooltip=scr.t("ui.host.free", name=s["name"]))))
        elif status == "free":
            for tok, name in offer:
                async def seat_them(e: Any, tok: str = tok) -> None:
                    await scr.request({"op": "seat", "seat": i, "token": tok})
                row.append(ft.TextButton(content=scr.t("ui.host.seat_them", name=name), on_click=seat_them))

        async def swap(e: Any) -> None:
            first = scr.local.get("swap_from")
            if first is None:
                scr.local["swap_from"] = i
            else:
                scr.local.pop("swap_from", None)
                t = scr.table
                if first != i and t is not None and 0 <= first < len(t.seats):
                    a, b = t.seats[first]["name"], s["name"]

                    async def yes() -> None:
                        await scr.request({"op": "swap", "a": first, "b": i})
                    scr.confirm(scr.t("ui.host.swap_confirm", a=a, b=b),
                                 scr.t("ui.host.swap_what" + ("_play" if t.phase == "playing" else ""),
                                        a=a, b=b), scr.t("ui.host.swap_yes"), yes)
            scr.render(force=True)
        chosen = scr.local.get("swap_from") == i
        row.append(ft.Semantics(button=True, content=ft.IconButton(
            ft.Icons.SWAP_VERT, on_click=swap, width=48, height=48, icon_size=26,
            tooltip=scr.t("ui.host.swap", name=s["name"]), selected=chosen,
            icon_color=ft.Colors.PRIMARY if chosen else None)))
    return ft.Row(row, spacing=8)


def share_buttons(scr: Screen, i: int, s: dict[str, Any]) -> list[ft.Control]:
    """The host's switch between a phone and the shared device for seat i (issue 29), each way
    with a confirmation like every seat change: to the shared device (a phone on the seat leaves
    it), or back to a free seat a phone can take."""
    t = scr.table
    if t is None or t.phase == "ended":
        return []
    shared = s["status"] == "shared"
    play = "_play" if t.phase == "playing" else ""
    name = s["name"]

    async def ask(e: Any) -> None:
        async def yes() -> None:
            await scr.request({"op": "share", "seat": i, "shared": not shared})
        if shared:
            scr.confirm(scr.t("ui.share.back_confirm", name=name), scr.t("ui.share.back_what" + play, name=name),
                        scr.t("ui.share.back_yes"), yes)
        else:
            scr.confirm(scr.t("ui.share.to_confirm", name=name), scr.t("ui.share.to_what" + play, name=name),
                        scr.t("ui.share.to_yes"), yes)
    tip = scr.t("ui.share.back" if shared else "ui.share.to", name=name)
    # (an icon has no text: its tooltip names it, and it is a button to screen readers and tests)
    out: list[ft.Control] = [ft.Semantics(button=True, content=ft.IconButton(
        ft.Icons.PHONE_ANDROID if shared else ft.Icons.TABLET_ANDROID, on_click=ask, width=48, height=48,
        icon_size=26, tooltip=tip))]
    if shared and s.get("pin"):
        async def reset(e: Any) -> None:
            async def yes() -> None:
                await scr.request({"op": "reset_pin", "seat": i})
            scr.confirm(scr.t("ui.pin.reset_confirm", name=name), scr.t("ui.pin.reset_what", name=name),
                        scr.t("ui.pin.reset_yes"), yes)
        out.append(ft.Semantics(button=True, content=ft.IconButton(
            ft.Icons.LOCK_RESET, on_click=reset, width=48, height=48, icon_size=26,
            tooltip=scr.t("ui.pin.reset", name=name))))
    return out
