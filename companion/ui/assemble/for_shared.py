"""The screen's side of the shared device (views/shared.py, pass-and-play, issue 29): the session's
cover (`Shared`: which seat is uncovered, the cover's generation, the idle timer, the PIN asked
for), covering and uncovering, the PIN check, the uncovered seat's game screen (`DeviceContext`:
its actions go as the device acting for that seat, only while it is uncovered), and the host's
link that opens the device. See views/shared.py for what it guarantees."""

from __future__ import annotations

import asyncio
import contextvars
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.games import screens as game_screens
from companion.games.base import RuleError, to_act
from companion.table.table import Table
from companion.ui.kit import UiContext
from companion.ui.views import moment as _moment
from companion.ui.views import shared as _shared

if TYPE_CHECKING:
    from companion.ui.screens import Screen

IDLE_SECONDS = 60.0  # an uncovered seat with no tap for this long is covered again


@dataclass
class Shared:
    """This session's cover: which seat is uncovered (None: covered), and since when."""

    seat: int | None = None
    gen: int = 0  # counted up at every cover and uncover: a tap on an older cover opens nothing
    had_turn: bool = False  # the uncovered seat has had something to do while it was open
    opened_for: tuple[int, ...] = ()  # the shared seats that had something to do when it was opened
    timer: asyncio.TimerHandle | None = None
    done: str | None = None  # the name of the seat covered last because it was done (public)
    done_for: tuple[int, ...] = ()  # who had something to do then: the note holds only while that is so
    asking: int | None = None  # the seat whose PIN the cover asks for (still covered)
    wrong: str | None = None  # what the last PIN try said (wrong, wait)
    moment_seen: Any = _moment.UNSEEN  # the last reveal the cover has seen (cover_moment)


def state(scr: Screen) -> Shared:
    """The screen's cover (Screen.shared: the session's, whatever its address)."""
    return scr.shared


def to_do(t: Table) -> list[int]:
    """The shared seats that have something to do now (games/base.to_act: a legal action other than
    the game's "any time" ones, not a correction of what it has answered), in seat order: what the
    cover asks for. Whether a seat must act is public (the display says whom the table waits for)."""
    if t.phase != "playing" or t.state is None:
        return []
    return [s for s in t.shared_seats() if to_act(t.game, t.state, s, t.legal(s))]


# ---------- covering and uncovering ----------

def cover(scr: Screen, done: str | None = None, redraw: bool = True) -> None:
    """Back to the cover: the private screen and this screen's local picks go."""
    st = state(scr)
    if st.timer is not None:
        st.timer.cancel()
        st.timer = None
    was = st.seat
    st.seat = None
    st.gen += 1
    st.had_turn = False
    st.done = done
    st.done_for = tuple(to_do(scr.table)) if done and scr.table is not None else ()
    st.asking = None
    st.wrong = None
    if was is not None or scr.local:
        scr.local = {}  # (a seat's picks, a PIN half typed on the cover)
    if redraw:
        scr.render(force=True)


def uncover(scr: Screen, seat: int, gen: int, pin_ok: bool = False) -> bool:
    """Open `seat`'s screen – only from the cover as drawn now (`gen`), for a shared seat, on the
    table's device, and for a seat with a PIN only once the PIN was checked (`pin_ok`, by
    `try_pin`). Anything else (a replayed tap, a seat given back to a phone) opens nothing."""
    t = scr.table
    st = state(scr)
    if (t is None or scr.role != "shared" or not t.is_device(scr.token) or st.seat is not None
            or gen != st.gen or seat not in t.shared_seats()):
        return False
    if t.has_pin(seat) and not pin_ok:
        st.asking = seat  # the cover asks for the PIN (nothing private yet)
        st.wrong = None
        st.gen += 1
        scr.render(force=True)
        return False
    st.seat = seat
    st.gen += 1
    st.opened_for = tuple(to_do(t))
    st.had_turn = seat in st.opened_for
    st.done = None
    st.asking = None
    st.wrong = None
    scr.local = {}
    poke(scr)
    scr.render(force=True)
    return True


