"""What a browser connection is: one `Session` per Flet session (a tab on a phone or the host).

It owns what does not depend on what is drawn: start-up (the boot hint, the browser's storage
asked once: companion/ui/storage.py), routing (`/`, `/t/CODE`, `/host/CODE`), the seat token or
host key and where it came from (companion/ui/credentials.py), presence at the table (connect /
disconnect: companion/ui/presence.py), the language, the table it follows
(subscribed to its changes), and its lifetime (a session that never sat is let go soon after
its socket dropped: companion/ui/sessions.py). What it shows is the screen's
(companion/ui/screens.py `Screen`, the views in companion/ui/views/): the session calls
`render(force)` when what it knows has changed, `mount()` to draw the first frame, and
`new_route()` when the address changes.
"""

from __future__ import annotations

import asyncio
import contextvars
import secrets
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import flet as ft

from companion import i18n
from companion.games.base import RuleError
from companion.join_page import LOOKS, JoinLimit, PageJoins
from companion.table.hub import Hub, follow_up, normalise_code
from companion.table.store import StoreError
from companion.table.table import Table
from companion.ui import boot
from companion.ui.credentials import RELOAD, Credentials
from companion.ui.presence import Presence
from companion.ui.sessions import session_closed
from companion.ui.storage import Storage


class Server:
    """Server-wide things a screen needs: the hub and the addresses phones can reach."""

    def __init__(self, hub: Hub, join_base: str, other_bases: list[str] | None = None,
                 data_problem: str | None = None, host_addresses: tuple[str, ...] | None = None) -> None:
        self.hub = hub
        self.join_base = join_base.rstrip("/")
        self.other_bases = [b.rstrip("/") for b in (other_bases or [])]
        self.data_problem = data_problem
        # The home screen (create a table, the list of tables) is the host's: it is offered to a
        # browser on the machine the server runs on (its connection's own address is loopback, or
        # one of `host_addresses`), never by anything the browser says of itself.
        self.host_addresses = host_addresses
        self._tickets = Tickets()  # "host on another device"
        # seats taken on a page's HTML join screen, for that page's session (companion/join_page.py)
        self.joins = PageJoins()
        self.join_limit = JoinLimit()
        self.seat_looks = JoinLimit(tries=LOOKS)
        self._device_tickets = Tickets()  # "open the shared device"

    def join_url(self, code: str) -> str:
        return f"{self.join_base}/t/{code}"

    def is_host_machine(self, conn: boot.Conn) -> bool:
        if self.host_addresses is not None:
            return conn.client in self.host_addresses
        return boot.is_loopback(conn.client)

    def host_ticket(self, code: str, on_used: Callable[[], None] | None = None) -> str:
        """A one-time ticket that lets another device become host of table `code` (10 minutes);
        `on_used` is called when a device takes it (the host screen that showed it says so)."""
        return self._tickets.make(code, on_used)

    def redeem_ticket(self, code: str, ticket: Any) -> bool:
        """True once for a ticket made for `code` that has not expired; it is used up either way."""
        return self._tickets.redeem(code, ticket)

    def device_ticket(self, code: str, on_used: Callable[[], None] | None = None) -> str:
        """A one-time ticket that makes a browser the shared device of table `code` (pass-and-play,
        issue 29; 10 minutes). Kept apart from the host tickets: it never makes a host."""
        return self._device_tickets.make(code, on_used)

    def redeem_device_ticket(self, code: str, ticket: Any) -> bool:
        """True once for a shared-device ticket made for `code` that has not expired; used up either way."""
        return self._device_tickets.redeem(code, ticket)


