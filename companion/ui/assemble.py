"""The screen's side of the views: what each view draws, built from the session, and the callbacks
it needs.

The views under companion/ui/views/ that are functions of what they draw (seats.py, common.py,
phone.py, display.py, host.py, spectator.py, join.py, rematch.py, home.py: guarded by tests/test_views_private.py) take plain values, small frozen dataclasses of what they show and a
`kit.Calls` of the session's callbacks – never the `Screen`. The functions here read the screen (its
table, seat, language, local choices, slots), build those arguments and place the views in the
screen's slots; `Screen` takes them as its methods (companion/ui/screens.py)."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games import games
from companion.games import screens as game_screens
from companion.games.base import RuleError, to_act
from companion.table.hub import follow_up, problem_text
from companion.table.store import StoreError
from companion.table.table import COLOURS
from companion.ui import kit, names
from companion.ui import sound as _sound
from companion.ui.views import common as _common
from companion.ui.views import display as _display
from companion.ui.views import home as _home
from companion.ui.views import host as _host
from companion.ui.views import join as _join
from companion.ui.views import moment as _moment
from companion.ui.views import phone as _phone
from companion.ui.views import rematch as _rematch
from companion.ui.views import seats as _seats
from companion.ui.views import spectator as _spectator
from companion.ui.views.history import history_link

if TYPE_CHECKING:
    from companion.table.table import Table
    from companion.ui.screens import Screen


# ---------- the seat list (views/seats.py) ----------

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


# ---------- parts of every screen (views/common.py) ----------

def top_bar(scr: Screen) -> ft.Control:
    """The bar at the top of every screen: the game and the table's code, the three languages."""
    left = "Tabletop Companion"
    if scr.table is not None:
        left = f"{scr.t(scr.table.game.NAME)} · {scr.table.code}"
    return _common.TopBar(scr.lang, left, _sound.is_on(scr) if _sound.offered(scr) else None,
                          _common.BarCalls(scr.set_lang, lambda: _sound.toggle(scr)))


def local_sig(scr: Screen) -> Any:
    """What of this screen's local choices a game's part depends on (not the host's pending swap)."""
    return {k: v for k, v in scr.local.items() if k != "swap_from"}


def game_section(scr: Screen) -> tuple[tuple[Any, ...], Any] | None:
    """The game's part of this screen: (props, builder), or None when it shows none.

    The props are immutable data, compared with == (the slot, kit.live): which screen, the
    language and players (look), the phase, the view as frozen data (or what the game says its
    part shows of it: `phone_props` / `public_props`), the legal actions, this screen's local
    choices. Host and spectators get the game's public screen, a seated phone its own; the
    scorer once the table has ended."""
    t = scr.table
    if t is None or t.state is None or t.phase == "lobby" or scr.role not in ("host", "watch", "phone"):
        return None
    mod = game_screens(t.game_id)
    ended = t.phase == "ended"
    local = kit.freeze(local_sig(scr))
    if scr.role == "phone":
        scr.seat = t.seat_of(scr.token)
        if scr.seat is None:
            if not (scr.token and t.is_spectator(scr.token)):
                return None
            ctx = scr.ctx(host_view=True)
            ctx.is_host = False
        else:
            ctx = scr.ctx()
            show = mod.result if ended and hasattr(mod, "result") else mod.phone
            # A game may say what its phone part shows of the view (less than all of it).
            shown = mod.phone_props(ctx) if hasattr(mod, "phone_props") and not ended else ctx.frozen_view()
            # The last reveal's moment from this seat (views/moment.py) on top of the game's part, in
            # the same redraw: a reveal sends each phone one update, not two.
            msig, moment = _moment.drawn(ctx, scr.seen)

            def phone_part() -> list[ft.Control]:
                def part() -> list[ft.Control]:  # (built by the moment once it is shown)
                    drawn = show(ctx)
                    return drawn if isinstance(drawn, list) else [drawn]
                return moment(part)  # type: ignore[no-any-return]
            return ("phone", ctx.look, t.phase, shown, ctx.frozen_legal(), local, msig), phone_part
    else:
        ctx = scr.ctx(host_view=True)
    show = mod.result if ended and hasattr(mod, "result") else mod.host
    # A game may say what its public part shows of the view in a cheaper form.
    shown = mod.public_props(ctx) if hasattr(mod, "public_props") and not ended else ctx.frozen_view()
    # The result list waits for the reveal's cards to turn (the moment plays beside it: issue 30.3).
    fsig, wrap = _moment.after_flip(ctx, scr.seen)

    def public_part() -> list[ft.Control]:
        def part() -> list[ft.Control]:  # (built once it is shown)
            drawn = show(ctx)
            return drawn if isinstance(drawn, list) else [drawn]
        return wrap(part)  # type: ignore[no-any-return]
    return ("public", ctx.look, t.phase, shown, ctx.frozen_legal(), local, fsig), public_part


