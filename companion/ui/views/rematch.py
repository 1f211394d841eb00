""""Play again" at the scorer of a finished game (issue 21.2), on the host screen.

The host taps "Play again": a dialog says what happens (the same game with the same players,
seats, colours and options; every phone moves on by itself; this game stays readable at its
address) and shows the game's options prefilled with this table's, to change first. "Play again"
there calls `hub.rematch_async(code, options)`; the host screen opens the new table, and every
phone of this one follows (Session._changed: `follow_up(table)`). Once a rematch exists, the old
table's host screen shows the way to it instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games.base import RuleError
from companion.table.hub import follow_up
from companion.table.store import StoreError
from companion.ui import kit

if TYPE_CHECKING:
    from companion.ui.screens import Screen


def rematch_part(scr: Screen) -> list[ft.Control]:
    """The "Play again" card for the host of a finished table ([] for anyone else)."""
    t = scr.table
    if t is None or scr.role != "host" or t.state is None or not (t.phase == "ended" or t.finished()):
        return []
    nxt = follow_up(t)
    if nxt:
        async def go(e: Any) -> None:
            new = scr.hub.get(nxt)
            if new is not None and scr.token is not None and new.is_host(scr.token):
                await scr.become_host(nxt, scr.token)
        return [kit.card(ft.Text(scr.t("rematch.ui.done", code=nxt), size=17),
                         kit.button(scr.t("rematch.ui.open", code=nxt), go, icon=ft.Icons.PLAY_ARROW))]
    return [RematchButton(scr, scr.lang, t.code)]


@kit.component
def RematchButton(scr: Screen, lang: str, code: str) -> ft.Control:
    async def ask(e: Any) -> None:
        dialog(scr)
    return kit.card(kit.button(scr.t("rematch.ui.play_again"), ask, icon=ft.Icons.PLAY_ARROW),
                    ft.Text(scr.t("rematch.ui.hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT))


def option_controls(scr: Screen, values: dict[str, Any]) -> list[ft.Control]:
    """The game's options form, prefilled with `values` (changed in place as the host edits)."""
    t = scr.table
    assert t is not None
    out: list[ft.Control] = []
    for o in t.game.OPTIONS:
        current = values.get(o.name, o.default)

        def set_opt(e: Any, name: str = o.name) -> None:
            values[name] = e.control.value
        if o.kind == "choice":
            labels = o.choice_labels or tuple(str(c) for c in o.choices)
            out.append(ft.Dropdown(
                label=scr.t(o.label), value=str(current), on_select=set_opt, width=380,
                options=[ft.DropdownOption(key=str(c), text=scr.t(lab) if i18n.has(lab) else lab)
                         for c, lab in zip(o.choices, labels, strict=False)]))
        elif o.kind == "bool":
            out.append(ft.Switch(label=scr.t(o.label), value=bool(current), on_change=set_opt))
        else:
            out.append(ft.TextField(
                label=scr.t(o.label), value="" if current is None else str(current), on_change=set_opt,
                keyboard_type=ft.KeyboardType.NUMBER if o.kind == "int" else None, width=380))
    return out


def chosen_options(scr: Screen, values: dict[str, Any]) -> dict[str, Any]:
    """The form's values as the table takes them (a choice back to its own type)."""
    t = scr.table
    assert t is not None
    given: dict[str, Any] = {}
    for o in t.game.OPTIONS:
        if o.name in values:
            v = values[o.name]
            if o.kind == "choice":
                v = next((c for c in o.choices if str(c) == str(v)), v)
            given[o.name] = v
    return given


def dialog(scr: Screen) -> None:
    t = scr.table
    assert t is not None
    values: dict[str, Any] = dict(t.options)
    code = t.code

    async def yes(e: Any) -> None:
        scr.page.pop_dialog()
        await play_again(scr, code, chosen_options(scr, values))
    names = ", ".join(s["name"] for s in t.seats)
    form = option_controls(scr, values)
    body: list[ft.Control] = [ft.Text(scr.t("rematch.ui.what", game=scr.t(t.game.NAME), names=names), size=16)]
    if form:
        body += [ft.Text(scr.t("rematch.ui.options"), size=16, weight=ft.FontWeight.BOLD), *form]
    dlg = ft.AlertDialog(
        title=ft.Text(scr.t("rematch.ui.title")),
        content=ft.Column(body, tight=True, width=440, scroll=ft.ScrollMode.AUTO),
        actions=[ft.TextButton(content=scr.t("ui.cancel"), on_click=lambda e: scr.page.pop_dialog()),
                 ft.FilledButton(content=scr.t("rematch.ui.play_again"), on_click=yes)])
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
    except RuleError as ex:
        scr.toast(scr.t(ex.key, **ex.params), True)
        return
    except StoreError:
        scr.toast(scr.t("ui.err.store"), True)
        return
    await scr.become_host(new.code, new.host_token)
