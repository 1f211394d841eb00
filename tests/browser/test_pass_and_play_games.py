"""Pass-and-play in every game (issue 29): a mixed table – Ann and Bob on the shared device, Cy and Di
on phones – plays a round of LUTETIA (a vote with the declarations and the after-vote step), of
Lutèce (picks and bribes, the new cards' costs asked of the shared seat that took them) and of Quo
Vadis (a turn each, a vote asked of a shared seat, laurel hand-overs from and to the shared seats).

At every hand-over (the device back on its cover: "Pass to …", "All shared seats are done") the
device's screen – what its screen reader reads, and a screenshot of it (in the test's scratch
folder, never docs/) – holds no secret of any seat: none of the game's private phrases ("Your …",
"Locked …", a bribe, a hand-over) and none of the lines a shared seat's own screen showed that no
phone and not the host showed too (its plans, its cards, its laurels). A seat with nothing to do is
never asked. The device runs in Chromium, and for LUTETIA (the longest chain of hand-overs) in
Firefox too – one game only, to keep CI short (tests/browser/engines.py; WebKit runs
test_pass_and_play.py's sealed vote).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.browser.engines import Engine, Phone, _PlaywrightPhone, missing
from tests.browser.engines import engine as start_engine
from tests.browser.helpers import (
    before_picture,
    button,
    create_table,
    eventually,
    join_phones,
    page_text,
    see,
    tap,
)
from tests.browser.test_lutece import play_cards
from tests.browser.test_pass_and_play import shared_qr

NAMES = ["Ann", "Bob", "Cy", "Di"]  # Ann and Bob play on the shared device, Cy and Di on phones
SHARED = (0, 1)
DEVICE = {"width": 412, "height": 860}  # one player's phone lent to the table (the tightest screen)

# What only a seat's own screen says, in any game (the device's own words for an open seat too).
COMMON_PRIVATE = ("Your ", "Done – cover", "Ann's screen", "Bob's screen", "Set a PIN")

BUTTONS_JS = """Array.from(document.querySelectorAll('flt-semantics[role=button]'))
    .filter(n => n.getAttribute('aria-disabled') !== 'true')
    .map(n => (n.getAttribute('aria-label') || n.innerText || '').replace(/\\s+/g, ' ').trim())
    .filter(s => s)"""


def lines(text: str) -> set[str]:
    """A screen's text as its lines (long enough to mean something: a lone "10" or "A" is a button
    face every screen may show)."""
    return {x.strip() for x in text.splitlines() if len(x.strip()) > 3}


class Watch:
    """The shared device, and what was private to each of its seats while it was open."""

    def __init__(self, dev: Phone, public: list[Any], out: Path, game: str, private: tuple[str, ...]) -> None:
        self.dev, self.public_pages, self.out, self.game = dev, public, out, game
        self.private = COMMON_PRIVATE + private
        self.seen: dict[str, set[str]] = {}  # every line each shared seat's open screen showed
        self.public: set[str] = set()  # every line the host or a phone showed
        self.shots: list[Path] = []

    async def look_public(self) -> None:
        for p in self.public_pages:
            self.public |= lines(await page_text(p))

    async def open(self, name: str) -> str:
        """`name` taps the cover ("Pass to Ann" or the seat's own button under "look"): the seat's screen."""
        await self.dev.tap(f"Pass to {name}") if f"Pass to {name}" in await self.dev.text() else \
            await self.dev.tap(name, exact=True)
        await self.dev.see(f"{name}'s screen")
        return await self.note(name)

    async def note(self, name: str) -> str:
        """What `name`'s open screen shows now (its secrets, for the checks at the hand-overs)."""
        await asyncio.sleep(0.5)
        text = await self.dev.text()
        self.seen.setdefault(name, set()).update(lines(text))
        await self.look_public()
        return text

    async def buttons(self) -> list[str]:
        return list(await self.dev.js(BUTTONS_JS))

    def leaks(self, text: str) -> list[str]:
        cover = lines(text)
        out = [w for w in self.private if w in text]
        for name, seen in self.seen.items():
            out += [f"{name}'s {x!r}" for x in sorted((seen - self.public) & cover)]
        return out

    async def handover(self, label: str, expect: str | tuple[str, ...]) -> str:
        """The device is on its cover showing `expect` (or one of them): nothing private in its text
        or its picture."""
        alternatives = (expect,) if isinstance(expect, str) else expect

        async def shows() -> bool:
            text = await self.dev.text()
            return any(x in text for x in alternatives)
        await self.dev.until(shows, 60, f"the cover showing one of {alternatives}")
        assert "'s screen" not in await self.dev.text(), label
        await before_picture(1.5)  # the canvas paints a moment after the screen reader's text changes
        await self.look_public()
        text = await self.dev.text()
        assert not self.leaks(text), (self.game, label, self.leaks(text), text)
        for done in re.findall(r"(\w+) is done\.", text):  # (never "Bob is done." over "Pass to Bob")
            assert f"Pass to {done}" not in text, (self.game, label, text)
        path = self.out / f"{self.game}-{len(self.shots):02d}-{label}.png"
        path.write_bytes(await self.dev.screenshot())
        self.shots.append(path)
        after = await self.dev.text()  # (and still so once the picture was taken)
        assert not self.leaks(after), (self.game, label, self.leaks(after), after)
        return text


@pytest_asyncio.fixture(loop_scope="session")
async def device_engine(engine_name: str, _shared_engines: None) -> AsyncIterator[Engine | None]:
    """The engine the shared device runs in: None for Chromium (a context of the test's browser,
    as the host and the phones), else started for the test like conftest's `engine` fixture."""
    if engine_name == "chromium":
        yield None
        return
    why = missing(engine_name)
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{engine_name} cannot run in CI: {why} (.ci/run installs it)")
        pytest.skip(f"{engine_name}: {why}")
    async with start_engine(engine_name, shared=True) as eng:
        yield eng


async def mixed_table(browser: Any, server: Any, eng: Engine | None, tmp_path: Path, game: str,
                      private: tuple[str, ...], **create: Any) -> tuple[Any, list[Any], Watch]:
    """The host creates `game` for Ann, Bob (shared), Cy and Di, Cy and Di join on phones, the host
    opens the shared device (its one-time QR code) in `engine_name` and starts."""
    table = await create_table(browser, server, game, names=NAMES, shared=SHARED, **create)
    host = table.page
    await see(host, "shared device")
    phones = await join_phones(browser, table.join_url, NAMES[2:])
    await tap(host, "Open the shared device")
    link = await shared_qr(host)
    await tap(host, "Done", exact=True)
    if eng is None:
        ctx = await browser.new_context(viewport=DEVICE, locale="en-US")
        dev: Phone = await _PlaywrightPhone(ctx, await ctx.new_page()).open(link)
    else:
        dev = await eng.open(link, size=DEVICE)
    await dev.until(lambda: dev.js("location.search === '' && location.pathname.startsWith('/shared/')"), 60,
                    "the device's own address")
    await dev.enable_semantics()
    await dev.see("This device plays for Ann, Bob")
    await tap(host, "Start")
    name = eng.name if eng else "chromium"
    return host, phones, Watch(dev, [host, *phones], tmp_path, f"{game.lower()}-{name}", private)


# --------------------------------------------------------------------------- LUTETIA

LUTETIA_PRIVATE = ("(secret)", "Locked:", "Lock my card", "Choose your vote card", "Vote cards in hand",
                   "with card", "No plan this time", "Understood – no plan", "No Roman plan", "None of your")
AFTER_ANSWERS = ("No plan this time", "Understood – no plan", "No Roman plan: draw a card")


@pytest.mark.parametrize("engine_name", ("chromium", "firefox"))
async def test_lutetia_vote_with_two_shared_seats(browser: Any, server: Any, device_engine: Engine | None,
                                                  engine_name: str, tmp_path: Path) -> None:
    """Ann proposes and votes behind the cover, Bob votes, the phones vote; Ann and Bob declare in
    their turn (the cover asks each when the reveal reaches them), everyone answers the after-vote
    step (the device asks only the shared seats that have to), and the cover asks Bob for the next
    proposal."""
    host, (cy, di), w = await mixed_table(browser, server, device_engine, tmp_path, "LUTETIA",
                                          LUTETIA_PRIVATE, seats=4)
    await w.handover("pass-to-ann", "Pass to Ann")
    assert "Pass to Bob" not in await w.dev.text()  # (Bob has nothing to do: not asked)
    await w.open("Ann")
    await w.dev.see("Your proposal: where does Asterix go?")
    await w.dev.tap("Space 2", exact=True)
    await see(host, "Ann proposes space 2")
    await w.dev.see("Choose your vote card")  # (Ann votes next: her screen stays open)
    await w.dev.tap("10", exact=True)
    await w.dev.see("Your choice: 10")
    await w.note("Ann")
    await w.dev.tap("Lock my card")
    await w.dev.see("Ann is done.")
    await w.handover("ann-locked", "Pass to Bob")
    await w.open("Bob")
    await w.dev.tap("20", exact=True)
    await w.dev.see("Your choice: 20")
    await w.note("Bob")
    await w.dev.tap("Lock my card")
    await w.handover("bob-locked", "All shared seats are done")

    for ph, card in ((cy, "30"), (di, "10")):
        await see(ph, "Choose your vote card")
        await tap(ph, card, exact=True)
        await tap(ph, "Lock my card")
    # the reveal: each declares when their card is turned, in seat order from the proposer
    await w.handover("ann-declares", "Pass to Ann")
    await w.open("Ann")
    await w.dev.see("Do you vote for or against space 2?")
    await w.dev.tap("For", exact=True)
    await w.handover("bob-declares", "Pass to Bob")
    await w.open("Bob")
    await w.dev.see("Do you vote for or against space 2?")
    await w.dev.tap("Against", exact=True)
    await w.handover("declared", "All shared seats are done")
    for ph, side in ((cy, "For"), (di, "For")):
        await see(ph, "Do you vote for or against space 2?")
        await tap(ph, side, exact=True)
    await see(host, "50 for, 20 against: approved.")

    # the after-vote step: every seat but the holder of plan 2 answers (the device asks its seats
    # one after the other, the phones answer meanwhile); then Ann proposes again
    asked: list[str] = []
    phones_done = asyncio.gather(*(phone_answers(ph) for ph in (cy, di)))
    while True:
        name = await w.dev.until(cover_asks(w), 60, "the cover asking a seat")
        text = await w.open(name)
        if "Your proposal" in text:
            break
        choice = next((b for b in await w.buttons() if b in AFTER_ANSWERS or " with card " in b), None)
        assert choice, (name, await w.buttons())
        asked.append(name)
        await w.dev.tap(choice, exact=True)
        if await w.dev.until(lambda name=name: after_answer(w, name), 60, "the cover or the proposal") == "proposal":
            await w.note(name)
            break
        await w.handover(f"{name.lower()}-answered", COVER_LINES)
    assert asked and len(asked) == len(set(asked)) and set(asked) <= {"Ann", "Bob"}, asked
    await phones_done
    assert "Ann" in w.seen and (await w.dev.text()).count("Your proposal") == 1
    await w.dev.tap("Done – cover")
    await w.handover("ann-covered", "Pass to Ann")
    assert "Pass to Bob" not in await w.dev.text()
    assert len(w.shots) >= 7


def cover_asks(w: Watch) -> Any:
    async def asks() -> str | None:
        m = re.search(r"Pass to (\w+)", await w.dev.text())
        return m.group(1) if m else None
    return asks


# What the cover shows once a seat's screen has closed: "Ann is done." while the shared seats that
# have something to do are the same as when Ann's screen closed – a phone's answer a moment later
# can start the next proposal, and the cover then asks for its proposer at once ("Pass to Ann"
# without the note: seen in CI, the last phone answered 40 ms after Ann) – or the next seat's turn,
# or that all shared seats are done.
COVER_LINES = ("is done.", "Pass to ", "All shared seats are done")


async def after_answer(w: Watch, name: str) -> str | None:
    """After `name` answered on the device: "proposal" (its screen stays open: it proposes next),
    "cover" (its screen closed), None (its screen still waits for the table's answer)."""
    text = await w.dev.text()
    if "Your proposal" in text:
        return "proposal"
    if f"{name}'s screen" in text:
        return None
    return "cover" if any(x in text for x in COVER_LINES) else None


async def phone_answers(page: Any) -> None:
    """A phone answers the after-vote step – unless it holds the reached plan (nothing to answer)."""
    async def state() -> str | None:
        text = await page_text(page)
        if "Your proposal" in text or "proposes." in text:
            return "over"
        return next((n for n in AFTER_ANSWERS if n in text), None)
    while (got := await eventually(state, timeout=120)) != "over":
        await button(page, got, exact=True).first.click()
        await eventually(lambda: _gone(page, got), timeout=60)


async def _gone(page: Any, name: str) -> bool:
    return name not in await page_text(page)


# --------------------------------------------------------------------------- Lutèce

LUTECE_PRIVATE = ("– bribe", "Your gold", "Locked in", "Your face-down cards", "Play these 2 cards", "Lock my cards",
                  "You took")

CHECK_JS = """((name, nth) => {
const norm = s => (s || '').replace(/\\s+/g, ' ').trim();
const boxes = Array.from(document.querySelectorAll('[role=checkbox]'))
    .filter(n => norm(n.getAttribute('aria-label') || n.innerText) === name);
if (boxes.length <= nth) return false;
boxes[nth].click(); return true;})"""


async def device_picks(w: Watch, cards: list[str]) -> None:
    """The open seat ticks its two action cards and plays them face down."""
    seen: dict[str, int] = {}
    for c in cards:
        call = f"{CHECK_JS}({json.dumps(c)}, {seen.get(c, 0)})"
        seen[c] = seen.get(c, 0) + 1
        await w.dev.until(lambda call=call: w.dev.js(call), 60, f"the card {c!r}")
        await asyncio.sleep(0.4)
    await w.dev.tap("Play these 2 cards face down")
    await w.dev.see("Your face-down cards")


async def phone_plays(ph: Any, cards: list[str], bribe: str, total: int) -> None:
    await play_cards(ph, cards)
    await tap(ph, f"+{total} on {bribe}", exact=True)
    await see(ph, f"{bribe} – bribe {total}", exact=True)


@pytest.mark.parametrize("engine_name", ("chromium",))
async def test_lutece_round_with_bribes_and_two_shared_seats(browser: Any, server: Any,
                                                             device_engine: Engine | None, engine_name: str,
                                                             tmp_path: Path) -> None:
    """Ann and Bob each pick two cards behind the cover, put a bribe on one and lock; the phones
    do the same (Cy outbids Ann on A). After the reveal only Bob, who took B and I, is asked for
    their new cards' costs (Ann, outbid, is not asked); the next round asks Ann again."""
    host, (cy, di), w = await mixed_table(browser, server, device_engine, tmp_path, "Lutèce", LUTECE_PRIVATE)
    await w.handover("pass-to-ann", "Pass to Ann")
    for name, cards, bribe in (("Ann", ["A", "Revenus"], "A"), ("Bob", ["B", "I"], "B")):
        await w.open(name)
        await device_picks(w, cards)
        await w.dev.tap(f"+1 on {bribe}", exact=True)
        await w.dev.see(f"{bribe} – bribe 1")
        await w.note(name)
        await w.dev.tap("Lock my cards")
        await w.dev.see(f"{name} is done.")
        await w.handover(f"{name.lower()}-locked", "Pass to Bob" if name == "Ann" else "All shared seats are done")
    await phone_plays(cy, ["A", "II"], "A", 2)
    await phone_plays(di, ["C", "Revenus"], "C", 1)
    await tap(cy, "Lock my cards")
    await see(cy, "Locked in:")
    await tap(di, "Lock my cards")  # the last lock reveals
    await see(host, "A: Cy wins with the highest bribe")
    await see(host, "A: Ann is outbid and gets the bribe of 1 back +1.")

    # the new cards' costs: Bob took B and I (on the device), Cy A and II, Di C (on their phones)
    text = await w.handover("bob-costs", "Pass to Bob")
    assert "Pass to Ann" not in text, text
    await w.open("Bob")
    for slot, cost in (("B", 1), ("I", 2)):
        await w.dev.tap(f"{slot}: {cost}", exact=True)
        await w.dev.until(lambda slot=slot, cost=cost: _no_button(w, f"{slot}: {cost}"), 60, f"{slot}'s cost set")
    await w.dev.see("Bob is done.")
    await w.handover("bob-costs-set", "All shared seats are done")
    for ph, slot, cost in ((cy, "A", 1), (cy, "II", 0), (di, "C", 2)):
        await tap(ph, f"{slot}: {cost}", exact=True)
        await ph.get_by_role("button", name=f"{slot}: {cost}", exact=True).first.wait_for(state="detached",
                                                                                         timeout=60_000)
    await tap(host, "Next round")
    await see(host, "Round 2")
    text = await w.handover("round-2", "Pass to Ann")
    assert "Bob" in text  # (Bob chooses after Ann: named on the cover, not asked yet)
    assert len(w.shots) >= 5


async def _no_button(w: Watch, name: str) -> bool:
    return name not in await w.buttons()


# --------------------------------------------------------------------------- Quo Vadis

QUOVADIS_PRIVATE = ("Hand-over", "Give to", "Laurels (", "Promise", "Caesar chip")


async def device_gives(w: Watch, to: str) -> None:
    """The open seat hands 1 laurel to `to` (its amount field, then "Give to …")."""
    page = w.dev.page  # (typing into a field: Playwright's keyboard; this game's device runs in Chromium)
    box = page.get_by_role("textbox", name=re.compile(r"^Laurels \(1–")).first
    await box.wait_for(timeout=60_000)
    await box.click()
    await asyncio.sleep(0.4)  # (Flutter moves its editing element to the tapped field a moment later)
    await box.fill("1")
    await w.dev.tap(f"Give to {to}", exact=True)


async def laurels(w: Watch) -> int:
    text = await w.dev.until(lambda: _text_with(w, "Your laurels: "), 60, "the seat's laurels")
    return int(text.split("Your laurels: ", 1)[1].split()[0])


async def _text_with(w: Watch, needle: str) -> str | None:
    text = await w.dev.text()
    return text if needle in text else None


@pytest.mark.parametrize("engine_name", ("chromium",))
async def test_quovadis_turns_and_laurel_hand_overs_with_two_shared_seats(
        browser: Any, server: Any, device_engine: Engine | None, engine_name: str, tmp_path: Path) -> None:
    """A turn each (a senator into committee 1); Ann asks committee 1 for the move to 8 and the
    cover asks Bob for his vote only then; the support laurels land behind the cover. In his turn
    Bob hands Ann a laurel, Cy's phone hands Bob one: the cover says nothing of either; Ann and Bob
    read theirs on their own screens (opened from the cover without being asked)."""
    host, (cy, di), w = await mixed_table(browser, server, device_engine, tmp_path, "Quo Vadis", QUOVADIS_PRIVATE,
                                          seats=4)
    for name in ("Ann", "Bob"):
        await w.handover(f"{name.lower()}-turn", f"Pass to {name}")
        assert ("Pass to Bob" if name == "Ann" else "Pass to Ann") not in await w.dev.text()
        await w.open(name)
        await w.dev.tap("Place in 1", exact=True)
        await see(host, f"{name} places a senator in committee 1")
    await w.handover("phones-turns", "All shared seats are done")
    for ph, name in ((cy, "Cy"), (di, "Di")):
        await tap(ph, "Place in 1", exact=True)
        await see(host, f"{name} places a senator in committee 1")

    await w.handover("ann-moves", "Pass to Ann")
    await w.open("Ann")
    await w.dev.tap("1 » 8 ·")  # "1 » 8 · vote: 3 yes, 1 yours · laurel n"
    await see(host, "Ann wants to move from 1 to 8")
    await w.handover("bob-votes", "Pass to Bob")  # (Ann's part is done: the vote asks Bob)
    await w.open("Bob")
    await w.dev.tap("Yes", exact=True)
    await w.handover("bob-voted", "All shared seats are done")
    for ph, vote in ((cy, "Yes"), (di, "No")):  # (the vote waits for every senator present)
        await see(ph, "Your vote (senators: 1):")
        await tap(ph, vote, exact=True)
    await see(host, "Approved with 3 of 3 votes needed.")  # (Ann's, Bob's and Cy's senators)
    if "took a Caesar chip" in await page_text(host):  # (the chip on 1 » 8 was a Caesar chip: random)
        await w.handover("ann-caesar", "Pass to Ann")
        await w.open("Ann")
        await w.dev.tap("Leave Caesar where he is")
        await see(host, "Ann leaves Caesar where he stands.")

    # Bob's turn: he hands Ann a laurel behind the cover, then places a senator
    await w.handover("bob-turn-2", "Pass to Bob")
    await w.open("Bob")
    bob_had = await laurels(w)
    assert bob_had >= 1
    await device_gives(w, "Ann")
    await w.dev.see(f"Your laurels: {bob_had - 1}")
    await w.note("Bob")
    await w.dev.tap("Place in 2", exact=True)
    await w.handover("bob-gave", "All shared seats are done")
    # Cy's phone hands Bob the laurel its yes vote earned – nothing shows on the cover
    await fill_phone_amount(cy)
    await tap(cy, "Give to Bob", exact=True)
    await see(cy, "Your laurels: 0")
    await w.handover("cy-gave-bob", "All shared seats are done")
    # Ann and Bob look at their own screens without being asked: each sees what came to them
    await w.open("Ann")
    await w.dev.see("Hand-over from Bob – laurels: 1.")
    await w.note("Ann")
    await w.dev.tap("Done – cover")
    await w.handover("ann-looked", "All shared seats are done")
    await w.open("Bob")
    await w.dev.see("Hand-over from Cy – laurels: 1.")
    await w.dev.see(f"Your laurels: {bob_had}")
    await w.note("Bob")
    await w.dev.tap("Done – cover")
    await w.handover("bob-looked", "All shared seats are done")
    for ph, name in ((cy, "Cy"), (di, "Di")):
        await see(ph, "Your turn")
        await tap(ph, "Place in 1", exact=True)  # (committee 2 holds one senator: Bob's)
        await see(host, f"{name} places a senator in committee 1")
    await w.handover("ann-turn-2", "Pass to Ann")
    assert len(w.shots) >= 10


async def fill_phone_amount(ph: Any) -> None:
    box = ph.get_by_role("textbox", name=re.compile(r"^Laurels \(1–")).first
    await box.wait_for(timeout=60_000)
    await box.click()
    await asyncio.sleep(0.4)
    await box.fill("1")
