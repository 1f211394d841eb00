"""Small building blocks shared by every screen: the per-session context and big, clear widgets.

Screens are rebuilt from data (`view(state, seat)` of the game, the table's public seats) on
every change; nothing here knows a game rule. Game screens live in companion/games/<id>/screens.py
and get a `UiContext`.

A screen is cut into *parts*, each a Flet component of immutable props (`component`): Flet's
memo compares a part's arguments with its last render's and passes it over, controls and
handlers kept, when all are equal. A change at the table (a lock, a reveal) therefore rebuilds
and diffs only the parts that show it, and what a player is typing in one part is not redrawn
by another player's action. A part draws only from its props (no hand-made signature beside
them), so there is no list of fields to forget: what it is not given it cannot draw.

The game modules' props: `Look` (language, seat, host or not, the players' names and colours)
and data frozen from the view (`freeze`, `UiContext.frozen_view`: read-only dicts and tuples,
compared with ==); `Handlers` for what a tap does (never for what is drawn). The game's part
and the seat list are also redrawn on their own, ahead of the rest of the screen (`Slot`).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec

import flet as ft

from companion import i18n, settings
from companion.games.base import Result, RuleError
from companion.table.store import StoreError
from companion.table.table import Table
from companion.ui import flet_fast

# Faster copies of three hot paths of Flet's (same messages: tests/test_flet_fast.py); stock Flet,
# with one warning, on another Flet version; COMPANION_FLET_PATCHES=0 switches them off.
flet_fast.install(settings.current().flet_patches)

BIG = 56  # touch target height (px)
TEXT = 18
TITLE = 26


class _Build:
    """A slot's builder (Slot, live): what it shows (`sig`, compared with ==) and how to build it."""

    __slots__ = ("sig", "fn")

    def __init__(self, sig: Any, fn: Callable[[], Any]) -> None:
        self.sig = sig
        self.fn = fn


def _made(build: _Build) -> ft.Control:
    made = build.fn()
    if isinstance(made, list):
        return ft.Column(made, spacing=14, tight=True)  # as the screen body between its parts
    return made


class Frozen(dict):  # type: ignore[type-arg]
    """A read-only dict: a prop built from a game's view (freeze). Equal (==) to any mapping of
    equal items, so Flet's memo compares it in C, however deep."""

    __slots__ = ()

    def _readonly(self, *a: Any, **k: Any) -> None:
        raise TypeError("a prop is read-only")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _readonly  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]


_PLAIN = frozenset({str, int, float, bool, type(None)})


