"""The screen's side of a phone without a seat (views/join.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.games.base import RuleError
from companion.table.store import StoreError
from companion.ui import names
from companion.ui.views import join as _join

if TYPE_CHECKING:
    from companion.table.table import Table
    from companion.ui.screens import Screen




def typed_name(scr: Screen) -> str | None:
    """The name in the join screen's field: the control's value (Flet writes a keystroke into
    it before any handler runs), else what its change handler kept."""
    typed = scr.join_field.value if scr.join_field is not None else None
    return (typed or scr.local.get("name") or "").strip() or None


def name_calls(scr: Screen) -> _join.NameCalls:
    def keep(typed: str) -> None:
        scr.local["name"] = typed

    def drawn(field: ft.TextField) -> None:
        scr.join_field = field
    return _join.NameCalls(lambda: scr.local.get("name", ""), keep, lambda: scr.render(force=True), drawn)


def join_name_field(scr: Screen) -> ft.Control:
    return _join.JoinName(scr.lang, names.too_long(scr.lang, scr.local.get("name")), name_calls(scr))


async def seat_taken(scr: Screen, code: str, reply: dict[str, Any] | None) -> None:
    """A seat (or a spectator's place) given: its token kept in this browser and in the address."""
    if reply and reply.get("token"):
        scr.token = reply["token"]
        await scr.save(f"seat:{code}", scr.token)
        # ... and in the address, which a re-created session still sends (see route()).
        await scr.go(f"/t/{code}?s={scr.token}")


def join_calls(scr: Screen, t: Table) -> _join.JoinCalls:
    async def take(i: int, shown: str) -> None:
        try:
            reply = await t.request("", {"op": "join", "seat": i, "name": scr.typed_name()})
        except RuleError as ex:
            key = "ui.phone.just_taken" if ex.key == "tbl.err.seat_taken" else ex.key
            scr.toast(scr.t(key, **(ex.params if key == ex.key else {"name": shown})), True)
            return
        except StoreError:
            scr.toast(scr.t("ui.err.store"), True)
            return
        await seat_taken(scr, t.code, reply)

    async def watch() -> None:
        await seat_taken(scr, t.code, await scr.request({"op": "spectate", "name": scr.typed_name()}, token=""))
    return _join.JoinCalls(take, watch)


def join_screen(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    # Its own part: another phone taking a seat redraws the seat buttons, not what is being typed here.
    name = scr.join_name_field()
    if scr.finding:
        return _join.finding(scr.lang)
    seats = tuple(_join.JoinSeat(s["name"], s["colour"], bool(s.get("token")), bool(s.get("shared")))
                  for s in t.seats)
    lost = bool(scr.token) and t.seat_of(scr.token) is None and not t.is_spectator(scr.token)
    return _join.join_screen(scr.lang, t.phase, seats, lost, name, join_calls(scr, t))


def join_error(scr: Screen) -> list[ft.Control]:
    return _join.join_error(scr.error or "", scr.join_box())
