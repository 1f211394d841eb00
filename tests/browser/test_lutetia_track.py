"""Issue 30.7: LUTETIA's track on the host's screen at 1280×800 is whole – every space 1–50 drawn
inside the window (the host's panel drew a second, smaller copy that was cut: spaces 9–10, 19–20, …
beyond its edge). Screenshot to /tmp (COMPANION_TEST_SHOTS), not docs/."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from tests.browser.helpers import create_table, join_phones, see, tap

OUT = Path(os.environ.get("COMPANION_TEST_SHOTS", "/tmp/companion-test-shots"))
LAPTOP = {"width": 1280, "height": 800}


async def spaces(page: Any) -> dict[str, list[list[float]]]:
    """Every text "1".."50" on the screen with its box (left, right), as Flutter's accessibility tree
    gives it (clipped to the window and to a scrolled panel: a cut space ends at that edge)."""
    return await page.evaluate("""() => {
        const out = {};
        document.querySelectorAll('flt-semantics').forEach(n => {
            if (n.querySelector('flt-semantics')) return;
            const t = (n.getAttribute('aria-label') || n.innerText || '').trim().split(/\\s+/)[0];
            if (!/^[0-9]+$/.test(t) || +t < 1 || +t > 50) return;
            const r = n.getBoundingClientRect();
            if (r.width > 0) (out[t] = out[t] || []).push([r.left, r.right, r.width]);
        });
        return out;
    }""")


async def test_lutetia_host_track_is_whole_at_1280(browser: Any, server: Any) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    names = ["Ann", "Bob", "Cy"]
    table = await create_table(browser, server, "LUTETIA", seats=3, names=names, qr=False)
    host = table.page
    ann, _bob, _cy = await join_phones(browser, table.join_url, names)
    await tap(host, "Start")
    await host.set_viewport_size(LAPTOP)
    await see(ann, "Your proposal: where does Asterix go?")
    await see(host, "Ann proposes a space")
    await asyncio.sleep(2.0)
    found = await spaces(host)
    missing = [n for n in range(1, 51) if str(n) not in found]
    assert not missing, f"spaces not on the host's screen: {missing}"
    # every copy of a space is drawn whole: as wide as the others (a cut one is narrower) and inside
    full = {}  # the usual width of a one- and a two-digit number
    for digits in (1, 2):
        widths = sorted(w for n, boxes in found.items() if len(n) == digits for _l, _r, w in boxes)
        full[digits] = widths[len(widths) // 2]
    cut = {n: boxes for n, boxes in found.items()
           if any(w < full[len(n)] - 2 or r > LAPTOP["width"] - 2 for _l, r, w in boxes)}
    assert not cut, f"cut spaces: {cut}"
    await host.screenshot(path=str(OUT / "lutetia-host-1280.png"))
