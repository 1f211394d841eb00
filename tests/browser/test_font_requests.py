"""Flutter's fallback fonts on the CanvasKit build (issue 31.1 and 31.2; companion/fallback_fonts.py).

What every non-Chromium browser (iPhones, Firefox) gets is `main.dart.js` + CanvasKit, whose font
fallback does not remember a failed download: a font request answered 404 is asked again at every
layout, 13–18 times a second for as long as the screen is open. A name such as "Zoë" or the French
interface made it ask for `notosanssymbols`, a Devanagari name for `notosans`. Here Chromium is
forced onto CanvasKit (its vendor hidden, as in WebKit and Firefox) and the font requests of a
phone left on the seat screen are counted for 10 s: at most 5, every one answered 200 (the bug asked
13–18 times a second: 180 requests in 10 s with the fonts answered 404; COMPANION_FONT_WATCH=30 for
docs/BENCHMARKS.md's 30 s).

And one emoji name costs a phone the slice of the emoji font that Flutter asks for, not the whole
11 MB font: the font bytes a phone receives for "🦄 Zoé 🎲" are counted (≤ 1.5 MB). In WebKit and
Firefox the same page load also checks that each file of the CanvasKit build came once (31.3).
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from typing import Any

import pytest

from tests.browser.helpers import PHONE, create_table, enable_semantics, see

# Flutter's loader gives skwasm only to a browser whose vendor is Google's; hidden, Chromium runs
# the CanvasKit build, as WebKit and Firefox do (docs: shared FLET.md "Browsers other than Chromium").
CANVASKIT = "Object.defineProperty(Navigator.prototype, 'vendor', {get: () => ''});"
FALLBACK = re.compile(r"/assets/fonts/noto[a-z0-9]*/v\d+/|/fallback/")
DEVANAGARI = "देवी"
WATCH = float(os.environ.get("COMPANION_FONT_WATCH", "10"))  # seconds a screen is left open
CANVASKIT_FILES = ("main.dart.js", "canvaskit.js", "canvaskit.wasm")


async def _phone(browser: Any, locale: str) -> tuple[Any, list[tuple[str, int]]]:
    ctx = await browser.new_context(viewport=PHONE, locale=locale)
    await ctx.add_init_script(CANVASKIT)
    fonts: list[tuple[str, int]] = []  # (url, status) of every fallback font response
    ctx.on("response", lambda r: fonts.append((r.url, r.status)) if FALLBACK.search(r.url) else None)
    return await ctx.new_page(), fonts


async def _font_bytes(page: Any) -> int:
    """Bytes of fallback fonts this page received (transfer size: what crossed the network)."""
    return int(await page.evaluate(
        "performance.getEntriesByType('resource').filter(e => /\\/assets\\/fonts\\/noto|\\/fallback\\//"
        ".test(e.name)).reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0)"))


async def test_canvaskit_asks_for_each_fallback_font_once_with_a_name_like_zoe_in_french(
        browser: Any, server: Any) -> None:
    table = await create_table(browser, server, seats=2, names=["Zoë", DEVANAGARI], qr=False)
    ph, fonts = await _phone(browser, "fr-FR")
    await ph.goto(table.join_url)
    await enable_semantics(ph)
    await see(ph, "S’asseoir comme Zoë")
    await see(ph, DEVANAGARI)
    assert await ph.evaluate("!!window.flutterCanvasKit")  # the CanvasKit build (skwasm has none)
    start = time.monotonic()
    await asyncio.sleep(WATCH)
    asked = list(fonts)
    print(f"{len(asked)} font requests in {time.monotonic() - start:.0f} s: {asked}")
    assert all(status == 200 for _, status in asked), asked
    assert len(asked) <= 5, f"{len(asked)} font requests: {sorted({u for u, _ in asked})}"
    assert asked, "Flutter asked for no fallback font: the names did not need one?"


async def test_an_emoji_name_costs_a_phone_a_slice_of_the_emoji_font(browser: Any, server: Any) -> None:
    from tests.browser.test_names import EMOJI_NAME, _purple_pixels

    table = await create_table(browser, server, seats=2, names=[EMOJI_NAME, "Bob"], qr=False)
    ph, fonts = await _phone(browser, "en-US")
    await ph.goto(table.join_url)
    await enable_semantics(ph)
    await see(ph, f"Sit as {EMOJI_NAME}")

    async def drawn() -> bool:  # the unicorn in colour: the slice arrived and was used
        box = await ph.get_by_text(f"Sit as {EMOJI_NAME}", exact=False).first.bounding_box()
        png = await ph.screenshot()
        return bool(box) and _purple_pixels(png, {"x": 0, "y": box["y"] - 4, "width": PHONE["width"],
                                                 "height": box["height"] + 8}) > 20
    deadline = time.monotonic() + 60
    while not await drawn():
        assert time.monotonic() < deadline, f"the unicorn was not drawn in colour; fonts: {fonts}"
        await asyncio.sleep(1)
    emoji = [(u, s) for u, s in fonts if "/notocoloremoji/" in u or u.endswith(".ttf")]
    assert emoji and all(s == 200 for _, s in emoji), fonts
    sent = await _font_bytes(ph)
    print(f"emoji name: {len(fonts)} font responses, {sent} bytes: {fonts}")
    assert 0 < sent <= 1_500_000, (sent, fonts)


@pytest.mark.parametrize("engine_name", ["webkit", "firefox"])
async def test_font_requests_end_on_webkit_and_firefox(browser: Any, server: Any, engine: Any,
                                                       engine_name: str) -> None:
    """The same in the engines themselves: "Zoë" and a Devanagari name (Firefox: in French;
    WebKitWebDriver takes no init script to set the language), the screen left open WATCH s;
    requests counted by the page's resource timing – and each file of the CanvasKit build
    fetched once (issue 31.3; companion/page.py PRELOAD_JS)."""
    table = await create_table(browser, server, seats=2, names=["Zoë", DEVANAGARI], qr=False)
    french = engine_name == "firefox"
    ph = await engine.open(table.join_url, languages=["fr-FR", "fr"] if french else None)
    await ph.see("S’asseoir comme Zoë" if french else "Sit as Zoë")
    # (issue 31.3) each file of the CanvasKit build came once: WebKit did not reuse the page's
    # preload of canvaskit.wasm for CanvasKit's fetch() and downloaded its 2.9 MB twice
    names = await ph.js("performance.getEntriesByType('resource').map(e => e.name.split('?')[0])")
    counts = {f: sum(1 for n in names if n.endswith("/" + f)) for f in CANVASKIT_FILES}
    assert counts == dict.fromkeys(CANVASKIT_FILES, 1), (counts, [n for n in names if "canvaskit" in n])
    await asyncio.sleep(WATCH)
    asked = await ph.js("performance.getEntriesByType('resource').map(e => e.name)"
                        ".filter(n => /\\/assets\\/fonts\\/noto|\\/fallback\\//.test(n))")
    print(f"{engine_name}: {len(asked)} font requests in {WATCH:.0f} s: {asked}")
    assert 0 < len(asked) <= 5, f"{len(asked)} font requests: {sorted(set(asked))[:10]}"
