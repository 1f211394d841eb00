"""How many sessions Flet holds (for /health).

Pinned internals: flet==1.0.5.
"""

from __future__ import annotations


def flet_sessions() -> dict[str, int]:
    """How many sessions Flet holds in this process, and how many of them have a socket now
    (for /health: a count that climbs and stays up is a leak). Pinned internals, as above."""
    try:
        from flet_web.fastapi.flet_app_manager import app_manager
    except ImportError:
        return {"sessions": 0, "connected": 0}
    held = list(getattr(app_manager, "_FletAppManager__sessions", {}).values())
    return {"sessions": len(held), "connected": sum(1 for s in held if s.connection is not None)}
