"""The three kinds of screen: home (create a table), host (QR code, seats, controls) and phone.

One `Screen` per browser session. It renders from the table's data whenever the table
changes (skipping the work when nothing it shows has changed) and sends every request
through `Table.request`, which checks the host or seat token.
"""

from __future__ import annotations

import asyncio
import base64
import contextvars
import functools
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlparse

import flet as ft
import qrcode

from companion import i18n
from companion.games import games
from companion.games.base import RuleError
from companion.table.hub import normalise_code, problem_text
from companion.table.store import StoreError
from companion.table.table import COLOURS, Table
from companion.ui import kit
from companion.ui.games import screens as game_screens
from companion.ui.kit import UiContext
from companion.ui.session import RELOAD, TICKET_SECONDS, Server, Session  # noqa: F401 (re-exported)


class SeatSection(NamedTuple):
    """The seat list to draw: its signature and builder, and the same cut in two – what is
    around the rows, and each row (signature, builder) – so a row can be redrawn on its own."""

    sig: bytes
    build: Callable[[], ft.Control]
    around: bytes
    rows: list[tuple[bytes, Callable[[], ft.Control]]]


@functools.lru_cache(maxsize=512)  # the host re-renders on every change: ~40 ms saved each time
def qr_png(data: str, box: int = 10) -> bytes:
    qr = qrcode.QRCode(border=2, box_size=box, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(data)
    qr.make(fit=True)
    buf = io.BytesIO()
    qr.make_image(fill_color="black", back_color="white").save(buf, format="PNG")
    return buf.getvalue()


@functools.lru_cache(maxsize=512)
def qr_base64(data: str, box: int = 10) -> str:
    """The QR code as base64 text for `ft.Image`: raw bytes do not show in WebKit and Firefox
    (shared/guide/FLET.md), and this image never needs an HTTP route (which would need the key)."""
    return base64.b64encode(qr_png(data, box)).decode("ascii")



def undo_words(table: Table, lang: str, note: dict[str, Any], ahead: bool) -> str:
    """An undo in words – before it (ahead: "This takes back: …") or after it ("The host undid: …")
    – from Table.undo_preview: the public log lines the action added or, where it showed the table
    nothing, only whose it was (never what: "a private action of Bob")."""
    pre = "ui.undo." if ahead else "ui.undone."
    if note.get("reopen"):
        return i18n.t(lang, pre + "reopen")
    seat = note.get("seat")
    name = table.seats[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(table.seats) else None
    msgs = note.get("msgs") or []
    if msgs and table.state is not None:
        ctx = UiContext(table, None, None, lang, True, lambda *a: None, {}, lambda: None)
        return i18n.t(lang, pre + "public", what=" ".join(ctx.msg(m) for m in msgs))
    if name is None:
        return i18n.t(lang, pre + "host")
    return i18n.t(lang, pre + "private", name=name)

class Screen(Session):
    """What a session shows: the home, host, phone, spectator and join screens (companion/ui/views/)."""

    def __init__(self, page: ft.Page, server: Server) -> None:
        super().__init__(page, server)
        self._sig = b""
        self._tick = 0
        self._set_tick: Any = None
        self._slot = kit.Slot()  # the game's part of the screen: redrawn first (see render)
        self._slot_in_tree = False
        self._seat_slot = kit.Slot()  # the seat list: redrawn on its own too
        self._row_slots: dict[int, kit.Slot] = {}  # each seat's row in it: redrawn on its own
        self._seats_shown = b""  # what the seat list showed around its rows when last drawn whole
        self._seats_in_tree = False
        self._seats_host = False
        self._frame = b""  # what the screen's frame (all but the two slots) showed when last built
        self._join_field: ft.TextField | None = None

    def mount(self) -> None:
        self.page.render(Root, self)

    def new_route(self) -> None:
        self._slot = kit.Slot()
        self._seat_slot = kit.Slot()
        self._row_slots = {}

    async def _force_refresh(self) -> None:
        """For game screens: redraw after a change of ctx.local (a selection on this phone)."""
        self.render(force=True)


    def ctx(self, host_view: bool = False) -> UiContext:
        assert self.table is not None
        return UiContext(self.table, None if host_view else self.seat, self.token, self.lang,
                         self.role == "host", self.toast, self.local, self._force_refresh)


    # ---------- rendering ----------
    def _signature(self) -> bytes:
        t = self.table
        if t is None:
            return kit.signature(self.role, self.lang, self.error,
                                 [(m.code, m.game, m.phase, m.archived) for m in self.hub.metas()])
        # The table's state by its version (every stored entry counts it up), not by the view:
        # a screen whose view did not change gets past this check and then finds its parts
        # unchanged (render); marshalling the view here cost as much again as the parts' own.
        return kit.signature(self.role, self.lang, t.code, t.version, t.public_seats(), self.seat,
                             list(t.spectators.values()) if self.role == "host" else None,
                             self.token is not None and t.is_spectator(self.token))

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
        sig = self._signature()
        if not force and sig == self._sig:
            return
        self._sig = sig
        if force or not self._slot_in_tree:
            self._bump()
            return
        section = self.game_section()
        if section is not None and section[0] != self._slot.shown and not self._slot.redraw(*section):
            self._bump()  # the game's part is not on screen (yet): the whole screen
            return
        if self._seats_in_tree and self._frame_signature() == self._frame:
            asyncio.get_running_loop().call_soon(self._redraw_seats)
        else:
            asyncio.get_running_loop().call_soon(self._bump)

    def _redraw_seats(self) -> None:
        """The seat list again if it changed: only the rows that changed when all around them
        is unchanged (a seat chose, locked or woke up: one row on each screen), else the list."""
        if self.table is None or not self._seats_in_tree:  # the screen has changed since
            return
        seats = self.seat_section(self._seats_host)
        if seats.sig == self._seat_slot.shown:
            return
        if seats.around == self._seats_shown and len(seats.rows) == len(self._row_slots):
            slots = self._row_slots
            if all(slots[i].on_screen() for i in range(len(seats.rows))):
                for i, (sig, fn) in enumerate(seats.rows):
                    if sig != slots[i].shown:
                        slots[i].redraw(sig, fn)
                self._seat_slot.brought_up_to(seats.sig, seats.build)
                return
        if not self._seat_slot.redraw(seats.sig, seats.build):
            self._bump()

    def _frame_signature(self) -> bytes:
        """All that the screen shows outside its two slots (game part, seat list) depends on.

        When it is unchanged, a change at the table redraws the slots only (render). Kept on the
        generous side: anything here that changes just redraws the whole screen, as before."""
        t = self.table
        if t is None:
            return kit.signature("frame", self.role, self.lang, self.error, self._finding)
        can_reveal = self.can_reveal() if self.role == "host" else None
        return kit.signature("frame", self.role, self.lang, self.error, self._finding, t.code, t.game_id,
                             t.phase, self.seat, self.token, t.seat_of(self.token),
                             self.token is not None and t.is_spectator(self.token),
                             [(s["name"], s["colour"]) for s in t.seats], can_reveal, self.server.other_bases,
                             t.state is not None, len(t.host_moves), t.last_undo)

    def _bump(self) -> None:
        self._tick += 1
        if self._set_tick is not None:
            self._set_tick(self._tick)

    def build(self) -> ft.Control:
        body: list[ft.Control]
        self._slot_in_tree = False
        self._seats_in_tree = False
        self._frame = self._frame_signature()
        try:
            if self.role == "loading":
                body = [ft.Container(ft.ProgressRing(), padding=40, alignment=ft.Alignment.CENTER)]
            elif self.role == "home":
                body = self.home()
            elif self.role == "join_error":
                body = self.join_error()
            elif self.role in ("host", "watch"):
                body = self.host()
            else:
                body = self.phone()
        except Exception as ex:  # never leave a blank screen
            body = [kit.card(ft.Text(self.t("ui.err.render"), size=18, color=ft.Colors.RED_700),
                             ft.Text(type(ex).__name__, size=12))]
        top = kit.part(("top", self.lang, self.table.code if self.table else None,
                        self.table.game_id if self.table else None), self.top_bar)
        return ft.SafeArea(content=ft.Column(
            [top, ft.Container(content=ft.Column(body, spacing=14),
                                          padding=ft.Padding.symmetric(horizontal=14, vertical=8))],
            spacing=0, scroll=ft.ScrollMode.AUTO, expand=True, key=f"page:{urlparse(self._route).path}"),
            expand=True)

    def top_bar(self) -> ft.Control:
        langs = []
        for code in i18n.LANGS:
            async def pick(e: Any, code: str = code) -> None:
                await self.set_lang(code)
            langs.append(ft.TextButton(
                content=ft.Text(code.upper(), size=15,
                                weight=ft.FontWeight.BOLD if code == self.lang else ft.FontWeight.NORMAL),
                on_click=pick, tooltip=i18n.LANG_NAMES[code], height=48, width=48))  # >= 44 px targets
        left = "Tabletop Companion"
        if self.table is not None:
            left = f"{self.t(self.table.game.NAME)} · {self.table.code}"
        return ft.Container(
            content=ft.Row([ft.Text(left, size=17, weight=ft.FontWeight.BOLD, expand=True,
                                    color=ft.Colors.ON_PRIMARY_CONTAINER), *langs], spacing=0),
            bgcolor=ft.Colors.PRIMARY_CONTAINER, padding=ft.Padding.symmetric(horizontal=12, vertical=4))

    # ---------- home ----------
    def home(self) -> list[ft.Control]:
        out: list[ft.Control] = [kit.title(self.t("ui.home.title"))]
        if self.server.data_problem:
            out.append(kit.card(ft.Text(self.server.data_problem, size=16, color=ft.Colors.RED_800),
                                bgcolor=ft.Colors.RED_50))
        for p in self.hub.problems:
            out.append(kit.card(ft.Text(problem_text(self.lang, p),
                                        size=15, color=ft.Colors.RED_800), bgcolor=ft.Colors.RED_50))
        out.append(kit.part(("join", self.lang), self.join_box))
        if not self.server.is_host_machine(self.conn):
            # A phone on the Wi-Fi: it joins by code. Creating tables and the list of the open
            # tables (with their codes) are the host's, on the computer the app runs on.
            out.append(ft.Text(self.t("ui.home.host_only"), size=16, color=ft.Colors.ON_SURFACE_VARIANT))
            return out
        loc = self.local
        out.append(kit.part(("create", self.lang, loc.get("game"), loc.get("n"), loc.get("names"), loc.get("colours"),
                             {k: v for k, v in loc.items() if k.startswith("opts:")}), self.create_form))
        open_tables = self.hub.open_tables()  # from the store's table list: no log is loaded
        if open_tables:
            rows: list[ft.Control] = [kit.title(self.t("ui.home.tables"), 20)]
            for t in sorted(open_tables, key=lambda x: x.code):
                async def open_host(e: Any, code: str = t.code) -> None:
                    table = self.hub.get(code)
                    if table is not None and self.server.is_host_machine(self.conn):
                        await self.become_host(code, table.host_token)
                rows.append(ft.Row([
                    ft.Text(f"{t.code} · {self.t(games()[t.game].NAME)} · {self.t('ui.phase.' + t.phase)}",
                            size=17, expand=True),
                    kit.button(self.t("ui.open_host"), open_host, primary=False)]))
            out.append(kit.card(*rows))
        out += self.old_tables()
        return out

    def old_tables(self) -> list[ft.Control]:
        """Ended and abandoned tables (the newest 20), for the host to look at or delete – each
        delete asks first and says that it cannot be taken back."""
        old = sorted((m for m in self.hub.metas() if self.hub.deletable(m)), key=lambda m: -m.last)[:20]
        if not old:
            return []
        rows: list[ft.Control] = [kit.title(self.t("ui.home.old_tables"), 20),
                                  ft.Text(self.t("ui.home.old_hint"), size=15, color=ft.Colors.ON_SURFACE_VARIANT)]
        for m in old:
            name = self.t(games()[m.game].NAME) if m.game in games() else m.game
            phase = self.t("ui.phase." + m.phase) if i18n.has("ui.phase." + m.phase) else m.phase

            async def open_host(e: Any, code: str = m.code) -> None:
                table = self.hub.get(code)
                if table is not None and self.server.is_host_machine(self.conn):
                    await self.become_host(code, table.host_token)

            async def delete(e: Any, code: str = m.code, name: str = name, phase: str = phase) -> None:
                async def yes() -> None:
                    if not self.server.is_host_machine(self.conn):
                        return
                    try:
                        self.hub.delete(code)
                    except RuleError as ex:
                        self.toast(self.t(ex.key, **ex.params), True)
                        return
                    except StoreError:
                        self.toast(self.t("ui.err.store"), True)
                        return
                    self.toast(self.t("ui.home.deleted", code=code))
                    self.render(force=True)
                self.confirm(self.t("ui.home.delete_confirm", code=code),
                             self.t("ui.home.delete_what", code=code, game=name, phase=phase),
                             self.t("ui.home.delete_yes"), yes)
            rows.append(ft.Row([
                ft.Text(f"{m.code} · {name} · {phase}", size=17, expand=True),
                kit.button(self.t("ui.open_host"), open_host, primary=False),
                ft.Semantics(content=kit.button(self.t("ui.home.delete_yes"), delete, primary=False),
                             label=self.t("ui.home.delete", code=m.code))], wrap=True))
        return [kit.card(*rows)]

    def join_box(self) -> ft.Control:
        field = ft.TextField(label=self.t("ui.join.code"), capitalization=ft.TextCapitalization.CHARACTERS,
                             max_length=4, text_size=24, width=180)

        async def join(e: Any) -> None:
            code = normalise_code(field.value)
            if code:
                await self.go(f"/t/{code}")
        field.on_submit = join
        return kit.card(kit.title(self.t("ui.join.title"), 20),
                        ft.Row([field, kit.button(self.t("ui.join.go"), join)], wrap=True))

    def create_form(self) -> ft.Control:
        loc = self.local
        gs = games()
        loc.setdefault("game", "sealed_vote")
        game = gs[loc["game"]]
        loc.setdefault("n", min(max(4, game.MIN_SEATS), game.MAX_SEATS))
        loc["n"] = min(max(loc["n"], game.MIN_SEATS), game.MAX_SEATS)
        names: list[str] = loc.setdefault("names", [""] * 8)
        colours: list[str] = loc.setdefault("colours", list(COLOURS))
        opts: dict[str, Any] = loc.setdefault(f"opts:{loc['game']}", {})

        async def game_changed(key: str) -> None:
            loc["game"] = key
            self.render(force=True)
        game_row = kit.choice_row(self.t("ui.create.game"), [(g.ID, self.t(g.NAME)) for g in gs.values()],
                                  loc["game"], game_changed)

        async def n_changed(key: str) -> None:
            loc["n"] = int(key)
            self.render(force=True)
        n_row = kit.choice_row(self.t("ui.create.seats"),
                               [(str(k), str(k)) for k in range(game.MIN_SEATS, game.MAX_SEATS + 1)],
                               str(loc["n"]), n_changed)
        seat_rows: list[ft.Control] = []
        for i in range(loc["n"]):
            f = ft.TextField(label=self.t("ui.create.seat_name", n=i + 1), value=names[i], expand=True,
                             max_length=24)

            def name_changed(e: Any, i: int = i) -> None:
                names[i] = e.control.value or ""
            f.on_change = name_changed

            async def next_colour(e: Any, i: int = i) -> None:
                colours[i] = COLOURS[(COLOURS.index(colours[i]) + 1) % len(COLOURS)] \
                    if colours[i] in COLOURS else COLOURS[0]
                self.render(force=True)
            seat_rows.append(ft.Row([
                ft.Container(width=44, height=44, bgcolor=colours[i], border_radius=22, on_click=next_colour,
                             tooltip=self.t("ui.create.colour")), f]))
        option_controls: list[ft.Control] = []
        for o in game.OPTIONS:
            current = opts.get(o.name, o.default)

            def set_opt(e: Any, name: str = o.name, kind: str = o.kind) -> None:
                v = e.control.value
                opts[name] = v
            if o.kind == "choice":
                labels = o.choice_labels or tuple(str(c) for c in o.choices)

                async def pick_opt(key: str, name: str = o.name) -> None:
                    opts[name] = key
                    self.render(force=True)
                option_controls.append(kit.choice_row(
                    self.t(o.label), [(str(c), self.t(lab) if i18n.has(lab) else lab)
                                      for c, lab in zip(o.choices, labels, strict=False)], str(current), pick_opt))
            elif o.kind == "bool":
                option_controls.append(ft.Switch(label=self.t(o.label), value=bool(current), on_change=set_opt))
            else:
                option_controls.append(ft.TextField(
                    label=self.t(o.label), value="" if current is None else str(current), on_change=set_opt,
                    keyboard_type=ft.KeyboardType.NUMBER if o.kind == "int" else None))

        async def create(e: Any) -> None:
            if not self.server.is_host_machine(self.conn):  # (the form is not offered elsewhere)
                self.toast(self.t("ui.home.host_only"), True)
                return
            given: dict[str, Any] = {}
            for o in game.OPTIONS:
                if o.name in opts:
                    v = opts[o.name]
                    if o.kind == "choice":
                        v = next((c for c in o.choices if str(c) == str(v)), v)
                    given[o.name] = v
            seats = [{"name": names[i].strip() or self.t("ui.player_n", n=i + 1), "colour": colours[i]}
                     for i in range(loc["n"])]
            try:
                table = await asyncio.to_thread(self.hub.create, game.ID, given, seats)
            except RuleError as ex:
                self.toast(self.t(ex.key, **ex.params), True)
                return
            except StoreError:
                self.toast(self.t("ui.err.store"), True)
                return
            # The key goes into this browser's storage and, when the page loads again, into the
            # table's host cookie – never into the address (companion/ui/boot.py).
            await self.become_host(table.code, table.host_token)

        parts: list[ft.Control] = [kit.title(self.t("ui.create.title"), 20), game_row, n_row, *seat_rows]
        if option_controls:
            parts += [ft.Text(self.t("ui.create.options"), size=16, weight=ft.FontWeight.BOLD), *option_controls]
        parts.append(kit.button(self.t("ui.create.go"), create, icon=ft.Icons.ADD))
        return kit.card(*parts)

    def join_error(self) -> list[ft.Control]:
        return [kit.card(ft.Text(self.error or "", size=20, color=ft.Colors.RED_800), bgcolor=ft.Colors.RED_50),
                self.join_box()]

    # ---------- host ----------
    def host(self) -> list[ft.Control]:
        t = self.table
        assert t is not None
        out: list[ft.Control] = []
        url = self.server.join_url(t.code)
        if self.role == "watch":
            out.append(kit.card(ft.Text(self.t("ui.host.no_key"), size=16), bgcolor=ft.Colors.AMBER_50))
        if t.phase != "ended":
            big = t.phase == "lobby"  # once the game runs, the join card shrinks so the game gets the space
            out.append(kit.part(("joincard", self.lang, url, big, self.server.other_bases),
                                lambda: self.join_card(url, big)))
            out.append(self.seat_part(host=self.role == "host"))
        if self.role == "host":
            out.append(kit.part(("controls", self.lang, t.phase, self.can_reveal()), self.host_controls))
        if t.phase == "lobby":
            out.append(ft.Text(self.t("ui.host.lobby_hint"), size=18))
        elif t.state is not None:
            if t.phase == "ended":
                out.append(kit.title(self.t("ui.ended"), 24))
            out += self.undo_card() + self.host_moves_card()
            out.append(self.game_live())
        if self.role == "host":
            out.append(kit.part(("print", self.lang, t.code, t.game_id), self.print_card))
        return out

    def game_section(self) -> tuple[bytes, Any] | None:
        """The game's part of this screen: (signature, builder), or None when it shows none.

        Host and spectators get the game's public screen, a seated phone its own; the scorer
        once the table has ended."""
        t = self.table
        if t is None or t.state is None or t.phase == "lobby" or self.role not in ("host", "watch", "phone"):
            return None
        mod = game_screens(t.game_id)
        ended = t.phase == "ended"
        local = self._local_sig()
        if self.role == "phone":
            self.seat = t.seat_of(self.token)
            if self.seat is None:
                if not (self.token and t.is_spectator(self.token)):
                    return None
                ctx = self.ctx(host_view=True)
                ctx.is_host = False
            else:
                ctx = self.ctx()
                show = mod.result if ended and hasattr(mod, "result") else mod.phone
                # A game may say what its phone part shows of the view (less than all of it).
                shown = mod.phone_sig(ctx) if hasattr(mod, "phone_sig") and not ended else ctx.view
                return ctx.sig(("phone", t.phase, shown, ctx.legal, local)), lambda: show(ctx)
        else:
            ctx = self.ctx(host_view=True)
        show = mod.result if ended and hasattr(mod, "result") else mod.host
        # A game may say what its public part shows of the view in a cheaper form.
        shown = mod.public_sig(ctx) if hasattr(mod, "public_sig") and not ended else ctx.view
        return ctx.sig(("public", t.phase, shown, ctx.legal, local)), lambda: show(ctx)

    def game_live(self) -> ft.Control:
        section = self.game_section()
        assert section is not None
        self._slot_in_tree = True
        return kit.live(self._slot, *section)

    def host_moves_card(self) -> list[ft.Control]:
        """Every seat the host freed or swapped during the game, on every screen (the last one
        first): a swap gives a phone another seat's private screen, so the whole table sees it."""
        t = self.table
        if t is None or not t.host_moves:
            return []
        moves = list(reversed(t.host_moves))

        def line(m: dict[str, Any]) -> str:
            if m["op"] == "swap":
                return self.t("ui.moves.swap", a=m["a"], b=m["b"])
            return self.t("ui.moves.free", name=m["name"])

        def build() -> ft.Control:
            rows: list[ft.Control] = [ft.Row([ft.Icon(ft.Icons.SWAP_VERT, color=ft.Colors.DEEP_ORANGE_800, size=26),
                                              ft.Text(line(moves[0]), size=18, weight=ft.FontWeight.W_600,
                                                      expand=True)], spacing=8)]
            rows += [ft.Text(line(m), size=14, color=ft.Colors.ON_SURFACE_VARIANT) for m in moves[1:5]]
            return kit.card(*rows, bgcolor=ft.Colors.ORANGE_50)
        return [kit.part(("moves", self.lang, len(moves)), build)]

    def undo_words(self, note: dict[str, Any], ahead: bool) -> str:
        assert self.table is not None
        return undo_words(self.table, self.lang, note, ahead)

    def undo_card(self) -> list[ft.Control]:
        """After the host's undo, every screen says what was taken back (until the next action)."""
        t = self.table
        note = t.last_undo if t is not None else None
        if note is None:
            return []
        text = self.undo_words(note, ahead=False)
        return [kit.part(("undone", self.lang, text), lambda: kit.card(ft.Row([
            ft.Icon(ft.Icons.UNDO, color=ft.Colors.DEEP_ORANGE_800, size=26),
            ft.Text(text, size=18, weight=ft.FontWeight.W_600, expand=True)], spacing=8),
            bgcolor=ft.Colors.ORANGE_50))]

    def _local_sig(self) -> Any:
        return {k: v for k, v in self.local.items() if k != "swap_from"}

    def join_card(self, url: str, big: bool) -> ft.Control:
        t = self.table
        assert t is not None
        qr = ft.Image(src=qr_base64(url), width=260 if big else 130, height=260 if big else 130,
                      semantics_label=self.t("ui.host.qr"))
        join = ft.Column([
            ft.Text(self.t("ui.host.scan"), size=18),
            ft.Text(t.code, size=64 if big else 36, weight=ft.FontWeight.BOLD, selectable=True,
                    semantics_label=f"{self.t('ui.host.code')} {t.code}"),
            ft.Text(url, size=18, selectable=True),
            *[ft.Text(f"{self.t('ui.host.other_address')} {b}/t/{t.code}", size=13,
                      color=ft.Colors.ON_SURFACE_VARIANT, selectable=True) for b in self.server.other_bases[:4]],
        ], spacing=4, tight=True)
        return kit.card(ft.Row([qr, join], wrap=True, spacing=20))

    def print_card(self) -> ft.Control:
        """Downloads: the game's print-and-play sheets and this table's join card."""
        t = self.table
        assert t is not None
        links: list[ft.Control] = []
        for paper in ("a4", "letter"):
            links.append(ft.OutlinedButton(content=self.t("ui.print.join_card", paper=paper.upper()),
                                           url=f"/join-card/{t.code}.pdf?paper={paper}&lang={self.lang}",
                                           icon=ft.Icons.QR_CODE))
        root = Path(__file__).resolve().parents[2] / "printables"
        for paper in ("a4", "letter"):
            if (root / f"{t.game_id}-{paper}.pdf").is_file():
                links.append(ft.OutlinedButton(content=self.t("ui.print.cards", paper=paper.upper()),
                                               url=f"/print/{t.game_id}-{paper}.pdf?lang={self.lang}",
                                               icon=ft.Icons.PRINT))
        for link in links:  # touch targets >= 44 px
            link.height = 52
            link.style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=18, vertical=14))
        return kit.card(kit.title(self.t("ui.print.title"), 20),
                        ft.Text(self.t("ui.print.hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                        ft.Row(links, wrap=True, spacing=8))

    def submitted_sets(self) -> tuple[set[int], set[int]]:
        t = self.table
        v = t.view(None) if t is not None else None
        if not v:
            return set(), set()
        src = v.get("round") if isinstance(v.get("round"), dict) else v
        sub = src.get("submitted") or []
        lck = src.get("locked") or []
        return set(sub), set(lck)

    def seat_section(self, host: bool) -> SeatSection:
        """The seat list: what is around its rows, and each row (signature, builder)."""
        t = self.table
        assert t is not None
        sub, lck = self.submitted_sets()
        swap_from = self.local.get("swap_from")
        waiting = list(t.spectators.items())
        rows: list[tuple[bytes, Callable[[], ft.Control]]] = []
        for i, s in enumerate(t.public_seats()):
            mark = ""
            if t.phase == "playing":
                mark = "locked" if i in lck else "submitted" if i in sub else ""
            offer = waiting[:3] if host and s["status"] == "free" else []
            rows.append((kit.signature(("seat", self.lang, host, i, s, mark, i == self.seat, offer, swap_from == i)),
                         lambda i=i, s=s, mark=mark, offer=offer: self.seat_row(host, i, s, mark, offer)))
        hint = t.seats[swap_from]["name"] if host and swap_from is not None else None
        around = kit.signature(("seats", self.lang, host, len(rows), [n for _, n in waiting], hint))
        sig = kit.signature(("seat list", around, [r[0] for r in rows]))
        return SeatSection(sig, lambda: self.seat_panel(around, rows, waiting, hint), around, rows)

    def seat_part(self, host: bool) -> ft.Control:
        """The seat list, in a slot of its own (see render)."""
        self._seats_in_tree = True
        self._seats_host = host
        seats = self.seat_section(host)
        return kit.live(self._seat_slot, seats.sig, seats.build, key="seats")

    def seat_panel(self, around: bytes, rows: list[tuple[bytes, Callable[[], ft.Control]]],
                   waiting: list[tuple[str, str]], hint: str | None) -> ft.Control:
        self._seats_shown = around
        items: list[ft.Control] = [kit.title(self.t("ui.seats"), 20)]
        for i, (sig, fn) in enumerate(rows):
            # Each row a slot: a choice, a lock or a phone waking redraws that row, not the list.
            items.append(kit.live(self._row_slots.setdefault(i, kit.Slot()), sig, fn, key=f"seat{i}"))
        if waiting:
            items.append(ft.Text(self.t("ui.host.spectators", names=", ".join(n for _, n in waiting)), size=15))
        if hint is not None:
            items.append(ft.Text(self.t("ui.host.swap_hint", name=hint), size=15, color=ft.Colors.PRIMARY))
        return kit.card(*items)

    def seat_row(self, host: bool, i: int, s: dict[str, Any], mark: str,
                 offer: list[tuple[str, str]]) -> ft.Control:
        status = s["status"]
        colour = {"free": ft.Colors.GREY_500, "joined": ft.Colors.AMBER_800,
                  "connected": ft.Colors.GREEN_700}[status]
        pills = [kit.pill(self.t(f"ui.status.{status}"), colour)]
        if mark:
            pills.append(kit.pill(self.t(f"ui.status.{mark}"),
                                  ft.Colors.INDIGO_700 if mark == "locked" else ft.Colors.BLUE_600))
        row: list[ft.Control] = [kit.seat_dot(s["colour"], 22),
                                 ft.Text(s["name"] + (f"  ({self.t('ui.you')})" if i == self.seat else ""),
                                         size=18, expand=True), *pills]
        if host:
            if status != "free":
                async def free(e: Any) -> None:
                    async def yes() -> None:
                        await self.request({"op": "free", "seat": i})
                    self.confirm(self.t("ui.host.free_confirm", name=s["name"]),
                                 self.t("ui.host.free_what" + ("_play" if self.table and self.table.phase == "playing"
                                                               else ""), name=s["name"]),
                                 self.t("ui.host.free_yes"), yes)
                row.append(ft.IconButton(ft.Icons.PERSON_REMOVE, on_click=free, width=48, height=48, icon_size=26,
                                         tooltip=self.t("ui.host.free", name=s["name"])))
            else:
                for tok, name in offer:
                    async def seat_them(e: Any, tok: str = tok) -> None:
                        await self.request({"op": "seat", "seat": i, "token": tok})
                    row.append(ft.TextButton(content=self.t("ui.host.seat_them", name=name), on_click=seat_them))

            async def swap(e: Any) -> None:
                first = self.local.get("swap_from")
                if first is None:
                    self.local["swap_from"] = i
                else:
                    self.local.pop("swap_from", None)
                    t = self.table
                    if first != i and t is not None and 0 <= first < len(t.seats):
                        a, b = t.seats[first]["name"], s["name"]

                        async def yes() -> None:
                            await self.request({"op": "swap", "a": first, "b": i})
                        self.confirm(self.t("ui.host.swap_confirm", a=a, b=b),
                                     self.t("ui.host.swap_what" + ("_play" if t.phase == "playing" else ""),
                                            a=a, b=b), self.t("ui.host.swap_yes"), yes)
                self.render(force=True)
            chosen = self.local.get("swap_from") == i
            row.append(ft.IconButton(ft.Icons.SWAP_VERT, on_click=swap, width=48, height=48, icon_size=26,
                                     tooltip=self.t("ui.host.swap", name=s["name"]), selected=chosen,
                                     icon_color=ft.Colors.PRIMARY if chosen else None))
        return ft.Row(row, spacing=8)

    def confirm(self, title: str, what: str, yes_label: str, yes: Callable[[], Any]) -> None:
        """Ask before something that cannot be taken back: says what it will do, Cancel first."""
        async def ok(e: Any) -> None:
            self.page.pop_dialog()
            await yes()
        dlg = ft.AlertDialog(title=ft.Text(title), content=ft.Text(what, size=17), actions=[
            ft.TextButton(content=self.t("ui.cancel"), on_click=lambda e: self.page.pop_dialog()),
            ft.FilledButton(content=yes_label, on_click=ok)])
        try:
            self.page.show_dialog(dlg)
        except RuntimeError:
            pass

    def can_reveal(self) -> bool:
        """Whether the game offers the host a reveal now (its legal actions say so)."""
        t = self.table
        return t is not None and t.phase == "playing" and any(a.get("type") == "reveal" for a in t.legal(None))

    def host_controls(self) -> ft.Control:
        t = self.table
        assert t is not None
        btns: list[ft.Control] = []

        async def op(e: Any, name: str) -> None:
            await self.request({"op": name})
        if t.phase == "lobby":
            async def start(e: Any) -> None:
                await op(e, "start")
            btns.append(kit.button(self.t("ui.host.start"), start, icon=ft.Icons.PLAY_ARROW))
        if t.phase == "playing":
            if self.can_reveal():
                async def reveal(e: Any) -> None:
                    async def go() -> None:
                        await self.request({"op": "host_act", "action": {"type": "reveal"}})
                    tt = self.table
                    _sub, locked = self.submitted_sets()
                    open_seats = [s["name"] for i, s in enumerate(tt.seats) if i not in locked] if tt else []
                    if not open_seats:
                        await go()
                        return
                    self.confirm(self.t("ui.host.reveal_confirm"),
                                 self.t("ui.host.reveal_what", names=", ".join(open_seats)),
                                 self.t("ui.host.reveal_yes"), go)
                btns.append(kit.button(self.t("ui.host.reveal"), reveal, icon=ft.Icons.VISIBILITY))

            async def end(e: Any) -> None:
                async def yes(e2: Any) -> None:
                    self.page.pop_dialog()
                    await op(e2, "end")
                dlg = ft.AlertDialog(title=ft.Text(self.t("ui.host.end_confirm")), actions=[
                    ft.TextButton(content=self.t("ui.cancel"), on_click=lambda e2: self.page.pop_dialog()),
                    ft.FilledButton(content=self.t("ui.host.end"), on_click=yes)])
                self.page.show_dialog(dlg)
            btns.append(kit.button(self.t("ui.host.end"), end, primary=False, icon=ft.Icons.STOP))
        if t.phase != "lobby":
            async def undo(e: Any) -> None:
                """Says in words what it will take back (public words only), then asks."""
                tt = self.table
                note = tt.undo_preview() if tt is not None else None
                if note is None:
                    await op(e, "undo")  # nothing to undo: the table's own message says so
                    return

                async def go() -> None:
                    await op(e, "undo")
                self.confirm(self.t("ui.undo.title"), self.undo_words(note, ahead=True), self.t("ui.undo.yes"), go)
            btns.append(kit.button(self.t("ui.host.undo"), undo, primary=False, icon=ft.Icons.UNDO))
        if t.phase != "ended":
            btns.append(kit.button(self.t("ui.host.another_device"), self.show_host_link, primary=False,
                                   icon=ft.Icons.QR_CODE))
        return ft.Row(btns, wrap=True, spacing=10)

    async def _host_link_used(self) -> None:
        try:
            self.page.pop_dialog()
        except Exception:
            pass
        self.toast(self.t("ui.host.another_used"))

    async def show_host_link(self, e: Any = None) -> None:
        """On request only: a QR code that makes one more device host of this table – a one-time
        link (10 minutes), so a photo of the screen later is worth nothing."""
        t = self.table
        if t is None or self.role != "host" or not t.is_host(self.token):
            return
        def used() -> None:  # a device took it: the dialog goes, and the host screen says so
            contextvars.copy_context().run(self.page.run_task, self._host_link_used)
        url = f"{self.server.join_base}/host/{t.code}?h={self.server.host_ticket(t.code, used)}"
        dlg = ft.AlertDialog(title=ft.Text(self.t("ui.host.another_device")), content=ft.Column([
            ft.Image(src=qr_base64(url), width=240, height=240, semantics_label=self.t("ui.host.another_qr")),
            ft.Text(self.t("ui.host.another_hint"), size=16)], tight=True, spacing=10,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            actions=[ft.FilledButton(content=self.t("ui.host.another_done"), on_click=lambda e: self.page.pop_dialog())])
        try:
            self.page.show_dialog(dlg)
        except RuntimeError:
            pass

    # ---------- phone ----------
    def phone(self) -> list[ft.Control]:
        t = self.table
        assert t is not None
        self.seat = t.seat_of(self.token)
        if self.seat is None:
            if self.token and t.is_spectator(self.token):
                return self.spectator()
            return self.join_screen()
        s = t.seats[self.seat]
        out: list[ft.Control] = [kit.part(("me", s["name"], s["colour"]), lambda: ft.Row(
            [kit.seat_dot(s["colour"], 28), kit.title(s["name"], 24)], spacing=10))]
        if t.phase == "lobby":
            out.append(kit.card(ft.Text(self.t("ui.phone.waiting_start"), size=20)))
            out.append(kit.part(("rename", self.lang, s["name"]), lambda: self.rename_row(s["name"])))
            out.append(kit.part(("notme", self.lang, s["name"]), lambda: kit.button(
                self.t("ui.phone.not_me", name=s["name"]), self.leave_seat, primary=False, icon=ft.Icons.UNDO)))
            out.append(self.seat_part(host=False))
            return out
        if t.phase == "ended":
            out.append(kit.title(self.t("ui.ended"), 22))
        out += self.undo_card() + self.host_moves_card()
        out.append(self.game_live())
        out.append(self.seat_part(host=False))
        return out

    async def leave_seat(self, e: Any = None) -> None:
        """A tap on the wrong seat, taken back before the start: the seat is free again with the
        host's name for it, and this phone picks anew."""
        t = self.table
        if t is None or self.seat is None:
            return
        name = t.seats[self.seat]["name"]
        if await self.request({"op": "leave"}) is None:
            return
        self.token = None
        self._stored[f"seat:{t.code}"] = ""
        await self._set(f"seat:{t.code}", "")
        await self.go(f"/t/{t.code}")
        await self.route(f"/t/{t.code}")
        self.local["name"] = name  # the name typed before stays for the next seat
        self._join_field = None
        self.render(force=True)

    def rename_row(self, name: str) -> ft.Control:
        field = ft.TextField(label=self.t("ui.phone.your_name"), value=name, max_length=24)

        async def rename(e: Any) -> None:
            await self.request({"op": "rename", "name": field.value or ""})
        field.on_submit = rename
        return ft.Row([ft.Container(field, expand=True),
                       kit.button(self.t("ui.phone.rename"), rename, primary=False)])

    def typed_name(self) -> str | None:
        """The name in the join screen's field: the control's value (Flet writes a keystroke into
        it before any handler runs), else what its change handler kept."""
        typed = self._join_field.value if self._join_field is not None else None
        return (typed or self.local.get("name") or "").strip() or None

    def join_name_field(self) -> ft.Control:
        name = ft.TextField(label=self.t("ui.phone.your_name"), value=self.local.get("name", ""), max_length=24,
                            text_size=20)
        self._join_field = name

        def keep(e: Any) -> None:
            self.local["name"] = name.value or ""
        name.on_change = keep
        return name

    def spectator(self) -> list[ft.Control]:
        t = self.table
        assert t is not None
        out: list[ft.Control] = [kit.card(ft.Text(self.t("ui.phone.spectating"), size=18),
                                          bgcolor=ft.Colors.AMBER_50)]
        if t.state is not None:
            out.append(self.game_live())
        out.append(self.seat_part(host=False))
        return out

    def join_screen(self) -> list[ft.Control]:
        t = self.table
        assert t is not None
        # Its own part: another phone taking a seat redraws the seat buttons, not what is being typed here.
        name = kit.part(("joinname", self.lang), self.join_name_field)
        if self._finding:
            return [kit.card(ft.Row([ft.ProgressRing(width=24, height=24),
                                     ft.Text(self.t("ui.phone.finding_seat"), size=18, expand=True)], spacing=14))]
        out: list[ft.Control] = [kit.title(self.t("ui.phone.welcome"), 24)]
        if self.token and t.seat_of(self.token) is None and not t.is_spectator(self.token):
            out.append(kit.card(ft.Text(self.t("ui.phone.seat_lost"), size=16), bgcolor=ft.Colors.AMBER_50))

        async def taken(reply: dict[str, Any] | None) -> None:
            if reply and reply.get("token"):
                self.token = reply["token"]
                await self._set(f"seat:{t.code}", self.token)
                # ... and in the address, which a re-created session still sends (see route()).
                await self.go(f"/t/{t.code}?s={self.token}")
        free = t.free_seats()
        if t.phase == "lobby" and free:
            out.append(ft.Text(self.t("ui.phone.pick_seat"), size=18))
            out.append(name)
            # Every seat in its place: a seat taken meanwhile stays where it was, disabled, with its
            # new name – the buttons never move under a finger. A tap that lands on a seat taken an
            # instant before says so by the name the phone showed, and seats nobody.
            for i, s in enumerate(t.seats):
                if s.get("token"):
                    out.append(kit.button(self.t("ui.phone.seat_taken_by", name=s["name"]), None,
                                          primary=False, disabled=True, width=10_000))
                    continue

                async def take(e: Any, i: int = i, shown: str = s["name"]) -> None:
                    try:
                        reply = await t.request("", {"op": "join", "seat": i, "name": self.typed_name()})
                    except RuleError as ex:
                        key = "ui.phone.just_taken" if ex.key == "tbl.err.seat_taken" else ex.key
                        self.toast(self.t(key, **(ex.params if key == ex.key else {"name": shown})), True)
                        return
                    except StoreError:
                        self.toast(self.t("ui.err.store"), True)
                        return
                    await taken(reply)
                out.append(kit.button(self.t("ui.phone.take_seat", name=s["name"]), take, colour=s["colour"],
                                      width=10_000))
        else:
            reason = "ui.phone.full" if t.phase == "lobby" else "ui.phone.started"
            out.append(kit.card(ft.Text(self.t(reason), size=18)))
            out.append(name)

            async def watch(e: Any) -> None:
                await taken(await self.request({"op": "spectate", "name": self.typed_name()},
                                                 token=""))
            out.append(kit.button(self.t("ui.phone.watch"), watch, width=10_000))
        return out


@ft.component
def Root(screen: Screen) -> ft.Control:
    """The one component of a session: re-renders when the screen bumps its tick."""
    _tick, set_tick = ft.use_state(0)
    screen._set_tick = set_tick
    return screen.build()


async def session_main(page: ft.Page, server: Server) -> None:
    screen = Screen(page, server)
    page.data = screen
    await screen.start()
