"""The server process as companion/app.py sets it up."""

from __future__ import annotations

import gc

from companion.app import GC_THRESHOLDS, build
from companion.table.hub import Hub
from companion.table.store import MemoryStore


def test_full_garbage_collections_are_rare_in_the_server() -> None:
    """A full collection walks every object of the process and stops every table while it runs
    (0.35–0.8 s at 600 phones, docs/BENCHMARKS.md (c)); the server makes them rare."""
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # Python's defaults
        build(Hub(MemoryStore()), "http://127.0.0.1:1")
        assert gc.get_threshold() == GC_THRESHOLDS
        assert GC_THRESHOLDS[2] >= 100 * 10  # full collections ≥ 100× rarer than by default
    finally:
        gc.set_threshold(*before)
