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
