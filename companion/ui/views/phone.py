"""A seated phone: its seat, rename and "not me" before the start, then its own game screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games.base import to_act
from companion.ui import kit, names, sound

if TYPE_CHECKING:
    from companion.ui.screens import Screen


def phone(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    scr.seat = t.seat_of(scr.token)
    if scr.seat is None:
        if scr.token and t.is_spectator(scr.token):
            return scr.spectator()
        return scr.join_screen()
    s = t.seats[scr.seat]
    shown = i18n.seat_name(scr.lang, s["name"])  # a default name in this phone's language
    out: list[ft.Control] = [SeatHeader(scr.t("ui.phone.you_are", name=shown), s["colour"])]
    if t.phase == "lobby":
        out.append(kit.card(ft.Text(scr.t("ui.phone.waiting_start"), size=20)))
        out.append(RenameRow(scr, scr.lang, shown, names.too_long(scr.lang, scr.local.get("rename"))))
        out.append(NotMe(scr, scr.lang, s["name"]))
        out.append(scr.seat_part(host=False))
        return out
    if t.phase == "ended":
        out.append(kit.title(scr.t("ui.ended"), 22))
    out.append(turn_part(scr))
    out += scr.undo_card() + scr.host_moves_card()
    out.append(scr.game_live())
    out.append(scr.seat_part(host=False))
    return out


# The page's title while it is this seat's turn: the page's script (companion/page.py TURN_JS)
# vibrates the phone when the title starts with this mark, and a desktop tab shows it.
TURN_MARK = "\u25b6 "
TITLE = "Tabletop Companion"


def turn_now(scr: Screen) -> bool:
    """Is it this seat's turn? Generic for every game: the seat has something to do now
    (games/base.to_act) – a legal action other than the game's "any time" ones (rules.ANYTIME, e.g.
    Quo Vadis' laurel gifts and promises), not a correction of what it has answered (rules.answered,
    Lutèce's score card once sent). Only this seat's own legal actions decide it, and only its own
    phone shows it."""
    t = scr.table
    if t is None or scr.role != "phone" or scr.seat is None or t.phase != "playing" or t.state is None:
        return False
    return to_act(t.game, t.state, scr.seat, t.legal(scr.seat))


def feel_turn(scr: Screen) -> None:
    """After a change at the table: when it has just become this seat's turn (not on a phone that
    has just opened the table), the page's title gets the turn mark – the page vibrates the
    phone – and loses it when the turn is over."""
    now = turn_now(scr)
    before = scr.turn_was
    scr.turn_was = now
    if before is None and not now or before == now:
        return
    sound.retitle(scr, TURN_MARK + scr.t("ui.turn.title") if now and before is not None else TITLE)


def _turn_drawn(scr: Screen) -> tuple[tuple[Any, ...], Any]:
    now = turn_now(scr)
    lang = scr.lang
    return ("turn", lang, now), lambda: turn_banner(lang) if now else ft.Container(visible=False)


def turn_part(scr: Screen) -> ft.Control:
    """The banner's place on the phone's game screen, a slot of its own: the turn coming or going
    redraws the banner, not the screen around it (Screen.render)."""
    sig, fn = _turn_drawn(scr)
    return kit.live(scr.slots.turn, sig, fn, key="turn")


def redraw_turn(scr: Screen) -> None:
    """After a change at the table: the banner again if the turn came or went."""
    slot = scr.slots.turn
    if not slot.on_screen() or scr.role != "phone":
        return
    sig, fn = _turn_drawn(scr)
    if sig != slot.shown:
        slot.redraw(sig, fn)


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


async def leave_seat(scr: Screen, e: Any = None) -> None:
    """A tap on the wrong seat, taken back before the start: the seat is free again with the
    host's name for it, and this phone picks anew."""
    t = scr.table
    if t is None or scr.seat is None:
        return
    name = t.seats[scr.seat]["name"]
    if await scr.request({"op": "leave"}) is None:
        return
    scr.token = None
    await scr.clear(f"seat:{t.code}")
    await scr.go(f"/t/{t.code}")
    await scr.route(f"/t/{t.code}")
    scr.local["name"] = name  # the name typed before stays for the next seat
    scr.join_field = None
    scr.render(force=True)


def rename_row(scr: Screen, name: str) -> ft.Control:
    def keep(typed: str) -> None:
        scr.local["rename"] = typed
    # a name too long is said under the field, not cut
    field = names.name_field(scr.lang, scr.local.get("rename", name), keep, lambda: scr.render(force=True),
                             label=scr.t("ui.phone.your_name"))

    async def rename(e: Any) -> None:
        if await scr.request({"op": "rename", "name": field.value or ""}) is not None:
            scr.local.pop("rename", None)
    field.on_submit = rename
    return ft.Row([ft.Container(field, expand=True),
                   kit.button(scr.t("ui.phone.rename"), rename, primary=False)])


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
def RenameRow(scr: Screen, lang: str, name: str, error: str | None) -> ft.Control:
    return scr.rename_row(name)


@kit.component
def NotMe(scr: Screen, lang: str, name: str) -> ft.Control:
    """Before the start: give the seat back (a tap on the wrong one)."""
    return kit.button(scr.t("ui.phone.not_me", name=name), scr.leave_seat, primary=False, icon=ft.Icons.UNDO)
