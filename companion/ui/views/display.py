"""The table display (issue 18.1/18.2): what the whole table reads from 2–3 m.

Shown on the host's screen during play (beside the host's controls) and alone at
`/display/CODE` (a second screen, a TV: host-only, it needs the host's key like the host page).
Drawn only from the public view (`table.view(None)`) and the public log – never a seat's secret.

Each game draws its board in its display module (`companion/games/<id>/display.py`, named by its
GameSpec's `display`: `GameSpec.display_module()`), with:

    board(ctx, width) -> ft.Control      the board as a picture (shapes, no images)
    status(ctx) -> Status                 whose turn / what the table waits for, by name
    moment(ctx) -> Moment | None          the last reveal (cards that turn over, the outcome)

    yours(ctx, moment) -> str             optional: a phone's line of the moment (views/moment.py)

A game without that module (`display=None`) gets the seat chips and its last log lines.

Functions of what they draw (the public view as a UiContext without a seat, the width, plain
values, an `AdminCalls` of the host's callbacks), never of the Screen: the screen's side
(companion/ui/assemble/: display_page, host_in_play, the display's and the host's buttons'
slots) builds their arguments.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import flet as ft

from companion import i18n
from companion.ui import kit
from companion.ui.kit import UiContext

BIG = 30  # state text on the display (≥ 24 px at 1280×800)
HUGE = 40
FLIP_S = 0.35  # the cards turn over in well under a second
STEP_S = 2.6  # the display's steady pace through a resolution, one step at a time


@dataclass(frozen=True)
class Status:
    """The display's headline ("Ann proposes space 7") and the seats the table waits for."""

    headline: str
    waiting: tuple[int, ...] = ()
    locked: tuple[int, ...] = ()  # seats shown "locked" on their chips
    chosen: tuple[int, ...] = ()  # seats with a choice not locked: "chosen, not locked" (the seat list's word)
    sealed: bool = False  # a sealed round is open: every chip says locked / not yet
    turn: int | None = None


@dataclass(frozen=True)
class Card:
    """One sealed choice as it turns over: whose, its face, a word under it, for (True) / against."""

    seat: int
    face: str
    note: str = ""
    good: bool | None = None


@dataclass(frozen=True)
class Moment:
    """A reveal: `key` names it (a new key turns the cards over again), the cards, the outcome in
    large type; `steps` (Lutèce's resolution, slot by slot) shown one after the other – at the
    host's "Next" or the display's steady pace – then `summary`."""

    key: str
    title: str
    cards: tuple[Card, ...] = ()
    outcome: tuple[str, ...] = ()
    steps: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (heading, lines)
    summary: tuple[str, ...] = ()
    seats: tuple[tuple[str, str], ...] = field(default=())  # (name, colour) per seat, for drawing
    first: bool = False  # what the table looks at now: drawn above the board (a narrow display)
    yours: str = ""  # a phone's moment: the outcome for its own seat ("Your Yes – …"; views/moment.py)


def game_display(ctx: UiContext) -> ModuleType | None:
    """The game's display module, as its GameSpec names it (None: the game has none)."""
    from companion.games import spec

    return spec(ctx.table.game_id).display_module()


def default_status(ctx: UiContext) -> Status:
    v = ctx.view
    src = v.get("round") if isinstance(v.get("round"), dict) else v
    locked = tuple(src.get("locked") or ())
    turn = v.get("turn") if isinstance(v.get("turn"), int) else None
    if turn is not None:
        return Status(ctx.t("display.turn", name=ctx.name(turn)), (turn,), locked, turn=turn)
    return Status("", (), locked)


def sealed_status(ctx: UiContext, seats: list[int], locked: list[int], headline: str,
                  submitted: list[int] | tuple[int, ...] = ()) -> Status:
    """A sealed round: who has locked, who has chosen without locking, who the table waits for."""
    waiting = tuple(s for s in seats if s not in locked)
    return Status(headline, waiting, tuple(locked), sealed=True,
                  chosen=tuple(s for s in waiting if s in submitted))


# ---------- the display ----------

