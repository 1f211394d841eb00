"""A phone's reveal moment (issue 30.3): the same moment as the table display's – the cards turning
over, then the outcome once they have turned – from the phone's own seat ("Your Yes – …", "You take
A for 3 gold"), short and skippable: a tap closes it, and it closes itself after HOLD_S.

Drawn from the seat's own view only (the game's display `moment(ctx)` on this seat's context, plus
its `yours(ctx, moment)` line): what this seat may see and nothing of another seat's secrets. It
sits on top of the phone's game part, drawn with it (one update per phone at a reveal); its timers
redraw only this component.

A phone plays only a reveal that happens while it is open: the moment already there when the screen
first drew (a reload, a late join) is not played again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import flet as ft

from companion import i18n
from companion.ui import flet_fast, kit
from companion.ui.kit import UiContext
from companion.ui.views import display as _display
from companion.ui.views.display import FLIP_S, Card, Moment

PLAY = True  # False: moments drawn at their end at once, no timers (tests comparing message streams)
BACKS_S = 0.25  # the backs before they turn
HOLD_S = 4.0  # the outcome stays this long after the cards have turned, then the moment closes
CARD = 22  # a card's size on a phone (display.card_face)
UNSEEN = object()  # no moment seen yet: the screen has not drawn one since its address changed


@dataclass
class Seen:
    """The last reveal each kind of moment on a screen has seen (a moment's key, None: there was none),
    kept by the screen (`Screen.seen`, a new record at every new address: another table, a rematch) and
    set by the views as they draw: the moment already there when the screen first drew is not played."""

    moment: Any = UNSEEN  # a seated phone's moment (drawn)
    flip: Any = UNSEEN  # the public game part waiting for the cards (after_flip)


def seat_moment(ctx: UiContext) -> Moment | None:
    """The last reveal as this seat sees it: the table's public moment (the display's, built once
    per state and language from the public view – a reveal is public, this seat's own choice in
    it too) with the game's line for this seat (`yours`, from the seat's own view)."""
    mod = _display.game_display(ctx)
    if mod is None or not hasattr(mod, "moment"):
        return None
    memo = getattr(ctx.table, "memo", None)

    def make() -> Moment | None:
        m = _display.public_moment(ctx, mod)
        if m is None or ctx.seat is None or not hasattr(mod, "yours"):
            return m
        yours = mod.yours(ctx, m) or ""
        # A reveal that grows (LUTETIA: the cards turn one by one as their seats declare, the outcome
        # comes with the last): the seat's line is a new moment on the phone – the one of the first
        # cards has closed by itself (HOLD_S) when a table takes longer to declare, and would stay
        # closed under the same key.
        return replace(m, key=f"{m.key}:yours" if yours else m.key, yours=yours, first=False)
    if memo is None:
        return make()
    return memo(f"seat moment:{ctx.seat}:{ctx.lang}", make)  # type: ignore[no-any-return]


def drawn(ctx: UiContext, seen: Seen) -> tuple[tuple[Any, ...], Any]:
    """The moment's props and builder, for the top of a seated phone's game part (`ctx`, the seat's:
    assemble.game_section) on a screen that has seen `seen` (Screen.seen): a new reveal changes
    them, and the game's part is redrawn then."""
    m = seat_moment(ctx) if ctx.table.state is not None and ctx.seat is not None else None
    if seen.moment is UNSEEN:  # the moment there when this screen first drew: not played
        seen.moment = m.key if m is not None else None
    play = m is not None and m.key != seen.moment
    lang = ctx.lang
    shown = m if play else None
    # The game's part below waits for the cards too (its result list would tell the outcome
    # before they have turned): drawn inside the moment's component, from its outcome on.
    # One component under one key, with or without a moment: a reveal redraws it in place, so
    # Flet sends what changed in the game's part, not the whole part again (issue 30.10).
    return ("moment", lang, shown), lambda make: [SeatMoment(shown, lang, Part(make), key="sm")]


