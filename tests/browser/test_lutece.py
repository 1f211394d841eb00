"""Lutèce end to end: a host and three phones in headless Chromium.

The host creates a Lutèce table and enters a card cost; three phones choose their two cards
secretly and bribe in the open; the host sees the coins on each face-down card but not which
slot it is for; the reveal resolves A (two claimants: the higher bribe wins, the other is
refunded +1) and more; the host enters the new cards' costs, answers "Can the decks refill?",
ends the game; the players enter their score cards; the scorer shows the winner.
"""

from __future__ import annotations

import asyncio

from tests.browser.helpers import HOST, open_screen, page_text, read_qr, see, tap, type_into

NAMES = ["Anna", "Bert", "Chloé"]


async def open_dropdown(page, index: int) -> None:
    """Flutter dropdowns have no accessible name: click the index-th unnamed button."""
    boxes = await page.evaluate("""() => Array.from(document.querySelectorAll('flt-semantics[role=button]'))
        .filter(n => !(n.getAttribute('aria-label') || n.innerText || '').trim())
        .map(n => { const r = n.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })""")
    x, y = boxes[index]
    await page.mouse.click(x, y)


async def choose_lutece(host) -> None:
    await open_dropdown(host, 0)
    await tap(host, "Lutèce", exact=True)
    await host.get_by_role("textbox", name="Character deck size").wait_for(timeout=30_000)
    await open_dropdown(host, 1)
    await tap(host, "3", exact=True)
    await host.get_by_role("textbox", name="Player 4 (optional)").wait_for(state="detached", timeout=30_000)


async def fill(page, label: str, value: str) -> None:
    """Type into a field and check it took (a keystroke racing a re-render can be lost)."""
    for _ in range(4):
        await type_into(page, label, value)
        await asyncio.sleep(0.4)
        if await page.get_by_role("textbox", name=label).first.input_value() == value:
            return
    raise AssertionError(f"could not type {value!r} into {label!r}")


async def gone(page, name: str) -> None:
    await page.get_by_role("button", name=name, exact=True).first.wait_for(state="detached", timeout=30_000)


async def tall_shot(page, path, height: int = 2200) -> None:
    """The host screen scrolls inside the canvas: a tall viewport shows all of it in one picture."""
    await page.set_viewport_size({"width": HOST["width"], "height": height})
    await asyncio.sleep(1.5)
    await page.screenshot(path=str(path))
    await page.set_viewport_size(HOST)


async def play_cards(ph, cards: list[str], bribes: list[tuple[int, str]]) -> None:
    seen: dict[str, int] = {}
    for c in cards:
        box = ph.get_by_role("checkbox", name=c, exact=True).nth(seen.get(c, 0))
        seen[c] = seen.get(c, 0) + 1
        await box.wait_for(timeout=30_000)
        await box.click()
    await tap(ph, "Play these 2 cards face down")
    await see(ph, "Your face-down cards")
    for amount, card in bribes:
        await tap(ph, f"+{amount} on {card}")
        await asyncio.sleep(0.3)


async def test_lutece_round_and_scorer(browser, server, shots):
    host_ctx, host = await open_screen(browser, server.base + "/", HOST)
    await see(host, "Create table")
    await choose_lutece(host)
    for i, name in enumerate(NAMES):
        await fill(host, f"Player {i + 1} (optional)", name)
    await tap(host, "Create table")
    await see(host, "Scan with your phone")
    join_url = await read_qr(host)

    phones = []
    for name in NAMES:
        ctx, ph = await open_screen(browser, join_url)
        await tap(ph, f"Sit as {name}")
        await see(ph, "Waiting for the host to start")
        phones.append(ph)
    await tap(host, "Start")
    for ph in phones:
        await see(ph, "Choose 2 action cards:")
    anna, bert, chloe = phones

    # the host enters the cost of the character on A
    await tap(host, "A: 2")
    await see(host, "cost 2")

    await play_cards(anna, ["A", "Revenus"], [(2, "A")])
    await see(anna, "A – bribe 2")
    await see(anna, "Your gold: 3")
    await see(host, "2 cards face down: 2 and 0 gold on them")
    # the host sees the coins, not which slot the cards are for; no secret pick on the host
    text = await page_text(host)
    assert "A – bribe" not in text and "Your gold" not in text
    await play_cards(bert, ["A", "I"], [(1, "A")])
    await play_cards(chloe, ["B", "Revenus"], [])
    await anna.screenshot(path=str(shots / "lutece-phone.png"))
    await tap(anna, "Ready – lock my cards")
    await see(anna, "Locked in:")
    await see(host, "1 of 3 are ready")
    await tall_shot(host, shots / "lutece-host-choosing.png")
    await tap(bert, "Ready – lock my cards")
    await tap(chloe, "Ready – lock my cards")

    # the reveal: resolution step by step on every screen
    await see(host, "A: Anna wins with the highest bribe – 2 to the bank, pays the cost of 2")
    await see(host, "A: Bert is outbid and gets the bribe of 1 back +1.")
    await see(host, "Anna plays Revenus: +3 gold.")
    await see(host, "Nobody claimed C: +1 gold on it (now 1).")
    await see(bert, "You took: I")
    await see(anna, "Your gold: 4")  # 5 - 2 + 3 - 2
    await tall_shot(host, shots / "lutece-host.png")

    # refill: costs of the new cards, then the deck question
    await see(host, "Can the decks refill the empty slots?")
    await tap(bert, "I: 3")  # whoever took the card may enter the new one's cost
    await gone(host, "I: 3")
    await tap(host, "A: 1")
    await gone(host, "A: 1")
    await tap(host, "B: 0")
    await gone(host, "B: 0")
    await tap(host, "Yes – next round")
    await see(host, "Round 2")
    for ph in phones:
        await see(ph, "Choose 2 action cards:")

    # round 2: everybody takes income; the host reveals and ends the game
    for ph in phones:
        await play_cards(ph, ["Revenus", "Revenus"], [])
    await tap(host, "Reveal now")
    await tap(host, "No – end the game")
    for ph, score in zip(phones, [(3, 0, 1, 0, 4), (1, 2, 1, 0, 0), (0, 2, 1, 5, 2)], strict=True):
        await see(ph, "Your score card")
        for label, value in zip(["Glaive", "Bread", "Potion", "Cervoise", "Place points"], score, strict=True):
            await fill(ph, label, str(value))
        await tap(ph, "Send score card")
    await see(host, "All score cards are in.")
    await tap(host, "Confirm final scores")
    for page in (host, *phones):
        await see(page, "Winner: Chloé")
    await tall_shot(host, shots / "lutece-result.png", 1500)
    await host_ctx.close()
