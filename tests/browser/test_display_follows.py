"""Issue 30.4: the table display (/display/CODE) follows the table – after "End the table" it shows
the game is over (also after a reload), after "Play again" it moves to the new table by itself (and a
reload of the old address lands there too). At 1920×1080 the reveal is the centre of the screen and
says what was asked, in the largest type; a choice's card never breaks its word ("Taco / s").
The moment's screenshots (TV 1920×1080 and 1280×800, a phone at 360 px) go to the `shots` folder
(docs/screenshots/ with `make screenshots`), the others to /tmp (COMPANION_TEST_SHOTS)."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

from tests.browser.helpers import (
    before_picture,
    button,
    create_table,
    enable_semantics,
    eventually,
    join_phones,
    page_text,
    record,
    see,
    seen,
    tap,
    tap_and_confirm,
    text_with,
)
from tests.browser.test_display import TV, open_display

OUT = Path(os.environ.get("COMPANION_TEST_SHOTS", "/tmp/companion-test-shots"))
NAMES = ["Ann", "Bob", "Zoë"]
QUESTION = "What do we eat tonight?"


async def test_display_follows_end_and_play_again(browser: Any, server: Any, shots: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    table = await create_table(browser, server, seats=3, names=NAMES, qr=False,
                               fields={"Question": QUESTION, "Options, separated by commas": "Tacos, Pizza"})
    host, old = table.page, table.code
    phones = await join_phones(browser, table.join_url, NAMES)
    await phones[0].set_viewport_size({"width": 360, "height": 760})
    await tap(host, "Start")
    tv = await open_display(table.ctx, server.base, old)
    await see(tv, "Waiting for Ann, Bob and Zoë…")
    await record(phones[:1])
    for ph, choice in zip(phones, ["Tacos", "Tacos", "Pizza"], strict=True):
        await tap(ph, choice, exact=True)
        await tap(ph, "Lock my choice")
    # the phone's moment ("Tacos" on its card): up for a few seconds, recorded as it shows
    await eventually(lambda: seen(phones[0], ("Your Tacos – 2 of 3 chose it",)), timeout=30, interval=0.2)
    await asyncio.sleep(0.4)
    await phones[0].screenshot(path=str(shots / "moment-tacos-phone-360.png"))
    await see(tv, "Tally: Tacos: 2  ·  Pizza: 1")

    # the moment: its question is the headline, large, in the middle of the screen – across and down
    for size in (TV, {"width": 1280, "height": 800}):
        await tv.set_viewport_size(size)
        title = tv.get_by_text(f"Round 1: {QUESTION}", exact=True).first
        tally = tv.get_by_text("Tally: Tacos: 2  ·  Pizza: 1").first

        async def centred(title: Any = title, tally: Any = tally, size: dict[str, int] = size) -> bool:
            box, low = await title.bounding_box(), await tally.bounding_box()
            if box is None or low is None:
                return False
            middle = (box["y"] + low["y"] + low["height"]) / 2  # the moment: its question down to its tally
            return (abs(box["x"] + box["width"] / 2 - size["width"] / 2) < size["width"] * 0.07
                    and abs(middle - size["height"] / 2) < size["height"] * 0.12)
        await title.wait_for(timeout=60_000)
        assert await eventually(centred, timeout=20), (size, await title.bounding_box(), await tally.bounding_box())
        box = await title.bounding_box()
        assert box is not None and box["height"] >= 50, box  # the largest type on the screen (72 px on a TV)
        nxt = await tv.get_by_text("The host asks the next question").first.bounding_box()
        assert nxt is not None and nxt["y"] > box["y"] and nxt["height"] < box["height"], (nxt, box)
        await before_picture(2.0)
        await tv.screenshot(path=str(shots / f"display-vote-moment-{size['width']}.png"))
    await tv.set_viewport_size(TV)

    # the host ends the table: the display says so, no longer waits for anyone (a reload too)
    await tap_and_confirm(host, "End the table", "End this table for everyone?")
    await see(host, "Game over")
    await see(tv, "Game over")
    assert "Waiting for" not in await page_text(tv)
    await before_picture(2.0)
    await tv.screenshot(path=str(OUT / "display-ended-1920.png"))
    await tv.reload()
    await enable_semantics(tv)
    await see(tv, "Game over")
    assert "Waiting for" not in await page_text(tv)

    # "Play again": the display moves to the new table by itself
    await tap(host, "Play again")
    await see(host, "same players, seats, colours and options")
    await button(host, "Play again").last.click()
    await host.wait_for_url(re.compile(r"/host/(?!" + old + r")[A-Z]+$"), timeout=60_000)
    new = host.url.rsplit("/", 1)[1]
    await tv.wait_for_url(re.compile(rf"/display/{new}$"), timeout=60_000)
    await eventually(lambda: text_with(tv, "Waiting for Ann, Bob and Zoë…"), timeout=60)
    assert "Game over" not in await page_text(tv)
    await tv.reload()
    await enable_semantics(tv)
    await see(tv, "Waiting for Ann, Bob and Zoë…")
    # a display opened at the old address goes on to the new table
    other = await table.ctx.new_page()
    await other.set_viewport_size(TV)
    await other.goto(f"{server.base}/display/{old}")
    await enable_semantics(other)
    await other.wait_for_url(re.compile(rf"/display/{new}$"), timeout=60_000)
    await see(other, "Waiting for Ann, Bob and Zoë…")
    await other.bring_to_front()  # (a background tab gets no frames)
    await before_picture(2.0)
    await other.screenshot(path=str(OUT / "display-rematch-1920.png"))
