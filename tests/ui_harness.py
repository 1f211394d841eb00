"""Game screens without a browser: a table, a seat's UiContext, and what its controls show.

Shared by the screen tests (tests/test_*_ui.py, tests/test_lutece_screens.py): build a screen
with `ctx(...)`, then look at it with `texts`, `text`, `buttons`, `fields` and press a button
with `asyncio.run(b.on_click(None))`; with `sent` the context records the actions instead of
sending them.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import flet as ft

from companion.games import games
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui.kit import UiContext

games()  # registers the catalogs

# attributes that hold a control's text or its children (a label may be a string or a control)
_PARTS = ("value", "label", "content", "controls", "cells", "rows", "columns", "text")


def started_table(game: str, names: list[str], options: dict[str, Any] | None = None, seed: int = 5,
                  code: str = "TEST") -> Table:
    """A table in memory with one seat per name, started by its host."""
    t = Table.create(MemoryStore(), code, game, options or {}, [{"name": n} for n in names], seed)
    t.request_sync(t.host_token, {"op": "start"})
    return t


class StateTable:
    """A bare game state as the table a screen reads (its view, its legal actions, its seats)."""

    def __init__(self, game: ModuleType, state: dict[str, Any], names: list[str]) -> None:
        self.game, self.state = game, state
        self.seats = [{"name": n, "colour": "#aa0000"} for n in names]

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.game.view(self.state, seat)

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        return self.game.legal(self.state, seat)


async def _noop() -> None:
    return None


def ctx(table: Any, seat: int | None, sent: list[Any] | None = None, host: bool = False, lang: str = "en",
        local: dict[str, Any] | None = None) -> UiContext:
    """The context a screen gets for `seat` (None with host=True: the host screen); with `sent`,
    every action its buttons send is appended there (and counts as accepted)."""
    c = UiContext(table, seat, None, lang, host, lambda m, e: None, local if local is not None else {}, _noop)
    if sent is not None:
        async def act(action: dict[str, Any]) -> bool:
            sent.append(action)
            return True
        c.act = act  # type: ignore[method-assign]
    return c


def walk(controls: Any, visit: Callable[[Any], None]) -> None:
    """Call `visit` on every control and string of the trees, in screen order."""
    if isinstance(controls, list | tuple):
        for x in controls:
            walk(x, visit)
        return
    visit(controls)
    if isinstance(controls, ft.BaseControl):
        for attr in _PARTS:
            v = getattr(controls, attr, None)
            if v is not None and not isinstance(v, str):
                walk(v, visit)


def controls_of(controls: Any) -> list[ft.BaseControl]:
    """Every control in the trees, in screen order."""
    out: list[ft.BaseControl] = []
    walk(controls, lambda c: out.append(c) if isinstance(c, ft.BaseControl) else None)
    return out


def texts(controls: Any) -> list[str]:
    """Every string the trees show (texts, labels, button contents), in screen order."""
    out: list[str] = []

    def visit(c: Any) -> None:
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, ft.BaseControl):
            out.extend(v for attr in _PARTS if isinstance(v := getattr(c, attr, None), str))
    walk(controls, visit)
    return out


def text(controls: Any) -> str:
    return "\n".join(texts(controls))


def buttons(controls: Any) -> dict[str, Any]:
    """The buttons with a text, by that text."""
    return {c.content: c for c in controls_of(controls)
            if isinstance(c, ft.FilledButton | ft.OutlinedButton) and isinstance(c.content, str)}


def fields(controls: Any) -> dict[str, ft.TextField]:
    """The text fields, by their label."""
    return {str(c.label): c for c in controls_of(controls) if isinstance(c, ft.TextField)}


def act(t: Table, seat: int | None, action: dict[str, Any]) -> None:
    """Apply an action straight to the table's state (what the table does once a screen sent it)."""
    t.state = t.game.apply(t.state, {**action, "seat": seat})
