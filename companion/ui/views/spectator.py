"""A spectator's phone: the public game screen and the seats."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.ui import kit

if TYPE_CHECKING:
    from companion.ui.screens import Screen


def spectator(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    out: list[ft.Control] = [kit.card(ft.Text(scr.t("ui.phone.spectating"), size=18),
                                      bgcolor=ft.Colors.AMBER_50)]
    if t.state is not None:
        out.append(scr.game_live())
    out.append(scr.seat_part(host=False))
    return out
