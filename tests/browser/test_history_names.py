"""Issue 30 item 6: the history page's Names part (rename, merge, export, import) draws – on a
fresh server and with people in it – instead of Flutter's grey error box: its buttons are found
by role, and the page's screenshot (to /tmp, not docs/) shows them."""

from __future__ import annotations

import asyncio
import io
import os
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.helpers import before_picture, button, fill, open_screen, see, tap
from tests.browser.test_rematch_history import _history_file

OUT = Path(os.environ.get("COMPANION_TEST_SHOTS", "/tmp/companion-test-shots"))


ERROR_GREY = (196, 195, 195)  # what Flutter's release build draws where a control failed to lay out


async def error_box_share(page: Any) -> float:
    """The share of the window painted in Flutter's error-box grey (its accessibility tree may still
    list the buttons a failed row holds: only the picture shows the grey box)."""
    from PIL import Image

    await asyncio.sleep(2.0)  # the canvas paints after the accessibility tree
    im = Image.open(io.BytesIO(await page.screenshot())).convert("RGB")
    grey = sum(n for n, rgb in im.getcolors(1 << 24) or [] if all(abs(a - b) <= 2 for a, b in zip(rgb, ERROR_GREY, strict=True)))
    return grey / (im.width * im.height)


async def names_part_drawn(page: Any, people: list[str]) -> None:
    await see(page, "Players are matched by name")
    for name in ("Download CSV", "Download JSON", "Import a JSON file"):
        await button(page, name).first.wait_for(timeout=60_000)
    for person in people:  # each person's row: its label names them, its buttons are buttons
        await page.get_by_label(f"Rename {person}").first.wait_for(timeout=60_000)
    if people:
        await button(page, "Rename", exact=True).nth(len(people) - 1).wait_for(timeout=60_000)
        await button(page, "Merge", exact=True).nth(len(people) - 1).wait_for(timeout=60_000)
    assert await error_box_share(page) < 0.01, "Flutter's grey error box instead of the Names part"


async def test_history_names_part_draws(browser: Any, server: Any, tmp_path: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    # (tall: Flutter leaves what is below the fold out of the accessibility tree)
    ctx, page = await open_screen(browser, f"{server.base}/", {"width": 1280, "height": 2000})
    await tap(page, "Game history and statistics")
    await names_part_drawn(page, [])  # a fresh server: no games, no people
    await before_picture(2.0)
    await page.screenshot(path=str(OUT / "history-fresh-1280.png"))

    req = urllib.request.Request(f"{server.base}/history/import?lang=en", data=_history_file(tmp_path),
                                 method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        assert r.status == 200
    await tap(page, "Home")
    await tap(page, "Game history and statistics")
    await see(page, "Wins per player")
    await names_part_drawn(page, ["Anna", "Dmitri"])
    # a rename adds a line with its own Undo button to the part (the same kind of row)
    await page.get_by_label("Rename Anna").first.click()
    await fill(page, "New name", "Annie")
    await button(page, "Rename", exact=True).last.click()
    await page.get_by_label("Undo the change from Anna to Annie").first.wait_for(timeout=60_000)
    await button(page, "Undo", exact=True).first.wait_for(timeout=60_000)
    await names_part_drawn(page, ["Annie", "Dmitri"])
    await before_picture(2.0)
    await page.screenshot(path=str(OUT / "history-people-1280.png"))
    await ctx.close()
