"""Quo Vadis in the real app: host creates a 3-player table, three phones join by the QR code,
place senators, one asks committee 1 for a move (3 of 5 votes), the others vote yes on their
phones, laurels land secretly on the right phones, a private hand-over, and a Caesar move."""

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


async def test_quovadis_three_phones(browser, server, shots):
    host_ctx, host = await open_screen(browser, server.base + "/", HOST)
    await see(host, "Create table")
    await _pick_dropdown(host, 0, "Quo Vadis")
    await eventually(lambda: _text_with(host, "Support laurels"))  # a switch: aria-label only
    await _pick_dropdown(host, 1, "3")
    await tap(host, "Create table")
    await see(host, "Scan with your phone")
    join_url = await read_qr(host)

    phones = []
    for i, name in enumerate(NAMES):
        ctx, ph = await open_screen(browser, join_url)
        await type_into(ph, "Your name", name)
        await tap(ph, f"Sit as Player {i + 1}")
        await see(ph, "Waiting for the host to start")
        phones.append(ph)
    ann, bob, cy = phones
    await see(host, "Cy")
    await tap(host, "Start")
    for ph in phones:
        await see(ph, "Your laurels: 0")
    await see(ann, "Your turn")

    for ph in phones:  # one action each: a senator into committee 1 (5 seats)
        await tap(ph, "Place in 1", exact=True)
        await see(host, "places a senator in committee 1")
    await see(ann, "Your turn")
    await tap(ann, "1 » 8")  # "1 » 8 · vote: 3 yes, 1 yours · laurel n"
    await see(host, "Ann wants to move from 1 to 8")
    await see(host, "Yes so far: 1 of 3")
    await see(bob, "Your vote (senators: 1):")
    await tap(bob, "Yes", exact=True)
    await see(host, "Yes so far: 2 of 3")
    await bob.screenshot(path=str(shots / "quovadis-phone.png"))
    await host.screenshot(path=str(shots / "quovadis-host.png"))
    await tap(cy, "Yes", exact=True)
    await see(host, "Approved with 3 of 3 votes needed.")
    if "took a Caesar chip" in await page_text(host):  # the chip on 1 » 8 was a Caesar chip (random seed)
        await tap(ann, "Leave Caesar where he is")
        await see(host, "Ann leaves Caesar where he stands.")

    # Ann took the face-up chip (2–5 laurels), Bob and Cy one support laurel each – each sees only theirs.
    ann_text = await eventually(lambda: _text_with(ann, "Your laurels: "))
    assert any(f"Your laurels: {n}" in ann_text for n in (2, 3, 4, 5))
    await see(bob, "Your laurels: 1")
    await see(cy, "Your laurels: 1")
    host_text = await page_text(host)
    assert "Your laurels" not in host_text and "Chips:" not in host_text

    # Cy hands 1 laurel to Bob: private to both.
    await type_into(cy, "Laurels (1–1)", "1")
    await tap(cy, "Give to Bob", exact=True)
    await see(bob, "Your laurels: 2")
    await see(bob, "Hand-over from Cy – laurels: 1.")
    await see(cy, "Your laurels: 0")
    for other in (host, ann):
        text = await page_text(other)
        assert "Hand-over" not in text

    # Bob's turn: he moves Caesar instead of a senator.
    await see(bob, "Your turn")
    await bob.screenshot(path=str(shots / "quovadis-phone-turn.png"))
    await tap(bob, "1 » 5 (")  # "Or move Caesar to:" … "1 » 5 (laurel n)"
    await see(host, "Bob moves Caesar to the space 1 » 5.")
    await see(cy, "Your turn")
    await ann.screenshot(path=str(shots / "quovadis-phone-ann.png"))
    await host.mouse.move(640, 600)
    await host.mouse.wheel(0, 800)
    await asyncio.sleep(1)
    await host.screenshot(path=str(shots / "quovadis-host-board.png"))
    await host_ctx.close()


async def _text_with(page: Any, needle: str) -> str | bool:
    text = await page_text(page)
    return text if needle in text else False
