"""The table display (issue 18.1/18.2) in a real browser: for each game's main phase the host's
screen fits 1280×800 (what the table needs measured by its element boxes), /display/CODE opens
only with the host's key and shows no secret, and the reveal moment appears. Screenshots of each
game's display at 1280×800 and 1920×1080 and of each reveal moment go to the `shots` folder
(docs/screenshots/ with `make screenshots`)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.browser.helpers import (
    before_picture,
    button,
    create_table,
    enable_semantics,
    eventually,
    join_phones,
    page_text,
    see,
    tap,
)

LAPTOP = {"width": 1280, "height": 800}
TV = {"width": 1920, "height": 1080}


async def fits(page: Any, texts: list[str], height: int = 800, min_px: float = 0) -> None:
    """Each text is on screen above the fold: one of the elements showing it has its box inside the
    window. Not just the first in the page's order – a verdict is in the log (scrolled below) as soon
    as it is decided, and its moment on the host a beat later, after the cards turn."""
    for text in texts:
        loc = page.get_by_text(text)
        await loc.first.wait_for(timeout=60_000)

        async def inside(loc: Any = loc) -> Any:
            boxes = [await loc.nth(i).bounding_box() for i in range(await loc.count())]
            return [b for b in boxes if b is not None and b["y"] >= 0 and b["y"] + b["height"] <= height
                    and b["height"] >= min_px] or False
        try:
            await eventually(inside, timeout=20)
        except AssertionError:
            raise AssertionError((text, [await loc.nth(i).bounding_box() for i in range(await loc.count())])) from None


async def fits_all(page: Any, text: str, height: int) -> None:
    """Every element showing `text` is on screen above the fold."""
    loc = page.get_by_text(text)
    await loc.first.wait_for(timeout=60_000)
    for i in range(await loc.count()):
        box = await loc.nth(i).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (text, i, box)


async def shot(page: Any, path: Any) -> None:
    await before_picture(2.0)  # the canvas paints after the accessibility tree; the flip is done
    await page.screenshot(path=str(path))


async def open_display(host_ctx: Any, base: str, code: str) -> Any:
    """The table display on a second screen of the host's machine (the host's browser: its key)."""
    page = await host_ctx.new_page()
    await page.set_viewport_size(TV)
    await page.goto(f"{base}/display/{code}")
    await enable_semantics(page)
    return page


async def test_sealed_vote_display(browser, server, shots):
    names = ["Ann", "Bob", "Cy"]
    table = await create_table(browser, server, seats=3, names=names)
    host = table.page
    phones = await join_phones(browser, table.join_url, names)
    await tap(host, "Start")
    await host.set_viewport_size(LAPTOP)
    await see(host, "Table admin")
    await fits(host, ["Round 1: Secret vote", "Waiting for Ann, Bob and Cy…", "Ann", "Cy", "Reveal now",
                      "QR code to join"], min_px=24)

    # /display/CODE: refused without the host's key (another browser), shown with it
    other = await browser.new_context(viewport=TV)
    stranger = await other.new_page()
    await stranger.goto(f"{server.base}/display/{table.code}")
    await enable_semantics(stranger)
    await see(stranger, "This display belongs to the host")
    assert "Round 1" not in await page_text(stranger)
    tv = await open_display(table.ctx, server.base, table.code)
    await see(tv, "Round 1: Secret vote")

    await tap(phones[0], "Yes", exact=True)
    await tap(phones[0], "Lock my choice")
    await see(phones[0], "Locked in:")
    await see(tv, "locked", exact=True)
    secret = await page_text(phones[0])
    assert "Locked in:\nYes" in secret
    for screen in (tv, host):
        text = await page_text(screen)
        assert "Yes" not in text and "Locked in" not in text, "a seat's secret on the display"
    await fits(host, ["Waiting for Bob and Cy…"])
    await shot(tv, shots / "display-vote-1920.png")
    await shot(host, shots / "display-vote-1280.png")

    await tap(phones[1], "No", exact=True)
    await tap(phones[1], "Lock my choice")
    await tap(phones[2], "Yes", exact=True)
    await tap(phones[2], "Lock my choice")
    for screen in (tv, host):
        await see(screen, "Tally: Yes: 2  ·  No: 1  ·  Abstain: 0")
    await fits(host, ["Tally: Yes: 2  ·  No: 1  ·  Abstain: 0"])
    await shot(tv, shots / "display-vote-reveal-1920.png")

    # the admin is one tap away, and the late-comer's QR code
    await tap(host, "Table admin")
    await see(host, "Scan with your phone")
    await see(host, "Close table admin")
    await other.close()


async def test_lutetia_display(browser, server, shots):
    names = ["Ann", "Bob", "Cy"]
    table = await create_table(browser, server, "LUTETIA", seats=3, names=names)
    host = table.page
    ann, bob, cy = await join_phones(browser, table.join_url, names)
    await tap(host, "Start")
    await host.set_viewport_size(LAPTOP)
    await see(ann, "Your proposal: where does Asterix go?")
    await fits(host, ["Ann proposes a space", "Miraculix on space 0"], min_px=24)
    await tap(ann, "Space 2", exact=True)
    await fits(host, ["Vote on Ann’s proposal: space 2", "Proposal: 0 » 2 (2 spaces forward)", "Asterix on space 2",
                      "Waiting for Ann, Bob and Cy…"])
    tv = await open_display(table.ctx, server.base, table.code)
    await see(tv, "Vote on Ann’s proposal: space 2")
    await shot(host, shots / "display-lutetia-1280.png")
    await shot(tv, shots / "display-lutetia-1920.png")
    for ph, card in ((ann, "10"), (bob, "20"), (cy, "30")):
        await see(ph, "Choose your vote card")
        await tap(ph, card, exact=True)
        await tap(ph, "Lock my card")
    for ph, side in ((ann, "For"), (bob, "Against"), (cy, "For")):
        await see(ph, "Do you vote for or against space 2?")
        await tap(ph, side, exact=True)
    for screen in (tv, host):  # the count says its verdict once (not "Approved: 40 for, 20 against: approved.")
        await see(screen, "40 for, 20 against: approved.", exact=True)
        await see(screen, "Miraculix moves to space 2")
    await fits(host, ["40 for, 20 against: approved."])
    await shot(tv, shots / "display-lutetia-reveal-1920.png")


async def test_quovadis_display(browser, server, shots):
    names = ["Ann", "Bob", "Cy"]
    table = await create_table(browser, server, "Quo Vadis", seats=3, names=names)
    host = table.page
    phones = await join_phones(browser, table.join_url, names)
    ann, bob, cy = phones
    await tap(host, "Start")
    await host.set_viewport_size(LAPTOP)
    await see(ann, "Your turn")
    await fits(host, ["Ann’s turn", "Senate", "Ann", "Bob", "Cy"], min_px=20)
    for ph in phones:
        await tap(ph, "Place in 1", exact=True)
        await see(host, "places a senator in committee 1")
    await see(ann, "Your turn")
    await tap(ann, "1 » 8")
    await fits(host, ["Committee 1 votes: Ann wants to move to 8"])
    tv = await open_display(table.ctx, server.base, table.code)
    await see(tv, "Committee 1 votes: Ann wants to move to 8")
    await shot(host, shots / "display-quovadis-1280.png")
    await shot(tv, shots / "display-quovadis-1920.png")
    await tap(bob, "Yes", exact=True)
    await tap(cy, "Yes", exact=True)
    for screen in (tv, host):
        await see(screen, "Approved with 3 of 3 votes needed.")
    await fits(host, ["Approved with 3 of 3 votes needed."])
    await shot(tv, shots / "display-quovadis-reveal-1920.png")


async def test_lutece_display(browser, server, shots):
    from tests.browser.test_lutece import lock, play_cards
    names = ["Anna", "Bert"]
    table = await create_table(browser, server, "Lutèce", seats=2, names=names)
    host = table.page
    anna, bert = await join_phones(browser, table.join_url, names)
    await tap(host, "Start")
    await host.set_viewport_size(LAPTOP)
    await fits(host, ["Round 1: everyone chooses two cards", "Waiting for Anna and Bert…", "Anna", "Bert"], min_px=24)
    await asyncio.gather(play_cards(anna, ["A", "Revenus"]), play_cards(bert, ["A", "I"]))
    await lock(anna)
    tv = await open_display(table.ctx, server.base, table.code)
    await see(tv, "Waiting for Bert…")
    await shot(host, shots / "display-lutece-1280.png")
    await shot(tv, shots / "display-lutece-1920.png")
    await lock(bert, last=True)
    await see(host, "Round 1: the cards")
    await see(host, "A + Revenus")
    await tap(host, "Next card", exact=True)
    await see(host, "1 of ")
    # the host's screen at 1280×800: the moment's longest step (card A, taken by nobody) fits too
    await fits(host, ["Round 1: the cards", "A stays: +1 gold on it (now 1)."], min_px=20)
    await see(tv, "Card A")  # the display goes on by itself, at a steady pace
    # The resolution fits the TV: the moment (its title, the step shown, in type read across the room)
    # and the board beside it, down to its gold line (the summary says the same at the last step).
    await fits(tv, ["Round 1: the cards", "of 6 · Card"], height=TV["height"], min_px=30)
    await shot(tv, shots / "display-lutece-reveal-1920.png")
    await fits_all(tv, "Anna 9 gold", height=TV["height"])
    await see(tv, "Anna plays Revenus: +3 gold.", timeout=40_000)  # the display's pace reaches the summary
    for _ in range(8):  # the host's own pace: Next card, step by step
        text = await page_text(host)
        if "Next card" not in text:
            break
        try:
            await button(host, "Next card", exact=True).first.click(timeout=5_000)
        except Exception:
            pass
        await asyncio.sleep(0.5)
    await see(host, "Anna plays Revenus: +3 gold.")
    await shot(host, shots / "display-lutece-summary-1280.png")