class Tickets:
    """One-time tickets of one kind: each for one table, good for TICKET_SECONDS, used up when shown."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[str, float, Callable[[], None] | None]] = {}  # ticket -> code, until, on_used

    def make(self, code: str, on_used: Callable[[], None] | None = None) -> str:
        now = time.monotonic()
        self._open = {k: v for k, v in self._open.items() if v[1] > now}
        ticket = secrets.token_urlsafe(12)
        self._open[ticket] = (code, now + TICKET_SECONDS, on_used)
        return ticket

    def redeem(self, code: str, ticket: Any) -> bool:
        if not isinstance(ticket, str):
            return False
        found = self._open.pop(ticket, None)
        ok = found is not None and found[0] == code and found[1] > time.monotonic()
        if ok and found is not None and found[2] is not None:
            try:
                found[2]()
            except Exception:  # (the screen that showed it may be gone)
                pass
        return ok


TICKET_SECONDS = 600.0


class Session(Credentials, Presence, Storage):
    """One browser connection: storage, route, token, presence, language, the table it follows."""

    def __init__(self, page: ft.Page, server: Server) -> None:
        self.page = page
        self.server = server
        self.hub = server.hub
        # What the server knows of this browser's connection itself (never page.client_ip, which
        # the client can overwrite): its address and the host-key cookies of its handshake.
        self.conn = boot.conn()
        self.launcher: ft.UrlLauncher | None = None
        self._prefs: ft.SharedPreferences | None = None  # made when first used (`prefs`)
        self.lang = "en"
        self.role = "loading"
        self.table: Table | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.local: dict[str, Any] = {}  # what this screen keeps between frames (typed text, picks)
        self.error: str | None = None
        self._present = False
        self._pending = False
        self._route = ""
        self._pushed: str | None = None  # an address route() put the token into itself
        self._prefetched: dict[str, Any] = {}  # answers asked for at start, used once
        self._background: set[asyncio.Future[Any]] = set()
        self._finding = False  # the browser's storage has not answered yet: the seat is unknown
        self._asks: set[asyncio.Future[Any]] = set()  # storage reads not answered yet
        self._defer_go = False  # start() draws the first screen itself, then moves to `_deferred`
        self._stored: dict[str, Any] = {}  # what the browser's storage is known to hold (boot cookie)
        self._deferred: str | None = None
        self._page_id: str | None = None  # the id of the page this session draws (boot cookie), for its HTML join screen
        self._up = asyncio.Event()  # start() has drawn the first screen

    # ---------- what the screen provides ----------
    def render(self, force: bool = False) -> None:
        """Draw again what changed (force: draw the whole screen)."""

    def mount(self) -> None:
        """Draw the first frame (the screen's root component)."""

    def new_route(self) -> None:
        """The address changed: forget what the screen kept for the last one."""

    # ---------- life cycle ----------
    async def start(self) -> None:
        p = self.page
        p.title = "Tabletop Companion\u200b"  # (its invisible last character: the reveal chime's, ui/sound.py)
        p.theme_mode = ft.ThemeMode.LIGHT
        p.theme = ft.Theme(color_scheme_seed="#8d5524")
        p.padding = 0
        p.on_route_change = self._on_route
        p.on_disconnect = self._on_disconnect
        p.on_connect = self._on_connect
        p.on_close = self._on_close
        parts = [q for q in urlparse(p.route or "/").path.split("/") if q]
        token_key = None
        if len(parts) >= 2 and parts[0] in ("t", "host", "shared"):
            kind = {"t": "seat", "host": "host", "shared": "shared"}[parts[0]]
            token_key = f"{kind}:{normalise_code(parts[1]) or parts[1]}"
        hint = boot.BOOT.get()
        if hint is not None and (token_key is None or hint.key == token_key):
            # What the page read from the browser's storage when it loaded (companion/ui/boot.py):
            # nothing to ask, so the whole first screen goes out in one message, then the address.
            saved: Any = hint.lang
            device_lang = hint.device_lang
            if token_key:
                self._prefetched[token_key] = hint.value
                self._stored[token_key] = hint.value
            self._defer_go = True
        else:
            # Everything the first screen needs from the browser, asked at once (one round trip,
            # not three in a row): the saved language, the device's language, this table's token.
            saved, info, token = await asyncio.gather(
                self._get("lang"), asyncio.wait_for(p.get_device_info(), 3),
                # (not asked while this address is locked out: the answer would depend on nothing
                # but the code, but a guesser is asked nothing – see route())
                self._get(token_key, late=p.route or "/")
                if token_key and not self.hub.locked_out(self.conn.client or "") else asyncio.sleep(0),
                return_exceptions=True)
            if token_key and not isinstance(token, BaseException):
                self._prefetched[token_key] = token
            device_lang = None if isinstance(info, BaseException) else getattr(info, "language", None)
        if hint is not None and hint.page:
            # This page's own HTML join screen (companion/join_page.py) may have taken a seat before
            # this session was there to hear of it: then its first screen is that seat's.
            self._page_id = hint.page
            got = self.server.joins.attach(hint.page, self)
            if got is not None and token_key == f"seat:{got[0]}":
                self._prefetched[token_key] = got[1]
                saved = got[2] or saved
        if isinstance(saved, str) and saved in i18n.LANGS:
            self.lang = saved
        else:
            self.lang = i18n.pick_lang(device_lang)
        self._follow_lang()
        if self._defer_go:
            try:
                await self.route(p.route)  # (drawn by mount() below: the screen is not mounted yet)
                self.mount()
            finally:
                self._defer_go = False
            if self._deferred is not None:
                address, self._deferred = self._deferred, None
                await self.go(address)
        else:
            # The first frame before the route: route() talks to the browser's storage, and a
            # call sent before the first frame reaches a client that has not registered the
            # storage service yet (its answer then ends the socket: "Control with ID N is not
            # registered").
            self.mount()
            await self.route(p.route)
        self._prefetched.clear()
        self._stored.clear()  # (only known for this first look: another tab may store since)
        self._up.set()

    def seated_by_page(self, code: str, token: str, lang: str | None) -> bool:
        """This session's page took a seat on its HTML join screen (companion/join_page.py, called
        from the HTTP request): the session moves to it. False if it cannot be told."""
        if self._closed:
            return False
        try:
            contextvars.copy_context().run(self.page.run_task, self._seat_from_page, code, token, lang)
        except (AttributeError, RuntimeError):
            return False
        return True

    async def _seat_from_page(self, code: str, token: str, lang: str | None) -> None:
        """Show the seat the page took – once the first screen is drawn, if this session still shows
        that table's join address and has not found the seat itself meanwhile."""
        try:
            await asyncio.wait_for(self._up.wait(), 30)
        except TimeoutError:
            return
        parts = [q for q in urlparse(self._route or "/").path.split("/") if q]
        if self._closed or len(parts) < 2 or parts[0] != "t" or normalise_code(parts[1]) != code:
            return
        if self.token == token and self.seat is not None:
            return
        if lang in i18n.LANGS and lang != self.lang:
            self.lang = lang  # (what the page showed; the page stored it)
            self._follow_lang()
        address = f"/t/{code}?s={token}"
        await self.route(address)
        self._pushed = address
        await self.go(address)

    async def _on_route(self, e: Any) -> None:
        if e.route == self._pushed and urlparse(e.route).path == urlparse(self._route).path:
            # The address this screen just put its own token into (route(), below): the
            # screen already shows it; drawing it again would rebuild it on the phone for nothing.
            self._pushed = None
            self._route = e.route
            return
        self._pushed = None
        await self.route(e.route)

    async def _on_connect(self, e: Any) -> None:
        """A reload or a woken phone reuses this session: count it present and redraw – or, if
        this screen lost track of whose it is (its storage did not answer), look again."""
        conn = boot.conn()
        if conn.client is not None:  # (the new socket's own: a reload may bring a new host cookie)
            self.conn = conn
        self._dropped = False
        self._keep()
        hint = boot.BOOT.get()
        if hint is not None and hint.page and hint.page != self._page_id:  # a new page (a reload)
            self.server.joins.detach(self._page_id, self)
            self._page_id = hint.page
            got = self.server.joins.attach(hint.page, self)
            if got is not None:  # its HTML join screen took a seat before this socket was there
                if self.table is not None:
                    self.table.subscribe(self._changed, first=self.role == "shared")
                await self._seat_from_page(*got)
                return
        if self.table is not None:
            self.table.subscribe(self._changed, first=self.role == "shared")  # redrawn again after every change
        if self.table is not None and follow_up(self.table) and self.role in ("phone", "shared", "display") \
                and self.token is not None:
            await self._follow(self.table, follow_up(self.table))  # a rematch while it slept
            return
        if self.table is not None and self.token is None and self.role in ("phone", "watch"):
            await self.route(self._route)
            return
        if self.table is not None and not self._present and self.role == "phone" and self.token is not None:
            self._count_in(self.table)
        self.render(force=True)

    _closed = False  # Flet closed this session: it follows no table any more
    _finding_timer: asyncio.TimerHandle | None = None

    def _on_close(self, e: Any) -> None:
        """Flet ended this session: nothing of it may hold the screen any longer (a burst of dropped
        tabs otherwise keeps each one's screen for the 5 + 15 s of an unanswered storage read)."""
        self._closed = True
        self.server.joins.detach(self._page_id, self)
        self._keep()
        if self._finding_timer is not None:
            self._finding_timer.cancel()
            self._finding_timer = None
        for fut in list(self._asks):
            fut.cancel()
        self._leave_table()
        session_closed()  # a burst of closed sessions is followed by a full collection

    def _leave_table(self) -> None:
        if self.table is not None:
            self.table.unsubscribe(self._changed)
            self._count_out(self.table)
        self.table = None
        self.seat = None

    def _changed(self, table: Table) -> None:
        """Called by the table after every change: re-render in this session's task."""
        if self._closed or not self._online():  # asleep: off the table's list, re-rendered on reconnect
            self._away_from(table)
            return
        if follow_up(table) and table is self.table and self.role in ("phone", "shared", "display") \
                and self.token is not None:
            # A rematch (Hub.rematch): this phone's seat token (the display's host key) works at the
            # new table; on it goes.
            contextvars.copy_context().run(self.page.run_task, self._follow, table, follow_up(table))
            return
        if self._pending:
            return
        self._pending = True
        try:
            # run_task() sets Flet's "current page" in the caller's context; run it in a copy so
            # the session that caused the change keeps its own page (else its own update is lost).
            fut = contextvars.copy_context().run(self.page.run_task, self._refresh)
        except (AttributeError, RuntimeError):
            self._pending = False
            return
        # A refresh that never ran (its task cancelled, or it failed before clearing the flag) must
        # not keep this screen from every later change: the flag goes when the task ends, however.
        fut.add_done_callback(self._refresh_done)

    async def _follow(self, table: Table, code: str) -> None:
        """Move this phone to the table that followed `table`, with its seat (the same token)."""
        if self.table is not table or self.token is None:
            return
        if self.role == "shared":  # the shared device keeps its token at the rematch (Hub.rematch)
            address = f"/shared/{code}"
            await self.save(f"shared:{code}", self.token)
            self._prefetched[f"shared:{code}"] = self.token
        elif self.role == "display":  # the display (/display/CODE) keeps the host's key (Hub.rematch)
            nxt = self.hub.get(code)
            if nxt is None or not nxt.is_host(self.token):
                return
            address = f"/display/{code}"  # (the key never goes into the display's address)
            await self.save(f"host:{code}", self.token)
            self._prefetched[f"host:{code}"] = self.token  # (route() finds it without asking the browser)
        else:
            address = f"/t/{code}?s={self.token}"
            await self.save(f"seat:{code}", self.token)
        await self.route(address)
        self._pushed = address
        await self.go(address)

    def _refresh_done(self, fut: Any) -> None:
        self._pending = False

    async def _refresh(self) -> None:
        self._pending = False
        self.render()

    # ---------- routing ----------
    async def route(self, route: str) -> None:
        """Show what the address asks for: the home screen, a table's host screen (`/host/CODE`)
        or a phone's (`/t/CODE`), with the key or seat token from the address or storage."""
        self._route = route
        url = urlparse(route or "/")
        parts = [p for p in url.path.split("/") if p]
        query = parse_qs(url.query)
        self._leave_table()
        self.new_route()
        self.local = {}
        self.error = None
        self.token = None
        if len(parts) >= 2 and parts[0] in ("t", "host", "display", "shared"):
            # A wrong code counts against this connection's own address; while that address is
            # locked out, every code gets the same answer before anything depends on it (no table
            # loaded, no storage asked), and only a browser that shows a credential it holds in
            # hand (host key, seat token) gets in – a right code alone does not (Hub.admit).
            try:
                table = self.hub.admit(parts[1], self.conn.client or "",
                                       self._in_hand(parts[0], normalise_code(parts[1]), query))
            except RuleError as e:
                self.role = "join_error"
                self.error = self.t(e.key, **e.params)
                self.render(force=True)
                return
            self.table = table
            if parts[0] == "shared":  # the shared device (pass-and-play, issue 29: views/shared.py)
                address = await self._shared_key(table, query)
                if self.role != "shared":
                    self._leave_table()
                    self.render(force=True)
                    return
            elif parts[0] == "display":
                if not await self._display_key(table):
                    self._leave_table()
                    self.render(force=True)
                    return
                if follow_up(table):  # a display opened (or reloaded) on a table that was played again
                    await self._follow(table, follow_up(table))
                    return
                address = None
            elif parts[0] == "host":
                address = await self._host_token(table, query, route)
                if address == RELOAD:
                    return
            else:
                address = await self._seat_token(table, query, route)
            if self._closed:  # the session ended while storage was asked: nothing to follow
                self._leave_table()
                return
            table.subscribe(self._changed, first=self.role == "shared")  # (the device: Table.subscribe)
            if address is not None and self.token is not None and (
                    self.seat is not None or table.is_spectator(self.token) or self.role == "shared"):
                # Found in storage only: put it into the address as well, so a session Flet
                # re-creates after a server restart (storage dead, Flet #6412) still finds it.
                self.render(force=True)
                self._pushed = address
                if self._defer_go:  # start(): after the first frame, which is not drawn yet
                    self._deferred = address
                else:
                    await self.go(address)
                return
        elif parts == ["history"] and self.server.is_host_machine(self.conn):
            self.role = "history"  # the history page: the host's own computer only (views/history.py)
        else:
            self.role = "home"
        self.render(force=True)

    async def _lifecycle(self, e: Any) -> None:
        """The tab went to the background or the screen to sleep (the screen's to act on)."""

    async def open_page(self, address: str) -> None:
        """Load `address` in this tab as a new page (its script runs again: the host cookie is
        set from storage). A client that cannot be told to (a test harness) is moved in the app."""
        try:
            if self.launcher is None:
                self.launcher = ft.UrlLauncher()
            await asyncio.wait_for(self.launcher.launch_url(address, web_only_window_name="_self"), 5)
        except Exception:
            await self.go(address)

    async def go(self, route: str) -> None:
        try:
            await self.page.push_route(route)
        except Exception:  # the browser did not take the new address: this screen stays as it is
            pass

    # ---------- helpers ----------
    def t(self, key: str, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)

    def toast(self, message: str, error: bool = False) -> None:
        sb = ft.SnackBar(content=ft.Text(message, size=17), duration=4000,
                         bgcolor=ft.Colors.RED_700 if error else None, show_close_icon=True)
        try:
            self.page.show_dialog(sb)
        except RuntimeError:
            pass

    async def request(self, op: dict[str, Any], token: str | None = None) -> dict[str, Any] | None:
        assert self.table is not None
        try:
            return await self.table.request(token if token is not None else self.token, op)
        except (RuleError, StoreError) as e:
            self.refused(e)
        return None

    def refused(self, e: RuleError | StoreError) -> None:
        """A refusal (its own words) or a store that cannot write, said in this screen's language."""
        self.toast(self.t(e.key, **e.params) if isinstance(e, RuleError) else self.t("ui.err.store"), True)

    async def set_lang(self, lang: str) -> None:
        self.lang = lang
        self._follow_lang()
        await self.save("lang", lang)
        self.render(force=True)

    def _follow_lang(self) -> None:
        """Flutter's own words on this screen (a text field's copy/paste menu and counter, tooltips,
        screen-reader labels) in the screen's language too, not always in English."""
        self.page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(lang) for lang in i18n.LANGS], current_locale=ft.Locale(self.lang))
