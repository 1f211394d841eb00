"""The screen's side of parts of every screen (views/common.py): its arguments, built from the session (companion/ui/assemble/)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.games import screens as game_screens
from companion.ui import kit
from companion.ui import sound as _sound
from companion.ui.views import common as _common
from companion.ui.views import moment as _moment

if TYPE_CHECKING:
    from companion.ui.screens import Screen




def top_bar(scr: Screen) -> ft.Control:
    """The bar at the top of every screen: the game and the table's code, the three languages."""
    left = "Tabletop Companion"
    if scr.table is not None:
        left = f"{scr.t(scr.table.game.NAME)} · {scr.table.code}"
    return _common.TopBar(scr.lang, left, _sound.is_on(scr) if _sound.offered(scr) else None,
                          _common.BarCalls(scr.set_lang, lambda: _sound.toggle(scr)))


def local_sig(scr: Screen) -> Any:
    """What of this screen's local choices a game's part depends on (not the host's pending swap)."""
    return {k: v for k, v in scr.local.items() if k != "swap_from"}


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
    """The game's part, in its slot (Screen.render redraws it first, on its own)."""
    section = scr.game_section()
    assert section is not None
    scr.parts.game = True
    return kit.live(scr.slots.game, *section)


def host_moves_card(scr: Screen) -> list[ft.Control]:
    t = scr.table
    return _common.host_moves_card(scr.lang, t.host_moves if t is not None else ())


def undo_words_of(scr: Screen, note: dict[str, Any], ahead: bool) -> str:
    assert scr.table is not None
    return _common.undo_words(scr.table, scr.lang, note, ahead)


def undo_card(scr: Screen) -> list[ft.Control]:
    t = scr.table
    note = t.last_undo if t is not None else None
    return _common.undo_card(None if note is None else scr.undo_words(note, ahead=False))


def confirm(scr: Screen, title: str, what: str, yes_label: str, yes: Callable[[], Any]) -> None:
    """Ask before something that cannot be taken back (views/common.confirm_dialog)."""
    try:
        scr.page.show_dialog(_common.confirm_dialog(scr.lang, title, what, yes_label, yes, scr.page.pop_dialog))
    except RuntimeError:
        pass
