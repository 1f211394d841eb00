"""Issue 30.5: a phone the host freed and seated again shows "here" on every screen (its own too)
within 2 s, not "away" until its socket happens to reconnect; and a phone freed before the start
picks a free seat again by itself."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.browser.helpers import button, create_table, fill, join_phones, see, tap

TALL = {"width": 412, "height": 1600}  # (the seat list below the game: inside the window)


async def seat_word(page: Any, name: str) -> str | None:
    """The word ("here" / "away" / "free") on the seat list's row of `name`: the pill whose box is
    on the same line as the name's text."""
    return await page.evaluate(r"""(name) => {
        const leaves = [];
        document.querySelectorAll('flt-semantics').forEach(n => {
            if (n.querySelector('flt-semantics')) return;
            const t = (n.getAttribute('aria-label') || n.innerText || '').replace(/\s+/g, ' ').trim();
            if (t) leaves.push([t, n.getBoundingClientRect()]);
        });
        const words = ['here', 'away', 'free'];
        for (const [t, r] of leaves) {
            if (t !== name && t !== name + ' (you)') continue;
            const mid = r.top + r.height / 2;
            for (const [w, q] of leaves)
                if (words.includes(w) && Math.abs(q.top + q.height / 2 - mid) < 14 && q.left > r.left) return w;
        }
        return null;
    }""", name)


async def shows_here(screens: list[Any], name: str, within: float) -> float:
    """Seconds until every screen's seat list says `name` is here (fails after `within` s)."""
    t0 = time.monotonic()
    while True:
        words = [await seat_word(s, name) for s in screens]
        if all(w == "here" for w in words):
            return time.monotonic() - t0
        assert time.monotonic() - t0 < within, f"{name} after {within} s: {words}"
        await asyncio.sleep(0.2)


async def free_seat(host: Any, name: str) -> None:
    await button(host, f"Free the seat of {name}", exact=True).click()
    await button(host, "Free the seat", exact=True).last.click()


async def test_a_freed_phone_sits_again_and_shows_here(browser: Any, server: Any) -> None:
    table = await create_table(browser, server, seats=3, names=["Ann", "Bob", "Cy"], qr=False)
    host = table.page
    ann, bob, cy = await join_phones(browser, table.join_url, ["Ann", "Bob", "Cy"])
    for ph in (ann, bob, cy):
        await ph.set_viewport_size(TALL)

    # before the start: freed, Ann's phone picks a free seat again by itself
    await free_seat(host, "Ann")
    await see(ann, "The host has given your seat to someone else or freed it.")
    await tap(ann, "Sit as Ann", exact=True)
    await see(ann, "You are Ann")
    await see(ann, "Waiting for the host to start")
    await shows_here([host, ann, bob], "Ann", 2.0)

    # while playing: freed, Ann watches; the host seats her again – "here" everywhere within 2 s
    await tap(host, "Start")
    await see(bob, "Lock my choice")
    await tap(host, "Table admin")
    await host.set_viewport_size({"width": 1280, "height": 1600})
    await free_seat(host, "Bob")
    await see(bob, "The game has started.")
    await fill(bob, "Your name", "Bob")
    await tap(bob, "Watch this table")
    await tap(host, "Seat Bob")
    await see(bob, "Lock my choice")
    await shows_here([host, bob, cy], "Bob", 2.0)
    await asyncio.sleep(3.0)  # ... and stays so
    await shows_here([host, bob, cy], "Bob", 0.5)
