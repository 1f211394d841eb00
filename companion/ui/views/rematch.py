""""Play again" at the scorer of a finished game (issue 21.2), on the host screen.

The host taps "Play again": a dialog says what happens (the same game with the same players,
seats, colours and options; every phone moves on by itself; this game stays readable at its
address) and shows the game's options prefilled with this table's, to change first. "Play again"
there calls `hub.rematch_async(code, options)`; the host screen opens the new table, and every
phone of this one follows (Session._changed: `follow_up(table)`). Once a rematch exists, the old
table's host screen shows the way to it instead.

Functions of what they draw (the language, codes, the game's options and their values) and of a
`RematchCalls`; the screen's side (companion/ui/assemble/: rematch_part, rematch_dialog,
play_again) builds them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion import i18n
from companion.ui import kit


@dataclass(frozen=True, eq=False)
class RematchCalls(kit.Calls):
    ask: Callable[[], None]  # the "Play again" dialog
    open_next: Callable[[], Awaitable[None]]  # the rematch's host screen


def done_card(lang: str, nxt: str, calls: RematchCalls) -> list[ft.Control]:
    """Once a rematch exists: its code, and the way to its host screen."""
    async def go(e: Any) -> None:
        await calls.open_next()
    return [kit.card(ft.Text(i18n.t(lang, "rematch.ui.done", code=nxt), size=17),
                     kit.button(i18n.t(lang, "rematch.ui.open", code=nxt), go, icon=ft.Icons.PLAY_ARROW))]


@kit.component
def RematchButton(lang: str, code: str, calls: RematchCalls) -> ft.Control:
    async def ask(e: Any) -> None:
        calls.ask()
    return kit.card(kit.button(i18n.t(lang, "rematch.ui.play_again"), ask, icon=ft.Icons.PLAY_ARROW),
                    ft.Text(i18n.t(lang, "rematch.ui.hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT))


def option_controls(lang: str, options: Sequence[Any], values: dict[str, Any]) -> list[ft.Control]:
    """The game's options form (its OPTIONS), prefilled with `values` (changed in place as the host edits)."""
    def t(key: str) -> str:
        return i18n.t(lang, key)
    out: list[ft.Control] = []
    for o in options:
        current = values.get(o.name, o.default)

        def set_opt(e: Any, name: str = o.name) -> None:
            values[name] = e.control.value
        if o.kind == "choice":
            labels = o.choice_labels or tuple(str(c) for c in o.choices)
            out.append(ft.Dropdown(
                label=t(o.label), value=str(current), on_select=set_opt, width=380,
                options=[ft.DropdownOption(key=str(c), text=t(lab) if i18n.has(lab) else lab)
                         for c, lab in zip(o.choices, labels, strict=False)]))
        elif o.kind == "bool":
            out.append(ft.Switch(label=t(o.label), value=bool(current), on_change=set_opt))
        else:
            out.append(ft.TextField(
                label=t(o.label), value="" if current is None else str(current), on_change=set_opt,
                keyboard_type=ft.KeyboardType.NUMBER if o.kind == "int" else None, width=380))
    return out


def chosen_options(options: Sequence[Any], values: dict[str, Any]) -> dict[str, Any]:
    """The form's values as the table takes them (a choice back to its own type)."""
    given: dict[str, Any] = {}
    for o in options:
        if o.name in values:
            v = values[o.name]
            if o.kind == "choice":
                v = next((c for c in o.choices if str(c) == str(v)), v)
            given[o.name] = v
    return given


def rematch_dialog(lang: str, game_name: str, seat_names: Sequence[str], options: Sequence[Any],
                   values: dict[str, Any], play: Callable[[dict[str, Any]], Awaitable[None]],
                   close: Callable[[], Any]) -> ft.AlertDialog:
    """What "Play again" does, the game's options prefilled with `values` (this table's), and the
    yes: `play` gets the options chosen, after `close` took the dialog away."""
    def t(key: str, **kw: Any) -> str:
        return i18n.t(lang, key, **kw)

    async def yes(e: Any) -> None:
        close()
        await play(chosen_options(options, values))
    form = option_controls(lang, options, values)
    body: list[ft.Control] = [ft.Text(t("rematch.ui.what", game=t(game_name), names=", ".join(seat_names)), size=16)]
    if form:
        body += [ft.Text(t("rematch.ui.options"), size=16, weight=ft.FontWeight.BOLD), *form]
    return ft.AlertDialog(
        title=ft.Text(t("rematch.ui.title")),
        content=ft.Column(body, tight=True, width=440, scroll=ft.ScrollMode.AUTO),
        actions=[ft.TextButton(content=t("ui.cancel"), on_click=lambda e: close()),
                 ft.FilledButton(content=t("rematch.ui.play_again"), on_click=yes)])
