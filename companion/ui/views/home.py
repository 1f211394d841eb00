"""The home screen: join by code; on the host's machine also create a table and the tables list."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games import games
from companion.games.base import RuleError
from companion.table.hub import normalise_code, problem_text
from companion.table.store import StoreError
from companion.table.table import COLOURS
from companion.ui import kit
from companion.ui.names import name_field
from companion.ui.views.history import history_link

if TYPE_CHECKING:
    from companion.ui.screens import Screen


def home(scr: Screen) -> list[ft.Control]:
    out: list[ft.Control] = [kit.title(scr.t("ui.home.title"))]
    if scr.server.data_problem:
        out.append(kit.card(ft.Text(scr.server.data_problem, size=16, color=ft.Colors.RED_800),
                            bgcolor=ft.Colors.RED_50))
    for p in scr.hub.problems:
        out.append(kit.card(ft.Text(problem_text(scr.lang, p),
                                    size=15, color=ft.Colors.RED_800), bgcolor=ft.Colors.RED_50))
    out.append(JoinBox(scr, scr.lang))
    if not scr.server.is_host_machine(scr.conn):
        # A phone on the Wi-Fi: it joins by code. Creating tables and the list of the open
        # tables (with their codes) are the host's, on the computer the app runs on.
        out.append(ft.Text(scr.t("ui.home.host_only"), size=16, color=ft.Colors.ON_SURFACE_VARIANT))
        return out
    loc = scr.local
    opts = tuple((k, tuple(v.items())) for k, v in loc.items() if k.startswith("opts:"))
    out.append(CreateForm(scr, scr.lang, loc.get("game"), loc.get("n"), tuple(loc.get("names") or ()),
                          tuple(loc.get("colours") or ()), opts, tuple(loc.get("shared") or ())))
    open_tables = scr.hub.open_tables()  # from the store's table list: no log is loaded
    if open_tables:
        rows: list[ft.Control] = [kit.title(scr.t("ui.home.tables"), 20)]
        for t in sorted(open_tables, key=lambda x: x.code):
            async def open_host(e: Any, code: str = t.code) -> None:
                table = scr.hub.get(code)
                if table is not None and scr.server.is_host_machine(scr.conn):
                    await scr.become_host(code, table.host_token)
            rows.append(ft.Row([
                ft.Text(f"{t.code} · {scr.t(games()[t.game].NAME)} · {scr.t('ui.phase.' + t.phase)}",
                        size=17, expand=True),
                kit.button(scr.t("ui.open_host"), open_host, primary=False)]))
        out.append(kit.card(*rows))
    out += scr.old_tables()
    out.append(history_link(scr))  # the history page (views/history.py)
    return out


def old_tables(scr: Screen) -> list[ft.Control]:
    """Ended and abandoned tables (the newest 20), for the host to look at or delete – each
    delete asks first and says that it cannot be taken back."""
    old = sorted((m for m in scr.hub.metas() if scr.hub.deletable(m)), key=lambda m: -m.last)[:20]
    if not old:
        return []
    rows: list[ft.Control] = [kit.title(scr.t("ui.home.old_tables"), 20),
                              ft.Text(scr.t("ui.home.old_hint"), size=15, color=ft.Colors.ON_SURFACE_VARIANT)]
    for m in old:
        name = scr.t(games()[m.game].NAME) if m.game in games() else m.game
        phase = scr.t("ui.phase." + m.phase) if i18n.has("ui.phase." + m.phase) else m.phase

        async def open_host(e: Any, code: str = m.code) -> None:
            table = scr.hub.get(code)
            if table is not None and scr.server.is_host_machine(scr.conn):
                await scr.become_host(code, table.host_token)

        async def delete(e: Any, code: str = m.code, name: str = name, phase: str = phase) -> None:
            async def yes() -> None:
                if not scr.server.is_host_machine(scr.conn):
                    return
                try:
                    scr.hub.delete(code)
                except RuleError as ex:
                    scr.toast(scr.t(ex.key, **ex.params), True)
                    return
                except StoreError:
                    scr.toast(scr.t("ui.err.store"), True)
                    return
                scr.toast(scr.t("ui.home.deleted", code=code))
                scr.render(force=True)
            scr.confirm(scr.t("ui.home.delete_confirm", code=code),
                         scr.t("ui.home.delete_what", code=code, game=name, phase=phase),
                         scr.t("ui.home.delete_yes"), yes)
        rows.append(ft.Row([
            ft.Text(f"{m.code} · {name} · {phase}", size=17, expand=True),
            kit.button(scr.t("ui.open_host"), open_host, primary=False),
            ft.Semantics(content=kit.button(scr.t("ui.home.delete_yes"), delete, primary=False),
                         label=scr.t("ui.home.delete", code=m.code))], wrap=True))
    return [kit.card(*rows)]


def join_box(scr: Screen) -> ft.Control:
    field = ft.TextField(label=scr.t("ui.join.code"), capitalization=ft.TextCapitalization.CHARACTERS,
                         max_length=4, text_size=24, width=180)

    async def join(e: Any) -> None:
        code = normalise_code(field.value)
        if code:
            await scr.go(f"/t/{code}")
    field.on_submit = join
    return kit.card(kit.title(scr.t("ui.join.title"), 20),
                    ft.Row([field, kit.button(scr.t("ui.join.go"), join)], wrap=True))


def create_form(scr: Screen) -> ft.Control:
    loc = scr.local
    gs = games()
    loc.setdefault("game", "sealed_vote")
    game = gs[loc["game"]]
    loc.setdefault("n", min(max(4, game.MIN_SEATS), game.MAX_SEATS))
    loc["n"] = min(max(loc["n"], game.MIN_SEATS), game.MAX_SEATS)
    names: list[str] = loc.setdefault("names", [""] * 8)
    colours: list[str] = loc.setdefault("colours", list(COLOURS))
    shared: list[bool] = loc.setdefault("shared", [False] * 8)  # plays on the shared device (issue 29)
    opts: dict[str, Any] = loc.setdefault(f"opts:{loc['game']}", {})

    async def game_changed(key: str) -> None:
        loc["game"] = key
        scr.render(force=True)
    game_row = kit.choice_row(scr.t("ui.create.game"), [(g.ID, scr.t(g.NAME)) for g in gs.values()],
                              loc["game"], game_changed)

    async def n_changed(key: str) -> None:
        loc["n"] = int(key)
        scr.render(force=True)
    n_row = kit.choice_row(scr.t("ui.create.seats"),
                           [(str(k), str(k)) for k in range(game.MIN_SEATS, game.MAX_SEATS + 1)],
                           str(loc["n"]), n_changed)
    seat_rows: list[ft.Control] = []
    for i in range(loc["n"]):
        def name_changed(typed: str, i: int = i) -> None:
            names[i] = typed
        # a name too long is said under the field, not cut (the table refuses it too)
        f = name_field(scr.lang, names[i], name_changed, lambda: scr.render(force=True),
                       label=scr.t("ui.create.seat_name", n=i + 1), expand=True)

        async def next_colour(e: Any, i: int = i) -> None:
            colours[i] = COLOURS[(COLOURS.index(colours[i]) + 1) % len(COLOURS)] \
                if colours[i] in COLOURS else COLOURS[0]
            scr.render(force=True)
        seat_rows.append(ft.Row([
            ft.Container(width=44, height=44, bgcolor=colours[i], border_radius=22, on_click=next_colour,
                         tooltip=scr.t("ui.create.colour")), f, shared_box(scr, shared, i)]))
    option_controls: list[ft.Control] = []
    for o in game.OPTIONS:
        current = opts.get(o.name, o.default)

        def set_opt(e: Any, name: str = o.name, kind: str = o.kind) -> None:
            v = e.control.value
            opts[name] = v
        if o.kind == "choice":
            labels = o.choice_labels or tuple(str(c) for c in o.choices)

            async def pick_opt(key: str, name: str = o.name) -> None:
                opts[name] = key
                scr.render(force=True)
            option_controls.append(kit.choice_row(
                scr.t(o.label), [(str(c), scr.t(lab) if i18n.has(lab) else lab)
                                  for c, lab in zip(o.choices, labels, strict=False)], str(current), pick_opt))
        elif o.kind == "bool":
            option_controls.append(ft.Switch(label=scr.t(o.label), value=bool(current), on_change=set_opt))
        else:
            option_controls.append(ft.TextField(
                label=scr.t(o.label), value="" if current is None else str(current), on_change=set_opt,
                keyboard_type=ft.KeyboardType.NUMBER if o.kind == "int" else None))

    async def create(e: Any) -> None:
        if not scr.server.is_host_machine(scr.conn):  # (the form is not offered elsewhere)
            scr.toast(scr.t("ui.home.host_only"), True)
            return
        given: dict[str, Any] = {}
        for o in game.OPTIONS:
            if o.name in opts:
                v = opts[o.name]
                if o.kind == "choice":
                    v = next((c for c in o.choices if str(c) == str(v)), v)
                given[o.name] = v
        seats = [{"name": names[i].strip() or scr.t("ui.player_n", n=i + 1), "colour": colours[i],
                  "shared": shared[i]} for i in range(loc["n"])]
        try:
            table = await asyncio.to_thread(scr.hub.create, game.ID, given, seats)
        except RuleError as ex:
            scr.toast(scr.t(ex.key, **ex.params), True)
            return
        except StoreError:
            scr.toast(scr.t("ui.err.store"), True)
            return
        # The key goes into this browser's storage and, when the page loads again, into the
        # table's host cookie – never into the address (companion/ui/boot.py).
        await scr.become_host(table.code, table.host_token)

    parts: list[ft.Control] = [kit.title(scr.t("ui.create.title"), 20), game_row, n_row, *seat_rows]
    if option_controls:
        parts += [ft.Text(scr.t("ui.create.options"), size=16, weight=ft.FontWeight.BOLD), *option_controls]
    parts.append(kit.button(scr.t("ui.create.go"), create, icon=ft.Icons.ADD))
    return kit.card(*parts)


def shared_box(scr: Screen, shared: list[bool], i: int) -> ft.Control:
    """Seat i plays on a shared device, behind a cover (pass-and-play, issue 29)."""
    async def changed(e: Any) -> None:
        shared[i] = bool(e.control.value)
        scr.render(force=True)
    return ft.Checkbox(label=scr.t("ui.create.shared"), value=shared[i], on_change=changed,
                       tooltip=scr.t("ui.create.shared_tip", n=i + 1),
                       label_style=ft.TextStyle(size=16))


@kit.component
def JoinBox(scr: Screen, lang: str) -> ft.Control:
    return join_box(scr)


@kit.component
def CreateForm(scr: Screen, lang: str, game: str | None, n: int | None, names: tuple[str, ...],
               colours: tuple[str, ...], opts: tuple[tuple[str, Any], ...],
               shared: tuple[bool, ...] = ()) -> ft.Control:
    """The create form, drawn again when what it shows changes (a game, a seat count, a colour
    picked; the typed names as they were then)."""
    return create_form(scr)
