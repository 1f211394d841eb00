"""Names on screen: a name field that says when a name is too long (instead of silently cutting
it, as a max_length did), and a name as one line that ends in "…" when it does not fit (never broken mid-word)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion import i18n
from companion.table.table import MAX_NAME


def too_long(lang: str, value: str | None) -> str | None:
    """The message for a name longer than a seat takes, else None (the table says the same)."""
    return i18n.t(lang, "tbl.err.name_long", max=MAX_NAME) if len((value or "").strip()) > MAX_NAME else None


def name_field(lang: str, value: str, on_change: Callable[[str], None], redraw: Callable[[], None],
               **kw: Any) -> ft.TextField:
    """A name field that shows the too-long message under itself while its name is too long (typed
    or pasted: nothing is cut) and clears it once the name fits. Controls are frozen in this app's
    declarative screens: the message is a prop of the field, drawn again (`redraw`) when it changes;
    `on_change` keeps the typed text where the next frame's `value` comes from."""
    shown = too_long(lang, value)
    field = ft.TextField(value=value, error=shown, **kw)

    def changed(e: Any) -> None:
        typed = e.control.value or ""
        on_change(typed)
        if too_long(lang, typed) != shown:
            redraw()
    field.on_change = changed
    return field


def one_line(name: str, size: float, **kw: Any) -> ft.Text:
    """A name on one line, shortened with an ellipsis when its space is too narrow."""
    return ft.Text(name, size=size, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, no_wrap=True, **kw)
