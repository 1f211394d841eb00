"""The home screen: join by code; on the host's machine also create a table and the tables list.

Functions of what they draw – plain values, the create form's choices (`Form`), the tables as
`TableRow`s – and of the session's callbacks (`HomeCalls`, `FormCalls`), not of the Screen: the
screen's side (companion/ui/assemble/: home, create_form, old_tables) builds them and keeps the
form's choices."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion import i18n
from companion.table.hub import normalise_code
from companion.table.table import COLOURS
from companion.ui import kit
from companion.ui.names import name_field


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table in the host's lists: its code, its game's name and its phase, as shown."""

    code: str
    game: str
    phase: str


@dataclass(frozen=True, eq=False)
class HomeCalls(kit.Calls):
    go: Callable[[str], Awaitable[None]]  # to an address of this app
    open_host: Callable[[str], Awaitable[None]]  # a table's host screen (this machine only)
    confirm: Callable[[str, str, str, Callable[[], Awaitable[None]]], None]  # ask first: title, what, yes, then
    delete: Callable[[str], Awaitable[None]]  # delete a table (this machine only)


def head(lang: str, data_problem: str | None, problems: Sequence[str]) -> list[ft.Control]:
    """The title, and what is wrong with the data folder or a table's file."""
    out: list[ft.Control] = [kit.title(i18n.t(lang, "ui.home.title"))]
    if data_problem:
        out.append(kit.card(ft.Text(data_problem, size=16, color=ft.Colors.RED_800), bgcolor=ft.Colors.RED_50))
    for p in problems:
        out.append(kit.card(ft.Text(p, size=15, color=ft.Colors.RED_800), bgcolor=ft.Colors.RED_50))
    return out


def host_only(lang: str) -> ft.Control:
    """A phone on the Wi-Fi: creating tables and their list are the host's computer's."""
    return ft.Text(i18n.t(lang, "ui.home.host_only"), size=16, color=ft.Colors.ON_SURFACE_VARIANT)


def join_box(lang: str, calls: HomeCalls) -> ft.Control:
    """Join by code."""
    field = ft.TextField(label=i18n.t(lang, "ui.join.code"), capitalization=ft.TextCapitalization.CHARACTERS,
                         max_length=4, text_size=24, width=180)

    async def join(e: Any) -> None:
        code = normalise_code(field.value)
        if code:
            await calls.go(f"/t/{code}")
    field.on_submit = join
    return kit.card(kit.title(i18n.t(lang, "ui.join.title"), 20),
                    ft.Row([field, kit.button(i18n.t(lang, "ui.join.go"), join)], wrap=True))


@kit.component
def JoinBox(lang: str, calls: HomeCalls) -> ft.Control:
    return join_box(lang, calls)


def open_tables(lang: str, tables: Sequence[TableRow], calls: HomeCalls) -> list[ft.Control]:
    """The open tables, each with the way to its host screen."""
    if not tables:
        return []
    rows: list[ft.Control] = [kit.title(i18n.t(lang, "ui.home.tables"), 20)]
    for t in tables:
        async def open_host(e: Any, code: str = t.code) -> None:
            await calls.open_host(code)
        rows.append(ft.Row([
            ft.Text(f"{t.code} · {t.game} · {t.phase}", size=17, expand=True),
            kit.button(i18n.t(lang, "ui.open_host"), open_host, primary=False)]))
    return [kit.card(*rows)]


def old_tables(lang: str, tables: Sequence[TableRow], calls: HomeCalls) -> list[ft.Control]:
    """Ended and abandoned tables, for the host to look at or delete – each delete asks first and
    says that it cannot be taken back."""
    if not tables:
        return []

    def t(key: str, **kw: Any) -> str:
        return i18n.t(lang, key, **kw)
    rows: list[ft.Control] = [kit.title(t("ui.home.old_tables"), 20),
                              ft.Text(t("ui.home.old_hint"), size=15, color=ft.Colors.ON_SURFACE_VARIANT)]
    for m in tables:
        async def open_host(e: Any, code: str = m.code) -> None:
            await calls.open_host(code)

        async def delete(e: Any, code: str = m.code, name: str = m.game, phase: str = m.phase) -> None:
            async def yes() -> None:
                await calls.delete(code)
            calls.confirm(t("ui.home.delete_confirm", code=code),
                          t("ui.home.delete_what", code=code, game=name, phase=phase),
                          t("ui.home.delete_yes"), yes)
        rows.append(ft.Row([
            ft.Text(f"{m.code} · {m.game} · {m.phase}", size=17, expand=True),
            kit.button(t("ui.open_host"), open_host, primary=False),
            ft.Semantics(content=kit.button(t("ui.home.delete_yes"), delete, primary=False),
                         label=t("ui.home.delete", code=m.code))], wrap=True))
    return [kit.card(*rows)]


