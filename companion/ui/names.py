"""Names on screen: a name field that says when a name is too long (instead of silently cutting
it), and a name as one line that ends in "…" when it does not fit (never broken mid-word)."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion import i18n
from companion.table.table import MAX_NAME


def too_long(lang: str, value: str | None) -> str | None:
    """The message for a name longer than a seat takes, else None (the table says the same)."""
    return i18n.t(lang, "tbl.err.name_long", max=MAX_NAME) if len((value or "").strip()) > MAX_NAME else None


def watch_length(field: ft.TextField, lang: str) -> None:
    """`field` shows the too-long message under itself while its name is too long (typed or pasted:
    nothing is cut), and clears it once the name fits. Chains the field's own on_change."""
    own = field.on_change
    field.error = too_long(lang, field.value)

    async def changed(e: Any) -> None:
        field.error = too_long(lang, field.value)
        if own is not None:
            res = own(e)
            if hasattr(res, "__await__"):
                await res
    field.on_change = changed


def one_line(name: str, size: float, **kw: Any) -> ft.Text:
    """A name on one line, shortened with an ellipsis when its space is too narrow."""
    return ft.Text(name, size=size, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, no_wrap=True, **kw)
