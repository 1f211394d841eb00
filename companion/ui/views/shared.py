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
"""

from __future__ import annotations

import asyncio
import contextvars
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games import screens as game_screens
from companion.games.base import RuleError, to_act
from companion.table.table import Table
from companion.ui import kit, names
from companion.ui.kit import UiContext
from companion.ui.views import moment as _moment

if TYPE_CHECKING:
    from companion.ui.screens import Screen

IDLE_SECONDS = 60.0  # an uncovered seat with no tap for this long is covered again
COVER_COLOUR = "#263238"


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
                contextvars.copy_context().run(scr.page.run_task, _idle_cover, scr, gen)
            except (AttributeError, RuntimeError):
                cover(scr, redraw=False)
    st.timer = loop.call_later(IDLE_SECONDS, idle)


async def _idle_cover(scr: Screen, gen: int) -> None:
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

def device_view(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    st = state(scr)
    if st.seat is not None and st.seat in t.shared_seats() and t.state is not None:
        return seat_screen(scr, st.seat)
    if st.asking is not None and st.asking in t.shared_seats() and t.has_pin(st.asking):
        return pin_screen(scr, st.asking)
    return cover_screen(scr)


def pin_screen(scr: Screen, seat: int) -> list[ft.Control]:
    """Still the cover: the seat's name and colour, and a field for its PIN."""
    t = scr.table
    assert t is not None
    st = state(scr)
    gen = st.gen
    s = t.seats[seat]
    key = f"pin:{seat}"
    field = ft.TextField(label=scr.t("ui.pin.enter", name=i18n.seat_name(scr.lang, s["name"])), password=True,
                         max_length=4, keyboard_type=ft.KeyboardType.NUMBER, text_size=34, autofocus=True,
                         width=260, key=key, value=scr.local.get(key, ""))

    def typed(e: Any) -> None:  # kept while the table changes around it (a redraw must not clear it)
        scr.local[key] = field.value or ""
    field.on_change = typed

    async def go(e: Any) -> None:
        pin = field.value
        scr.local.pop(key, None)  # (a wrong PIN is typed again from nothing)
        await try_pin(scr, seat, gen, pin)

    async def back(e: Any) -> None:
        cover(scr)
    field.on_submit = go
    out: list[ft.Control] = [
        ft.Row([kit.seat_dot(s["colour"], 40),
                names.one_line(i18n.seat_name(scr.lang, s["name"]), 32, weight=ft.FontWeight.BOLD, expand=True)]),
        field]
    if st.wrong:
        out.append(ft.Text(st.wrong, size=22, weight=ft.FontWeight.BOLD, color=ft.Colors.RED_800))
    out.append(ft.Row([kit.button(scr.t("ui.pin.open"), go, icon=ft.Icons.LOCK_OPEN),
                       kit.button(scr.t("ui.cancel"), back, primary=False)], wrap=True, spacing=10))
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


def cover_screen(scr: Screen) -> list[ft.Control]:
    """The cover: public facts only (names, colours, who has something to do)."""
    t = scr.table
    assert t is not None
    st = state(scr)
    gen = st.gen
    shared = t.shared_seats()
    todo = to_do(t)
    out: list[ft.Control] = []

    def opener(seat: int) -> Any:
        async def tap(e: Any) -> None:
            if not uncover(scr, seat, gen) and state(scr).asking != seat:
                scr.toast(scr.t("ui.shared.stale"), True)
        return tap

    def name(seat: int) -> str:
        return i18n.seat_name(scr.lang, t.seats[seat]["name"])
    out += cover_moment(scr)
    if st.done and tuple(todo) == st.done_for:  # (not "Bob is done." over "Pass to Bob" a round later)
        out.append(ft.Row([ft.Icon(ft.Icons.CHECK_CIRCLE, color=ft.Colors.GREEN_700, size=32),
                           ft.Text(scr.t("ui.shared.done_note", name=st.done), size=22, expand=True)]))
    if not shared:
        out.append(ft.Text(scr.t("ui.shared.none"), size=26, weight=ft.FontWeight.BOLD))
    elif t.phase == "lobby":
        out.append(ft.Text(scr.t("ui.shared.lobby", names=", ".join(name(s) for s in shared)), size=28,
                           weight=ft.FontWeight.BOLD))
    elif todo:
        first = todo[0]
        out.append(_big_button(scr.t("ui.shared.pass_to", name=name(first)),
                               scr.t("ui.shared.tap_when", name=name(first)),
                               t.seats[first]["colour"], opener(first), f"uncover:{first}"))
        if len(todo) > 1:
            out.append(ft.Text(scr.t("ui.shared.then", names=", ".join(name(s) for s in todo[1:])), size=22))
    else:
        head = "ui.shared.ended" if t.phase == "ended" else "ui.shared.all_done"
        out.append(ft.Container(ft.Text(scr.t(head), size=34, weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE,
                                        text_align=ft.TextAlign.CENTER),
                                bgcolor=COVER_COLOUR, border_radius=22, alignment=ft.Alignment.CENTER,
                                padding=ft.Padding.symmetric(horizontal=20, vertical=40)))
    others = [s for s in shared if s not in todo[:1]] if t.phase != "lobby" else []
    if others:
        out.append(ft.Text(scr.t("ui.shared.look"), size=18, color=ft.Colors.ON_SURFACE_VARIANT))
        out.append(ft.Row([
            ft.OutlinedButton(content=ft.Row([kit.seat_dot(t.seats[s]["colour"], 18),
                                              ft.Text(name(s), size=20)], tight=True, spacing=8),
                              on_click=opener(s), height=56, key=f"uncover:{s}")
            for s in others], wrap=True, spacing=10, run_spacing=10))
    return out


