"""Parts of every screen: the top bar, the game's part, what the host undid or moved, confirmations."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion import i18n
from companion.games import screens as game_screens
from companion.table.table import Table
from companion.ui import kit
from companion.ui.kit import UiContext
from companion.ui.views import moment as _moment

if TYPE_CHECKING:
    from companion.ui.screens import Screen


def undo_words(table: Table, lang: str, note: dict[str, Any], ahead: bool) -> str:
    """An undo in words – before it (ahead: "This takes back: …") or after it ("The host undid: …")
    – from Table.undo_preview: the public log lines the action added or, where it showed the table
    nothing, only whose it was (never what: "a private action of Bob")."""
    pre = "ui.undo." if ahead else "ui.undone."
    if note.get("reopen"):
        return i18n.t(lang, pre + "reopen")
    if note.get("cleared"):  # a reveal taken back: the round reopens with every choice cleared
        return i18n.t(lang, pre + "reveal")
    seat = note.get("seat")
    name = table.seats[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(table.seats) else None
    msgs = note.get("msgs") or []
    if msgs and table.state is not None:
        ctx = UiContext(table, None, None, lang, True, lambda *a: None, {}, lambda: None)
        return i18n.t(lang, pre + "public", what=" ".join(ctx.msg(m) for m in msgs))
    if name is None:
        return i18n.t(lang, pre + "host")
    return i18n.t(lang, pre + "private", name=name)


def top_bar(scr: Screen) -> ft.Control:
    """The bar at the top of every screen: the game and the table's code, the three languages."""
    left = "Tabletop Companion"
    if scr.table is not None:
        left = f"{scr.t(scr.table.game.NAME)} · {scr.table.code}"
    from companion.ui import sound
    return TopBar(scr, scr.lang, left, sound.is_on(scr) if sound.offered(scr) else None)


@kit.component
def TopBar(scr: Screen, lang: str, left: str, sound_on: bool | None = None) -> ft.Control:
    langs: list[ft.Control] = []
    if sound_on is not None:  # the reveal chime's switch (ui/sound.py), remembered by this browser
        from companion.ui import sound

        async def flip(e: Any) -> None:
            await sound.toggle(scr)
        word = i18n.t(lang, "ui.sound.mute" if sound_on else "ui.sound.unmute")
        langs.append(ft.Semantics(button=True, content=ft.IconButton(
            ft.Icons.VOLUME_UP if sound_on else ft.Icons.VOLUME_OFF, on_click=flip, tooltip=word,
            width=48, height=48, icon_size=24, icon_color=ft.Colors.ON_PRIMARY_CONTAINER)))
    for code in i18n.LANGS:
        async def pick(e: Any, code: str = code) -> None:
            await scr.set_lang(code)
        langs.append(ft.TextButton(
            content=ft.Text(code.upper(), size=15,
                            weight=ft.FontWeight.BOLD if code == lang else ft.FontWeight.NORMAL),
            on_click=pick, tooltip=i18n.LANG_NAMES[code], height=48, width=48))  # >= 44 px targets
    return ft.Container(
        content=ft.Row([ft.Text(left, size=17, weight=ft.FontWeight.BOLD, expand=True,
                                color=ft.Colors.ON_PRIMARY_CONTAINER), *langs], spacing=0),
        bgcolor=ft.Colors.PRIMARY_CONTAINER, padding=ft.Padding.symmetric(horizontal=12, vertical=4))