def freeze(value: Any) -> Any:
    """A game's view (dicts, lists, plain values) as an immutable prop: dicts become `Frozen`,
    lists tuples. Equal exactly when the data is equal (note: as in Python, True == 1)."""
    t = type(value)
    if t is dict:
        return Frozen({k: v if type(v) in _PLAIN else freeze(v) for k, v in value.items()})
    if t is list or t is tuple:
        return tuple(v if type(v) in _PLAIN else freeze(v) for v in value)
    if t is Frozen or t in _PLAIN:
        return value
    if isinstance(value, dict):
        return Frozen({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


_ENTRIES: weakref.WeakKeyDictionary[Any, dict[str, dict[int, tuple[Any, Any]]]] = weakref.WeakKeyDictionary()


def freeze_entries(table: Any, kind: str, items: list[Any]) -> tuple[Any, ...]:
    """`items` – entries of an append-only list of the state (base.clone's `append_only`: a
    history of rounds, a log; never changed once written, shared by every later state) – frozen,
    each entry once for the table's life (by identity) instead of once per state and screen."""
    per_table = _ENTRIES.setdefault(table, {})
    old = per_table.get(kind, {})
    new: dict[int, tuple[Any, Any]] = {}
    out = []
    for item in items:
        hit = old.get(id(item))
        frozen = hit[1] if hit is not None and hit[0] is item else freeze(item)
        new[id(item)] = (item, frozen)  # (the entry held, so that its id is not reused meanwhile)
        out.append(frozen)
    per_table[kind] = new
    return tuple(out)


class Handlers:
    """What a part *does* on a tap (the session's context: act, local, rerender), as a prop that
    is always equal to another Handlers: it never redraws a part, so a part may use it only in
    its event handlers, never for what it draws (that must be in its other props)."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: UiContext) -> None:
        self.ctx = ctx

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Handlers)

    def __ne__(self, other: object) -> bool:
        return not isinstance(other, Handlers)

    __hash__ = None  # type: ignore[assignment]


class Calls:
    """What a view does on a tap, handed to it by the screen (companion/ui/assemble/): the session's
    callbacks (send a request, ask before it, redraw…) as one prop. Like Handlers it is always equal
    to another Calls of its class – it never redraws a part, and a view draws nothing from it (what
    it shows is in its other props). Subclass it as `@dataclass(frozen=True, eq=False)` with the
    callables as fields; they act on the live session, so a part drawn earlier still acts right."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __ne__(self, other: object) -> bool:
        return type(other) is not type(self)

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Look:
    """What every game part draws its words and seats with, as a prop: the language, this
    screen's seat, host or not, and the players' names and colours (UiContext.look)."""

    lang: str
    seat: int | None
    is_host: bool
    people: tuple[tuple[str, str], ...]  # (name, colour) per seat

    def t(self, key: str, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)

    def tv(self, value: Any) -> str:
        """A value that may be a catalog key (default options) or the host's own text."""
        if isinstance(value, str) and i18n.has(value):
            return self.t(value)
        return str(value)

    def msg(self, item: Mapping[str, Any]) -> str:
        """Translate a game log item {"key": ..., "params": {...}}; seat params become names."""
        params = dict(item.get("params") or {})
        for k, v in list(params.items()):
            if k in ("seat", "player", "by", "to", "winner", "from_seat") and isinstance(v, int):
                params[k] = self.name(v)
            elif isinstance(v, str) and i18n.has(v):
                params[k] = self.t(v)
        return self.t(item.get("key", ""), **params)

    def names(self, seats: Iterable[int]) -> str:
        """Seats' names as the language lists them: "Ann", "Ann and Bob", "Ann, Bob and Cleo"."""
        names = [self.name(s) for s in seats]
        if len(names) <= 1:
            return "".join(names)
        return self.t("ui.list_and", first=", ".join(names[:-1]), last=names[-1])

    def waiting_for(self, seats: list[int]) -> str:
        """"Waiting for Ann and Bob…" – by name, never "2 player(s)"."""
        return self.t("ui.waiting_for", names=self.names(seats)) if seats else self.t("ui.wait_reveal")

    def name(self, seat: int | None) -> str:
        """The seat's name as this screen's language says it (a default "Player 2" becomes
        "Joueur 2" on a French screen; a given name as it is)."""
        if seat is None or not 0 <= seat < len(self.people):
            return "?"
        return i18n.seat_name(self.lang, self.people[seat][0])

    def colour(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.people):
            return ft.Colors.GREY
        return self.people[seat][1]


P = ParamSpec("P")


def component(fn: Callable[P, ft.Control]) -> Callable[P, ft.Control]:
    """A view as a Flet component of immutable props (companion/ui/views/): inside a render,
    `View(a, b, key=...)` is a memoised Flet component – Flet compares each argument (`is`, else
    `==`) with its last render's and passes it over, controls and handlers kept, when all are
    equal; so its props must be what it shows (strings, numbers, tuples, frozen dataclasses; the
    screen itself, by identity, for its handlers). Outside a render (a test calling a view
    function) it is built at once."""
    memo = ft.memo(ft.component(fn))

    @functools.wraps(fn)
    def make(*args: Any, key: str | None = None, **kwargs: Any) -> ft.Control:
        if not flet_fast.rendering():
            return fn(*args, **kwargs)
        return memo(*args, key=key, **kwargs)
    return make  # type: ignore[return-value]


class Slot:
    """A part that can also redraw on its own, ahead of the rest of its screen.

    The game's part of a screen lives in a slot: when a change at the table alters it (a
    reveal), every screen of the table first redraws just that part, and only then the rest
    (seat list, buttons). A reveal so reaches all screens after the sum of the game parts'
    redraws, not of the whole screens'.
    """

    def __init__(self) -> None:
        self.sig: Any = None
        self.fn: Callable[[], Any] | None = None
        self.shown: Any = None  # the sig now on screen
        self.set_tick: Callable[[Any], None] | None = None
        self.arg: _SlotArg | None = None  # the argument of the component now showing the slot
        self.tick = 0

    def on_screen(self) -> bool:
        return self.set_tick is not None and self.shown is not None

    def redraw(self, sig: Any, fn: Callable[[], Any]) -> bool:
        """Redraw the slot now, on its own; False when it is not on screen (draw the screen instead)."""
        if not self.on_screen():
            return False
        self.sig, self.fn = sig, fn
        self.tick += 1
        self.set_tick(self.tick)  # type: ignore[misc]
        return True

    def brought_up_to(self, sig: Any, fn: Callable[[], Any]) -> None:
        """The slot now shows `sig`, its inner slots having been redrawn one by one: a later
        redraw of the screen around it with this same `sig` passes it over, another draws it."""
        self.sig, self.fn = sig, fn
        self.shown = sig
        if self.arg is not None:
            self.arg.sig = sig


class _SlotArg:
    __slots__ = ("slot", "sig")

    def __init__(self, slot: Slot, sig: Any) -> None:
        self.slot = slot
        self.sig = sig

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _SlotArg) and other.slot is self.slot and other.sig == self.sig

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]