def game_live(scr: Screen) -> ft.Control:
    """The game's part, in its slot (Screen.render redraws it first, on its own)."""
    section = scr.game_section()
    assert section is not None
    scr.parts.game = True
    return kit.live(scr.slots.game, *section)


def host_moves_card(scr: Screen) -> list[ft.Control]:
    t = scr.table
    return _common.host_moves_card(scr.lang, t.host_moves if t is not None else ())


def undo_words_of(scr: Screen, note: dict[str, Any], ahead: bool) -> str:
    assert scr.table is not None
    return _common.undo_words(scr.table, scr.lang, note, ahead)


def undo_card(scr: Screen) -> list[ft.Control]:
    t = scr.table
    note = t.last_undo if t is not None else None
    return _common.undo_card(None if note is None else scr.undo_words(note, ahead=False))


def confirm(scr: Screen, title: str, what: str, yes_label: str, yes: Callable[[], Any]) -> None:
    """Ask before something that cannot be taken back (views/common.confirm_dialog)."""
    try:
        scr.page.show_dialog(_common.confirm_dialog(scr.lang, title, what, yes_label, yes, scr.page.pop_dialog))
    except RuntimeError:
        pass


# ---------- a seated phone (views/phone.py) ----------

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


# ---------- the table display (views/display.py) ----------

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


# ---------- the host's screen (views/host.py) ----------

def can_reveal(scr: Screen) -> bool:
    return _host.can_reveal(scr.table)


def host_calls(scr: Screen) -> _host.HostCalls:
    from companion.ui.views.shared import show_device_link

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


# ---------- a phone without a seat (views/join.py) ----------

def typed_name(scr: Screen) -> str | None:
    """The name in the join screen's field: the control's value (Flet writes a keystroke into
    it before any handler runs), else what its change handler kept."""
    typed = scr.join_field.value if scr.join_field is not None else None
    return (typed or scr.local.get("name") or "").strip() or None


def name_calls(scr: Screen) -> _join.NameCalls:
    def keep(typed: str) -> None:
        scr.local["name"] = typed

    def drawn(field: ft.TextField) -> None:
        scr.join_field = field
    return _join.NameCalls(lambda: scr.local.get("name", ""), keep, lambda: scr.render(force=True), drawn)


def join_name_field(scr: Screen) -> ft.Control:
    return _join.JoinName(scr.lang, names.too_long(scr.lang, scr.local.get("name")), name_calls(scr))


async def seat_taken(scr: Screen, code: str, reply: dict[str, Any] | None) -> None:
    """A seat (or a spectator's place) given: its token kept in this browser and in the address."""
    if reply and reply.get("token"):
        scr.token = reply["token"]
        await scr.save(f"seat:{code}", scr.token)
        # ... and in the address, which a re-created session still sends (see route()).
        await scr.go(f"/t/{code}?s={scr.token}")


def join_calls(scr: Screen, t: Table) -> _join.JoinCalls:
    async def take(i: int, shown: str) -> None:
        try:
            reply = await t.request("", {"op": "join", "seat": i, "name": scr.typed_name()})
        except RuleError as ex:
            key = "ui.phone.just_taken" if ex.key == "tbl.err.seat_taken" else ex.key
            scr.toast(scr.t(key, **(ex.params if key == ex.key else {"name": shown})), True)
            return
        except StoreError:
            scr.toast(scr.t("ui.err.store"), True)
            return
        await seat_taken(scr, t.code, reply)

    async def watch() -> None:
        await seat_taken(scr, t.code, await scr.request({"op": "spectate", "name": scr.typed_name()}, token=""))
    return _join.JoinCalls(take, watch)


