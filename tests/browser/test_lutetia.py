"""LUTETIA in the real app: the host creates a 3-player table, three phones join by the QR code,
Ann proposes space 2, everyone picks a vote card secretly and locks it, the cards are revealed in
seat order and each player declares for/against on their phone; the host shows the outcome."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.browser.helpers import HOST, eventually, open_screen, page_text, read_qr, see, tap, type_into

NAMES = ["Ann", "Bob", "Cy"]


async def _pick_dropdown(page: Any, index: int, option: str) -> None:
    """Flet dropdowns have no label in the semantics tree: open the index-th unlabeled button."""
    boxes = page.locator("flt-semantics[role=button]:not([aria-label])")
    box = None
    seen = 0
    for i in range(await boxes.count()):
        b = boxes.nth(i)
        if (await b.inner_text()).strip() == "":
            if seen == index:
                box = await b.bounding_box()
                break
            seen += 1
    assert box is not None
    await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await tap(page, option, exact=True)


async def tall_shot(page: Any, path: Any, width: int, height: int) -> None:
    """The screen scrolls inside the canvas: a tall viewport shows all of it in one picture."""
    old = page.viewport_size
    await page.set_viewport_size({"width": width, "height": height})
    await asyncio.sleep(1.5)
    await page.screenshot(path=str(path))
    await page.set_viewport_size(old)


async def test_lutetia_vote_on_three_phones(browser, server, shots):
    host_ctx, host = await open_screen(browser, server.base + "/", HOST)
    await see(host, "Create table")
    await _pick_dropdown(host, 0, "LUTETIA")
    await host.get_by_role("textbox", name="Modification cards of value 1").wait_for(timeout=30_000)
    await _pick_dropdown(host, 1, "3")
    await host.get_by_role("textbox", name="Player 4 (optional)").wait_for(state="detached", timeout=30_000)
    for i, name in enumerate(NAMES):
        await type_into(host, f"Player {i + 1} (optional)", name)
    await tap(host, "Create table")
    await see(host, "Scan with your phone")
    join_url = await read_qr(host)

    phones = []
    for name in NAMES:
        ctx, ph = await open_screen(browser, join_url)
        await tap(ph, f"Sit as {name}")
        await see(ph, "Waiting for the host to start")
        phones.append(ph)
    ann, bob, cy = phones
    await tap(host, "Start")
    for ph in phones:
        await see(ph, "Your plans (secret)")
    await see(ann, "Your proposal: where does Asterix go?")
    await see(bob, "Ann proposes.")
    await tap(ann, "Space 2", exact=True)
    await see(host, "Ann proposes space 2")

    for ph, card in ((ann, "10"), (bob, "20"), (cy, "30")):
        await see(ph, "Choose your vote card")
        await tap(ph, card, exact=True)
        await see(ph, f"Your choice: {card}")
        await tap(ph, "Lock my card")
        if ph is not cy:  # the last lock starts the reveal at once
            await see(ph, f"Locked: {card}")
    await see(host, "Waiting for Ann to declare.")

    await see(ann, "Do you vote for or against space 2?")
    await tap(ann, "For", exact=True)
    await see(host, "Ann shows 10: for.")
    await see(bob, "Do you vote for or against space 2?")
    await tap(bob, "Against", exact=True)
    await see(cy, "Do you vote for or against space 2?")
    await tap(cy, "For", exact=True)
    await see(host, "40 for, 20 against: approved.")
    await see(host, "Miraculix moves to 2.")
    await see(ann, "Approved")

    # while players decide on modification cards the host may move on
    text = await page_text(host)
    if "Move on" in text:
        await tap(host, "Move on")
    await see(ann, "Your proposal: where does Asterix go?")
    await eventually(lambda: _has(ann, "Space 7"))
    await tall_shot(ann, shots / "lutetia-phone.png", 412, 1500)
    await tall_shot(host, shots / "lutetia-host.png", 1280, 1700)
    await host_ctx.close()


async def _has(page: Any, text: str) -> bool:
    return text in await page_text(page)
