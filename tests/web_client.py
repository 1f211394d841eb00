"""The whole web app (Flet's client files, our pages, the print downloads) under a test client,
with static compression kept cheap for unit tests. Shared by the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.app import build
from companion.table.hub import Hub
from companion.table.store import MemoryStore


@contextmanager
def app_client(hub: Hub | None = None, unset: tuple[str, ...] = ()) -> Iterator[Any]:
    """A TestClient of the app: gzip only (no zstd work), files compressed on first request
    instead of by the start-up thread; `unset` environment switches take their defaults."""
    mp = pytest.MonkeyPatch()
    mp.setenv("COMPANION_STATIC_ENCODINGS", "gzip")
    mp.setenv("COMPANION_STATIC_WARM", "0")
    for name in unset:
        mp.delenv(name, raising=False)
    try:
        with TestClient(build(hub or Hub(MemoryStore()), "http://127.0.0.1:1")) as c:
            yield c
    finally:
        mp.undo()