@dataclass(frozen=True, slots=True)
class Form:
    """The create form's choices as drawn (the typed names as they were then)."""

    games: tuple[tuple[str, str], ...]  # (id, name key) of every game
    game: str
    seat_counts: tuple[int, ...]  # what the game allows
    n: int
    names: tuple[str, ...]
    colours: tuple[str, ...]
    shared: tuple[bool, ...]  # seats played on the shared device (issue 29)
    options: tuple[Any, ...]  # the game's OPTIONS
    values: tuple[tuple[str, Any], ...]  # the options' values chosen so far


@dataclass(frozen=True, eq=False)
class FormCalls(kit.Calls):
    """What the create form's taps do: each choice kept by the screen, then the table created."""

    pick_game: Callable[[str], Awaitable[None]]
    pick_n: Callable[[int], Awaitable[None]]
    set_name: Callable[[int, str], None]  # (kept without a redraw)
    next_colour: Callable[[int], None]
    set_shared: Callable[[int, bool], None]
    set_option: Callable[[str, Any, bool], None]  # name, value, redraw (a choice's buttons show it)
    redraw: Callable[[], None]
    create: Callable[[], Awaitable[None]]


def create_form(lang: str, form: Form, calls: FormCalls) -> ft.Control:
    def t(key: str, **kw: Any) -> str:
        return i18n.t(lang, key, **kw)
    game_row = kit.choice_row(t("ui.create.game"), [(g, t(name)) for g, name in form.games], form.game,
                              calls.pick_game)

    async def n_changed(key: str) -> None:
        await calls.pick_n(int(key))
    n_row = kit.choice_row(t("ui.create.seats"), [(str(k), str(k)) for k in form.seat_counts], str(form.n),
                           n_changed)
    seat_rows: list[ft.Control] = []
    for i in range(form.n):
        def name_changed(typed: str, i: int = i) -> None:
            calls.set_name(i, typed)
        # a name too long is said under the field, not cut (the table refuses it too)
        f = name_field(lang, form.names[i], name_changed, calls.redraw,
                       label=t("ui.create.seat_name", n=i + 1), expand=True)

        async def next_colour(e: Any, i: int = i) -> None:
            calls.next_colour(i)
        seat_rows.append(ft.Row([
            ft.Container(width=44, height=44, bgcolor=form.colours[i], border_radius=22, on_click=next_colour,
                         tooltip=t("ui.create.colour")), f, shared_box(lang, form.shared[i], i, calls)]))
    values = dict(form.values)
    option_controls: list[ft.Control] = []
    for o in form.options:
        current = values.get(o.name, o.default)

        def set_opt(e: Any, name: str = o.name) -> None:
            calls.set_option(name, e.control.value, False)
        if o.kind == "choice":
            labels = o.choice_labels or tuple(str(c) for c in o.choices)

            async def pick_opt(key: str, name: str = o.name) -> None:
                calls.set_option(name, key, True)
            option_controls.append(kit.choice_row(
                t(o.label), [(str(c), t(lab) if i18n.has(lab) else lab)
                             for c, lab in zip(o.choices, labels, strict=False)], str(current), pick_opt))
        elif o.kind == "bool":
            option_controls.append(ft.Switch(label=t(o.label), value=bool(current), on_change=set_opt))
        else:
            option_controls.append(ft.TextField(
                label=t(o.label), value="" if current is None else str(current), on_change=set_opt,
                keyboard_type=ft.KeyboardType.NUMBER if o.kind == "int" else None))

    async def create(e: Any) -> None:
        await calls.create()
    parts: list[ft.Control] = [kit.title(t("ui.create.title"), 20), game_row, n_row, *seat_rows]
    if option_controls:
        parts += [ft.Text(t("ui.create.options"), size=16, weight=ft.FontWeight.BOLD), *option_controls]
    parts.append(kit.button(t("ui.create.go"), create, icon=ft.Icons.ADD))
    return kit.card(*parts)


def shared_box(lang: str, shared: bool, i: int, calls: FormCalls) -> ft.Control:
    """Seat i plays on a shared device, behind a cover (pass-and-play, issue 29)."""
    async def changed(e: Any) -> None:
        calls.set_shared(i, bool(e.control.value))
    return ft.Checkbox(label=i18n.t(lang, "ui.create.shared"), value=shared, on_change=changed,
                       tooltip=i18n.t(lang, "ui.create.shared_tip", n=i + 1),
                       label_style=ft.TextStyle(size=16))


def next_colour(colour: str) -> str:
    """The colour after `colour` in the seat colours (the first for one not among them)."""
    return COLOURS[(COLOURS.index(colour) + 1) % len(COLOURS)] if colour in COLOURS else COLOURS[0]


@kit.component
def CreateForm(lang: str, form: Form, calls: FormCalls) -> ft.Control:
    """The create form, drawn again when what it shows changes (a game, a seat count, a colour
    picked; the typed names as they were then)."""
    return create_form(lang, form, calls)