@ft.component
def _Live(arg: _SlotArg) -> ft.Control:
    _tick, set_tick = ft.use_state(0)
    slot = arg.slot
    slot.set_tick = set_tick
    slot.arg = arg
    # What this component now shows; a redraw of the whole screen with the same sig passes it over.
    arg.sig = slot.shown = slot.sig
    assert slot.fn is not None
    return _made(_Build(slot.sig or b"", slot.fn))


_MemoLive = ft.memo(_Live)


def live(slot: Slot, sig: Any, fn: Callable[[], Any], key: str = "live") -> ft.Control:
    """Place `slot` in a screen being drawn, showing `fn()` (rebuilt when `sig` changes)."""
    slot.sig, slot.fn = sig, fn
    if not flet_fast.rendering():
        return _made(_Build(sig, fn))
    return _MemoLive(_SlotArg(slot, sig), key=key)


def field(ctx: UiContext, key: str, make: Callable[[str], ft.TextField], default: str = "",
          props: Any = None) -> ft.Control:
    """A text field in a component of its own, its text kept in ctx.local[key].

    Another player's action redraws the parts around it, never the field: what is being typed
    is not overwritten by a redraw that started before the keystroke reached the server. The
    field is drawn afresh only when one of its props changes: the language and players (look),
    its key, its generation (clear_fields), its default, and `props` – all that `make` draws
    with besides the language (e.g. the limits in its label). Read the value with
    ctx.local.get(key, default); `clear_fields` empties it after a send.
    """
    gen = ctx.local.get(key + "#gen", 0)
    return _Field(ctx.look, key, gen, default, props, _Maker(ctx, make), key=key)


class _Maker(Handlers):
    """A field's maker (`make` with the session's context): handlers only, never a redraw."""

    __slots__ = ("make",)

    def __init__(self, ctx: UiContext, make: Callable[[str], ft.TextField]) -> None:
        super().__init__(ctx)
        self.make = make


def _field(look: Look, key: str, gen: int, default: str, props: Any, maker: _Maker) -> ft.Control:
    local = maker.ctx.local
    tf = maker.make(str(local.get(key, default)))

    def changed(e: Any) -> None:
        local[key] = e.control.value or ""
    tf.on_change = changed
    return tf


_Field = component(_field)


def clear_fields(ctx: UiContext, *keys: str) -> None:
    """Forget typed values and draw those fields afresh (empty, or showing their default)."""
    for key in keys:
        ctx.local.pop(key, None)
        ctx.local[key + "#gen"] = ctx.local.get(key + "#gen", 0) + 1


