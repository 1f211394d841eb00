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
import ctypes
import gc
import os
from datetime import UTC, datetime
from typing import Any

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
    (Session.attach_connection). Pinned internals: flet==1.0.5 (tests/test_sessions.py checks)."""
    if session is None or session.connection is not None or session.expires_at is None:
        return
    session._Session__expires_at = datetime.now(UTC)


def flet_sessions() -> dict[str, int]:
    """How many sessions Flet holds in this process, and how many of them have a socket now
    (for /health: a count that climbs and stays up is a leak). Pinned internals, as above."""
    try:
        from flet_web.fastapi.flet_app_manager import app_manager
    except ImportError:
        return {"sessions": 0, "connected": 0}
    held = list(getattr(app_manager, "_FletAppManager__sessions", {}).values())
    return {"sessions": len(held), "connected": sum(1 for s in held if s.connection is not None)}


# ---------- giving the memory of closed sessions back ----------
# A closed Flet session is one big reference cycle (page ↔ session ↔ controls ↔ their handlers ↔
# the screen): reference counting frees none of it (≈ 800 blocks per join-screen session, all of
# them found only by the cycle collector). Sessions live long enough to reach the oldest
# generation, which this server collects rarely (companion/app.py GC_THRESHOLDS: a full
# collection stops every table), so 1,000 dropped tabs left ≈ 270,000 dead objects and 60 MB in
# the process long after Flet had closed them. A full collection now follows a burst of closed
# sessions: COLLECT_AFTER of them since the last one, at most every COLLECT_GAP seconds, one
# second after the close that reached the count (Flet closes expired sessions in batches every
# 10 s), then glibc's malloc_trim hands free heap pages back; the sessions that close after a
# burst's last collection get one more, TAIL_DELAY s after the first of them. A venue's own phones close few
# sessions (a seated phone keeps its session for an hour, a reload reuses it): this runs when
# tabs are opened and dropped in the hundreds.
COLLECT_AFTER = 100
COLLECT_GAP = 10.0
TAIL_DELAY = 20.0  # s: the sessions that closed after a burst's last collection, once more


class _Collector:
    closed = 0
    last = 0.0
    pending: Any = None
    runs = 0
    found = 0  # objects the last collection freed
    tail = False  # the last collection followed a burst: the next close schedules one more


def session_closed() -> None:
    """Count one closed session; a burst of them is followed by a full collection (above)."""
    c = _Collector
    c.closed += 1
    if c.pending is not None or (c.closed < COLLECT_AFTER and not c.tail):
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    if c.closed >= COLLECT_AFTER:
        c.pending = loop.call_later(max(1.0, c.last + COLLECT_GAP - loop.time()), collect_closed)
    else:  # the tail of a burst: what closed after its last collection, collected once more
        c.pending = loop.call_later(TAIL_DELAY, collect_closed)


def collect_closed() -> None:
    c = _Collector
    c.pending = None
    c.tail = c.closed >= COLLECT_AFTER  # a burst: one more collection for its tail
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
