"""Tabs that come and go on the real server (issue 17, item 5: "dropped tabs slow a table for everyone").

Raw Flet clients (benchmarks/ws_client.py) over real WebSockets against `python -m companion`,
some from other loopback addresses (Linux accepts any 127/8 source), which the server sees as
other clients. What they check, each failing on the code before the fix:

* a tab on a join screen that drops is let go after the (shortened) grace, not kept for
  Flet's hour – the server's session count (/health) comes back down; a seated phone's
  session is kept (it comes back to it);
* a tab that registers and vanishes at once (its first screen goes out to a dead socket) does
  not stay "connected" for good: Flet's send loop died on the dead socket, the session was never
  marked disconnected, the table redrew it on every change and the host showed the seat "here";
* one client address may hold at most 32 WebSockets open: the 33rd handshake is refused
  (403) while another address still connects, and a socket that closes frees its place.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from benchmarks.ws_client import RawPhone
from companion.sockets import PER_CLIENT
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from tests.browser.helpers import ServerProcess

GRACE = 1.0  # COMPANION_UNSEATED_GRACE for this server (45 s in production)
SWEEP = 10.0  # Flet closes expired sessions every 10 s


class Venue:
    def __init__(self, server: ServerProcess, code: str, host_key: str, tokens: list[str]) -> None:
        self.server = server
        self.code = code
        self.host_key = host_key
        self.tokens = tokens
        self.ws = server.base.replace("http://", "ws://") + "/ws"

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.server.base + "/health", timeout=10) as r:
            return json.loads(r.read())

    async def until(self, test: Any, timeout: float, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            h = await asyncio.to_thread(self.health)
            if test(h):
                return h
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: /health still says {h} after {timeout:.0f} s")
            await asyncio.sleep(0.5)


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    root = tmp_path_factory.mktemp("dropped")
    data = root / "data"
    hub = Hub(SQLiteStore(data))
    t = hub.create("sealed_vote", None, [{"name": n} for n in ("Ana", "Ben", "Cem", "Dora")])
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(4)]
    hub.store.close()
    mp = pytest.MonkeyPatch()
    mp.setenv("COMPANION_UNSEATED_GRACE", str(GRACE))
    mp.setenv("COMPANION_STATIC_WARM", "0")  # no compression work at start: these tests need none
    mp.delenv("COMPANION_WS_PER_CLIENT", raising=False)
    server = ServerProcess(data)
    try:
        server.start()
        yield Venue(server, t.code, t.host_token, tokens)
    finally:
        server.stop()
        mp.undo()
        shutil.rmtree(Path(root), ignore_errors=True)


async def test_dropped_tabs_that_never_sat_are_let_go_and_a_seated_one_is_kept(venue: Venue) -> None:
    before = await asyncio.to_thread(venue.health)
    seated = await RawPhone(venue.ws, f"/t/{venue.code}?s={venue.tokens[1]}").open(wait_for="Ben")
    tabs = [RawPhone(venue.ws, f"/t/{venue.code}", source=f"127.0.0.{10 + i % 4}") for i in range(12)]
    await asyncio.gather(*(t.open(wait_for="Welcome to the table") for t in tabs))
    held = await asyncio.to_thread(venue.health)
    assert held["sessions"] >= before["sessions"] + 13, held
    for t in tabs:
        t.drop()
    seated.drop()
    # gone within the grace and one of Flet's sweeps; the seated phone's session stays
    after = await venue.until(lambda h: h["sessions"] <= before["sessions"] + 1, GRACE + SWEEP + 15,
                              "the dropped join screens' sessions were not let go")
    assert after["sessions"] == before["sessions"] + 1, after  # the seated phone's, kept for its return
    assert after["connected"] == before["connected"], after


async def test_a_tab_that_vanishes_right_after_registering_is_not_kept_connected(venue: Venue) -> None:
    host = await RawPhone(venue.ws, f"/host/{venue.code}?k={venue.host_key}").open(wait_for="Ana")
    base = await asyncio.to_thread(venue.health)
    for _ in range(3):
        ghosts = [RawPhone(venue.ws, f"/t/{venue.code}?s={venue.tokens[0]}", source=f"127.0.0.{20 + i}")
                  for i in range(10)]
        await asyncio.gather(*(g.open() for g in ghosts))  # registered, and gone before any answer
        for g in ghosts:
            g.drop()
    # every one of them is marked disconnected (before: some stayed "connected" to a dead socket
    # for good, were redrawn on every change at the table, and kept Ana's seat "here")
    await venue.until(lambda h: h["connected"] <= base["connected"], 20,
                      "sessions of vanished tabs still count as connected")
    # and nobody is shown at the table: a host screen opened now draws every seat "away"
    fresh = await RawPhone(venue.ws, f"/host/{venue.code}?k={venue.host_key}").open(wait_for="Dora")
    await asyncio.sleep(1)
    shown = [s for _, s in fresh.texts]
    assert shown.count("here") == 0 and shown.count("away") == 4, shown
    await fresh.close()
    await host.close()


async def test_one_client_may_hold_32_sockets_and_another_still_connects(venue: Venue) -> None:
    assert PER_CLIENT == 32
    mine = [await RawPhone(venue.ws, "/", source="127.0.0.50").connect() for _ in range(PER_CLIENT)]
    with pytest.raises(websockets.InvalidStatus) as refused:
        await RawPhone(venue.ws, "/", source="127.0.0.50").connect()
    assert refused.value.response.status_code == 403
    other = await RawPhone(venue.ws, f"/t/{venue.code}", source="127.0.0.51").open(wait_for="Welcome to the table")
    await other.close()
    await mine[0].close()  # a closed socket frees its place at once
    deadline = time.monotonic() + 10
    while True:
        try:
            again = await RawPhone(venue.ws, "/", source="127.0.0.50").connect()
            break
        except websockets.InvalidStatus:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)
    for p in [*mine[1:], again]:
        p.drop()