def _public_moment(scr: Screen) -> Any:
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
    m = _public_moment(scr)
    st = state(scr)
    seen = st.moment_seen
    if seen is _moment.UNSEEN:  # the moment there when the device first drew: not played
        st.moment_seen = seen = m.key if m is not None else None
    if m is None or m.key == seen:
        return []
    if m.yours:  # (public: never a seat's line)
        m = replace(m, yours="")
    from companion.ui import flet_fast
    if not flet_fast.rendering():  # (built outside a Flet render, as a test does: the moment at its end)
        return [ft.Column([ft.Text(m.title, size=18, weight=ft.FontWeight.BOLD),
                           ft.Row([_moment.face(m, c) for c in m.cards], wrap=True),
                           *[ft.Text(x, size=18) for x in m.outcome]], tight=True)]
    return [_moment.SeatMoment(m, scr.lang, key=f"cover-moment:{m.key}")]


def seat_screen(scr: Screen, seat: int) -> list[ft.Control]:
    """An uncovered seat: its own game screen, "Done – cover" above and below it."""
    t = scr.table
    assert t is not None
    s = t.seats[seat]

    async def done(e: Any) -> None:
        cover(scr)

    def done_button(key: str) -> ft.Control:  # (keys differ: Flutter refuses two alike in one column)
        return ft.FilledButton(content=ft.Text(scr.t("ui.shared.done"), size=22, weight=ft.FontWeight.BOLD),
                               icon=ft.Icons.VISIBILITY_OFF, on_click=done, height=64, width=10_000,
                               key=key)
    m = _public_moment(scr)  # a seat opened after a reveal: the cover does not play it again
    state(scr).moment_seen = m.key if m is not None else None
    ctx = DeviceContext(scr, seat)
    mod = game_screens(t.game_id)
    show = mod.result if t.phase == "ended" and hasattr(mod, "result") else mod.phone
    try:
        game = show(ctx)
    except Exception:  # a drawing problem never takes the screen down
        game = [ft.Text(scr.t("ui.err.render"), size=18, color=ft.Colors.RED_700)]
    header = ft.Row([kit.seat_dot(s["colour"], 30),
                     names.one_line(scr.t("ui.shared.screen_of", name=i18n.seat_name(scr.lang, s["name"])), 26,
                                    weight=ft.FontWeight.BOLD, expand=True)], spacing=10)
    return [header, done_button("cover"), *game, done_button("cover-end"), *set_pin_card(scr, seat)]


def set_pin_card(scr: Screen, seat: int) -> list[ft.Control]:
    """A seat without a PIN: its player may set one (4 digits), here behind the cover."""
    t = scr.table
    if t is None or t.has_pin(seat) or t.phase == "ended":
        return []
    key = f"pin-new:{seat}"
    field = ft.TextField(label=scr.t("ui.pin.new"), password=True, max_length=4, value=scr.local.get(key, ""),
                         keyboard_type=ft.KeyboardType.NUMBER, text_size=24, width=200, key=key)

    def typed(e: Any) -> None:
        scr.local[key] = field.value or ""
        poke(scr)
    field.on_change = typed

    async def set_it(e: Any) -> None:
        if state(scr).seat != seat:
            return
        pin = (field.value or "").strip()
        if await scr.request({"op": "set_pin", "seat": seat, "pin": pin}) is not None:
            scr.local.pop(key, None)
            scr.toast(scr.t("ui.pin.set_done"))
            scr.render(force=True)
    field.on_submit = set_it
    return [kit.card(ft.Text(scr.t("ui.pin.offer"), size=16),
                     ft.Row([field, kit.button(scr.t("ui.pin.set"), set_it, primary=False, icon=ft.Icons.LOCK)],
                            wrap=True, spacing=10))]


def denied(scr: Screen) -> list[ft.Control]:
    return [kit.card(ft.Text(scr.t("ui.shared.denied"), size=20), bgcolor=ft.Colors.AMBER_50)]


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
    from companion.ui.views.host import qr_base64
    url = f"{scr.server.join_base}/shared/{t.code}?d={scr.server.device_ticket(t.code, used)}"
    dlg = ft.AlertDialog(title=ft.Text(scr.t("ui.shared.open")), content=ft.Column([
        ft.Image(src=qr_base64(url), width=240, height=240, semantics_label=scr.t("ui.shared.open_qr")),
        ft.Text(scr.t("ui.shared.open_hint"), size=16),
        ft.OutlinedButton(content=scr.t("ui.shared.open_here"), url=ft.Url(url, target=ft.UrlTarget.BLANK),
                          icon=ft.Icons.OPEN_IN_NEW, height=52)], tight=True, spacing=10,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        actions=[ft.FilledButton(content=scr.t("ui.host.another_done"), on_click=lambda e: scr.page.pop_dialog())])
    try:
        scr.page.show_dialog(dlg)
    except RuntimeError:
        pass


def device_button(scr: Screen) -> ft.Control:
    async def open_it(e: Any) -> None:
        await show_device_link(scr, e)
    return kit.button(scr.t("ui.shared.open"), open_it, primary=False, icon=ft.Icons.TABLET_ANDROID)
