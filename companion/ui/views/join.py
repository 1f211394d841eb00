"""A phone without a seat: pick a free seat (or watch), and a wrong code's message."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.games.base import RuleError
from companion.table.store import StoreError
from companion.ui import kit, names

if TYPE_CHECKING:
    from companion.ui.screens import Screen


def typed_name(scr: Screen) -> str | None:
    """The name in the join screen's field: the control's value (Flet writes a keystroke into
    it before any handler runs), else what its change handler kept."""
    typed = scr.join_field.value if scr.join_field is not None else None
    return (typed or scr.local.get("name") or "").strip() or None


def join_name_field(scr: Screen) -> ft.Control:
    def keep(typed: str) -> None:
        scr.local["name"] = typed
    # a name too long is said under the field, not cut
    name = names.name_field(scr.lang, scr.local.get("name", ""), keep, lambda: scr.render(force=True),
                            label=scr.t("ui.phone.your_name"), text_size=20)
    scr.join_field = name
    return name


def join_screen(scr: Screen) -> list[ft.Control]:
    t = scr.table
    assert t is not None
    # Its own part: another phone taking a seat redraws the seat buttons, not what is being typed here.
    name = JoinName(scr, scr.lang, names.too_long(scr.lang, scr.local.get("name")))
    if scr.finding:
        return [kit.card(ft.Row([ft.ProgressRing(width=24, height=24),
                                 ft.Text(scr.t("ui.phone.finding_seat"), size=18, expand=True)], spacing=14))]
    out: list[ft.Control] = [kit.title(scr.t("ui.phone.welcome"), 24)]
    if scr.token and t.seat_of(scr.token) is None and not t.is_spectator(scr.token):
        out.append(kit.card(ft.Text(scr.t("ui.phone.seat_lost"), size=16), bgcolor=ft.Colors.AMBER_50))

    async def taken(reply: dict[str, Any] | None) -> None:
        if reply and reply.get("token"):
            scr.token = reply["token"]
            await scr.save(f"seat:{t.code}", scr.token)
            # ... and in the address, which a re-created session still sends (see route()).
            await scr.go(f"/t/{t.code}?s={scr.token}")
    free = t.free_seats()
    if t.phase == "lobby" and free:
        out.append(ft.Text(scr.t("ui.phone.pick_seat"), size=18))
        out.append(name)
        # Every seat in its place: a seat taken meanwhile stays where it was, disabled, with its
        # new name – the buttons never move under a finger. A tap that lands on a seat taken an
        # instant before says so by the name the phone showed, and seats nobody.
        for i, s in enumerate(t.seats):
            if s.get("token") or s.get("shared"):  # (a shared seat plays on the shared device: issue 29)
                out.append(kit.button(scr.t("ui.phone.seat_shared" if s.get("shared") else "ui.phone.seat_taken_by",
                                            name=s["name"]), None, primary=False, disabled=True, width=10_000))
                continue

            async def take(e: Any, i: int = i, shown: str = s["name"]) -> None:
                try:
                    reply = await t.request("", {"op": "join", "seat": i, "name": scr.typed_name()})
                except RuleError as ex:
                    key = "ui.phone.just_taken" if ex.key == "tbl.err.seat_taken" else ex.key
                    scr.toast(scr.t(key, **(ex.params if key == ex.key else {"name": shown})), True)
                    return
                except StoreError:
                    scr.toast(scr.t("ui.err.store"), True)
                    return
                await taken(reply)
            out.append(kit.button(scr.t("ui.phone.take_seat", name=s["name"]), take, colour=s["colour"],
                                  width=10_000))
    else:
        reason = "ui.phone.full" if t.phase == "lobby" else "ui.phone.started"
        out.append(kit.card(ft.Text(scr.t(reason), size=18)))
        out.append(name)

        async def watch(e: Any) -> None:
            await taken(await scr.request({"op": "spectate", "name": scr.typed_name()},
                                             token=""))
        out.append(kit.button(scr.t("ui.phone.watch"), watch, width=10_000))
    return out


def join_error(scr: Screen) -> list[ft.Control]:
    return [kit.card(ft.Text(scr.error or "", size=20, color=ft.Colors.RED_800), bgcolor=ft.Colors.RED_50),
            scr.join_box()]


@kit.component
def JoinName(scr: Screen, lang: str, error: str | None) -> ft.Control:
    return scr.join_name_field()
