"""A spectator's phone: the public game screen and the seats (companion/ui/assemble/ spectator puts
them together under this note)."""

from __future__ import annotations

import flet as ft

from companion import i18n
from companion.ui import kit


def spectating_note(lang: str) -> ft.Control:
    """What a spectator's phone says on top: it watches, it has no seat."""
    return kit.card(ft.Text(i18n.t(lang, "ui.phone.spectating"), size=18), bgcolor=ft.Colors.AMBER_50)
