"""Issue 30.3 in a real browser, for each game beyond the sealed vote (tests/browser/test_reveal_moment.py):
at a reveal every phone (a browser context of its own) reads its own seat's outcome in its moment –
LUTETIA "Your 30 decided it: Approved", Lutèce "You take A for 2 gold" / "Anna outbid you for A", Quo Vadis
"Your senator stays at 1" / "Your 1 senator voted No: the move failed" – and never another seat's line.
Short games on one server for the module; a phone's moment at 360 px goes to the `shots` folder
(docs/screenshots/ with `make screenshots`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import (
    SEEN_JS,
    ServerProcess,
    create_table,
    eventually,
    join_phones,
    moment_shot,
    record,
    see,
    seen,
    tap,
)

SMALL = {"width": 360, "height": 760}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module's tables (each test its own table)."""
    s = ServerProcess(tmp_path_factory.mktemp("moments") / "data")
    s.start()
    try:
        yield s
    finally:
        s.stop()


async def own_lines(phones: list[Any], lines: list[tuple[str, ...]], shot: Path) -> None:
    """Each phone showed its own lines (recorded since `record`), none of another seat's that differ
    from its own; the first phone's moment is saved as `shot`."""
    async def mine(i: int) -> str:
        try:
            return str(await eventually(lambda: seen(phones[i], lines[i]), timeout=30, interval=0.2))
        except AssertionError:
            raise AssertionError(f"phone {i} never showed {lines[i]}; it showed: "
                                 f"{await phones[i].evaluate(SEEN_JS)!r}") from None
    _, *texts = await asyncio.gather(moment_shot(phones[0], shot), *(mine(i) for i in range(len(phones))))
    for i, text in enumerate(texts):
        for j, other in enumerate(lines):
            for line in other:
                if j != i and line not in lines[i]:
                    assert line not in text, f"phone {i} shows seat {j}'s line {line!r}"


async def test_lutetia_phones_read_their_cards_outcome(browser: Any, server: Any, shots: Path) -> None:
    names = ["Ann", "Bob", "Cy"]
    table = await create_table(browser, server, "LUTETIA", seats=3, names=names, qr=False)
    phones = await join_phones(browser, table.join_url, names)
    ann, bob, cy = phones
    await cy.set_viewport_size(SMALL)
    await tap(table.page, "Start")
    await see(ann, "Your proposal: where does Asterix go?")
    await tap(ann, "Space 2", exact=True)
    for ph, card in ((ann, "10"), (bob, "20"), (cy, "30")):
        await see(ph, "Choose your vote card")
        await tap(ph, card, exact=True)
        await tap(ph, "Lock my card")
    await record(phones)
    for ph, side in ((ann, "For"), (bob, "Against"), (cy, "For")):
        await see(ph, "Do you vote for or against space 2?")
        await tap(ph, side, exact=True)
    # 40 for, 20 against: without Cy's 30 it would have failed (10 to 20); Ann's 10 and Bob's 20 did not decide
    await own_lines([cy, ann, bob], [("Your 30 decided it: Approved",), ("Your 10 (for) – Approved",),
                                     ("Your 20 (against) – Approved",)], shots / "moment-lutetia-phone-360.png")


async def test_lutece_phones_read_what_they_took(browser: Any, server: Any, shots: Path) -> None:
    from tests.browser.test_lutece import add, lock, play_cards
    names = ["Anna", "Bert"]
    table = await create_table(browser, server, "Lutèce", seats=2, names=names, qr=False)
    host = table.page
    anna, bert = await join_phones(browser, table.join_url, names)
    await anna.set_viewport_size(SMALL)
    await tap(host, "Start")
    await asyncio.gather(see(anna, "Choose 2 action cards:"), see(bert, "Choose 2 action cards:"))
    await tap(host, "A: 2")  # the card's cost
    await see(host, "cost 2")
    await asyncio.gather(play_cards(anna, ["A", "Revenus"]), play_cards(bert, ["A", "I"]))
    await add(anna, 2, "A", 2)
    await add(bert, 1, "A", 1)
    await lock(anna)
    await record([anna, bert])
    await lock(bert, last=True)  # the last lock reveals
    # A: Anna's 2 beats Bert's 1 and she pays its cost of 2; Bert takes I alone
    await own_lines([anna, bert], [("You take A for 2 gold",), ("Anna outbid you for A", "You take I for 0 gold")],
                    shots / "moment-lutece-phone-360.png")


async def test_quovadis_phones_read_their_ballot(browser: Any, server: Any, shots: Path) -> None:
    names = ["Ann", "Bob", "Cy"]
    table = await create_table(browser, server, "Quo Vadis", seats=3, names=names, qr=False)
    phones = await join_phones(browser, table.join_url, names)
    ann, bob, cy = phones
    await cy.set_viewport_size(SMALL)
    await tap(table.page, "Start")
    for ph in phones:
        await see(ph, "Your turn")
        await tap(ph, "Place in 1", exact=True)
    await see(ann, "Your turn")
    await tap(ann, "1 » 8")
    await record(phones)
    await tap(bob, "Yes", exact=True)
    await tap(cy, "No", exact=True)
    # every vote in committee 1 is needed: Cy's No stops Ann's senator
    await own_lines([cy, ann, bob], [("Your 1 senator voted No: the move failed",), ("Your senator stays at 1",),
                                     ("Your 1 senator voted Yes: the move failed",)],
                    shots / "moment-quovadis-phone-360.png")
