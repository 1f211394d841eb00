"""Pass-and-play (issue 29) in headless Chromium: a mixed table of 2 phones and 2 shared seats.

The host ticks "Shared device" for Ann and Bob on the create screen, opens the shared device from
the host screen (its one-time QR code, read from the screenshot) in a browser of its own, and
starts. The device rests on its cover: "Pass to Ann"; Ann opens her screen, votes and locks – the
cover comes back by itself ("Ann is done", "Pass to Bob"); Bob votes and locks; "All shared
seats are done". At every hand-over the device's screen (what the screen reader reads of it, and
a screenshot at 360 px / a laptop's width; the cover and Ann's screen also at 390 px for the
docs, `make screenshots`) holds none of the seats' private words; a reload
while Bob's screen is open lands on the cover. The phones vote, and the reveal counts all four.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.helpers import (
    HOST,
    before_picture,
    create_table,
    enable_semantics,
    eventually,
    fill_all,
    host_page_opened,
    join_phones,
    open_screen,
    page_text,
    read_qr,
    reload,
    see,
    tap,
    text_with,
)

PHONE_390 = {"width": 390, "height": 844}  # (a common phone: the cover and a seat's screen for the docs)

# What only a seat's own screen shows in the vote: its choice buttons and what it chose.
PRIVATE = ("Your choice", "Locked in", "Lock my choice", "Abstain", "Ann's screen", "Bob's screen")


async def shared_qr(page: Any) -> str:
    """The shared device's link from the QR code in the host's dialog (the join QR code is behind it)."""
    import io

    import zxingcpp
    from PIL import Image

    async def found() -> str | None:
        img = Image.open(io.BytesIO(await page.screenshot()))
        return next((b.text for b in zxingcpp.read_barcodes(img) if "/shared/" in b.text), None)
    return await eventually(found, timeout=30)


async def covered(page: Any, shots: Any, name: str, public: tuple[str, ...] = ()) -> str:
    """The device on its cover: nothing private in what it shows; a screenshot to look at.
    `public`: words that are no longer secret (the votes, once the round is revealed)."""
    private = [w for w in PRIVATE if w not in public]
    await before_picture(1.5)  # the canvas is painted a moment after the screen reader's text changes
    text = await page_text(page)
    leaked = [w for w in private if w in text]
    assert not leaked, (name, leaked, text)
    await page.screenshot(path=str(shots / f"pass-and-play-{name}.png"))
    assert not [w for w in private if w in await page_text(page)], name  # (and still so)
    return text


async def test_two_phones_and_two_shared_seats_vote(browser: Any, server: Any, shots: Any) -> None:
    host_ctx, host = await open_screen(browser, server.base + "/", HOST)
    await see(host, "Create table")
    await fill_all(host, {f"Player {i + 1} (optional)": name for i, name in enumerate(["Ann", "Bob", "Cy", "Di"])})
    boxes = host.get_by_role("checkbox", name="Shared device")
    await boxes.nth(0).click()
    await boxes.nth(1).click()
    await eventually(lambda: boxes.nth(1).is_checked(), timeout=30)
    await tap(host, "Create table")
    await host_page_opened(host_ctx, host)
    join_url = await read_qr(host)
    await see(host, "shared device")  # the seat list says which seats play there
    phones = await join_phones(browser, join_url, ["Cy", "Di"])

    # The shared device: the host's one-time QR code, opened in a browser of its own.
    await tap(host, "Open the shared device")
    await see(host, "It works once, for 10 minutes")
    link = await shared_qr(host)
    assert "?d=" in link
    await tap(host, "Done", exact=True)
    dev_ctx = await browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    dev = await dev_ctx.new_page()
    await dev.goto(link)
    # the ticket is exchanged for the device's token (in its storage) and the page opened again
    await dev.wait_for_url(re.compile(r"/shared/[A-Z]+$"), timeout=60_000)
    await dev.wait_for_load_state()
    await enable_semantics(dev)
    await see(dev, "This device plays for Ann, Bob")

    await tap(host, "Start")
    await see(dev, "Pass to Ann")
    await see(dev, "Tap when only Ann is looking")
    await covered(dev, shots, "cover-360")
    await dev.set_viewport_size(HOST)
    await see(dev, "Pass to Ann")
    await covered(dev, shots, "cover-laptop")
    await dev.set_viewport_size(PHONE_390)  # (a common phone's width: the docs' pictures)
    await see(dev, "Pass to Ann")
    await covered(dev, shots, "cover-390")
    await dev.set_viewport_size({"width": 360, "height": 740})

    # Ann: her screen, her vote, her lock – and the cover is back by itself.
    await dev.get_by_text("Pass to Ann").first.click()
    await see(dev, "Ann's screen")
    await tap(dev, "Yes", exact=True)
    await see(dev, "Your choice: Yes")
    await before_picture(1.5)
    await dev.screenshot(path=str(shots / "pass-and-play-ann-360.png"))
    await dev.set_viewport_size(PHONE_390)  # Ann's own screen, uncovered, at 390 px
    await see(dev, "Your choice: Yes")
    await before_picture(1.5)
    await dev.screenshot(path=str(shots / "pass-and-play-ann-390.png"))
    await dev.set_viewport_size({"width": 360, "height": 740})
    await tap(dev, "Lock my choice")
    await see(dev, "Ann is done.")
    await see(dev, "Pass to Bob")
    await covered(dev, shots, "cover-bob-360")

    # Bob opens his screen; the tab reloads (a sleepy tablet): back on the cover.
    await dev.get_by_text("Pass to Bob").first.click()
    await see(dev, "Bob's screen")
    await tap(dev, "No", exact=True)
    await see(dev, "Your choice: No")
    for attempt in range(2):
        await reload(dev)
        await see(dev, "Pass to Bob")
        await covered(dev, shots, "cover-after-reload-360")
        await dev.get_by_text("Pass to Bob").first.click()
        try:  # (his choice is kept by the table, not by the device)
            await see(dev, "Your choice: No", timeout=45_000 if attempt == 0 else 60_000)
            break
        except Exception:
            # Known weakness (tests/browser/test_platform.py): a reload that reuses the Flet
            # session can, on a heavily loaded machine, stay stuck; a second reload brings it back.
            if attempt:
                raise
    await tap(dev, "Lock my choice")
    await see(dev, "All shared seats are done: put the device down.")
    await covered(dev, shots, "all-done-360")

    # The phones vote; the reveal counts the shared seats' votes too.
    await tap(phones[0], "Yes", exact=True)
    await tap(phones[0], "Lock my choice")
    await tap(phones[1], "Abstain", exact=True)
    await tap(phones[1], "Lock my choice")
    for ph in phones:  # (every seat has locked: the round reveals itself)
        await see(ph, "Tally: Yes: 2  ·  No: 1  ·  Abstain: 1")
    await eventually(lambda: text_with(host, "Yes: 2"), timeout=60)
    await see(dev, "All shared seats are done: put the device down.")
    # the cover plays the table's public reveal (the votes are public now: "Abstain" may show), never a
    # seat's own line ("Your choice", "Your Yes – …")
    text = await covered(dev, shots, "after-reveal-360", public=("Abstain",))
    assert "Your " not in text, text


@pytest.mark.parametrize("engine_name", ("webkit", "firefox"))
async def test_the_shared_device_in_webkit_and_firefox(browser: Any, server: Any, engine: Any, engine_name: str,
                                                       shots: Any) -> None:
    """The host (Chromium) moves Ann and Bob to the shared device from the seat list (each with its
    confirmation) and opens the device in the engine under test: the cover, Ann's screen, her lock,
    Bob's – nothing private on the cover at any hand-over."""
    table = await create_table(browser, server, seats=3, names=["Ann", "Bob", "Cy"], qr=False)
    host = table.page
    for name in ("Ann", "Bob"):
        await host.get_by_role("button", name=f"Move {name} to the shared device").click()
        await tap(host, "Use the shared device")
        await see(host, "shared device")
    # Cy's phone in Chromium: the engine's one tab is the device (a tab sent to the background –
    # the engine driver activating another of its tabs – covers the device, as it should)
    (cy,) = await join_phones(browser, table.join_url, ["Cy"])
    await tap(host, "Open the shared device")
    link = await shared_qr(host)
    await tap(host, "Done", exact=True)
    dev = await engine.open(link)
    await dev.until(lambda: dev.js("location.search === '' && location.pathname.startsWith('/shared/')"), 60,
                    "the device's own address")
    await dev.enable_semantics()
    await dev.see("This device plays for Ann, Bob")
    await tap(host, "Start")
    await dev.see("Pass to Ann")

    async def cover_ok(name: str) -> None:
        await before_picture(1.5)  # (the picture below: the canvas paints after the text)
        text = await dev.text()
        assert not [w for w in PRIVATE if w in text], (engine_name, name, text)
        (shots / f"pass-and-play-{engine_name}-{name}.png").write_bytes(await dev.screenshot())

    await cover_ok("cover")
    await dev.tap("Pass to Ann")
    await dev.see("Ann's screen")
    await dev.tap("Yes", exact=True)
    await dev.see("Your choice: Yes")
    await dev.tap("Lock my choice")
    await dev.see("Pass to Bob")
    await cover_ok("cover-bob")
    await dev.tap("Pass to Bob")
    await dev.see("Bob's screen")
    await dev.tap("No", exact=True)
    await dev.see("Your choice: No")
    await dev.tap("Lock my choice")
    await dev.see("All shared seats are done")
    await cover_ok("all-done")
    await tap(cy, "Yes", exact=True)
    await tap(cy, "Lock my choice")
    await see(cy, "Tally: Yes: 2  ·  No: 1")
