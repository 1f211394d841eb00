"""Small building blocks shared by every screen: the per-session context and big, clear widgets.

Screens are rebuilt from data (`view(state, seat)` of the game, the table's public seats) on
every change; nothing here knows a game rule. Game screens live in companion/ui/games/<id>.py
and get a `UiContext`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from companion import i18n
from companion.games.base import RuleError
from companion.table.store import StoreError
from companion.table.table import Table

BIG = 56  # touch target height (px)
TEXT = 18
TITLE = 26


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
        self.view: dict[str, Any] = table.view(seat) or {}
        self.legal: list[dict[str, Any]] = table.legal(seat)

    def t(self, key: str, **params: Any) -> str:
        return i18n.t(self.lang, key, **params)

    def tv(self, value: Any) -> str:
        """A value that may be a catalog key (default options) or the host's own text."""
        if isinstance(value, str) and i18n.has(value):
            return self.t(value)
        return str(value)

    def msg(self, item: dict[str, Any]) -> str:
        """Translate a game log item {"key": ..., "params": {...}}; seat params become names."""
        params = dict(item.get("params") or {})
        for k, v in list(params.items()):
            if k in ("seat", "player", "by", "to", "winner", "from_seat") and isinstance(v, int):
                params[k] = self.name(v)
            elif isinstance(v, str) and i18n.has(v):
                params[k] = self.t(v)
        return self.t(item.get("key", ""), **params)

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.table.seats):
            return "?"
        return self.table.seats[seat]["name"]

    def colour(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.table.seats):
            return ft.Colors.GREY
        return self.table.seats[seat]["colour"]

    def toast(self, text: str, error: bool = False) -> None:
        self._toast(text, error)

    async def act(self, action: dict[str, Any]) -> bool:
        """Send a game action for this seat (or the host). Errors become a message; False then."""
        if self.busy:  # a double tap while the first is still in flight
            return False
        self.busy = True
        try:
            op = {"op": "host_act", "action": action} if self.is_host else {"op": "act", "action": action}
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


def signature(*parts: Any) -> str:
    return json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)


def title(text: str, size: int = TITLE) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD)


def text(value: str, size: int = TEXT, **kw: Any) -> ft.Text:
    return ft.Text(value, size=size, **kw)


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
    return b


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


def seat_dot(colour: str, size: int = 18) -> ft.Control:
    return ft.Container(width=size, height=size, bgcolor=colour, border_radius=size / 2)


def pill(label: str, bg: str, fg: str = ft.Colors.WHITE) -> ft.Control:
    return ft.Container(content=ft.Text(label, size=14, color=fg, weight=ft.FontWeight.W_600),
                        bgcolor=bg, border_radius=10, padding=ft.Padding.symmetric(horizontal=8, vertical=3))
