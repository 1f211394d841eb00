"""Issue 30.9: a short chime at the reveal on the table display and the host's screen; a mute switch
that the browser remembers (a reload stays muted); phones silent unless the player turns sound on.
The page counts the chimes it was asked for (window.__tcChimes, companion/page.py SOUND_JS)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from tests.browser.helpers import (
    before_picture,
    button,
    create_table,
    cut_texts,
    enable_semantics,
    join_phones,
    see,
    tap,
)
from tests.browser.test_display import open_display

NAMES = ["Ann", "Bob"]


async def chimes(page: Any) -> int:
    return int(await page.evaluate("window.__tcChimes || 0"))


async def vote_round(phones: list[Any], screens: list[Any], tally: str) -> None:
    for ph, choice in zip(phones, ["Yes", "No"], strict=True):
        await tap(ph, choice, exact=True)
        await tap(ph, "Lock my choice")
    for s in screens:
        await see(s, tally)
    await asyncio.sleep(2.0)  # (a chime comes with the frame: give every screen its frame)


async def test_reveal_chime_mute_remembered_phones_silent(browser: Any, server: Any) -> None:
    table = await create_table(browser, server, seats=2, names=NAMES, qr=False)
    host = table.page
    phones = await join_phones(browser, table.join_url, NAMES)
    await tap(host, "Start")
    tv = await open_display(table.ctx, server.base, table.code)
    await see(tv, "Waiting for Ann and Bob…")
    tally = "Tally: Yes: 1  ·  No: 1  ·  Abstain: 0"
    await vote_round(phones, [tv, host], tally)
    assert (await chimes(tv), await chimes(host)) == (1, 1)
    assert [await chimes(ph) for ph in phones] == [0, 0]  # phones: silent by default

    # Ann turns her phone's sound on; the display is muted, and stays muted after a reload
    await button(phones[0], "Turn the sound on", exact=True).click()
    await button(phones[0], "Turn the sound off", exact=True).wait_for(timeout=60_000)
    out = Path(os.environ.get("COMPANION_TEST_SHOTS", "/tmp/companion-test-shots"))
    out.mkdir(parents=True, exist_ok=True)
    await phones[0].set_viewport_size({"width": 360, "height": 740})
    await before_picture(2.0)
    await phones[0].screenshot(path=str(out / "phone-sound-switch-360.png"))
    assert not await cut_texts(phones[0]), await cut_texts(phones[0])
    await tv.bring_to_front()
    await button(tv, "Turn the sound off", exact=True).click()
    await button(tv, "Turn the sound on", exact=True).wait_for(timeout=60_000)
    await tv.reload()
    await enable_semantics(tv)
    await see(tv, tally)
    await asyncio.sleep(2.0)
    assert await chimes(tv) == 0  # (a reloaded screen does not chime for the reveal it shows)
    await host.bring_to_front()
    await tap(host, "Ask", exact=True)  # the next question
    for ph in phones:
        await see(ph, "Lock my choice")
    await vote_round(phones, [host], tally)
    await tv.bring_to_front()
    await asyncio.sleep(2.0)
    # the host chimes again; the display is muted (remembered over the reload); Ann turned her
    # phone's sound on, Bob's stays silent
    got = (await chimes(host), await chimes(tv), [await chimes(ph) for ph in phones])
    assert got == (2, 0, [1, 0]), got
    await button(tv, "Turn the sound on", exact=True).wait_for(timeout=60_000)  # the switch says so
