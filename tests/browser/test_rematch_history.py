"""Issue 21.2/21.3 in a real browser: "Play again" at the scorer takes the host and both phones to
the new table (the phones without scanning, on their seats); the old game stays readable; the
history page on the host's computer (screenshot history-host.png, 1280×800: docs/screenshots/ with `make screenshots`)."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path
from typing import Any

from companion import history
from companion.table.store import SQLiteStore
from tests.browser.helpers import (
    before_picture,
    button,
    create_table,
    enable_semantics,
    eventually,
    join_phones,
    open_screen,
    see,
    tap,
    tap_and_confirm,
    text_with,
)
from tests.historyplay import finished_table

NAMES = ["Anna", "Bert"]


def _history_file(tmp: Path) -> bytes:
    """A few finished games of the same people, as a JSON export (imported by the page's route)."""
    store = SQLiteStore(tmp / "seed")
    people = ["Anna", "Bert", "Chloé", "Dmitri"]
    for i in range(6):
        game = ("lutece", "quovadis", "lutece")[i % 3]
        seated = people[i % 2:] if i % 2 else people
        finished_table(store, "HIS" + "ABCDEF"[i], game, seed=11 + i, phones=len(seated),
                       names=seated)
    body = history.export_json(store.history(), store.aliases())
    store.close()
    return body.encode()


async def test_play_again_two_phones_follow_and_the_history_page(browser: Any, server: Any, shots: Path,
                                                                 tmp_path: Path) -> None:
    table = await create_table(browser, server, seats=2, names=NAMES, qr=False)
    host, old = table.page, table.code
    phones = await join_phones(browser, table.join_url, NAMES)
    await tap(host, "Start")
    for ph, choice in zip(phones, ["Yes", "No"], strict=True):
        await tap(ph, choice, exact=True)
        await tap(ph, "Lock my choice")
    await see(host, "Tally")
    await tap_and_confirm(host, "End the table", "End this table for everyone?")
    await see(host, "Game over")

    await tap(host, "Play again")
    await see(host, "same players, seats, colours and options")
    await button(host, "Play again").last.click()
    await host.wait_for_url(re.compile(r"/host/(?!" + old + r")[A-Z]+$"), timeout=60_000)
    new = host.url.rsplit("/", 1)[1]
    await enable_semantics(host)
    await see(host, "Anna")
    for ph, name in zip(phones, NAMES, strict=True):
        await ph.wait_for_url(re.compile(rf"/t/{new}\?s="), timeout=60_000)
        await see(ph, "Lock my choice")
        await see(ph, name)
    await tap(phones[0], "Yes", exact=True)
    await see(phones[0], "Your choice: Yes")
    # the finished game stays readable at its old address – in the host's own browser (its host-key
    # cookie): an ended table shows its result to its own players and host only (issue 33 item 2: a
    # stranger's guess of an ended code is answered as an unknown one, and the table is not loaded)
    page = await table.ctx.new_page()
    await page.goto(f"{server.base}/host/{old}")
    await enable_semantics(page)
    await eventually(lambda: text_with(page, "Tally"), timeout=60)
    await page.close()
    ctx, page = await open_screen(browser, f"{server.base}/host/{old}", {"width": 1280, "height": 800})
    await see(page, f"There is no table with the code {old}")  # a browser without a place there
    await ctx.close()

    # the history page, with a few more games imported through its route
    req = urllib.request.Request(f"{server.base}/history/import?lang=en", data=_history_file(tmp_path),
                                 method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        assert r.status == 200
    ctx, page = await open_screen(browser, f"{server.base}/", {"width": 1280, "height": 800})
    await tap(page, "Game history and statistics")
    await see(page, "Wins per player")
    await see(page, "Dmitri")
    assert "/history" in page.url
    await before_picture(2.0)
    await page.screenshot(path=str(shots / "history-host.png"))
    await ctx.close()
