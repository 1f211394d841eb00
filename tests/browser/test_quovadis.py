"""Quo Vadis in the real app: host creates a 3-player table, three phones join by the QR code,
place senators, one asks committee 1 for a move (3 of 5 votes), the others vote yes on their
phones, laurels land secretly on the right phones, a private hand-over, and a Caesar move."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from tests.browser.helpers import (
    before_picture,
    create_table,
    eventually,
    join_phones,
    page_text,
    see,
    tap,
    text_with,
    type_into,
)

NAMES = ["Ann", "Bob", "Cy"]


async def _open_table(browser: Any, server: Any) -> tuple[Any, Any, list[Any]]:
    """Host creates a 3-player Quo Vadis table (default options), three phones join by the QR
    code and the host starts: returns (host context, host page, [Ann, Bob, Cy])."""
    table = await create_table(browser, server, "Quo Vadis", seats=3)
    phones = await join_phones(browser, table.join_url, NAMES, typed=True, together=True)
    host_ctx, host = table.ctx, table.page
    await see(host, "Cy")
    await tap(host, "Start")
    for ph in phones:
        await see(ph, "Your laurels: 0")
    await see(phones[0], "Your turn")
    return host_ctx, host, phones


async def test_quovadis_three_phones(browser, server, shots):
    host_ctx, host, phones = await _open_table(browser, server)
    ann, bob, cy = phones

    for ph in phones:  # one action each: a senator into committee 1 (5 seats)
        await tap(ph, "Place in 1", exact=True)
        await see(host, "places a senator in committee 1")
    await see(ann, "Your turn")
    await tap(ann, "1 » 8")  # "1 » 8 · vote: 3 yes, 1 yours · laurel n"
    await see(host, "Ann wants to move from 1 to 8")
    await see(host, "Yes so far: 1 of 3")
    await see(bob, "Your vote (senators: 1):")
    await tap(bob, "Yes", exact=True)
    await see(host, "Yes so far: 2 of 3")
    await bob.screenshot(path=str(shots / "quovadis-phone.png"))
    await host.screenshot(path=str(shots / "quovadis-host.png"))
    await tap(cy, "Yes", exact=True)
    await see(host, "Approved with 3 of 3 votes needed.")
    if "took a Caesar chip" in await page_text(host):  # the chip on 1 » 8 was a Caesar chip (random seed)
        await tap(ann, "Leave Caesar where he is")
        await see(host, "Ann leaves Caesar where he stands.")

    # Ann took the face-up chip (2–5 laurels), Bob and Cy one support laurel each – each sees only theirs.
    ann_text = await eventually(lambda: text_with(ann, "Your laurels: "))
    assert any(f"Your laurels: {n}" in ann_text for n in (2, 3, 4, 5))
    await see(bob, "Your laurels: 1")
    await see(cy, "Your laurels: 1")
    host_text = await page_text(host)
    assert "Your laurels" not in host_text and "Chips:" not in host_text

    # Cy hands 1 laurel to Bob: private to both.
    await type_into(cy, "Laurels (1–1)", "1")
    await tap(cy, "Give to Bob", exact=True)
    await see(bob, "Your laurels: 2")
    await see(bob, "Hand-over from Cy – laurels: 1.")
    await see(cy, "Your laurels: 0")
    for other in (host, ann):
        text = await page_text(other)
        assert "Hand-over" not in text

    # Bob's turn: he moves Caesar instead of a senator.
    await see(bob, "Your turn")
    await bob.screenshot(path=str(shots / "quovadis-phone-turn.png"))
    await tap(bob, "1 » 5 (")  # "Or move Caesar to:" … "1 » 5 (laurel n)"
    await see(host, "Bob moves Caesar to the space 1 » 5.")
    await see(cy, "Your turn")
    await ann.screenshot(path=str(shots / "quovadis-phone-ann.png"))
    await host.mouse.move(640, 600)
    await host.mouse.wheel(0, 800)
    await before_picture(1)
    await host.screenshot(path=str(shots / "quovadis-host-board.png"))
    await host_ctx.close()


# The shortest game to the scorer (found by a breadth-first search over the rules engine with
# Caesar on his start space 9 » Senate, which lets a senator in 9 enter the Senate without a
# vote): 24 turns. Route 1 » 5 » 9 » Senate needs 3 senators present in committee 1 (3 of 5),
# route 2 » 6 » 9 » Senate needs 2 present in committee 6 (2 of 3); 5 and 2 hold one senator.
# (seat, "place", node) or (seat, "move", from, to); the turn order is Ann, Bob, Cy, Ann, …
FULL_GAME: list[tuple[Any, ...]] = [
    (0, "place", 1), (1, "place", 1), (2, "place", 1),
    (0, "place", 1), (1, "place", 2), (2, "place", 1),
    (0, "move", 1, 5), (1, "move", 2, 6), (2, "place", 2),
    (0, "move", 5, 9), (1, "move", 1, 5), (2, "move", 2, 6),
    (0, "move", 9, 13), (1, "move", 5, 9), (2, "place", 2),
    (0, "move", 1, 5), (1, "move", 6, 9), (2, "move", 2, 6),
    (0, "move", 5, 9), (1, "move", 9, 13), (2, "move", 6, 9),
    (0, "move", 9, 13), (1, "move", 9, 13), (2, "move", 9, 13),
]
YOUR_TURN = "Your turn – choose one action"


async def _button_names(page: Any) -> list[str]:
    """The names of every button the phone shows now (its accessibility tree)."""
    return [n.strip() for n in await page.get_by_role("button").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label') || e.innerText || '')")]


async def _laurels(page: Any) -> int:
    text = await eventually(lambda: text_with(page, "Your laurels: "))
    return int(text.split("Your laurels: ", 1)[1].split()[0])


async def _voters(host: Any, a: int, b: int) -> list[str]:
    """The names the host's vote card is waiting for ("Waiting for: Bob, Cy")."""
    await see(host, f"wants to move from {a} to {b}")
    text = await eventually(lambda: text_with(host, "Waiting for: "), timeout=60)
    return [n.strip() for n in text.split("Waiting for: ", 1)[1].split("\n", 1)[0].split(",")]