def join_screen(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    # Its own part: another phone taking a seat redraws the seat buttons, not what is being typed here.
    name = scr.join_name_field()
    if scr.finding:
        return _join.finding(scr.lang)
    seats = tuple(_join.JoinSeat(s["name"], s["colour"], bool(s.get("token")), bool(s.get("shared")))
                  for s in t.seats)
    lost = bool(scr.token) and t.seat_of(scr.token) is None and not t.is_spectator(scr.token)
    return _join.join_screen(scr.lang, t.phase, seats, lost, name, join_calls(scr, t))


def join_error(scr: Screen) -> list[ft.Control]:
    return _join.join_error(scr.error or "", scr.join_box())


# ---------- "Play again" (views/rematch.py) ----------

def rematch_part(scr: Screen) -> list[ft.Control]:
    """The "Play again" card for the host of a finished table ([] for anyone else)."""
    t = scr.table
    if t is None or scr.role != "host" or t.state is None or not (t.phase == "ended" or t.finished()):
        return []
    nxt = follow_up(t)

    async def open_next() -> None:
        new = scr.hub.get(nxt) if nxt else None
        if nxt and new is not None and scr.token is not None and new.is_host(scr.token):
            await scr.become_host(nxt, scr.token)
    calls = _rematch.RematchCalls(lambda: rematch_dialog(scr), open_next)
    if nxt:
        return _rematch.done_card(scr.lang, nxt, calls)
    return [_rematch.RematchButton(scr.lang, t.code, calls)]


def rematch_dialog(scr: Screen) -> None:
    t = scr.table
    assert t is not None
    code = t.code

    async def play(options: dict[str, Any]) -> None:
        await play_again(scr, code, options)
    dlg = _rematch.rematch_dialog(scr.lang, t.game.NAME, [s["name"] for s in t.seats], t.game.OPTIONS,
                                  dict(t.options), play, scr.page.pop_dialog)
    scr.local["rematch:dialog"] = dlg  # (tests read it)
    try:
        scr.page.show_dialog(dlg)
    except RuntimeError:
        pass


async def play_again(scr: Screen, code: str, options: dict[str, Any] | None) -> None:
    """Start the rematch and open its host screen (the phones follow by themselves)."""
    t = scr.table
    if t is None or scr.role != "host" or scr.token is None or not t.is_host(scr.token):
        return
    try:
        new = await scr.hub.rematch_async(code, options)
    except RuleError as ex:
        scr.toast(scr.t(ex.key, **ex.params), True)
        return
    except StoreError:
        scr.toast(scr.t("ui.err.store"), True)
        return
    await scr.become_host(new.code, new.host_token)


# ---------- the home screen (views/home.py) ----------

def home_calls(scr: Screen) -> _home.HomeCalls:
    async def open_host(code: str) -> None:
        table = scr.hub.get(code)
        if table is not None and scr.server.is_host_machine(scr.conn):
            await scr.become_host(code, table.host_token)

    async def delete(code: str) -> None:
        if not scr.server.is_host_machine(scr.conn):
            return
        try:
            scr.hub.delete(code)
        except RuleError as ex:
            scr.toast(scr.t(ex.key, **ex.params), True)
            return
        except StoreError:
            scr.toast(scr.t("ui.err.store"), True)
            return
        scr.toast(scr.t("ui.home.deleted", code=code))
        scr.render(force=True)
    return _home.HomeCalls(scr.go, open_host, lambda *a: scr.confirm(*a), delete)


def home(scr: Screen) -> list[ft.Control]:
    out = _home.head(scr.lang, scr.server.data_problem, [problem_text(scr.lang, p) for p in scr.hub.problems])
    calls = home_calls(scr)
    out.append(_home.JoinBox(scr.lang, calls))
    if not scr.server.is_host_machine(scr.conn):
        # A phone on the Wi-Fi: it joins by code. Creating tables and the list of the open
        # tables (with their codes) are the host's, on the computer the app runs on.
        out.append(_home.host_only(scr.lang))
        return out
    form, form_calls = create_state(scr)
    out.append(_home.CreateForm(scr.lang, form, form_calls))
    gs = games()
    out += _home.open_tables(scr.lang, [_home.TableRow(t.code, scr.t(gs[t.game].NAME), scr.t("ui.phase." + t.phase))
                                        for t in sorted(scr.hub.open_tables(), key=lambda x: x.code)], calls)
    out += scr.old_tables()
    out.append(history_link(scr))  # the history page (views/history.py)
    return out


def old_tables(scr: Screen) -> list[ft.Control]:
    """Ended and abandoned tables (the newest 20), for the host to look at or delete."""
    old = sorted((m for m in scr.hub.metas() if scr.hub.deletable(m)), key=lambda m: -m.last)[:20]
    gs = games()
    rows = [_home.TableRow(m.code, scr.t(gs[m.game].NAME) if m.game in gs else m.game,
                           scr.t("ui.phase." + m.phase) if i18n.has("ui.phase." + m.phase) else m.phase)
            for m in old]
    return _home.old_tables(scr.lang, rows, home_calls(scr))


def join_box(scr: Screen) -> ft.Control:
    return _home.join_box(scr.lang, home_calls(scr))


def create_state(scr: Screen) -> tuple[_home.Form, _home.FormCalls]:
    """The create form's choices (kept in the screen's local choices, defaults set here) and what
    its taps do."""
    loc = scr.local
    gs = games()
    loc.setdefault("game", "sealed_vote")
    game = gs[loc["game"]]
    loc.setdefault("n", min(max(4, game.MIN_SEATS), game.MAX_SEATS))
    loc["n"] = min(max(loc["n"], game.MIN_SEATS), game.MAX_SEATS)
    names_: list[str] = loc.setdefault("names", [""] * 8)
    colours: list[str] = loc.setdefault("colours", list(COLOURS))
    shared: list[bool] = loc.setdefault("shared", [False] * 8)  # plays on the shared device (issue 29)
    opts: dict[str, Any] = loc.setdefault(f"opts:{loc['game']}", {})
    form = _home.Form(tuple((g.ID, g.NAME) for g in gs.values()), loc["game"],
                      tuple(range(game.MIN_SEATS, game.MAX_SEATS + 1)), loc["n"], tuple(names_), tuple(colours),
                      tuple(shared), tuple(game.OPTIONS), tuple(opts.items()))

    def redraw() -> None:
        scr.render(force=True)

    async def pick_game(key: str) -> None:
        loc["game"] = key
        redraw()

    async def pick_n(n: int) -> None:
        loc["n"] = n
        redraw()

    def set_name(i: int, typed: str) -> None:
        names_[i] = typed

    def next_colour(i: int) -> None:
        colours[i] = _home.next_colour(colours[i])
        redraw()

    def set_shared(i: int, on: bool) -> None:
        shared[i] = on
        redraw()

    def set_option(name: str, value: Any, again: bool) -> None:
        opts[name] = value
        if again:
            redraw()

    async def create() -> None:
        await create_table(scr)
    return form, _home.FormCalls(pick_game, pick_n, set_name, next_colour, set_shared, set_option, redraw, create)


def create_form(scr: Screen) -> ft.Control:
    return _home.create_form(scr.lang, *create_state(scr))


async def create_table(scr: Screen) -> None:
    """The table the create form describes, as it is now; then its host screen."""
    if not scr.server.is_host_machine(scr.conn):  # (the form is not offered elsewhere)
        scr.toast(scr.t("ui.home.host_only"), True)
        return
    loc = scr.local
    game = games()[loc["game"]]
    opts: dict[str, Any] = loc.get(f"opts:{loc['game']}", {})
    names_, colours, shared = loc["names"], loc["colours"], loc["shared"]
    given: dict[str, Any] = {}
    for o in game.OPTIONS:
        if o.name in opts:
            v = opts[o.name]
            if o.kind == "choice":
                v = next((c for c in o.choices if str(c) == str(v)), v)
            given[o.name] = v
    seats = [{"name": names_[i].strip() or scr.t("ui.player_n", n=i + 1), "colour": colours[i],
              "shared": shared[i]} for i in range(loc["n"])]
    try:
        table = await asyncio.to_thread(scr.hub.create, game.ID, given, seats)
    except RuleError as ex:
        scr.toast(scr.t(ex.key, **ex.params), True)
        return
    except StoreError:
        scr.toast(scr.t("ui.err.store"), True)
        return
    # The key goes into this browser's storage and, when the page loads again, into the
    # table's host cookie – never into the address (companion/ui/boot.py).
    await scr.become_host(table.code, table.host_token)
