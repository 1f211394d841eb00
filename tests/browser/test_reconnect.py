"""Phones drop and come back during a sealed vote (reload, a new tab, the browser closed and
reopened with its storage, offline then online): every phone is back on its own seat with its own
choice, and every screen shows the same round and the same reveal.

By default one round (each phone drops once, one of each kind: ~2 min here). RECONNECT_ROUNDS=13
gives 52 drops and two server SIGKILL/restarts (rounds 4 and 9): ~11 min here, not in CI.

Checked from the accessibility text of each screen (so an old round in the history cannot pass
for the current one): each phone shows its own seat ("Ana (you)"), the current round number, its
own locked or open choice; the host the lock count; after the reveal the *first* tally on every
screen (the current round's; older rounds are listed below it) is the expected one.

A phone that comes back without its seat (the join screen: a bug, fixed in ad4eb31, see
docs/RELIABILITY.md, "Found") is counted in the report line and reopened in a new tab; STRICT_RECONNECT=1
fails the test instead.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import msgpack

from companion.ui import boot
from tests.browser.helpers import (
    HOST,
    PHONE,
    enable_semantics,
    host_page_opened,
    open_screen,
    page_text,
    read_qr,
    see,
    tap,
    type_into,
)

NAMES = ["Ana", "Ben", "Cleo", "Dan"]
CHOICES = ["Yes", "No", "Abstain"]
ROUNDS = int(os.environ.get("RECONNECT_ROUNDS", "1"))  # x 4 phones; RECONNECT_ROUNDS=13 gives 52 disconnects
KILL_ROUNDS = {4, 9}  # (with RECONNECT_ROUNDS > 4)
STRICT = os.environ.get("STRICT_RECONNECT") == "1"
LOST: list[str] = []  # drops after which a phone came back without its seat (known bug, see below)


def storage_reads(page: Any) -> list[str]:
    """The keys the server asks this page's browser storage for (filled as frames arrive)."""
    keys: list[str] = []

    def frame(payload: Any) -> None:
        if isinstance(payload, bytes | bytearray) and payload[:1] == b"\x00":
            try:
                action, body = msgpack.unpackb(payload[1:], strict_map_key=False)
            except Exception:
                return
            if action == 5 and isinstance(body, dict) and body.get("name") in ("get", "get_device_info"):
                keys.append(str((body.get("args") or {}).get("key", body["name"])))

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return keys


class Phone:
    def __init__(self, browser: Any, ctx: Any, page: Any, url: str) -> None:
        self.browser, self.ctx, self.page, self.url = browser, ctx, page, url
        self.reads: list[str] = []  # what the server asked the browser's storage since the page opened

    async def reopen(self, kind: str) -> None:
        if kind == "reload":
            await self.page.reload()
        elif kind == "new_tab":
            await self.page.close()
            self.page = await self.ctx.new_page()
            self.reads = storage_reads(self.page)
            await self.page.goto(self.url)
        elif kind == "browser":  # closed and reopened: the browser keeps its storage
            state = await self.ctx.storage_state()
            await self.ctx.close()
            self.ctx = await self.browser.new_context(viewport=PHONE, storage_state=state)
            self.page = await self.ctx.new_page()
            self.reads = storage_reads(self.page)
            await self.page.goto(self.url)
        elif kind == "offline":
            await self.ctx.set_offline(True)
            await asyncio.sleep(1.0)
            await self.ctx.set_offline(False)
            await self.page.reload()
        await enable_semantics(self.page)


