"""Seats that can't be taken by mistake (issue 18.4), with two real phones tapping at once.

- A seat taken by another phone stays where it was, disabled, with its new name: the spot a finger
  is about to tap still holds the seat it showed (before, the list reflowed and "Sit as Player 2"
  became "Sit as Player 3" under the finger).
- Two phones tapping the same seat at the same instant: one gets it, the other sits nowhere and
  reads why (the seat shows its taker, or "Player 3 was just taken" if the tap reached the table).
"""

from __future__ import annotations

import asyncio
import os

from tests.browser.helpers import (
    before_picture,
    button,
    create_table,
    open_screen,
    page_text,
    see,
    tap,
    type_into,
)


async def _box(page, name: str) -> dict:
    b = button(page, name, exact=True)
    await b.wait_for(timeout=60_000)
    box = await b.bounding_box()
    assert box
    return box


async def _small_targets(page) -> list[str]:
    """Buttons smaller than 44 × 44 px (issue 18.7: the language switches were 32 px high, the host's
    seat icons 40 px)."""
    small = []
    bottom = page.viewport_size["height"]
    for b in await page.get_by_role("button").all():
        box = await b.bounding_box()
        if box and box["y"] + box["height"] >= bottom - 1:
            continue  # cut by the window's edge (the screen scrolls inside the canvas): not its size
        if box and (box["height"] < 44 or box["width"] < 44):
            small.append(f"{await b.get_attribute('aria-label') or await b.inner_text()}: "
                         f"{box['width']:.0f}×{box['height']:.0f}")
    return small


async def test_seat_buttons_stay_in_place_and_a_race_names_the_seat(browser, server):
    table = await create_table(browser, server, seats=4, qr=False)
    phones = [ph for _ctx, ph in await asyncio.gather(*(open_screen(browser, table.join_url) for _ in range(3)))]
    for ph, name in zip(phones, ["Ann", "Bob", "Cleo"], strict=True):
        await type_into(ph, "Your name", name)
        await see(ph, "Sit as Player 4")
    ann, bob, cleo = phones

    # Bob's finger is over "Sit as Player 2" when Ann sits as Player 1 ...
    spot = await _box(bob, "Sit as Player 2")
    await tap(ann, "Sit as Player 1", exact=True)
    await see(ann, "Waiting for the host to start")
    await see(bob, "Taken: Ann")
    # ... the spot still holds Player 2: a tap there seats Bob where he meant to sit.
    assert await _box(bob, "Sit as Player 2") == spot
    await bob.mouse.click(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    await see(bob, "Waiting for the host to start")
    await see(table.page, "Bob")
    assert not await _small_targets(bob), await _small_targets(bob)
    if os.environ.get("SEATS_SHOTS"):
        await table.page.screenshot(path=os.environ["SEATS_SHOTS"] + "/host.png")
        await bob.screenshot(path=os.environ["SEATS_SHOTS"] + "/bob.png")
    assert not await _small_targets(table.page), await _small_targets(table.page)
    host_text = await page_text(table.page)
    assert host_text.index("Ann") < host_text.index("Bob")  # Ann in seat 1, Bob in seat 2

    # Bob sat in the wrong seat after all: he gives it back before the start and sits again.
    await tap(bob, "Not Bob? Pick another seat")
    await see(bob, "Sit as Player 2")
    if os.environ.get("SEATS_SHOTS"):
        await bob.screenshot(path=os.environ["SEATS_SHOTS"] + "/bob-back.png")
    await see(ann, "Player 2")
    await tap(bob, "Sit as Player 2", exact=True)
    await see(bob, "Waiting for the host to start")
    await see(cleo, "Taken: Bob")

    # Cleo and a fourth phone tap "Sit as Player 3" at the same instant.
    _ctx, dee = await open_screen(browser, table.join_url)
    await type_into(dee, "Your name", "Dee")
    await see(cleo, "Taken: Bob")
    await see(dee, "Sit as Player 3")
    await asyncio.gather(tap(cleo, "Sit as Player 3", exact=True), tap(dee, "Sit as Player 3", exact=True))
    texts = {}
    for who, other, ph in [("Cleo", "Dee", cleo), ("Dee", "Cleo", dee)]:
        for _ in range(120):
            text = await page_text(ph)
            # (the winner's own join screen shows "Taken: <its own name>" for a moment – between the
            # table's change and its move to the seat's screen –, longer on a loaded machine: not an end)
            if "Waiting for the host to start" in text or f"Taken: {other}" in text and "Sit as Player 3" not in text:
                break
            await asyncio.sleep(0.5)
        texts[who] = text
    seated = [w for w, text in texts.items() if "Waiting for the host to start" in text]
    assert len(seated) == 1, texts  # one of them sits, as Player 3 (the seat both tapped) ...
    winner = seated[0]
    loser = "Dee" if winner == "Cleo" else "Cleo"
    await see(table.page, winner)
    # ... the other sits nowhere and reads why: the seat now shows its taker (their tap came after
    # the seat was drawn as taken) or, if it reached the table first, "Player 3 was just taken".
    text = texts[loser]
    assert f"Taken: {winner}" in text or "Player 3 was just taken by another phone" in text, text
    assert "Waiting for the host to start" not in text
    ph = cleo if loser == "Cleo" else dee
    await see(ph, "Sit as Player 4")  # every other free seat still to pick, in place


async def test_sitting_says_who_you_are_and_the_seat_icons_are_buttons(browser, server):
    """Issue 30.8: after sitting the phone says "You are Ann" in large type (with the seat's colour and
    mark); the host's seat icons (free, swap) are buttons with a name to a screen reader too."""
    from pathlib import Path

    from tests.browser.helpers import join_phones
    out = Path(os.environ.get("COMPANION_TEST_SHOTS", "/tmp/companion-test-shots"))
    out.mkdir(parents=True, exist_ok=True)
    table = await create_table(browser, server, seats=2, names=["Ann", "Bob"], qr=False)
    ann, _bob = await join_phones(browser, table.join_url, ["Ann", "Bob"])
    await see(ann, "You are Ann", exact=True)
    big = await ann.get_by_text("You are Ann", exact=True).first.bounding_box()
    assert big is not None and big["height"] >= 30, big  # large type
    await ann.set_viewport_size({"width": 360, "height": 740})
    await before_picture(2.0)
    await ann.screenshot(path=str(out / "phone-you-are-360.png"))
    host = table.page
    for name in ("Free the seat of Ann", "Swap the seat of Ann", "Free the seat of Bob", "Swap the seat of Bob"):
        await button(host, name, exact=True).wait_for(timeout=60_000)
    await button(host, "Swap the seat of Ann", exact=True).click()
    await see(host, "Now tap the swap button of the seat to swap with Ann.")
    await button(host, "Free the seat of Bob", exact=True).click()
    await see(host, "Free the seat of Bob?")