def poke(scr: Screen) -> None:
    """A tap on the uncovered screen: the idle timer starts again."""
    st = state(scr)
    if st.timer is not None:
        st.timer.cancel()
        st.timer = None
    if st.seat is None:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    gen = st.gen

    def idle() -> None:
        if state(scr).seat is not None and state(scr).gen == gen:
            try:
                contextvars.copy_context().run(scr.page.run_task, idle_cover, scr, gen)
            except (AttributeError, RuntimeError):
                cover(scr, redraw=False)
    st.timer = loop.call_later(IDLE_SECONDS, idle)


async def idle_cover(scr: Screen, gen: int) -> None:
    if state(scr).gen == gen:
        cover(scr)


def before_render(scr: Screen) -> None:
    """After a change at the table: cover a seat that is done (it had something to do while it
    was open and has nothing now: it locked, its turn is over), a seat opened only to look when
    another shared seat's turn comes (the cover asks for that one), or a seat that is no longer
    the device's (given back to a phone, another device opened)."""
    st = state(scr)
    t = scr.table
    if st.seat is None:
        return
    if t is None or not t.is_device(scr.token) or st.seat not in t.shared_seats():
        cover(scr, redraw=False)
        return
    todo = tuple(to_do(t))
    if st.seat in todo:  # (its turn came while it was open: the cover comes back once it is done)
        st.had_turn = True
    elif st.had_turn:
        cover(scr, done=t.seats[st.seat]["name"], redraw=False)
    elif todo and todo != st.opened_for:  # opened only to look, and another shared seat's turn came
        cover(scr, redraw=False)


class DeviceContext(UiContext):
    """A shared seat's game screen on the device: its actions go as the device acting for the
    seat – only while that seat is uncovered on this screen."""

    def __init__(self, scr: Screen, seat: int) -> None:
        assert scr.table is not None
        async def rerender() -> None:  # a pick on the seat's screen is a tap too
            poke(scr)
            await scr.redraw()
        super().__init__(scr.table, seat, scr.token, scr.lang, False, scr.toast, scr.local, rerender)
        self.scr = scr

    async def act(self, action: dict[str, Any]) -> bool:
        scr = self.scr
        if state(scr).seat != self.seat or self.seat is None:
            scr.toast(scr.t("ui.shared.covered"), True)
            return False
        if self.busy:
            return False
        poke(scr)
        return await self.send({"op": "act", "seat": self.seat, "action": action})


async def try_pin(scr: Screen, seat: int, gen: int, pin: Any) -> bool:
    """The PIN typed on the cover for `seat`: checked on the server (hashed, slow on purpose, off
    the event loop); right: the seat opens; wrong: nothing opens and the cover says so."""
    t = scr.table
    st = state(scr)
    if t is None or scr.role != "shared" or not t.is_device(scr.token) or st.asking != seat or gen != st.gen:
        return False
    try:
        ok = await asyncio.to_thread(t.check_pin, seat, pin if isinstance(pin, str) else "")
    except RuleError as e:
        st.wrong = scr.t(e.key, **e.params)
        scr.render(force=True)
        return False
    if state(scr).gen != gen or state(scr).asking != seat:  # (covered meanwhile)
        return False
    if not ok:
        st.wrong = scr.t("ui.pin.wrong")
        scr.render(force=True)
        return False
    return uncover(scr, seat, gen, pin_ok=True)


# ---------- what the device shows ----------

def device_calls(scr: Screen) -> _shared.DeviceCalls:
    """The device's taps, for the cover as drawn now (its generation)."""
    gen = state(scr).gen

    async def open_seat(seat: int) -> None:
        if not uncover(scr, seat, gen) and state(scr).asking != seat:
            scr.toast(scr.t("ui.shared.stale"), True)

    async def back() -> None:
        cover(scr)

    def keep(key: str, text: str) -> None:
        scr.local[key] = text

    async def enter_pin(seat: int, pin: Any) -> None:
        scr.local.pop(f"pin:{seat}", None)  # (a wrong PIN is typed again from nothing)
        await try_pin(scr, seat, gen, pin)

    async def set_pin(seat: int, pin: str) -> None:
        if state(scr).seat != seat:
            return
        if await scr.request({"op": "set_pin", "seat": seat, "pin": pin}) is not None:
            scr.local.pop(f"pin-new:{seat}", None)
            scr.toast(scr.t("ui.pin.set_done"))
            scr.render(force=True)
    return _shared.DeviceCalls(open_seat, back, keep, lambda: poke(scr), enter_pin, set_pin)