async def _vote_yes(voter: Any) -> None:
    await see(voter, "Your vote (senators: ")
    await tap(voter, "Yes", exact=True)


async def test_quovadis_full_game_to_scorer(browser, server, shots):
    """Three phones and the host play the shortest game until the fifth Senate seat is filled;
    every screen then shows the scorer: all totals (equal to what each phone showed secretly),
    who qualified, the order of arrival and the winner by the rules' tie-break."""
    t0 = time.time()

    def progress(msg: str) -> None:
        print(f"[quovadis {time.time() - t0:6.1f}s] {msg}", flush=True)

    host_ctx, host, phones = await _open_table(browser, server)
    progress("table started")
    secret: list[int] = [0, 0, 0]
    arrivals: list[int] = []
    for turn, (seat, kind, *where) in enumerate(FULL_GAME, 1):
        me = phones[seat]
        if turn == len(FULL_GAME):  # the totals just before the last move (a Caesar move: no laurel)
            await see(me, YOUR_TURN)
            secret = [await _laurels(ph) for ph in phones]
        # The button as the phone names it; it appears only when it is this phone's turn.
        if kind == "place":
            pattern = f"^Place in {where[0]}$"
        else:
            a, b = where  # "1 » 5 · vote: 3 yes, 1 yours · laurel 4" (not Caesar's "1 » 5 (laurel 4)")
            pattern = "^" + re.escape(f"{a} » {'Senate' if b == 13 else b} · ")
        btn = me.get_by_role("button", name=re.compile(pattern))
        await btn.first.wait_for(timeout=90_000)
        assert await btn.count() == 1, pattern
        label = (await btn.get_attribute("aria-label") or await btn.inner_text()).strip()
        if turn == len(FULL_GAME):
            assert "Caesar: no vote, no laurel" in label  # so the totals above are the final ones
        await btn.click()
        progress(f"turn {turn}: {NAMES[seat]} taps “{label}”")
        if kind == "move" and "vote:" in label:
            asked = await _voters(host, a, b)
            assert asked and NAMES[seat] not in asked and set(asked) <= set(NAMES), asked
            await asyncio.gather(*(_vote_yes(phones[NAMES.index(n)]) for n in asked))
            progress(f"  vote: {', '.join(asked)} answered yes")
        if kind == "move" and b == 13:
            arrivals.append(seat)
        if kind == "move" and "+ Caesar" in label and "Caesar: no vote" not in label:
            # the face-up chip was a Caesar chip (random): its taker may move Caesar; he stays on
            # 9 » Senate, where the plan needs him
            await see(me, "Your Caesar chip: move Caesar")
            await tap(me, "Leave Caesar where he is")
            progress(f"  {NAMES[seat]} took a Caesar chip and leaves Caesar where he is")
    progress("fifth Senate seat filled")

    # The scorer on every screen, phones and host alike.
    totals = {NAMES[s]: secret[s] for s in range(3)}
    first = {NAMES[s]: arrivals.index(s) + 1 for s in range(3) if s in arrivals}
    best = max(totals[n] for n in first)
    winner = min((n for n in first if totals[n] == best), key=lambda n: first[n])
    order = ", ".join(NAMES[s] for s in arrivals)
    ranking = sorted(first, key=lambda n: (-totals[n], first[n]))
    ranking += sorted((n for n in NAMES if n not in first), key=lambda n: (-totals[n], NAMES.index(n)))
    for screen in [host, *phones]:
        await see(screen, f"{winner} wins!", timeout=90_000)
        text = await page_text(screen)
        for rank, name in enumerate(ranking, 1):
            assert f"{rank}. {name} – laurels: {totals[name]}" in text, (name, text)
        assert "The Senate is full – the game is over." in text
        for name, no in first.items():
            count = arrivals.count(NAMES.index(name))
            assert f"Qualified · senators in the Senate: {count} · first arrived as no. {no}" in text, name
        for name in NAMES:
            if name not in first:
                assert "No senator in the Senate – cannot win" in text
        lines = [line.strip() for line in text.split("\n")]
        assert "Order of arrival in the Senate" in lines
        for i, s in enumerate(arrivals, 1):
            assert f"{i}. {NAMES[s]}" in lines, (i, lines)
        assert YOUR_TURN not in text and "Place in" not in text
    progress(f"scorer on all 4 screens: {winner} wins, totals {totals}, arrivals {order}")
    ann = phones[0]  # back to the top of the page (the taps scrolled it down)
    await ann.mouse.move(200, 400)
    for _ in range(4):
        await ann.mouse.wheel(0, -3000)
        await asyncio.sleep(0.3)
    await see(ann, "The Senate is full – the game is over.")
    await before_picture(1)
    await ann.screenshot(path=str(shots / "quovadis-scorer-phone.png"))
    # the host's scorer sits below the join card and the seat list: a taller window shows it whole
    await host.set_viewport_size({"width": 1280, "height": 1500})
    await before_picture(2)
    await host.screenshot(path=str(shots / "quovadis-scorer-host.png"))
    await host_ctx.close()


async def _one_of(page: Any, needles: list[str]) -> str | bool:
    text = await page_text(page)
    return next((n for n in needles if n in text), False)
