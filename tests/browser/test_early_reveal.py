"""An early reveal and its undo at a real table (issue 30, items 1 and 2): the host, three phones
(one browser context each) and two raw WebSocket clients reading the frames the server sends.

Ana and Ben lock their bids; Cleo submits 731942 without locking; the host reveals anyway. By the
table's default a choice never locked is not counted: the host's dialog says so beforehand, and
Cleo's bid reaches no screen and no frame – not the host's, not another phone's. Then the host
undoes the reveal: it says first that every choice of the round is cleared, every screen says it
afterwards, and every phone chooses again – nobody's old bid stands.
"""

from __future__ import annotations

import asyncio

from tests.browser.helpers import create_table, fill, join_phones, page_text, see, tap
from tests.reliability.raw_client import RawClient

NAMES = ["Ana", "Ben", "Cleo"]
SECRET = "731942"  # Cleo's bid, never locked
BID_FIELD = "Your bid (0–999999)"


async def _bid_field(ph: object) -> None:
    await ph.get_by_role("textbox", name=BID_FIELD).first.wait_for(timeout=60_000)  # type: ignore[attr-defined]


async def _bid(ph: object, value: str, lock: bool) -> None:
    await fill(ph, BID_FIELD, value)
    await tap(ph, "Submit", exact=True)
    await see(ph, f"Your choice: {value}")
    if lock:
        await tap(ph, "Lock my choice")
        await see(ph, "Locked in:")


async def test_reveal_anyway_drops_the_unlocked_bid_and_its_undo_clears_the_round(browser, server, shots):
    table = await create_table(browser, server, seats=3, names=NAMES, choices=["A number (bid)"],
                               fields={"Highest number": "999999"})
    host, code = table.page, table.code
    phones = await join_phones(browser, table.join_url, NAMES)
    await tap(host, "Start")
    for ph in phones:
        await _bid_field(ph)

    # Raw clients beside the browsers: the host screen (its key from the host's cookie) and Ana's
    # seat (its token from her tab's address) – every frame the server sends them is kept.
    jar = {c["name"]: c["value"] for c in await table.ctx.cookies()}
    ana_token = phones[0].url.split("s=", 1)[1].split("&")[0]
    raw_host = RawClient(server.base, f"/host/{code}", headers={"Cookie": f"tc_h_{code}={jar[f'tc_h_{code}']}"})
    raw_ana = RawClient(server.base, f"/t/{code}?s={ana_token}")
    await raw_host.open()
    await raw_ana.open()
    try:
        assert await raw_host.wait_for("have locked", timeout=60)

        await _bid(phones[0], "12", lock=True)
        await _bid(phones[1], "20", lock=True)
        await _bid(phones[2], SECRET, lock=False)
        await see(host, "2 of 3 have locked")
        # one word for one state: Cleo has chosen without locking – the same on host and phones
        await see(host, "chosen, not locked")
        await see(phones[0], "chosen, not locked")

        await tap(host, "Reveal now")
        await see(host, "1 choice is not locked and will not count: Cleo.")
        await tap(host, "Reveal anyway")
        for page in (host, *phones):
            await see(page, "Highest: Ben")
        await host.screenshot(path=str(shots / "early-reveal-host.png"))
        await phones[2].screenshot(path=str(shots / "early-reveal-cleo.png"))
        for page in (host, phones[0], phones[1], phones[2]):
            text = await page_text(page)
            assert SECRET not in text, text  # not counted: shown nowhere
            assert "no answer" in text  # Cleo counts as one who never chose
        assert await raw_host.wait_for("Highest: Ben", timeout=30)
        assert await raw_ana.wait_for("Highest: Ben", timeout=30)
        for raw in (raw_host, raw_ana):  # ... and sent to no other screen, in any frame
            assert not any(SECRET in t for t in raw.texts())

        # The host takes the reveal back: it says what that does, every screen says it after.
        await tap(host, "Undo last action")
        await see(host, "This takes back the reveal: every choice of this round is cleared and everyone chooses again.")
        await tap(host, "Undo", exact=True)
        await see(host, "0 of 3 have locked")
        undone = "The host took back the reveal: every choice of this round is cleared – everyone chooses again."
        for page in (host, *phones):
            await see(page, undone)
        assert await raw_ana.wait_for(undone, timeout=30)
        for ph in phones:  # every phone chooses again: nobody's old bid stands
            await _bid_field(ph)
            text = await page_text(ph)
            assert "Locked in" not in text and "Your choice" not in text, text
        await see(host, "0 of 3 have locked")
        assert "chosen, not locked" not in await page_text(host)
        await phones[0].screenshot(path=str(shots / "early-reveal-undone-ana.png"))
        # and the round goes on: Cleo bids again, as anyone else
        await _bid(phones[2], "5", lock=True)
        await see(host, "1 of 3 has locked")
        await asyncio.sleep(0.5)
        assert not any(SECRET in t for t in raw_host.texts() + raw_ana.texts())
    finally:
        await raw_host.close()
        await raw_ana.close()