def device_view(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    st = state(scr)
    if st.seat is not None and st.seat in t.shared_seats() and t.state is not None:
        return seat_screen(scr, st.seat)
    if st.asking is not None and st.asking in t.shared_seats() and t.has_pin(st.asking):
        s = t.seats[st.asking]
        return _shared.pin_screen(scr.lang, st.asking, s["name"], s["colour"], scr.local.get(f"pin:{st.asking}", ""),
                                  st.wrong, device_calls(scr))
    return cover_screen(scr)


def cover_screen(scr: Screen) -> list[ft.Control]:
    """The cover: public facts only (names, colours, who has something to do)."""
    t = scr.table
    assert t is not None
    st = state(scr)
    calls = device_calls(scr)
    todo = tuple(to_do(t))
    moment = cover_moment(scr)
    c = _shared.Cover(t.phase, tuple(_shared.CoverSeat(s, t.seats[s]["name"], t.seats[s]["colour"])
                                     for s in t.shared_seats()), todo,
                      st.done if st.done and todo == st.done_for else None)  # (not "Bob is done." over
    # "Pass to Bob" a round later)
    return _shared.cover_screen(scr.lang, c, moment, calls)


def public_moment(scr: Screen) -> Any:
    t = scr.table
    if t is None or t.state is None or t.phase == "lobby":
        return None
    from companion.ui.views import display as _display
    ctx = scr.ctx(host_view=True)  # (role "shared": no seat, not the host – the public view)
    return _display.public_moment(ctx, _display.game_display(ctx))


def cover_moment(scr: Screen) -> list[ft.Control]:
    """The last reveal on the cover (issue 29.5), public facts only: the display's public moment –
    the cards turning, then the table's outcome – never a seat's own line. Played like a phone's
    (views/moment.py): only a reveal that happens while the device is open, once (not again when
    the cover comes back after a seat's screen)."""
    m = public_moment(scr)
    st = state(scr)
    seen = st.moment_seen
    if seen is _moment.UNSEEN:  # the moment there when the device first drew: not played
        st.moment_seen = seen = m.key if m is not None else None
    if m is None or m.key == seen:
        return []
    if m.yours:  # (public: never a seat's line)
        m = replace(m, yours="")
    from companion.ui import flet_fast
    return _shared.cover_moment(scr.lang, m, flet_fast.rendering())


def seat_screen(scr: Screen, seat: int) -> list[ft.Control]:
    """An uncovered seat: its own game screen, "Done – cover" above and below it."""
    t = scr.table
    assert t is not None
    s = t.seats[seat]
    m = public_moment(scr)  # a seat opened after a reveal: the cover does not play it again
    state(scr).moment_seen = m.key if m is not None else None
    ctx = DeviceContext(scr, seat)
    mod = game_screens(t.game_id)
    show = mod.result if t.phase == "ended" and hasattr(mod, "result") else mod.phone
    try:
        game = show(ctx)
    except Exception:  # a drawing problem never takes the screen down
        game = _shared.render_error(scr.lang)
    calls = device_calls(scr)
    pin_card = ([] if t.has_pin(seat) or t.phase == "ended"
                else _shared.set_pin_card(scr.lang, seat, scr.local.get(f"pin-new:{seat}", ""), calls))
    return _shared.seat_screen(scr.lang, s["name"], s["colour"], game, pin_card, calls)


def denied(scr: Screen) -> list[ft.Control]:
    return _shared.denied(scr.lang)


# ---------- the host opens the device ----------

async def show_device_link(scr: Screen, e: Any = None) -> None:
    """Host only: a one-time QR code and link (10 minutes) that makes a browser the table's shared
    device – on another device, or on this computer in a new tab."""
    t = scr.table
    if t is None or scr.role != "host" or not t.is_host(scr.token):
        return

    def used() -> None:
        async def gone() -> None:
            try:
                scr.page.pop_dialog()
            except Exception:
                pass
            scr.toast(scr.t("ui.shared.opened"))
        contextvars.copy_context().run(scr.page.run_task, gone)
    url = f"{scr.server.join_base}/shared/{t.code}?d={scr.server.device_ticket(t.code, used)}"
    dlg = _shared.device_link_dialog(scr.lang, url, lambda: scr.page.pop_dialog())
    try:
        scr.page.show_dialog(dlg)
    except RuntimeError:
        pass