def after_flip(ctx: UiContext, seen: Seen) -> tuple[tuple[Any, ...], Any]:
    """For the public game part (`ctx`, the public view: the host's side panel, a spectator): its
    props and a wrapper that hides the part while the last reveal's cards turn (the display's moment
    plays beside it) – its result list would tell the outcome before they have turned. Only a reveal
    that happens while this screen is open (`seen`, Screen.seen: as a phone's moment)."""
    m = None
    if ctx.table.state is not None:
        m = _display.public_moment(ctx, _display.game_display(ctx))
    if seen.flip is UNSEEN:
        seen.flip = m.key if m is not None else None
    key = None if m is None or m.key == seen.flip or not m.cards else m.key
    # One component under one key, with or without a reveal to wait for: redrawn in place.
    return ("flip", key), lambda make: [AfterFlip(key, Part(make), key="af")]


class Part:
    """A part of the screen still to be built (the game's part under a moment): built only once it
    is shown (issue 30.10: a reveal does not build and send a result list that stays hidden while
    the cards turn – it is built when they have turned), once per redraw of the slot (a new Part:
    compared by identity). Until then the part last shown stays, hidden: the new one is compared
    with it, and Flet sends what changed (a past round's line is not sent again)."""

    __slots__ = ("make", "built")

    def __init__(self, make: Callable[[], list[ft.Control]]) -> None:
        self.make = make
        self.built: list[ft.Control] | None = None

    def controls(self, shown: bool, kept: Any) -> list[ft.Control]:
        if not shown:
            return kept.current or []  # type: ignore[no-any-return]
        if self.built is None:
            self.built = self.make()
        kept.current = self.built
        return self.built


class _Ref:
    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current: Any = None


def _use_ref() -> Any:
    """The controls a component last showed (Flet's use_ref inside a render; outside one, none)."""
    return ft.use_ref(None) if flet_fast.rendering() else _Ref()


@kit.component
def AfterFlip(mkey: Any, below: Part) -> ft.Control:
    """`below`, shown once the moment's cards have turned (BACKS_S + FLIP_S, as the display's);
    at once when there is no reveal to wait for (mkey None)."""
    state, set_state = _use_state((mkey, not PLAY or not flet_fast.rendering()))
    shown = mkey is None or (state[1] if state[0] == mkey else not PLAY)
    kept = _use_ref()

    async def run() -> None:
        if not PLAY or mkey is None:
            return
        await asyncio.sleep(BACKS_S + FLIP_S)
        set_state((mkey, True))
    _use_effect(run, [mkey])
    return ft.Column(below.controls(shown, kept), visible=shown, tight=True)


def _use_state(initial: Any) -> tuple[Any, Any]:
    """Flet's use_state inside a render; outside one (a test building a screen's controls) there is
    no renderer to hold a state: the moment is built at its end (as PLAY=False), nothing set later."""
    if flet_fast.rendering():
        return ft.use_state(initial)  # type: ignore[no-any-return]
    return initial, lambda value: None


def _use_effect(fn: Any, deps: list[Any]) -> None:
    if flet_fast.rendering():
        ft.use_effect(fn, deps)


