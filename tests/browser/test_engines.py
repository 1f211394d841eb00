"""Every phone at the table (issue 19): the same flows in Chromium, WebKit (Safari's engine: every
iPhone browser) and Firefox ESR – joining by the host screen's QR code, a reload that keeps the
seat, voting, locking, the reveal, and one game's main screen. The host creates the table in
Chromium (typing into Flutter's fields is engine-specific; sitting, tapping and reading are not)
and opens its host page in the engine under test, whose screenshot must show a QR code that
decodes to the join URL (issue 19 item 1: images in every engine)."""

from __future__ import annotations

import asyncio
import io
import json

import pytest

from tests.browser.engines import ENGINES, Phone
from tests.browser.helpers import HOST, create_table, see, tap


async def _read_qr(phone: Phone, tries: int = 30) -> str:
    import zxingcpp
    from PIL import Image

    png = await phone.first_frame_shot()
    for _ in range(tries):
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
        if found:
            return str(found[0].text)
        await asyncio.sleep(0.5)
        png = await phone.screenshot()
    raise AssertionError(f"{phone.engine}: no QR code on the host screen")


async def _host_link(table: object) -> str:
    """The host page's link with its key (a host link moves the key into storage at once)."""
    page = table.page  # type: ignore[attr-defined]
    key = await page.evaluate(f"localStorage.getItem('flutter.host:{table.code}')")  # type: ignore[attr-defined]
    return f"{page.url.split('?')[0]}?k={json.loads(key)}"


@pytest.mark.parametrize("engine_name", ENGINES)
async def test_join_reload_vote_reveal(browser, server, engine, engine_name):
    table = await create_table(browser, server, seats=2, names=["Anna", "Bert"], qr=False)
    host = await engine.open(await _host_link(table), HOST)
    await host.see("Scan with your phone")
    assert await _read_qr(host) == table.join_url

    anna = await engine.open(table.join_url)
    await anna.tap("Sit as Anna")
    await anna.see("Waiting for the host to start")
    await anna.reload()  # same browser, same seat
    await anna.see("Waiting for the host to start")
    assert "Anna" in await anna.text()
    # Bert sits down on the page's own HTML join screen, as soon as it shows (issue 31.4), and
    # ends on his Flutter seat screen like Anna
    bert = await engine.open(table.join_url, app=False)
    await bert.tap_html("Sit as Bert")
    await bert.enable_semantics()
    await bert.see("Waiting for the host to start")

    await tap(table.page, "Start")
    for ph, choice in ((anna, "Yes"), (bert, "No")):
        await ph.see("Lock my choice")
        await ph.tap(choice, exact=True)
        await ph.see(f"Your choice: {choice}")
        await ph.tap("Lock my choice")
        if ph is anna:  # (Bert's lock, the last one, reveals at once)
            await ph.see("Locked in:")
    for screen in (anna, bert, host):
        await screen.see("Tally: Yes: 1")
        assert "No: 1" in await screen.text()


@pytest.mark.parametrize("engine_name", ENGINES)
async def test_a_game_main_screen(browser, server, engine, engine_name):
    names = ["Ann", "Bob", "Cy"]
    table = await create_table(browser, server, "Quo Vadis", seats=3, names=names, qr=False)
    phones = []
    for name in names:
        ph = await engine.open(table.join_url)
        await ph.tap(f"Sit as {name}")
        await ph.see("Waiting for the host to start")
        phones.append(ph)
    await tap(table.page, "Start")
    for ph in phones:
        await ph.see("Your laurels: 0")
    await phones[0].see("Your turn")
    await phones[0].tap("Place in 1", exact=True)
    await see(table.page, "places a senator in committee 1")


@pytest.mark.parametrize("engine_name", ["chromium", "firefox"])
async def test_a_c_locale_still_opens_the_table(server, engine, engine_name):
    """Issue 19 item 3: navigator.languages == ['C'] (WebKitGTK under LANG=C) made Flutter throw
    "invalid language tag": the page hung on "Opening table …". Now it opens, in English."""
    phone = await engine.open(server.base + "/t/ABCD", languages=["C"])
    await phone.see("There is no table with the code ABCD")
    assert await phone.js("navigator.languages") == ["en"]