def game_section(scr: Screen) -> tuple[tuple[Any, ...], Any] | None:
    """The game's part of this screen: (props, builder), or None when it shows none.

    The props are immutable data, compared with == (the slot, kit.live): which screen, the
    language and players (look), the phase, the view as frozen data (or what the game says its
    part shows of it: `phone_props` / `public_props`), the legal actions, this screen's local
    choices. Host and spectators get the game's public screen, a seated phone its own; the
    scorer once the table has ended."""
    t = scr.table
    if t is None or t.state is None or t.phase == "lobby" or scr.role not in ("host", "watch", "phone"):
        return None
    mod = game_screens(t.game_id)
    ended = t.phase == "ended"
    local = kit.freeze(local_sig(scr))
    if scr.role == "phone":
        scr.seat = t.seat_of(scr.token)
        if scr.seat is None:
            if not (scr.token and t.is_spectator(scr.token)):
                return None
            ctx = scr.ctx(host_view=True)
            ctx.is_host = False
        else:
            ctx = scr.ctx()
            show = mod.result if ended and hasattr(mod, "result") else mod.phone
            # A game may say what its phone part shows of the view (less than all of it).
            shown = mod.phone_props(ctx) if hasattr(mod, "phone_props") and not ended else ctx.frozen_view()
            # The last reveal's moment from this seat (views/moment.py) on top of the game's part, in
            # the same redraw: a reveal sends each phone one update, not two.
            msig, moment = _moment.drawn(ctx, scr.seen)

            def phone_part() -> list[ft.Control]:
                def part() -> list[ft.Control]:  # (built by the moment once it is shown)
                    drawn = show(ctx)
                    return drawn if isinstance(drawn, list) else [drawn]
                return moment(part)  # type: ignore[no-any-return]
            return ("phone", ctx.look, t.phase, shown, ctx.frozen_legal(), local, msig), phone_part
    else:
        ctx = scr.ctx(host_view=True)
    show = mod.result if ended and hasattr(mod, "result") else mod.host
    # A game may say what its public part shows of the view in a cheaper form.
    shown = mod.public_props(ctx) if hasattr(mod, "public_props") and not ended else ctx.frozen_view()
    # The result list waits for the reveal's cards to turn (the moment plays beside it: issue 30.3).
    fsig, wrap = _moment.after_flip(ctx, scr.seen)

    def public_part() -> list[ft.Control]:
        def part() -> list[ft.Control]:  # (built once it is shown)
            drawn = show(ctx)
            return drawn if isinstance(drawn, list) else [drawn]
        return wrap(part)  # type: ignore[no-any-return]
    return ("public", ctx.look, t.phase, shown, ctx.frozen_legal(), local, fsig), public_part


def game_live(scr: Screen) -> ft.Control:
    section = scr.game_section()
    assert section is not None
    scr.parts.game = True
    return kit.live(scr.slots.game, *section)


def host_moves_card(scr: Screen) -> list[ft.Control]:
    """Every seat the host freed or swapped during the game, on every screen (the last one
    first): a swap gives a phone another seat's private screen, so the whole table sees it."""
    t = scr.table
    if t is None or not t.host_moves:
        return []
    moves = list(reversed(t.host_moves))

    def line(m: dict[str, Any]) -> str:
        if m["op"] == "swap":
            return scr.t("ui.moves.swap", a=m["a"], b=m["b"])
        if m["op"] in ("share", "unshare", "pin_reset"):  # (pass-and-play, issue 29)
            return scr.t(f"ui.moves.{m['op']}", name=m["name"])
        return scr.t("ui.moves.free", name=m["name"])

    return [HostMoves(tuple(line(m) for m in moves[:5]))]


@kit.component
def HostMoves(lines: tuple[str, ...]) -> ft.Control:
    """The last host move in large type, the four before it under it."""
    rows: list[ft.Control] = [ft.Row([ft.Icon(ft.Icons.SWAP_VERT, color=ft.Colors.DEEP_ORANGE_800, size=26),
                                      ft.Text(lines[0], size=18, weight=ft.FontWeight.W_600,
                                              expand=True)], spacing=8)]
    rows += [ft.Text(line, size=14, color=ft.Colors.ON_SURFACE_VARIANT) for line in lines[1:]]
    return kit.card(*rows, bgcolor=ft.Colors.ORANGE_50)


def undo_words_of(scr: Screen, note: dict[str, Any], ahead: bool) -> str:
    assert scr.table is not None
    return undo_words(scr.table, scr.lang, note, ahead)


def undo_card(scr: Screen) -> list[ft.Control]:
    """After the host's undo, every screen says what was taken back (until the next action)."""
    t = scr.table
    note = t.last_undo if t is not None else None
    if note is None:
        return []
    return [UndoCard(scr.undo_words(note, ahead=False))]


@kit.component
def UndoCard(text: str) -> ft.Control:
    return kit.card(ft.Row([
        ft.Icon(ft.Icons.UNDO, color=ft.Colors.DEEP_ORANGE_800, size=26),
        ft.Text(text, size=18, weight=ft.FontWeight.W_600, expand=True)], spacing=8),
        bgcolor=ft.Colors.ORANGE_50)


def local_sig(scr: Screen) -> Any:
    """What of this screen's local choices a game's part depends on (not the host's pending swap)."""
    return {k: v for k, v in scr.local.items() if k != "swap_from"}


def confirm(scr: Screen, title: str, what: str, yes_label: str, yes: Callable[[], Any]) -> None:
    """Ask before something that cannot be taken back: says what it will do, Cancel first."""
    async def ok(e: Any) -> None:
        scr.page.pop_dialog()
        await yes()
    dlg = ft.AlertDialog(title=ft.Text(title), content=ft.Text(what, size=17), actions=[
        ft.TextButton(content=scr.t("ui.cancel"), on_click=lambda e: scr.page.pop_dialog()),
        ft.FilledButton(content=yes_label, on_click=ok)])
    try:
        scr.page.show_dialog(dlg)
    except RuntimeError:
        pass
