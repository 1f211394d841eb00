"""The screen's side of "Play again" (views/rematch.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.games.base import RuleError
from companion.table.hub import follow_up
from companion.table.store import StoreError
from companion.ui.views import rematch as _rematch

if TYPE_CHECKING:
    from companion.ui.screens import Screen




def rematch_part(scr: Screen) -> list[ft.Control]:
    """The "Play again" card for the host of a finished table ([] for anyone else)."""
    t = scr.table
    if t is None or scr.role != "host" or t.state is None or not (t.phase == "ended" or t.finished()):
        return []
    nxt = follow_up(t)

    async def open_next() -> None:
        new = scr.hub.get(nxt) if nxt else None
        if nxt and new is not None and scr.token is not None and new.is_host(scr.token):
            await scr.become_host(nxt, scr.token)
    calls = _rematch.RematchCalls(lambda: rematch_dialog(scr), open_next)
    if nxt:
        return _rematch.done_card(scr.lang, nxt, calls)
    return [_rematch.RematchButton(scr.lang, t.code, calls)]


def rematch_dialog(scr: Screen) -> None:
    t = scr.table
    assert t is not None
    code = t.code

    async def play(options: dict[str, Any]) -> None:
        await play_again(scr, code, options)
    dlg = _rematch.rematch_dialog(scr.lang, t.game.NAME, [s["name"] for s in t.seats], t.game.OPTIONS,
                                  dict(t.options), play, scr.page.pop_dialog)
    scr.local["rematch:dialog"] = dlg  # (tests read it)
    try:
        scr.page.show_dialog(dlg)
    except RuntimeError:
        pass


async def play_again(scr: Screen, code: str, options: dict[str, Any] | None) -> None:
    """Start the rematch and open its host screen (the phones follow by themselves)."""
    t = scr.table
    if t is None or scr.role != "host" or scr.token is None or not t.is_host(scr.token):
        return
    try:
        new = await scr.hub.rematch_async(code, options)
    except (RuleError, StoreError) as ex:
        scr.refused(ex)
        return
    await scr.become_host(new.code, new.host_token)