def public_moment(ctx: UiContext, mod: ModuleType | None) -> Moment | None:
    """The game's last reveal from the public view, worked out once per state and language for every
    screen of the table (the display, the host, each phone's moment: views/moment.py)."""
    if mod is None or not hasattr(mod, "moment"):
        return None
    if ctx.seat is not None:
        ctx = UiContext(ctx.table, None, None, ctx.lang, ctx.is_host, lambda *a: None, {}, ctx.rerender)
    memo = getattr(ctx.table, "memo", None)
    if memo is None:
        return mod.moment(ctx)  # type: ignore[no-any-return]
    return memo(f"public moment:{ctx.lang}", lambda: mod.moment(ctx))  # type: ignore[no-any-return]


def display_props(ctx: UiContext, host_panel: bool) -> tuple[Any, ...]:
    """What the display shows, as plain data (its redraw is decided by it); `ctx` the table's public
    view (UiContext, no seat)."""
    t = ctx.table
    mod = game_display(ctx)
    status = mod.status(ctx) if mod is not None and hasattr(mod, "status") else default_status(ctx)
    moment = public_moment(ctx, mod)
    seats = tuple((s["name"], s["colour"], s["status"]) for s in t.public_seats())
    return ("display", ctx.lang, t.code, t.game_id, t.phase, t.version, seats, status, moment, host_panel)


def display(ctx: UiContext, width: float, host_panel: bool = False) -> ft.Control:
    """The display's column: headline, the board, seat chips, the last reveal – of the table's
    public view (`ctx`: UiContext, no seat), `width` wide; `host_panel`: beside the host's panel."""
    t = ctx.table
    mod = game_display(ctx)
    status = mod.status(ctx) if mod is not None and hasattr(mod, "status") else default_status(ctx)
    moment = public_moment(ctx, mod)
    parts: list[ft.Control] = []
    ended = t.phase == "ended" or t.finished()
    # Nothing is asked of anyone (a vote revealed, the host about to ask again; the game over): the
    # last reveal is what the table looks at – the centre of the screen, in the largest type, the
    # question asked as its headline; the status goes below it in smaller type (issue 30.4).
    # A resolution read step by step (Lutèce: card A, card B, …) on a TV goes beside the board its
    # steps speak of, not above it: in the middle of the screen it pushed the board below the fold.
    beside = moment is not None and bool(moment.steps) and width >= 1300 and not ended \
        and mod is not None and hasattr(mod, "board")
    hero = moment is not None and not beside and (ended or not (status.waiting or status.sealed))
    if ended:  # (a game over by its rules says so in its own words; one the host ended: "Game over")
        parts += ended_part(ctx, width, status.headline if t.phase != "ended" else "")
    elif status.headline and not hero:
        parts.append(ft.Text(status.headline, size=int(HUGE * _k(width)) if width > 1100 else 32,
                             weight=ft.FontWeight.BOLD,
                             max_lines=2, overflow=ft.TextOverflow.ELLIPSIS))
    if status.waiting and status.sealed and not ended:
        parts.append(ft.Text(ctx.waiting_for(list(status.waiting)), size=int(BIG * _k(width)),
                             color=ft.Colors.DEEP_ORANGE_900))
    if hero:
        assert moment is not None
        shown_hero = MomentView(moment, ctx.lang, width, host_panel, True,
                                key="moment" if host_panel else f"moment:{moment.key}")
        parts.append(ft.Row([shown_hero], alignment=ft.MainAxisAlignment.CENTER))
        if status.headline and not ended:
            parts.append(ft.Row([ft.Text(status.headline, size=int(BIG * _k(width)), weight=ft.FontWeight.W_600,
                                         color=ft.Colors.ON_SURFACE_VARIANT, max_lines=2,
                                         overflow=ft.TextOverflow.ELLIPSIS)], alignment=ft.MainAxisAlignment.CENTER))
    parts.append(seat_chips(ctx, status if not ended else Status(""), width, centre=hero))
    if hero:
        moment = None  # (drawn above)
    wide = moment is not None and width >= 1300  # a TV: the board and the last reveal side by side
    board_w = width * 0.56 if wide else width
    drawn: ft.Control | None = None
    if mod is not None and hasattr(mod, "board"):
        try:
            drawn = mod.board(ctx, board_w)
        except Exception:  # a drawing problem never takes the screen down
            drawn = ft.Text(ctx.t("ui.err.render"), size=18, color=ft.Colors.RED_700)
    shown = MomentView(moment, ctx.lang, 1500 if wide else width, host_panel,  # (TV: the laptop's sizes × 1.25)
                       key="moment" if host_panel else f"moment:{moment.key}") if moment is not None else None
    if beside and drawn is not None and shown is not None:  # the moment from the top of the screen down
        parts = [ft.Row([ft.Container(ft.Column([*parts, drawn], spacing=12, tight=True), width=board_w),
                         ft.Container(shown, expand=True)],
                        spacing=16, vertical_alignment=ft.CrossAxisAlignment.START)]
    elif wide and drawn is not None and shown is not None:
        parts.append(ft.Row([ft.Container(drawn, width=board_w), ft.Container(shown, expand=True)],
                            spacing=16, vertical_alignment=ft.CrossAxisAlignment.START))
    else:
        order = (shown, drawn) if moment is not None and moment.first else (drawn, shown)
        parts += [x for x in order if x is not None]
    if moment is None and mod is None and not hero:
        log = ctx.view.get("log") or []
        for item in log[-3:]:
            parts.append(ft.Text(ctx.msg(item), size=BIG))
    if host_panel:
        return ft.Column(parts, spacing=12, tight=True)
    # /display/CODE fills the window and scrolls on its own: a moment nobody is asked about sits in the
    # middle of the screen, across and down (a TV at 1920×1080: not in its top half; issue 30.4); the
    # rest of the time the display reads from the top.
    # (Flet's scrolling column is at least as tall as the window: its alignment places the moment in it.)
    return ft.Container(content=ft.Column(parts, spacing=16 if hero else 12, scroll=ft.ScrollMode.AUTO,
                                          alignment=ft.MainAxisAlignment.CENTER if hero else ft.MainAxisAlignment.START,
                                          horizontal_alignment=ft.CrossAxisAlignment.CENTER if hero else None),
                        alignment=ft.Alignment.CENTER if hero else None, expand=True)


