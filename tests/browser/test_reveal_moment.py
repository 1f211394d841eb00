"""The reveal's moment on every screen (issue 30.3) in a real browser: two phones in a sealed vote
each read the outcome from their own seat after the cards have turned ("Your Yes – 1 of 2 chose
it"), never the other seat's line, and a tap closes it; the TV shows the tally after the flip.
Screenshots of a phone's moment at 360 px and of the TV at 1920×1080 go to the `shots` folder."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.browser.helpers import (
    create_table,
    enable_semantics,
    eventually,
    join_phones,
    moment_shot,
    page_text,
    record,
    see,
    seen,
    tap,
)

TV = {"width": 1920, "height": 1080}


async def test_each_phone_reads_its_own_moment(browser, server, shots):
    names = ["Ann", "Bob"]
    table = await create_table(browser, server, seats=2, names=names)
    host = table.page
    ann, bob = await join_phones(browser, table.join_url, names)
    await ann.set_viewport_size({"width": 360, "height": 760})
    await tap(host, "Start")
    tv = await table.ctx.new_page()
    await tv.set_viewport_size(TV)
    await tv.goto(f"{server.base}/display/{table.code}")
    await enable_semantics(tv)
    await see(tv, "Secret vote")
    await tap(ann, "Yes", exact=True)
    await tap(ann, "Lock my choice")
    await see(ann, "Locked in:")
    await tap(bob, "No", exact=True)
    await record([ann, bob])  # (every text each phone shows from now on: a moment is up for 4 s)
    await tap(bob, "Lock my choice")
    shot = asyncio.ensure_future(moment_shot(ann, shots / "moment-phone-360.png"))
    # each phone: its own choice and how the round went, after the cards have turned
    mine = {"ann": "Your Yes – 1 of 2 chose it", "bob": "Your No – 1 of 2 chose it"}
    found = await asyncio.gather(eventually(lambda: seen(ann, (mine["ann"],)), timeout=30, interval=0.1),
                                 eventually(lambda: seen(bob, (mine["bob"],)), timeout=30, interval=0.1))
    # a tap closes it (Bob's) – at once, before it closes by itself
    await bob.get_by_text(mine["bob"]).first.click()
    assert await eventually(lambda: _not_reads(bob, mine["bob"]), timeout=3, interval=0.1)
    await shot
    assert mine["bob"] not in str(found[0]) and mine["ann"] not in str(found[1])
    await see(bob, "Tally: Yes: 1")  # the phone's own screen stays
    # the TV: the tally, after the flip
    await see(tv, "Tally: Yes: 1")
    await moment_shot(tv, shots / "moment-tv-1920.png")
    # and it closes by itself within a few seconds
    assert await eventually(lambda: _not_reads(ann, mine["ann"]), timeout=8, interval=0.2)


async def _not_reads(page: Any, needle: str) -> bool:
    return needle not in await page_text(page)
