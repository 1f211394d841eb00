"""A short chime at a reveal (issue 30.9): on the table display and the host's screen, sound on by
default with a mute switch; on a phone silent unless its player turns sound on. Each screen's
choice is remembered by its browser (storage key "sound").

The sound is made in the page itself (companion/page.py SOUND_JS: two sine tones through the Web
Audio API, written for this project – no recording, no licence beyond the project's own) and is
started by the server through the page's title: a reveal the screen has not chimed for yet flips an
invisible last character of the title (U+200B / U+200C); the page's script chimes when it sees that
character change. Nothing else travels, and a screen that is muted sends nothing at all.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.ui.screens import Screen

MARKS = ("\u200b", "\u200c")  # the title's last character, flipped at every reveal to chime for
UNSEEN = object()  # this screen has not looked at the table's reveals yet (no chime for an old one)
PREF = "sound"  # + ":" + the screen's role: the host's screen and the display share a browser


@dataclass
class Chime:
    """A screen's chime (`Screen.sound`), as this module keeps it between changes at the table."""

    role: str | None = None  # the screen (its role) the choice below is for: another one starts anew
    on: bool | None = None  # the choice: None until this browser's remembered one is read (first reveal)
    seen: Any = UNSEEN  # the last reveal looked at (UNSEEN: none yet, no chime for an old one)
    mark: str = MARKS[0]  # the title's invisible last character now


def default_on(scr: Screen) -> bool:
    """The table display and the host's screen chime; a phone stays silent unless turned on."""
    return scr.role in ("display", "host")


def is_on(scr: Screen) -> bool:
    chosen = scr.sound.on
    return default_on(scr) if chosen is None else chosen


def offered(scr: Screen) -> bool:
    """Screens with the sound switch: the display, the host's, a seated phone – during play."""
    t = scr.table
    if t is None or t.phase != "playing":
        return False
    return scr.role in ("display", "host") or (scr.role == "phone" and scr.seat is not None)


def reveal_key(scr: Screen) -> str | None:
    """The key of the table's last reveal (the display's moment: public data only), None if none."""
    from companion.ui.views import display as D

    t = scr.table
    if t is None or t.state is None or t.phase != "playing":
        return None
    try:
        ctx = scr.ctx(host_view=True)
        mod = D.game_display(ctx)
        m = mod.moment(ctx) if mod is not None and hasattr(mod, "moment") else None
    except Exception:  # a game's moment() that fails never takes the screen down
        return None
    return None if m is None else m.key


def mark(scr: Screen) -> str:
    """The invisible last character of this screen's title now (the page chimes when it changes)."""
    return scr.sound.mark


def after_change(scr: Screen) -> None:
    """After a change at the table: chime if a new reveal came and this screen's sound is on. The
    browser's remembered choice is read at the first reveal (not at load: a returning screen's first
    frame asks its storage nothing, companion/ui/boot.py)."""
    st = scr.sound
    if not offered(scr):
        st.seen = UNSEEN
        return
    if st.role != scr.role:  # a new screen: its choice not known yet (the title's mark stays)
        st.role, st.on, st.seen = scr.role, None, UNSEEN
    if st.on is False:  # muted: nothing to look at (turned on later: no old chime)
        st.seen = UNSEEN
        return
    key = reveal_key(scr)
    seen, st.seen = st.seen, key
    if seen is UNSEEN or key is None or key == seen:
        return
    if st.on is None:
        try:
            scr.in_background(_load_then_chime(scr, scr.role))
        except RuntimeError:  # (no event loop)
            pass
        return
    chime(scr)


def chime(scr: Screen) -> None:
    """Flip the title's last character: the page plays the chime."""
    scr.sound.mark = MARKS[1] if mark(scr) == MARKS[0] else MARKS[0]
    retitle(scr)


def retitle(scr: Screen, text: str | None = None) -> None:
    """The page's title (the browser's tab and task): `text` (None: the title's text as it is then)
    and the chime's invisible last character – the one way a screen retitles its page (the turn
    mark, ui/assemble.feel_turn; the chime). Set in the session's own task, both read when it runs:
    a turn that ends with the reveal it chimes for gives one title with both."""
    async def apply() -> None:
        base = text if text is not None else (scr.page.title or "").rstrip("".join(MARKS))
        scr.page.title = base + mark(scr)
        try:
            scr.page.update()
        except RuntimeError:  # (the session has gone)
            pass
    try:
        scr.page.run_task(apply)
    except RuntimeError:
        pass


async def _load_then_chime(scr: Screen, role: str) -> None:
    """This browser's remembered choice ("on" / "off"; none: the screen's default), then the chime."""
    try:
        value = await asyncio.wait_for(scr.prefs.get(f"{PREF}:{role}"), 5)
    except Exception:
        value = None
    if scr.role != role:
        return
    st = scr.sound
    if st.on is None:
        st.on = value == "on" if value in ("on", "off") else default_on(scr)
    if st.on:
        chime(scr)
    if value == ("off" if default_on(scr) else "on"):
        scr.render(force=True)  # the switch shows the remembered choice


async def toggle(scr: Screen, e: Any = None) -> None:
    now = not is_on(scr)
    scr.sound.on = now
    scr.sound.seen = reveal_key(scr) if now else UNSEEN
    await scr.save(f"{PREF}:{scr.role}", "on" if now else "off")
    scr.render(force=True)