def ended_part(ctx: UiContext, width: float, headline: str = "") -> list[ft.Control]:
    """An ended game on the display: "Game over", who won (by name, with the seat's colour and mark)
    and the final ranking – or, for a game without winners (a sealed vote), the rounds played."""
    from companion.games import spec

    t = ctx.table
    k = _k(width)
    out: list[ft.Control] = [ft.Text(headline or ctx.t("ui.ended"), size=int(HUGE * k), weight=ft.FontWeight.BOLD)]
    try:
        res = spec(t.game_id).outcome(t.state) if t.state is not None else None
    except Exception:  # a game's outcome() that fails must not take the display down
        res = None
    if res is None or not res.winners:
        return out
    winners = list(res.winners)
    out.append(ft.Row([*[kit.seat_dot(ctx.colour(w), int(48 * k)) for w in winners],
                       ft.Text(ctx.t("display.winners", names=ctx.names(winners)),
                               size=int(HUGE * k * 1.2), weight=ft.FontWeight.BOLD, color=ft.Colors.GREEN_900,
                               expand=True)], spacing=12))
    order = sorted(range(len(res.ranks)), key=lambda i: (res.ranks[i], i))
    lines = [f"{res.ranks[i]}. {ctx.name(i)}" + ("" if res.scores[i] is None else f"  {res.scores[i]}")
             for i in order if i < len(t.seats)]
    out.append(ft.Text("   ·   ".join(lines), size=int(BIG * k), weight=ft.FontWeight.W_600))
    return out


def _k(width: float) -> float:
    """How much larger than on the laptop the display draws (a TV, 1920 wide: 1.5)."""
    return min(1.5, max(1.0, width / 1200))


def _hero_k(width: float) -> float:
    """The same for a moment that is the centre of the screen (a TV, 1920 wide: 1.8; 1280: 1.2)."""
    return min(1.8, max(1.0, width / 1040))