class UiContext:
    """What a game screen may use: translation, names, its seat's view, and `act`."""

    def __init__(self, table: Table, seat: int | None, token: str | None, lang: str, is_host: bool,
                 toast: Callable[[str, bool], None], local: dict[str, Any],
                 rerender: Callable[[], Awaitable[None]]) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.lang = lang
        self.is_host = is_host
        self._toast = toast
        self.local = local  # survives re-renders: half-typed inputs, selections
        self.rerender = rerender
        self.busy = False
        self._look: Look | None = None
        self.view: dict[str, Any] = table.view(seat) or {}
        self.legal: list[dict[str, Any]] = table.legal(seat)

    @property
    def look(self) -> Look:
        """The language, this seat, host or not, and the players' names and colours: the prop
        every game part draws its words and seats with."""
        if self._look is None:
            self._look = Look(self.lang, self.seat, self.is_host,
                              tuple((s["name"], s["colour"]) for s in self.table.seats))
        return self._look

    def t(self, key: str, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)

    def tv(self, value: Any) -> str:
        return self.look.tv(value)

    def msg(self, item: Mapping[str, Any]) -> str:
        return self.look.msg(item)

    def names(self, seats: Iterable[int]) -> str:
        return self.look.names(seats)

    def waiting_for(self, seats: list[int]) -> str:
        return self.look.waiting_for(seats)

    def name(self, seat: int | None) -> str:
        return self.look.name(seat)

    def colour(self, seat: int | None) -> str:
        return self.look.colour(seat)

    def outcome(self) -> Result | None:
        """The game's result in the one shape of every game (base.Result: ranks, scores,
        winners, breakdown, tie_break; `spec.outcome(state)`), worked out once per state."""
        t = self.table
        if t.state is None:
            return None
        from companion.games import spec

        def make() -> Result | None:
            gid = getattr(t, "game_id", None)
            return spec(gid).outcome(t.state) if gid else t.game.outcome(t.state)
        memo = getattr(t, "memo", None)  # (a test's stand-in table may have none)
        return memo("outcome", make) if memo is not None else make()

    def frozen_legal(self) -> tuple[Any, ...]:
        """This seat's legal actions as an immutable prop, worked out once per state and seat."""
        legal = self.legal
        memo = getattr(self.table, "memo", None)
        if memo is not None:
            made, frozen = memo(f"frozen legal:{self.seat}:{self.is_host}", lambda: (legal, freeze(legal)))
            if made is legal:
                return frozen  # type: ignore[no-any-return]
        return freeze(legal)  # type: ignore[no-any-return]

    def frozen_view(self) -> Any:
        """This seat's view as an immutable prop (freeze), worked out once per state and seat."""
        view = self.view
        memo = getattr(self.table, "memo", None)  # (a test's stand-in table may have none)
        if memo is not None:
            made, frozen = memo(f"frozen view:{self.seat}", lambda: (view, freeze(view)))
            if made is view:  # (ctx.view is the table's view of this seat unless a test set it)
                return frozen
        return freeze(view)

    def toast(self, text: str, error: bool = False) -> None:
        self._toast(text, error)

    async def act(self, action: dict[str, Any]) -> bool:
        """Send a game action for this seat (or the host). Errors become a message; False then."""
        return await self.send({"op": "host_act", "action": action} if self.is_host else {"op": "act", "action": action})

    async def send(self, op: dict[str, Any]) -> bool:
        """Send `op` to the table with this context's token, one at a time: a refusal (RuleError)
        or a store that cannot write becomes a message (a toast); False then – and for a double
        tap while the first is still in flight."""
        if self.busy:
            return False
        self.busy = True
        try:
            await self.table.request(self.token, op)
            return True
        except RuleError as e:
            self.toast(self.t(e.key, **e.params), True)
            return False
        except StoreError:
            self.toast(self.t("ui.err.store"), True)
            return False
        finally:
            self.busy = False


def title(text: str, size: int = TITLE) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD)


def text(value: str, size: int = TEXT, **kw: Any) -> ft.Text:
    return ft.Text(value, size=size, **kw)


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def on_colour(hex_colour: str) -> str:
    """Text colour for a button of this colour: white where it reads (≥ 4.5:1), else black – white
    on the yellow or orange seat was 2.0:1 and 2.7:1."""
    try:
        if contrast(hex_colour, "#ffffff") >= 4.5:
            return "#ffffff"
    except (ValueError, IndexError):
        return "#ffffff"
    return "#000000"


def button(label: str, on_click: Callable[..., Any] | None, primary: bool = True,
           disabled: bool = False, expand: bool | int | None = None, width: float | None = None,
           colour: str | None = None, icon: Any = None) -> ft.Control:
    style = ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12),
                           text_style=ft.TextStyle(size=TEXT, weight=ft.FontWeight.W_600))
    cls = ft.FilledButton if primary else ft.OutlinedButton
    b = cls(content=label, on_click=on_click, disabled=disabled, style=style, height=BIG,
            expand=expand, width=width, icon=icon)
    if colour and primary:
        b.bgcolor = colour
        if colour.startswith("#") and len(colour) == 7:
            b.color = on_colour(colour)
    return b


