"""What a session shows, and when it draws again.

`Screen` is a `Session` (companion/ui/session.py: storage, route, tokens, presence, language, the
table it follows) that draws the views of companion/ui/views/ (home, host, phone, spectator,
join) in one root Flet component, `Root`. Every request goes through `Table.request`, which
checks the host key or seat token.

What is drawn again is decided by Flet: the fixed parts of each view are Flet components of
immutable props (kit.component – the language, the table's code, a seat's name…), passed over
when their props are equal; so are the game modules' parts (props frozen from the view).
Two checks are the screen's own, both comparing frozen dataclasses of props: `Shown` (role,
language, the table's version, its seats, this seat…) says whether anything changed at all, and
`Frame` whether anything outside the game's part and the seat list did. When only those two
changed, a change at the table is drawn in two steps on every screen of the table – the game's
part first (a reveal), the seat list (or only its rows that changed) after every screen's first
step – through kit.Slot. benchmarks/fanout.py shows why: without the slots every screen draws
its whole frame again, and a reveal at a table of 6 phones + host took p95 24.4 ms instead of
13.1 ms (server CPU 19.4 instead of 14.7 ms) on this machine (issue 16.3).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import flet as ft

from companion.ui import assemble as _assemble
from companion.ui import kit
from companion.ui import sound as _sound
from companion.ui.assemble import for_shared as _shared
from companion.ui.kit import UiContext
from companion.ui.session import RELOAD, TICKET_SECONDS, Server, Session  # noqa: F401 (re-exported)
from companion.ui.sessions import delete_now
from companion.ui.views import moment as _moment
from companion.ui.views.common import undo_words  # noqa: F401 (re-exported)
from companion.ui.views.host import qr_base64, qr_png  # noqa: F401 (re-exported)
from companion.ui.views.seats import SeatSection  # noqa: F401 (re-exported)


@dataclass(frozen=True, slots=True)
class Shown:
    """What a session's screen shows, as immutable props: the table by its version (a counter the
    table bumps with every stored entry), not by its view – a screen whose view did not change gets
    past this check and then finds its parts unchanged. Equal props, nothing to draw (render)."""

    role: str
    lang: str
    error: str | None = None
    tables: tuple[tuple[str, str, str, bool], ...] = ()  # the home screen's list of tables
    code: str | None = None
    version: int = -1
    seats: tuple[tuple[str, str, str], ...] = ()  # name, colour, status (Table.public_seats)
    seat: int | None = None
    spectators: tuple[str, ...] | None = None  # (the host's screen offers them seats)
    spectating: bool = False


@dataclass(frozen=True, slots=True)
class Frame:
    """All that a screen shows outside its two slots (the game's part, the seat list) depends on.

    When it is unchanged, a change at the table redraws the slots only (render). Kept on the
    generous side: anything here that changes just redraws the whole screen."""

    role: str
    lang: str
    error: str | None
    finding: bool
    code: str | None = None
    game_id: str | None = None
    phase: str | None = None
    seat: int | None = None
    token: str | None = None
    token_seat: int | None = None
    spectating: bool = False
    people: tuple[tuple[str, str], ...] = ()
    can_reveal: bool | None = None
    other_bases: tuple[str, ...] = ()
    has_state: bool = False
    shared: tuple[int, ...] = ()  # the seats played on the shared device (issue 29)
    host_moves: int = 0
    last_undo: dict[str, Any] | None = None  # (the table replaces it, never changes it)


@ft.observable
class Drawn:
    """How many times the screen asked to be drawn whole: a change re-renders Root (its prop)."""

    frames = 0


@dataclass
class Slots:
    """The parts of a screen drawn in slots of their own (kit.Slot): a change at the table redraws
    them alone when the frame around them is unchanged (Screen.render). The views draw into them."""
    game: kit.Slot = field(default_factory=kit.Slot)  # the game's part: redrawn first
    seats: kit.Slot = field(default_factory=kit.Slot)  # the seat list
    rows: dict[int, kit.Slot] = field(default_factory=dict)  # each seat's row in it
    turn: kit.Slot = field(default_factory=kit.Slot)  # a phone's "your turn" banner
    display: kit.Slot = field(default_factory=kit.Slot)  # the table display (views/display.py)
    controls: kit.Slot = field(default_factory=kit.Slot)  # the host's buttons in play


@dataclass
class Parts:
    """What the frame being built holds, as the views say while they draw it (a new one each frame):
    Screen.render redraws these parts on their own after a change at the table."""
    game: bool = False  # the game's part, in its slot (assemble.game_live)
    seats: bool = False  # the seat list (assemble.seat_part) ...
    seats_host: bool = False  # ... the host's, with its buttons
    display: bool = False  # the table display (assemble.display_live) ...
    display_host: bool = False  # ... beside the host's panel
    full: bool = False  # the body fills the window (no page scroll): the display's layouts


class Screen(Session):
    """What a session shows: the home, host, phone, spectator and join screens (companion/ui/views/)."""

    def __init__(self, page: ft.Page, server: Server) -> None:
        super().__init__(page, server)
        self._sig: Shown | None = None
        self._drawn = Drawn()
        self.slots = Slots()  # the parts redrawn on their own (see render): new ones for each address
        self.seats_shown: Any = b""  # what the seat list showed around its rows when last drawn whole (views/seats.py)
        self.turn_was: bool | None = None  # whether it was this seat's turn at the last change (assemble.feel_turn)
        self.parts = Parts()  # what the frame being built holds: the views say so as they draw it
        self._frame: Frame | None = None  # what the screen's frame (all but the two slots) showed when last built
        self.join_field: ft.TextField | None = None  # the join screen's name field, as last drawn (views/join.py)
        self.seen = _moment.Seen()  # the reveals its moments have seen (views/moment.py): new for each address
        self.shared = _shared.Shared()  # the shared device's cover (assemble/for_shared.py)
        self.sound = _sound.Chime()  # its reveal chime: on or off, the last reveal chimed for (ui/sound.py)
        self._width_class = 0

    def mount(self) -> None:
        self.page.on_resize = self._resized
        self.page.render(Root, self, self._drawn)

    async def _resized(self, e: Any) -> None:
        """The display is laid out for the window's width: drawn again when it changes much."""
        w = round(float(getattr(self.page, "width", None) or 0) / 160)
        if w != self._width_class:
            self._width_class = w
            if self.parts.display:
                self.render(force=True)

    def _new_route(self) -> None:
        self.slots = Slots()
        self.seen = _moment.Seen()  # (the first moment at another table, or at a rematch, is not played)

    async def redraw(self) -> None:
        """For game screens: redraw after a change of ctx.local (a selection on this phone)."""
        self.render(force=True)

    def _on_disconnect(self, e: Any) -> None:
        """The shared device covers itself when its socket goes (a reload, a sleeping screen) and
        its session ends: whatever comes back is a new session on the cover, which has never held
        a private screen (views/shared.py). (Flet would otherwise send a returning tab the page as
        the session held it; and an old socket's late disconnect can hit the session the reload
        just took over, which then draws nothing more.)"""
        if self.role == "shared":
            _shared.cover(self, redraw=False)
            self._draw_now()
        super()._on_disconnect(e)
        if self.role == "shared":
            delete_now(self.page.session)

    def _draw_now(self) -> None:
        """Build the whole screen again at once, not at Flet's next update: after a disconnect
        Flet drops scheduled updates, and a reload gets the page as the tree holds it then. The
        patch itself goes nowhere (no socket); the tree is what the reload is sent."""
        self._drawn.frames += 1  # (keeps the count; its scheduled update is dropped while away)
        try:
            root = self.page.views[0].controls
            root = root[0] if isinstance(root, list) else root
            root.update()
        except Exception:  # (no Flet tree: a harness without one)
            pass

    async def _lifecycle(self, e: Any) -> None:
        """The shared device's tab went to the background or its screen to sleep: covered."""
        if self.role == "shared" and str(getattr(e, "state", "")).lower().split(".")[-1] in ("hide", "pause",
                                                                                            "detach"):
            _shared.cover(self)

    def new_route(self) -> None:
        _shared.cover(self, redraw=False)
        self._new_route()

    def ctx(self, host_view: bool = False) -> UiContext:
        assert self.table is not None
        return UiContext(self.table, None if host_view else self.seat, self.token, self.lang,
                         self.role == "host", self.toast, self.local, self.redraw)

    # ---------- the views (companion/ui/views/): functions of the screen, or of what they draw as
    # the screen's side builds it (companion/ui/assemble/) ----------
    top_bar = _assemble.top_bar
    game_section = _assemble.game_section
    game_live = _assemble.game_live
    host_moves_card = _assemble.host_moves_card
    undo_words = _assemble.undo_words_of
    undo_card = _assemble.undo_card
    confirm = _assemble.confirm
    home = _assemble.home
    old_tables = _assemble.old_tables
    join_box = _assemble.join_box
    create_form = _assemble.create_form
    host = _assemble.host
    can_reveal = _assemble.can_reveal
    host_controls = _assemble.host_controls
    rematch_part = _assemble.rematch_part
    show_host_link = _assemble.show_host_link
    host_in_play = _assemble.host_in_play
    submitted_sets = _assemble.submitted_sets
    seat_section = _assemble.seat_section
    seat_part = _assemble.seat_part
    phone = _assemble.phone
    leave_seat = _assemble.leave_seat
    spectator = _assemble.spectator
    typed_name = _assemble.typed_name
    join_name_field = _assemble.join_name_field
    join_screen = _assemble.join_screen
    join_error = _assemble.join_error

    # ---------- rendering ----------
    def _signature(self) -> Shown:
        t = self.table
        if t is None:
            return Shown(self.role, self.lang, self.error,
                         tuple((m.code, m.game, m.phase, m.archived) for m in self.hub.metas()))
        seats = tuple((s["name"], s["colour"], t.seat_status(i)) for i, s in enumerate(t.seats))
        return Shown(self.role, self.lang, code=t.code, version=t.version, seats=seats,
                     seat=self.seat, spectators=tuple(t.spectators.values()) if self.role == "host" else None,
                     spectating=self.token is not None and t.is_spectator(self.token))

    def render(self, force: bool = False) -> None:
        """Ask for a new frame if what this session shows has changed (or when forced).

        The tree is built by `build()` inside a Flet component, so Flet diffs it against the
        previous frame and sends only what changed; controls keep their identity, so a tap
        that lands during an update is not lost. A change at the table is drawn in two steps on
        every screen: the game's part first (a reveal), then the rest – only the seat list (or
        only its rows that changed) when the screen's frame around the two is unchanged, else
        the whole screen. The second step is queued (call_soon) behind the first steps of the
        table's other screens, which the same change has already queued.
        """
        if self.role == "shared":  # the shared device: a seat that is done is covered (views/shared.py)
            _shared.before_render(self)
        sig = self._signature()
        if not force and sig == self._sig:
            return
        self._sig = sig
        _assemble.feel_turn(self)  # the phone's title (and buzz) when its turn begins or ends
        _sound.after_change(self)  # a chime at a new reveal, where the screen's sound is on (ui/sound.py)
        if force or not self.parts.game:
            self._bump()
            return
        section = self.game_section()
        if section is not None and section[0] != self.slots.game.shown and not self.slots.game.redraw(*section):
            self._bump()  # the game's part is not on screen (yet): the whole screen
            return
        _assemble.redraw_turn(self)  # the banner comes or goes with the game's part
        _assemble.redraw_controls(self)  # the host's buttons in play (a reveal takes "Reveal now" away)
        if not _assemble.redraw_display(self):  # the table display, where the screen shows it
            self._bump()
            return
        if self._frame_signature() == self._frame and (self.parts.seats or self.parts.full):
            if self.parts.seats:  # (the host's display in play shows the seat list in its admin panel only)
                asyncio.get_running_loop().call_soon(self._redraw_seats)
        else:
            asyncio.get_running_loop().call_soon(self._bump)

    def _redraw_seats(self) -> None:
        """The seat list again if it changed: only the rows that changed when all around them
        is unchanged (a seat chose, locked or woke up: one row on each screen), else the list."""
        if self.table is None or not self.parts.seats:  # the screen has changed since
            return
        seats = self.seat_section(self.parts.seats_host)
        if seats.sig == self.slots.seats.shown:
            return
        if seats.around == self.seats_shown and len(seats.rows) == len(self.slots.rows):
            slots = self.slots.rows
            if all(slots[i].on_screen() for i in range(len(seats.rows))):
                for i, (sig, fn) in enumerate(seats.rows):
                    if sig != slots[i].shown:
                        slots[i].redraw(sig, fn)
                self.slots.seats.brought_up_to(seats.sig, seats.build)
                return
        if not self.slots.seats.redraw(seats.sig, seats.build):
            self._bump()

    def _frame_signature(self) -> Frame:
        t = self.table
        if t is None:
            return Frame(self.role, self.lang, self.error, self.finding)
        return Frame(self.role, self.lang, self.error, self.finding, t.code, t.game_id, t.phase, self.seat,
                     self.token, t.seat_of(self.token), self.token is not None and t.is_spectator(self.token),
                     tuple((s["name"], s["colour"]) for s in t.seats),
                     # (in play the host's buttons are a slot of their own: assemble.controls_live)
                     self.can_reveal() if self.role == "host" and not self._in_play() else None,
                     tuple(self.server.other_bases),
                     t.state is not None, tuple(t.shared_seats()), len(t.host_moves), t.last_undo)

    def _in_play(self) -> bool:
        """The host's screen in play: the display and the host's panel (assemble.host_in_play)."""
        t = self.table
        return t is not None and t.phase == "playing" and t.state is not None

    def _bump(self) -> None:
        """The whole screen again: Root, subscribed by Flet to `_drawn`, is drawn again."""

        self._drawn.frames += 1

    def build(self) -> ft.Control:
        body: list[ft.Control]
        self.parts = Parts()
        self._frame = self._frame_signature()
        try:
            if self.role == "loading":
                body = [ft.Container(ft.ProgressRing(), padding=40, alignment=ft.Alignment.CENTER)]
            elif self.role == "home":
                body = self.home()
            elif self.role == "history":
                body = _assemble.history_page(self)
            elif self.role == "join_error":
                body = self.join_error()
            elif self.role in ("host", "watch"):
                body = self.host()
            elif self.role == "display":
                body = _assemble.display_page(self)
            elif self.role == "display_denied":
                body = _assemble.display_denied(self)
            elif self.role == "shared":
                body = _shared.device_view(self)
            elif self.role == "shared_denied":
                body = _shared.denied(self)
            else:
                body = self.phone()
        except Exception as ex:  # never leave a blank screen
            body = [kit.card(ft.Text(self.t("ui.err.render"), size=18, color=ft.Colors.RED_700),
                             ft.Text(type(ex).__name__, size=12))]
        top = self.top_bar()
        if self.parts.full:  # the host's display and panel: each scrolls on its own, the window does not
            return ft.SafeArea(content=ft.Column(
                [top, ft.Container(content=body[0], expand=True, padding=ft.Padding.symmetric(horizontal=14, vertical=8))],
                spacing=0, expand=True, key=f"page:{urlparse(self._route).path}"), expand=True)
        return ft.SafeArea(content=ft.Column(
            [top, ft.Container(content=ft.Column(body, spacing=14),
                                          padding=ft.Padding.symmetric(horizontal=14, vertical=8))],
            spacing=0, scroll=ft.ScrollMode.AUTO, expand=True, key=f"page:{urlparse(self._route).path}"),
            expand=True)


@ft.component
def Root(screen: Screen, drawn: Drawn) -> ft.Control:
    """The one component of a session. `drawn` is an ft.observable: Flet subscribes the component
    to it and draws it again when the screen counts it up (_bump)."""
    return screen.build()


async def session_main(page: ft.Page, server: Server) -> None:
    screen = Screen(page, server)
    page.data = screen
    await screen.start()