def seat_chips(ctx: UiContext, status: Status, width: float, centre: bool = False) -> ft.Control:
    """Every seat as a big chip: its colour and mark, its name, locked / chosen, not locked / not yet
    (or whose turn) – the seat list's words for the same states."""
    chips: list[ft.Control] = []
    size = int(26 * _k(width))
    for i, s in enumerate(ctx.table.seats):
        word = ""
        done = False
        if status.sealed and (i in status.locked or i in status.waiting):  # (a seat outside the round: no word)
            done = i in status.locked
            word = ctx.t("display.locked") if done else ctx.t("ui.status.submitted") if i in status.chosen \
                else ctx.t("display.not_yet")
        elif status.turn == i:
            word = ctx.t("display.their_turn")
        elif i in status.waiting:
            word = ctx.t("display.not_yet")
        edge = ft.Colors.GREEN_800 if done else ft.Colors.DEEP_ORANGE_700 if word and not done else ft.Colors.OUTLINE
        inner: list[ft.Control] = [kit.seat_dot(s["colour"], int(size * 1.5)),
                                   ft.Text(s["name"], size=size, weight=ft.FontWeight.BOLD, max_lines=1,
                                           overflow=ft.TextOverflow.ELLIPSIS)]
        if word:
            inner.append(ft.Container(
                content=ft.Row([ft.Icon(ft.Icons.CHECK, color=ft.Colors.WHITE, size=size, visible=done),
                                ft.Text(word, size=size - 2, weight=ft.FontWeight.W_600, color=ft.Colors.WHITE)],
                               spacing=4, tight=True),
                bgcolor=ft.Colors.GREEN_800 if done else ft.Colors.BLUE_800 if status.sealed and i in status.chosen
                else ft.Colors.DEEP_ORANGE_800, border_radius=12,
                padding=ft.Padding.symmetric(horizontal=10, vertical=2)))
        chips.append(ft.Container(
            content=ft.Row(inner, spacing=8, tight=True), border=ft.Border.all(3, edge), border_radius=30,
            padding=ft.Padding.symmetric(horizontal=10, vertical=6), bgcolor=ft.Colors.SURFACE,
            animate_scale=ft.Animation(300, ft.AnimationCurve.EASE_OUT), scale=1.06 if status.turn == i else 1.0))
    return ft.Row(chips, wrap=True, spacing=10, run_spacing=8,
                  alignment=ft.MainAxisAlignment.CENTER if centre else ft.MainAxisAlignment.START)


def card_face(m: Moment, c: Card, up: bool, size: int) -> ft.Control:
    name, colour = m.seats[c.seat] if 0 <= c.seat < len(m.seats) else ("?", "#777777")
    face_size = size if len(c.face) <= 8 else int(size * 0.6)
    # The card is as wide as its word ("Tacos" never breaks as "Taco / s"): about 0.62 em a letter in
    # bold, plus its padding and border; a long word (over 7 card widths) goes on two lines, smaller.
    one_line = len(c.face) * face_size * 0.66 + 40
    w = max(size * 3.2, len(c.note) * size * 0.3 + 20, min(one_line, size * 7.0))
    h = size * 4.0
    if not up:  # the back: the same for every card
        return ft.Container(width=w, height=h, border_radius=14, bgcolor="#6d3b1a",
                            border=ft.Border.all(4, "#e8c07a"), alignment=ft.Alignment.CENTER,
                            content=ft.Container(width=w * 0.5, height=w * 0.5, border_radius=w,
                                                 border=ft.Border.all(4, "#e8c07a")), key=f"back:{m.key}:{c.seat}")
    edge = ft.Colors.GREEN_700 if c.good is True else ft.Colors.RED_700 if c.good is False else colour
    return ft.Container(key=f"face:{m.key}:{c.seat}", width=w, height=h, border_radius=14, bgcolor=ft.Colors.WHITE,
                        border=ft.Border.all(5, edge), padding=6, content=ft.Column([
                            ft.Row([kit.seat_dot(colour, int(size * 0.65)), ft.Text(name, size=int(size * 0.5), weight=ft.FontWeight.BOLD,
                                                                       max_lines=1, overflow=ft.TextOverflow.ELLIPSIS,
                                                                       expand=True)], spacing=4),
                            ft.Text(c.face, size=face_size,
                                    weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER,
                                    max_lines=1 if one_line <= w else 2, no_wrap=one_line <= w,
                                    overflow=ft.TextOverflow.ELLIPSIS),
                            ft.Text(c.note, size=int(size * 0.5), weight=ft.FontWeight.W_600, color=edge, max_lines=1,
                                    overflow=ft.TextOverflow.ELLIPSIS)],
                            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                            alignment=ft.MainAxisAlignment.SPACE_BETWEEN, spacing=2))


