"""The screen's side of a seated phone (views/phone.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games.base import to_act
from companion.ui import kit, names
from companion.ui import sound as _sound
from companion.ui.views import phone as _phone

if TYPE_CHECKING:
    from companion.ui.screens import Screen




def phone_calls(scr: Screen) -> _phone.PhoneCalls:
    def keep(typed: str) -> None:
        scr.local["rename"] = typed

    async def rename(name: str) -> None:
        if await scr.request({"op": "rename", "name": name}) is not None:
            scr.local.pop("rename", None)
    return _phone.PhoneCalls(lambda: scr.local.get("rename"), keep, lambda: scr.render(force=True), rename,
                             scr.leave_seat)


def phone(scr: Screen) -> list[ft.Control]:
    """A seated phone's screen (or, without a seat, the spectator's or the join screen)."""
    t = scr.table
    assert t is not None
    scr.seat = t.seat_of(scr.token)
    if scr.seat is None:
        if scr.token and t.is_spectator(scr.token):
            return scr.spectator()
        return scr.join_screen()
    s = t.seats[scr.seat]
    shown = i18n.seat_name(scr.lang, s["name"])  # a default name in this phone's language
    out: list[ft.Control] = [_phone.SeatHeader(scr.t("ui.phone.you_are", name=shown), s["colour"])]
    if t.phase == "lobby":
        calls = phone_calls(scr)
        out.append(_phone.waiting_start(scr.lang))
        out.append(_phone.RenameRow(scr.lang, shown, names.too_long(scr.lang, scr.local.get("rename")), calls))
        out.append(_phone.NotMe(scr.lang, s["name"], calls))
        out.append(scr.seat_part(host=False))
        return out
    if t.phase == "ended":
        out.append(_phone.ended_title(scr.lang))
    out.append(turn_part(scr))
    out += scr.undo_card() + scr.host_moves_card()
    out.append(scr.game_live())
    out.append(scr.seat_part(host=False))
    return out


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
    _sound.retitle(scr, _phone.TURN_MARK + scr.t("ui.turn.title") if now and before is not None else _phone.TITLE)


def turn_drawn(scr: Screen) -> tuple[tuple[Any, ...], Any]:
    now = turn_now(scr)
    lang = scr.lang
    return ("turn", lang, now), lambda: _phone.turn_slot(lang, now)


def turn_part(scr: Screen) -> ft.Control:
    """The banner's place on the phone's game screen, a slot of its own: the turn coming or going
    redraws the banner, not the screen around it (Screen.render)."""
    sig, fn = turn_drawn(scr)
    return kit.live(scr.slots.turn, sig, fn, key="turn")


def redraw_turn(scr: Screen) -> None:
    """After a change at the table: the banner again if the turn came or went."""
    slot = scr.slots.turn
    if not slot.on_screen() or scr.role != "phone":
        return
    sig, fn = turn_drawn(scr)
    if sig != slot.shown:
        slot.redraw(sig, fn)


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
