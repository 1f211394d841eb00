"""The screen's side of the home screen (views/home.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games import games
from companion.games.base import RuleError
from companion.table.hub import problem_text
from companion.table.store import StoreError
from companion.table.table import COLOURS
from companion.ui.assemble.for_history import history_link
from companion.ui.views import home as _home

if TYPE_CHECKING:
    from companion.ui.screens import Screen




def home_calls(scr: Screen) -> _home.HomeCalls:
    async def open_host(code: str) -> None:
        table = scr.hub.get(code)
        if table is not None and scr.server.is_host_machine(scr.conn):
            await scr.become_host(code, table.host_token)

    async def delete(code: str) -> None:
        if not scr.server.is_host_machine(scr.conn):
            return
        try:
            scr.hub.delete(code)
        except (RuleError, StoreError) as ex:
            scr.refused(ex)
            return
        scr.toast(scr.t("ui.home.deleted", code=code))
        scr.render(force=True)
    return _home.HomeCalls(scr.go, open_host, lambda *a: scr.confirm(*a), delete)


def home(scr: Screen) -> list[ft.Control]:
    out = _home.head(scr.lang, scr.server.data_problem, [problem_text(scr.lang, p) for p in scr.hub.problems])
    calls = home_calls(scr)
    out.append(_home.JoinBox(scr.lang, calls))
    if not scr.server.is_host_machine(scr.conn):
        # A phone on the Wi-Fi: it joins by code. Creating tables and the list of the open
        # tables (with their codes) are the host's, on the computer the app runs on.
        out.append(_home.host_only(scr.lang))
        return out
    form, form_calls = create_state(scr)
    out.append(_home.CreateForm(scr.lang, form, form_calls))
    gs = games()
    out += _home.open_tables(scr.lang, [_home.TableRow(t.code, scr.t(gs[t.game].NAME), scr.t("ui.phase." + t.phase))
                                        for t in sorted(scr.hub.open_tables(), key=lambda x: x.code)], calls)
    out += scr.old_tables()
    out.append(history_link(scr))  # the history page (views/history.py)
    return out


def old_tables(scr: Screen) -> list[ft.Control]:
    """Ended and abandoned tables (the newest 20), for the host to look at or delete."""
    old = sorted((m for m in scr.hub.metas() if scr.hub.deletable(m)), key=lambda m: -m.last)[:20]
    gs = games()
    rows = [_home.TableRow(m.code, scr.t(gs[m.game].NAME) if m.game in gs else m.game,
                           scr.t("ui.phase." + m.phase) if i18n.has("ui.phase." + m.phase) else m.phase)
            for m in old]
    return _home.old_tables(scr.lang, rows, home_calls(scr))


def join_box(scr: Screen) -> ft.Control:
    return _home.join_box(scr.lang, home_calls(scr))


def create_state(scr: Screen) -> tuple[_home.Form, _home.FormCalls]:
    """The create form's choices (kept in the screen's local choices, defaults set here) and what
    its taps do."""
    loc = scr.local
    gs = games()
    loc.setdefault("game", "sealed_vote")
    game = gs[loc["game"]]
    loc.setdefault("n", min(max(4, game.MIN_SEATS), game.MAX_SEATS))
    loc["n"] = min(max(loc["n"], game.MIN_SEATS), game.MAX_SEATS)
    names_: list[str] = loc.setdefault("names", [""] * 8)
    colours: list[str] = loc.setdefault("colours", list(COLOURS))
    shared: list[bool] = loc.setdefault("shared", [False] * 8)  # plays on the shared device (issue 29)
    opts: dict[str, Any] = loc.setdefault(f"opts:{loc['game']}", {})
    form = _home.Form(tuple((g.ID, g.NAME) for g in gs.values()), loc["game"],
                      tuple(range(game.MIN_SEATS, game.MAX_SEATS + 1)), loc["n"], tuple(names_), tuple(colours),
                      tuple(shared), tuple(game.OPTIONS), tuple(opts.items()))

    def redraw() -> None:
        scr.render(force=True)

    async def pick_game(key: str) -> None:
        loc["game"] = key
        redraw()

    async def pick_n(n: int) -> None:
        loc["n"] = n
        redraw()

    def set_name(i: int, typed: str) -> None:
        names_[i] = typed

    def next_colour(i: int) -> None:
        colours[i] = _home.next_colour(colours[i])
        redraw()

    def set_shared(i: int, on: bool) -> None:
        shared[i] = on
        redraw()

    def set_option(name: str, value: Any, again: bool) -> None:
        opts[name] = value
        if again:
            redraw()

    async def create() -> None:
        await create_table(scr)
    return form, _home.FormCalls(pick_game, pick_n, set_name, next_colour, set_shared, set_option, redraw, create)


def create_form(scr: Screen) -> ft.Control:
    return _home.create_form(scr.lang, *create_state(scr))


async def create_table(scr: Screen) -> None:
    """The table the create form describes, as it is now; then its host screen."""
    if not scr.server.is_host_machine(scr.conn):  # (the form is not offered elsewhere)
        scr.toast(scr.t("ui.home.host_only"), True)
        return
    loc = scr.local
    game = games()[loc["game"]]
    opts: dict[str, Any] = loc.get(f"opts:{loc['game']}", {})
    names_, colours, shared = loc["names"], loc["colours"], loc["shared"]
    given: dict[str, Any] = {}
    for o in game.OPTIONS:
        if o.name in opts:
            v = opts[o.name]
            if o.kind == "choice":
                v = next((c for c in o.choices if str(c) == str(v)), v)
            given[o.name] = v
    seats = [{"name": names_[i].strip() or scr.t("ui.player_n", n=i + 1), "colour": colours[i],
              "shared": shared[i]} for i in range(loc["n"])]
    try:
        table = await asyncio.to_thread(scr.hub.create, game.ID, given, seats)
    except (RuleError, StoreError) as ex:
        scr.refused(ex)
        return
    # The key goes into this browser's storage and, when the page loads again, into the
    # table's host cookie – never into the address (companion/ui/boot.py).
    await scr.become_host(table.code, table.host_token)