@kit.component
def MomentView(m: Moment, lang: str, width: float, host_panel: bool, hero: bool = False) -> ft.Control:
    """A reveal as a moment: the cards turn over together (AnimatedSwitcher, FLIP_S), and only once
    they have turned the outcome in large type; a resolution goes step by step (Next, or a steady
    pace on the display). The host's screen plays the same moment (its steps at the host's Next)."""
    from companion.ui.views import moment as _moment
    # 0: backs, 1: faces (turning), 2: + the outcome, 3..: the steps shown.
    timed = _moment.PLAY or not host_panel
    first = 0 if timed else 2
    state, set_state = ft.use_state((m.key, first))
    stage = state[1] if state[0] == m.key else first

    def set_stage(n: int) -> None:
        set_state((m.key, n))

    async def run() -> None:
        if not timed:
            return
        await asyncio.sleep(_moment.BACKS_S)
        set_stage(1)
        await asyncio.sleep(FLIP_S)  # the outcome after the cards have turned, never under their backs
        set_stage(2)
        if m.steps and not host_panel:  # the display goes on at a steady pace
            for n in range(len(m.steps)):
                await asyncio.sleep(STEP_S)
                set_stage(3 + n)
    ft.use_effect(run, [m.key])

    def t(key: str, **kw: Any) -> str:
        return i18n.t(lang, key, **kw)
    k = _hero_k(width) if hero else _k(width)  # the centre of the screen: larger still
    size = int(40 * k) if width > 1100 else 28
    big = int(BIG * k)
    head = int(HUGE * k) if hero else big  # the centre of the screen: what was asked, largest
    parts: list[ft.Control] = [ft.Text(m.title, size=head, weight=ft.FontWeight.BOLD,
                                       text_align=ft.TextAlign.CENTER if hero else None)]
    if m.cards:  # (a component of its own: the outcome's and the steps' redraws pass the cards over)
        card = size if len(m.cards) <= 5 else int(size * 0.75)
        if m.steps and width > 1100:  # a resolution (Lutèce): what the room reads is its steps
            card = int(card * 0.75)
        parts.append(_Flips(m, stage >= 1, card, hero))
    if stage >= 2:
        parts += [ft.Text(line, size=big if i else size, weight=ft.FontWeight.BOLD if not i else ft.FontWeight.W_600,
                          text_align=ft.TextAlign.CENTER if hero else None)
                  for i, line in enumerate(m.outcome)]
    if m.steps and stage >= 2:
        line = int(24 * min(k, 1.2))  # a step's lines: 28 px on a TV
        shown = max(0, stage - 2)
        if shown:
            head, lines = m.steps[shown - 1]
            parts.append(ft.Container(content=ft.Column(
                [ft.Text(t("display.step", n=shown, of=len(m.steps)) + " · " + head, size=big,
                         weight=ft.FontWeight.BOLD),
                 *[ft.Text(x, size=line) for x in lines]], spacing=2, tight=True),
                bgcolor=ft.Colors.AMBER_50, border_radius=14, padding=12,
                animate_opacity=300, key=f"step{shown}"))
        if shown < len(m.steps):  # (at the top, beside the title: it never moves below the fold)
            async def nxt(e: Any) -> None:
                set_stage(stage + 1)
            parts[0] = ft.Row([ft.Container(parts[0], expand=True),
                               kit.button(t("display.next"), nxt, icon=ft.Icons.PLAY_ARROW)], spacing=10)
        else:
            parts += [ft.Text(x, size=line + 2, weight=ft.FontWeight.W_600) for x in m.summary]
    return ft.Container(content=ft.Column(parts, spacing=14 if hero else 10, tight=True,
                                          horizontal_alignment=ft.CrossAxisAlignment.CENTER if hero else None),
                        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, border_radius=16, padding=24 if hero else 14,
                        border=ft.Border.all(3 if hero else 2, "#e8c07a"),
                        width=min(width, 1600) if hero else None)


@kit.component
def _Flips(m: Moment, up: bool, size: int, hero: bool) -> ft.Control:
    """The moment's cards, each turning over on its own switcher."""
    flips: list[ft.Control] = []
    for c in m.cards:
        flips.append(ft.Semantics(
            label=f"{m.seats[c.seat][0] if c.seat < len(m.seats) else '?'}: {c.face} {c.note}" if up else None,
            content=ft.AnimatedSwitcher(
                content=card_face(m, c, up, size),
                key=f"flip{c.seat}",
                transition=ft.AnimatedSwitcherTransition.SCALE, duration=int(FLIP_S * 1000),
                reverse_duration=int(FLIP_S * 500), switch_in_curve=ft.AnimationCurve.EASE_OUT_BACK)))
    return ft.Row(flips, wrap=True, spacing=12, run_spacing=12,
                  alignment=ft.MainAxisAlignment.CENTER if hero else ft.MainAxisAlignment.START)


