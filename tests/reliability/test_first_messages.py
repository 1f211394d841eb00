"""What the server sends a phone before its first screen (issue 31.4: a slow phone's first screen).

Raw Flet clients (benchmarks/ws_client.py) over real WebSockets against `python -m companion`,
with the cookie the page's own script writes before Flet's client starts (companion/ui/boot.py).
A phone drawn from that cookie asks its storage nothing at start, so it gets two messages before
its first screen is usable: Flet's reply to its registration and the screen. Before, the
session registered Flet's SharedPreferences service at start – a third message, handled by the
phone's main thread before the screen. The service is now made when first used (the seat taken:
the token is stored), on the session's own page.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from benchmarks.ws_client import PATCH, REGISTER, RawPhone
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.ui import boot
from tests.browser.helpers import ServerProcess


class Venue:
    def __init__(self, server: ServerProcess, code: str, tokens: list[str]) -> None:
        self.server = server
        self.code = code
        self.tokens = tokens
        self.ws = server.base.replace("http://", "ws://") + "/ws"


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    root = tmp_path_factory.mktemp("first")
    data = root / "data"
    hub = Hub(SQLiteStore(data))
    t = hub.create("sealed_vote", None, [{"name": n} for n in ("Ana", "Ben", "Cem")])
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(2)]
    hub.store.close()
    mp = pytest.MonkeyPatch()
    mp.setenv("COMPANION_STATIC_WARM", "0")
    server = ServerProcess(data)
    try:
        server.start()
        yield Venue(server, t.code, tokens)
    finally:
        server.stop()
        mp.undo()
        shutil.rmtree(Path(root), ignore_errors=True)


def boot_cookie(code: str, token: str | None) -> dict[str, str]:
    """The handshake's Cookie header as the page's script leaves it (no saved language)."""
    value = {"l": None, "n": "en-US", "k": f"seat:{code}", "v": token}
    return {"Cookie": f"{boot.COOKIE}={quote(json.dumps(value))}"}


def before_screen(phone: RawPhone, at: float) -> list[int]:
    """The actions of the messages that came up to the one that carried the screen (at `at`)."""
    return [action for arrival, action, _ in phone.received if arrival <= at]


async def settle(phone: RawPhone) -> None:
    """Until no message has come for half a second (the session has sent all it will at start)."""
    n = -1
    while n != len(phone.received):
        n = len(phone.received)
        await asyncio.sleep(0.5)


async def test_a_first_join_gets_two_messages_then_its_seat_is_stored(venue: Venue) -> None:
    phone = RawPhone(venue.ws, f"/t/{venue.code}", headers=boot_cookie(venue.code, None))
    await phone.open()
    try:
        at = await phone.wait_text("Sit as Cem")
        await settle(phone)
        assert before_screen(phone, at) == [REGISTER, PATCH]  # (was 3: the storage service's own patch)
        assert len(phone.received) == 2  # nothing else at start either
        assert not any(c.get("_c") == "SharedPreferences" for c in phone.controls.values())
        # the seat taken: the service comes then, and the token is stored in the browser
        await phone.tap(phone.find("FilledButton", "Sit as Cem"))
        for _ in range(100):
            if phone.prefs.get(f"seat:{venue.code}"):
                break
            await asyncio.sleep(0.1)
        token: Any = phone.prefs.get(f"seat:{venue.code}")
        assert isinstance(token, str) and token not in venue.tokens
        assert any(c.get("_c") == "SharedPreferences" for c in phone.controls.values())
    finally:
        await phone.close()


async def test_a_return_visit_gets_two_messages(venue: Venue) -> None:
    token = venue.tokens[1]
    phone = RawPhone(venue.ws, f"/t/{venue.code}?s={token}", headers=boot_cookie(venue.code, token))
    await phone.open()
    try:
        at = await phone.wait_text("Ana")  # the seated screen (the table's names)
        assert phone.find("TextField", "Your name")  # (Ben's own screen: the rename field)
        await settle(phone)
        assert before_screen(phone, at) == [REGISTER, PATCH]
        assert len(phone.received) == 2
    finally:
        await phone.close()
