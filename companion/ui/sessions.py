"""How long Flet keeps a session whose socket has gone, and ending one early.

Flet (1.0.5) keeps a disconnected session for `session_timeout_seconds` (default 3600 s, env
FLET_SESSION_TIMEOUT) so that a reload or a phone waking from sleep finds its screen again. That
is right for a seated phone, a spectator and the host – they come back – but a session that never
sat (the home screen, a join screen, an error, a host page without its key) holds nothing worth
keeping: 1,000 tabs opened on /t/CODE and dropped kept ≈ 70 MB for an hour. The screen
(companion/ui/screens.py) lets such a session go `unseated_grace()` seconds after its socket
dropped; a returning tab then gets a new session and the same screen.
"""

from __future__ import annotations

import asyncio
import contextvars
import ctypes
import gc
import os
from typing import Any

from companion.ui import flet_fast

UNSEATED_GRACE = 45.0  # s; with Flet's sweep every 10 s a never-seated session is gone within ≈ 55 s


def unseated_grace() -> float:
    """COMPANION_UNSEATED_GRACE=SECONDS overrides UNSEATED_GRACE (tests and benchmarks shorten it)."""
    try:
        return max(0.0, float(os.environ.get("COMPANION_UNSEATED_GRACE", UNSEATED_GRACE)))
    except ValueError:
        return UNSEATED_GRACE


def expire_now(session: Any) -> None:
    """End a disconnected Flet session early. Flet's app manager (flet_web/fastapi/
    flet_app_manager.py) closes every session whose expiry has passed, every 10 s, which runs its
    on_close; this moves the expiry to now. A session that reconnects meanwhile clears it itself
    (Session.attach_connection). Flet's private field, through the guarded flet_fast.expire."""
    if session is None or session.connection is not None or session.expires_at is None:
        return
    flet_fast.expire(session)


# ---------- a budget of dropped never-seated sessions ----------
# Each never-seated session waits its grace (above) in case its tab comes back. Waiting is cheap for
# a few, but a burst of tabs opened and dropped (1,000 on /t/CODE) kept every one for the grace plus
# Flet's 10 s sweep, ≈ 55 kB each – and the heap they raised stays that high (RSS rarely falls back).
# At most WAITING_MAX of them wait; past that the oldest is ended at once (not at the next sweep):
# its tab, if it ever comes back, gets a new session and the same screen.
WAITING_MAX = 64


class _Waiting:
    order: dict[int, Any] = {}  # id(screen) -> the let-go callback, oldest first
    ended = 0


def waiting_add(key: int, let_go: Any) -> None:
    """A never-seated session's socket dropped: it waits; past the budget the oldest is ended now."""
    w = _Waiting.order
    w.pop(key, None)
    w[key] = let_go
    while len(w) > WAITING_MAX:
        oldest = next(iter(w))
        fn = w.pop(oldest)
        _Waiting.ended += 1
        fn(True)


def waiting_remove(key: int) -> None:
    _Waiting.order.pop(key, None)


def delete_now(session: Any) -> None:
    """End a disconnected Flet session now, as Flet's sweep does (its app manager's delete_session:
    off its list, then closed). Flet keys its list by page, session and client, so the key is found
    by the session itself (Flet's private list, through the guarded flet_fast.sessions_held)."""
    if session is None or session.connection is not None:
        return
    try:
        from flet_web.fastapi.flet_app_manager import app_manager
        loop = asyncio.get_running_loop()
    except (ImportError, RuntimeError):
        expire_now(session)
        return
    held = flet_fast.sessions_held(app_manager)
    key = next((k for k, v in held.items() if v is session), None)
    if key is None:
        expire_now(session)
        return
    loop.create_task(app_manager.delete_session(key))


def flet_sessions() -> dict[str, int]:
    """How many sessions Flet holds in this process, and how many of them have a socket now
    (for /health: a count that climbs and stays up is a leak). Flet's private list, as above."""
    try:
        from flet_web.fastapi.flet_app_manager import app_manager
    except ImportError:
        return {"sessions": 0, "connected": 0}
    held = list(flet_fast.sessions_held(app_manager).values())
    return {"sessions": len(held), "connected": sum(1 for s in held if s.connection is not None)}


# ---------- giving the memory of closed sessions back ----------
# A closed Flet session is one big reference cycle (page ↔ session ↔ controls ↔ their handlers ↔
# the screen): reference counting frees none of it (≈ 800 blocks per join-screen session, all of
# them found only by the cycle collector). Sessions live long enough to reach the oldest
# generation, which this server collects rarely (companion/app.py GC_THRESHOLDS: a full
# collection stops every table), so 1,000 dropped tabs left ≈ 270,000 dead objects and 60 MB in
# the process long after Flet had closed them. Full collections now follow a burst of closed
# sessions: once COLLECT_AFTER have closed since the last one, at most every COLLECT_GAP seconds
# while the burst goes on (so the garbage of one part of the burst is freed before the next part
# comes, and the heap does not climb to the whole burst's size: RSS, once raised, rarely falls
# back), then glibc's malloc_trim hands free heap pages back; and once more TAIL_DELAY seconds
# after the burst's last close (a closed session is freed a little after its close event). What
# closes within RECENT seconds of a collection counts as the same burst's tail. The collections
# are short because what lives as long as the process is frozen out of the collector's sight at
# start (companion/cli.py freeze_startup). A venue's own phones close few sessions (a seated
# phone keeps its session for an hour, a reload reuses it): this runs when tabs are opened and
# dropped in the hundreds.
COLLECT_AFTER = 50
COLLECT_GAP = 2.0  # s between two collections while a burst goes on
TAIL_DELAY = 10.0  # s after the last close of a burst: once more (a closed session is freed a little later)
RECENT = 60.0  # s: a close this soon after a collection belongs to the same burst's tail


class _Collector:
    closed = 0  # closed since the last collection
    burst = 0  # closed since the last tail collection
    last = 0.0
    pending: Any = None
    tail: Any = None
    runs = 0
    found = 0  # objects the last collection freed


def session_closed() -> None:
    """Count one closed session; a burst of them is followed by full collections (above)."""
    c = _Collector
    c.closed += 1
    c.burst += 1
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    # (the timers run in an empty context: scheduled from a closing session's event, they would
    # otherwise keep that session's context – and in it Flet's "current page" – alive until they fire)
    if c.pending is None and c.closed >= COLLECT_AFTER:
        c.pending = loop.call_later(max(1.0, c.last + COLLECT_GAP - loop.time()), collect_closed,
                                  context=contextvars.Context())
    if c.burst >= COLLECT_AFTER or (c.runs and loop.time() - c.last < RECENT):
        if c.tail is not None:
            c.tail.cancel()
        c.tail = loop.call_later(TAIL_DELAY, collect_tail, context=contextvars.Context())


def collect_tail() -> None:
    c = _Collector
    c.tail = None
    c.burst = 0
    collect_closed()


def collect_closed() -> None:
    c = _Collector
    if c.pending is not None:
        c.pending.cancel()
    c.pending = None
    c.closed = 0
    c.found = gc.collect()
    trim_heap()
    c.runs += 1
    try:
        c.last = asyncio.get_running_loop().time()
    except RuntimeError:
        pass


def trim_heap() -> None:
    """glibc's malloc_trim(0): free pages of the C heap back to the system (elsewhere: nothing)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