def choice_row(label: str, options: list[tuple[str, str]], value: str,
               on_pick: Callable[[str], Awaitable[None]]) -> ft.Control:
    """A labelled row of buttons, one per option, the chosen one filled and ticked.

    Used instead of a dropdown where the options are few: every option is visible at once, one
    tap chooses, and each button carries its text (screen readers and tests find it by name)."""
    buttons: list[ft.Control] = []
    for key, text in options:
        async def pick(e: Any, key: str = key) -> None:
            await on_pick(key)
        chosen = key == value
        cls = ft.FilledButton if chosen else ft.OutlinedButton
        buttons.append(cls(content=text, on_click=pick, height=48,
                           icon=ft.Icons.CHECK if chosen else None,
                           style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12),
                                                text_style=ft.TextStyle(size=17))))
    return ft.Column([ft.Text(label, size=16, weight=ft.FontWeight.W_600),
                      ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)], spacing=6, tight=True)


def chip(label: str, colour: str, selected: bool = False) -> ft.Control:
    return ft.Container(
        content=ft.Text(label, size=16, color=ft.Colors.WHITE, weight=ft.FontWeight.W_600),
        bgcolor=colour, border_radius=20, padding=ft.Padding.symmetric(horizontal=12, vertical=6),
        border=ft.Border.all(3, ft.Colors.BLACK) if selected else None,
    )


def card(*controls: ft.Control, bgcolor: str | None = None, padding: int = 14) -> ft.Container:
    return ft.Container(
        content=ft.Column(list(controls), spacing=10, tight=True),
        bgcolor=bgcolor or ft.Colors.SURFACE_CONTAINER_LOW, border_radius=14, padding=padding,
    )


SEAT_MARKS = ("dot", "square", "diamond", "hbar", "vbar", "ring", "plus", "cross")  # one per seat colour


def seat_mark(colour: str) -> str:
    """The white mark inside a seat's colour dot, so that seats differ by more than colour (issue
    18.7: red and green seats merge for a colour-blind player): one per colour of COLOURS, in order."""
    from companion.table.table import COLOURS
    c = colour.lower()
    i = COLOURS.index(c) if c in COLOURS else sum(map(ord, c)) % len(SEAT_MARKS)
    return SEAT_MARKS[i % len(SEAT_MARKS)]


def _mark(kind: str, m: float) -> ft.Control:
    white = ft.Colors.WHITE
    bar = max(2.0, m * 0.34)
    if kind == "dot":
        return ft.Container(width=m, height=m, bgcolor=white, border_radius=m / 2)
    if kind == "square":
        return ft.Container(width=m * 0.9, height=m * 0.9, bgcolor=white)
    if kind == "diamond":
        return ft.Container(width=m * 0.8, height=m * 0.8, bgcolor=white, rotate=ft.Rotate(angle=0.785398))
    if kind == "hbar":
        return ft.Container(width=m * 1.3, height=bar, bgcolor=white)
    if kind == "vbar":
        return ft.Container(width=bar, height=m * 1.3, bgcolor=white)
    if kind == "ring":
        return ft.Container(width=m * 1.1, height=m * 1.1, border_radius=m, border=ft.Border.all(bar * 0.8, white))
    plus = ft.Stack([ft.Container(width=m * 1.3, height=bar, bgcolor=white),
                     ft.Container(width=bar, height=m * 1.3, bgcolor=white)],
                    width=m * 1.3, height=m * 1.3, alignment=ft.Alignment.CENTER)
    if kind == "cross":
        return ft.Container(content=plus, rotate=ft.Rotate(angle=0.785398))
    return plus


def seat_dot(colour: str, size: int = 18) -> ft.Control:
    """A seat's colour, with its white mark inside (seat_mark): told apart without colour too."""
    return ft.Container(width=size, height=size, bgcolor=colour, border_radius=size / 2,
                        content=_mark(seat_mark(colour), size * 0.42), alignment=ft.Alignment.CENTER)


def pill(label: str, bg: str, fg: str = ft.Colors.WHITE) -> ft.Control:
    return ft.Container(content=ft.Text(label, size=14, color=fg, weight=ft.FontWeight.W_600),
                        bgcolor=bg, border_radius=10, padding=ft.Padding.symmetric(horizontal=8, vertical=3))