@kit.component
def SeatMoment(m: Moment | None, lang: str, below: Part | None = None) -> ft.Control:
    """The cards turn over (a face per seat: its name, its choice), then this seat's outcome in large
    type and the table's under it; a tap anywhere on it closes it. `below` (the game's part of the
    phone) is hidden until the outcome shows: no tally before the cards have turned. No moment
    (None): `below` only. The same two children either way (the moment's box, the part below), so a
    redraw changes what changed in them."""
    mkey = m.key if m is not None else None
    # 0: backs, 1: faces turning, 2: the outcome, 3: closed
    state, set_state = _use_state((mkey, 0 if PLAY and flet_fast.rendering() else 2))
    stage = 3 if m is None else state[1] if state[0] == mkey else (0 if PLAY else 2)

    def set_stage(n: int) -> None:
        set_state((mkey, n))

    async def run() -> None:
        if not PLAY or m is None:
            return
        await asyncio.sleep(BACKS_S)
        set_stage(1)
        await asyncio.sleep(FLIP_S)
        set_stage(2)
        await asyncio.sleep(HOLD_S)
        set_stage(3)
    _use_effect(run, [mkey])
    ready = m is None or stage >= 2
    kept = _use_ref()
    after = ft.Column(below.controls(ready, kept) if below is not None else [], visible=ready, tight=True)
    if m is None:
        return ft.Column([ft.Container(visible=False), after], tight=True)

    async def skip(e: Any) -> None:
        set_stage(3)
    # Each step redraws only what it changes (issue 30.10): the head and the cards are components
    # of their own (passed over while their props are unchanged), the outcome comes under them,
    # and a closed moment is hidden, not taken down (the next reveal redraws it in place).
    parts: list[ft.Control] = [_Head(m.title)]
    if m.cards:
        parts.append(_Cards(m, stage >= 1))
    if stage >= 2:
        if m.yours:
            parts.append(ft.Text(m.yours, size=26, weight=ft.FontWeight.BOLD))
        parts += [ft.Text(x, size=18, weight=ft.FontWeight.W_600) for x in m.outcome]
        if m.steps and not m.yours:  # (a resolution: its summary, the steps stay on the screen below)
            parts += [ft.Text(x, size=16) for x in m.summary]
    box = ft.Container(content=ft.Column(parts, spacing=8, tight=True), on_click=skip,
                       tooltip=i18n.t(lang, "moment.skip"), bgcolor=ft.Colors.AMBER_50, border_radius=16,
                       padding=12, border=ft.Border.all(3, "#e8c07a"), visible=stage < 3)
    return ft.Column([box, after], tight=True)


@kit.component
def _Head(title: str) -> ft.Control:
    return ft.Row([ft.Text(title, size=18, weight=ft.FontWeight.BOLD, expand=True),
                   ft.Icon(ft.Icons.CLOSE, size=22)], spacing=6)


@kit.component
def _Cards(m: Moment, up: bool) -> ft.Control:
    """One switcher turns the whole row over (the cards turn together): few controls to send to
    every phone at the reveal."""
    return ft.AnimatedSwitcher(
        content=ft.Row([face(m, c) if up else _back(m, c) for c in m.cards], wrap=True, spacing=6,
                       run_spacing=6, key=f"{'faces' if up else 'backs'}:{m.key}"),
        transition=ft.AnimatedSwitcherTransition.SCALE, duration=int(FLIP_S * 1000),
        reverse_duration=int(FLIP_S * 500), switch_in_curve=ft.AnimationCurve.EASE_OUT_BACK)


def _back(m: Moment, c: Card) -> ft.Control:
    return ft.Container(width=CARD * 2.6, height=CARD * 3.4, border_radius=10, bgcolor="#6d3b1a")


def face(m: Moment, c: Card) -> ft.Control:
    """A card's face on a phone: whose (name, in the seat's colour), the choice, the word under it.
    The card is as wide as its word, on one line ("Tacos" never breaks as "Taco / s"): about 0.64 em
    a letter in bold plus the card's border and padding; a long word (over 10 letters) smaller, on
    two lines at most."""
    name, colour = m.seats[c.seat] if 0 <= c.seat < len(m.seats) else ("?", "#777777")
    edge = ft.Colors.GREEN_700 if c.good is True else ft.Colors.RED_700 if c.good is False else colour
    n = len(c.face)
    size = CARD if n <= 5 else 17 if n <= 8 else 14 if n <= 10 else 13
    one_line = n <= 10
    lines: list[ft.Control] = [
        ft.Text(name, size=13, weight=ft.FontWeight.BOLD, max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS),
        ft.Text(c.face, size=size, weight=ft.FontWeight.BOLD, max_lines=1 if one_line else 2, no_wrap=one_line,
                overflow=ft.TextOverflow.ELLIPSIS, text_align=ft.TextAlign.CENTER)]
    if c.note:
        lines.append(ft.Text(c.note, size=12, color=edge, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS))
    width = max(CARD * 2.6, min(n, 10) * size * 0.64 + 24, len(c.note) * 12 * 0.55 + 16)
    return ft.Container(width=min(width, 150), height=CARD * 3.4, border_radius=10,
                        bgcolor=ft.Colors.WHITE, border=ft.Border.all(3, edge), padding=4,
                        content=ft.Column(lines, spacing=0, tight=True,
                                          horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                                          alignment=ft.MainAxisAlignment.SPACE_BETWEEN))