def log(msg: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {msg}", flush=True)


KINDS = ["reload", "new_tab", "browser", "offline"]


async def back_on_seat(p: Phone, kind: str, *lines: str) -> None:
    """The phone must come back on its seat. Before ad4eb31 (docs/RELIABILITY.md, "Found") it
    sometimes showed the join screen instead (its seat token not read in time); unless
    STRICT_RECONNECT=1 that is counted and the phone opens a new tab, as a player would."""
    if await shows(p.page, *lines, lost_ok=not STRICT):
        return
    LOST.append(kind)
    await p.reopen("new_tab")
    await shows(p.page, *lines)


async def shows(page: Any, *lines: str, first_tally: str | None = None, timeout: float = 90,
                lost_ok: bool = False) -> bool:
    """Wait until the screen has each of `lines` as a whole line (and this round's tally first).

    With lost_ok, returns False as soon as the phone shows the join screen (it lost its seat).
    """
    deadline = time.time() + timeout
    have: list[str] = []
    while time.time() < deadline:
        try:
            have = [" ".join(x.split()) for x in (await page_text(page)).splitlines() if x.strip()]
        except Exception:  # the page is being reloaded
            have = []
        tally = next((x for x in have if x.startswith("Tally:")), None)
        if all(x in have for x in lines) and (first_tally is None or tally == first_tally):
            return True
        if lost_ok and "Welcome to the table" in have:
            return False
        await asyncio.sleep(0.5)
    raise AssertionError(f"screen does not show {lines} / {first_tally!r}:\n" + "\n".join(have))


async def test_phones_drop_and_return_52_times(browser: Any, server: Any) -> None:
    t0 = time.time()
    host_ctx, host = await open_screen(browser, server.base + "/", HOST)
    await tap(host, "Create table")
    await host_page_opened(host_ctx, host)
    url = await read_qr(host)
    code = url.rsplit("/", 1)[1]
    phones: list[Phone] = []
    for i, name in enumerate(NAMES):
        ctx, page = await open_screen(browser, url)
        await type_into(page, "Your name", name)
        await tap(page, f"Sit as Player {i + 1}")
        await see(page, "Waiting for the host to start")
        phones.append(Phone(browser, ctx, page, url))
    await see(host, "Dan")
    await tap(host, "Start")
    events = 0
    for r in range(ROUNDS):
        picks = [CHOICES[(r + i) % 3] for i in range(4)]
        log(f"round {r}")
        await asyncio.gather(*[see(p.page, "Lock my choice") for p in phones])
        for p, c in zip(phones, picks, strict=True):
            await tap(p.page, c, exact=True)
        await asyncio.gather(*[see(p.page, f"Your choice: {c}") for p, c in zip(phones, picks, strict=True)])
        for p in phones[:2]:
            await tap(p.page, "Lock my choice")
        await asyncio.gather(*[see(p.page, "Locked in:") for p in phones[:2]])
        if r in KILL_ROUNDS:  # the host laptop dies mid-round; every screen opens the table again
            server.kill()
            server.start()
            kinds = ["new_tab"] * 4
            await host.close()
            host = await host_ctx.new_page()
            await host.goto(f"{server.base}/host/{code}")
            await enable_semantics(host)
        else:
            kinds = [KINDS[(r + i) % 4] for i in range(4)]
        log(f"reopen {kinds}")
        await asyncio.gather(*[p.reopen(k) for p, k in zip(phones, kinds, strict=True)])
        log("reopened")
        events += 4
        # every phone is back on its own seat, in this round, with its own (locked or open) choice
        rnd = f"Round {r + 1}"
        await asyncio.gather(*[back_on_seat(p, k, f"{n} (you)", rnd, "Locked in:", c)
                               for p, k, n, c in zip(phones[:2], kinds, NAMES, picks, strict=False)])
        await asyncio.gather(*[back_on_seat(p, k, f"{n} (you)", rnd, f"Your choice: {c}", "Lock my choice")
                               for p, k, n, c in zip(phones[2:], kinds[2:], NAMES[2:], picks[2:], strict=True)])
        for p, k in zip(phones, kinds, strict=True):
            if k in ("new_tab", "browser"):  # a fresh page: its seat came with the socket (companion/ui/boot.py)
                assert p.reads == [], f"{k}: the server asked the browser for {p.reads}"
                assert boot.COOKIE not in await p.page.evaluate("document.cookie"), "deleted once the socket opened"
        await shows(host, rnd, "2 of 4 have locked")
        for p in phones[2:]:
            await tap(p.page, "Lock my choice")
        tally = "Tally: " + " · ".join(f"{c}: {picks.count(c)}" for c in CHOICES)
        await asyncio.gather(*[shows(x, rnd, first_tally=tally) for x in [host, *[p.page for p in phones]]])
        await tap(host, "Ask")
        await shows(host, f"Round {r + 2}", "0 of 4 have locked")
    assert events == 4 * ROUNDS
    kills = len([r for r in range(ROUNDS) if r in KILL_ROUNDS])
    kinds = {k: sum(1 for r in range(ROUNDS) if r not in KILL_ROUNDS for i in range(4) if KINDS[(r + i) % 4] == k)
             for k in KINDS}
    kinds["new_tab_after_kill"] = 4 * kills
    print(f"RECONNECT-REPORT events={events} {kinds} server_kills={kills} "
          f"seat_lost_then_new_tab={len(LOST)} {LOST} seconds={time.time() - t0:.0f}")