# ---------- where the display is shown: /display/CODE and the host's screen during play ----------

SIDE = 460  # the host's panel beside the display (controls, the game's host part, admin)


def display_width(page_width: float | None, host_panel: bool) -> float:
    """The display's width in a window `page_width` wide (beside the host's panel: less)."""
    w = float(page_width or 1280)
    return max(480.0, w - 40 - (SIDE + 16 if host_panel else 0))


def display_sig(ctx: UiContext, width: float, host_panel: bool) -> tuple[Any, ...]:
    """What decides the display's redraw: its props (compared with ==) and its width class."""
    return (display_props(ctx, host_panel), round(width / 40))


def lobby(lang: str, code: str, url: str, seats: ft.Control) -> list[ft.Control]:
    """/display/CODE before the start: the join QR code, the table's code and address, the seats."""
    from companion.ui.views.host import qr_base64
    return [ft.Text(i18n.t(lang, "display.lobby"), size=HUGE, weight=ft.FontWeight.BOLD),
            ft.Row([ft.Image(src=qr_base64(url), width=320, height=320, semantics_label=i18n.t(lang, "ui.host.qr")),
                    ft.Column([ft.Text(i18n.t(lang, "ui.host.scan"), size=BIG),
                               ft.Text(code, size=72, weight=ft.FontWeight.BOLD),
                               ft.Text(url, size=BIG)], tight=True)], spacing=30, wrap=True),
            seats]


def denied(lang: str) -> list[ft.Control]:
    return [kit.card(ft.Text(i18n.t(lang, "display.no_key"), size=BIG, color=ft.Colors.RED_800),
                     bgcolor=ft.Colors.RED_50)]


def join_qr_dialog(lang: str, code: str, url: str, close: Callable[[], Any]) -> ft.AlertDialog:
    """A late-comer's QR code, one tap from the host's display (`close` takes it away)."""
    from companion.ui.views.host import qr_base64
    return ft.AlertDialog(title=ft.Text(i18n.t(lang, "ui.host.scan"), size=26), content=ft.Column([
        ft.Image(src=qr_base64(url), width=360, height=360, semantics_label=i18n.t(lang, "ui.host.qr")),
        ft.Text(code, size=48, weight=ft.FontWeight.BOLD), ft.Text(url, size=22)],
        tight=True, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        actions=[ft.FilledButton(content=i18n.t(lang, "display.join_done"), on_click=lambda e: close())])


@dataclass(frozen=True, eq=False)
class AdminCalls(kit.Calls):
    """What the host's tools beside the display do."""

    show_qr: Callable[[], None]  # the join QR code in a dialog
    toggle_admin: Callable[[], None]  # the table admin (QR, seats, downloads) shown or hidden


def admin_tools(lang: str, code: str, admin: bool, calls: AdminCalls) -> ft.Control:
    """The host's tools above its panel: the join QR code, the table admin, the display alone."""
    async def qr(e: Any) -> None:
        calls.show_qr()

    async def toggle(e: Any) -> None:
        calls.toggle_admin()
    return ft.Row([
        kit.button(i18n.t(lang, "display.join_qr"), qr, primary=False, icon=ft.Icons.QR_CODE),
        kit.button(i18n.t(lang, "display.admin_close" if admin else "display.admin"), toggle, primary=admin,
                   icon=ft.Icons.LIST),
        ft.TextButton(content=i18n.t(lang, "display.open"), url=f"/display/{code}", icon=ft.Icons.ARROW_FORWARD,
                      height=48),
    ], wrap=True, spacing=8, run_spacing=8)


def in_play(display: ft.Control, side: list[ft.Control]) -> ft.Control:
    """The host's screen while a game runs: the display, and beside it the host's panel (`side`)."""
    return ft.Row([
        ft.Container(content=ft.Column([display], scroll=ft.ScrollMode.AUTO, expand=True), expand=True),
        ft.Container(content=ft.Column(side, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True), width=SIDE),
    ], spacing=16, expand=True, vertical_alignment=ft.CrossAxisAlignment.START)
