"""The CanvasKit build (every non-Chromium browser: iPhones, Firefox) fetches each of its files
once (issue 31.3; companion/page.py PRELOAD_JS).

WebKit does not reuse a `<link rel=preload as=fetch>` for a `fetch()` that starts while the
preload is still loading: `canvaskit.wasm` (2.9 MB) came twice in every first join. The page
now fetches the wasm itself and hands that response to CanvasKit's own fetch of the same URL.
Counted with the page's resource timing, in each engine as it is.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.browser.helpers import create_table

FILES = ("main.dart.js", "canvaskit.js", "canvaskit.wasm")


@pytest.mark.parametrize("engine_name", ["webkit", "firefox"])
async def test_each_canvaskit_file_is_fetched_once(browser: Any, server: Any, engine: Any, engine_name: str) -> None:
    table = await create_table(browser, server, seats=2, names=["Anna", "Bob"], qr=False)
    ph = await engine.open(table.join_url)
    await ph.see("Sit as Anna")
    await asyncio.sleep(1)
    names = await ph.js("performance.getEntriesByType('resource').map(e => e.name.split('?')[0])")
    counts = {f: sum(1 for n in names if n.endswith("/" + f)) for f in FILES}
    assert counts == dict.fromkeys(FILES, 1), (counts, [n for n in names if "canvaskit" in n or "main.dart" in n])
    await ph.tap("Sit as Anna")
    await ph.see("Waiting for the host to start")  # CanvasKit got the wasm it asked for and runs
