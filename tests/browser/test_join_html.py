"""Issue 31.4: the seat buttons in the page's own HTML (companion/join_page.py), usable before
Flutter has started – and the phone ends on its seated Flutter screen, whichever comes first:
the tap (the seat goes to the session that the socket then opens) or Flutter's socket (the
session already open is moved to the seat).

Flutter's start is held back by holding `flutter_bootstrap.js` until the test lets it go, so
each order is certain, not a race the machine's load decides."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import PHONE, enable_semantics, lobby_server, open_screen, see, tap


@pytest.fixture
def lobby(tmp_path: Path) -> Any:
    """A server with a table in its lobby: Ann, Bob (taken by Bea), Players 3–6."""
    with lobby_server(tmp_path / "data", ("Ann", "Bob", "Player 3", "Player 4", "Player 5", "Player 6")) as got:
        yield got


async def _held(browser: Any, url: str, locale: str = "en-US") -> tuple[Any, Any, asyncio.Event]:
    """A phone that opens `url` with Flutter held back until the event is set."""
    ctx = await browser.new_context(viewport=PHONE, locale=locale)
    page = await ctx.new_page()
    gate = asyncio.Event()

    async def hold(route: Any) -> None:
        await gate.wait()
        await route.continue_()
    await page.route("**/flutter_bootstrap.js", hold)
    await page.goto(url, wait_until="commit")
    return ctx, page, gate


def _seat_over_http(base: str, code: str, seat: int, name: str) -> None:
    """Another phone takes a seat (through the same route)."""
    req = urllib.request.Request(f"{base}/t/{code}/join", data=json.dumps({"seat": seat, "name": name}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        assert r.status == 200


async def test_a_phone_sits_down_on_the_html_screen_and_ends_on_its_flutter_seat(browser: Any, lobby: Any) -> None:
    server, code = lobby
    url = f"{server.base}/t/{code}"
    # ---- 1. the tap before Flutter: the session the socket opens later finds the seat
    ctx, ph, gate = await _held(browser, url)
    sit = ph.get_by_role("button", name="Sit as Ann")
    await sit.wait_for(timeout=20_000)
    assert await ph.get_by_role("button", name="Taken: Bea").is_disabled()
    assert await ph.evaluate("document.querySelectorAll('flutter-view, flt-glass-pane').length") == 0
    assert (await sit.bounding_box())["height"] >= 48  # a thumb's target on a 412 px phone
    await ph.get_by_role("textbox", name="Your name").fill("Zoë")
    await sit.click()
    await ph.get_by_text("You are Zoë").wait_for(timeout=20_000)
    # ... on top, over the page's loading screen (its style kept when its content changed)
    assert await ph.evaluate("document.getElementById('tc-join').contains(document.elementFromPoint(200, 150))")
    token = json.loads(await ph.evaluate(f"localStorage.getItem('flutter.seat:{code}')"))
    assert ph.url.endswith(f"?s={token}")  # where the app reads it
    gate.set()
    await enable_semantics(ph)  # (waits for the HTML screen to go)
    await see(ph, "You are Zoë")
    await see(ph, "Waiting for the host to start")
    # opened again, the page of a seated phone comes with its seat's screen, not the join screen
    # (its `tc_seat` cookie holds the token: test_a_seated_phones_return_visit_…)
    again = await ph.reload(wait_until="commit")
    assert again is not None and " data-seated " in (text := await again.text()) and 'class="tj-seat"' not in text

    # ---- 2. Flutter's socket first, the tap on the HTML screen after: the open session is moved
    ctx2, ph2, gate2 = await _held(browser, url, locale="de-DE")
    name = ph2.get_by_role("textbox", name="Dein Name")
    await name.fill("Dan")  # (started on: the HTML screen stays when Flutter's screen is there)
    gate2.set()
    await ph2.wait_for_function("!document.getElementById('tc-loading') && !document.getElementById('loading')"
                                " && !!document.querySelector('flt-semantics-placeholder')", timeout=60_000)
    assert await ph2.evaluate("document.activeElement && document.activeElement.id") == "tj-name"  # kept its focus
    assert await ph2.get_by_role("button", name="Besetzt: Zoë").is_disabled()
    # a seat another phone takes meanwhile: "just taken", nobody seated
    await asyncio.to_thread(_seat_over_http, server.base, code, 2, "Cy")
    await ph2.get_by_role("button", name="Platz nehmen als Person 3").click()
    await ph2.get_by_text("Person 3 wurde gerade von einem anderen Handy genommen").wait_for(timeout=20_000)
    assert await ph2.get_by_role("button", name="Besetzt: Cy").is_disabled()  # the list came back fresh
    # the screen left open keeps its seat list fresh by itself (every few seconds, not before Flutter)
    await asyncio.to_thread(_seat_over_http, server.base, code, 4, "Eda")
    await ph2.get_by_role("button", name="Besetzt: Eda").wait_for(timeout=20_000)
    await ph2.get_by_role("button", name="Platz nehmen als Person 4").click()
    await ph2.wait_for_selector("#tc-join", state="detached", timeout=60_000)
    await enable_semantics(ph2)
    await see(ph2, "Du bist Dan")
    await see(ph2, "Warte auf den Start")
    assert "?s=" in ph2.url

    # ---- 3. a phone that sits down on Flutter's own join screen: its browser is flagged seated too
    # (the page sees the app store the token), so its next page comes with its seat's screen
    ctx3, ph3 = await open_screen(browser, url)
    await tap(ph3, "Sit as Player 6")
    await see(ph3, "Waiting for the host to start")
    jar = {(c["name"], c["path"]) for c in await ctx3.cookies()}
    assert ("tc_seat", f"/t/{code}") in jar, jar
    for c in (ctx, ctx2, ctx3):
        await c.close()


async def _hold_flutter(page: Any) -> asyncio.Event:
    gate = asyncio.Event()

    async def hold(route: Any) -> None:
        await gate.wait()
        await route.continue_()
    await page.route("**/flutter_bootstrap.js", hold)
    return gate


async def test_a_seated_phones_return_visit_shows_its_seat_before_flutter(browser: Any, lobby: Any) -> None:
    """The return visit of a seated phone: its seat in the page's HTML ("You are …", the lobby's
    wait) while Flutter starts, replaced by Flutter's own seated screen. A token that is no longer
    a seat here (storage and cookie holding a stale one) gets the HTML join screen instead."""
    server, code = lobby
    url = f"{server.base}/t/{code}"
    ctx, first = await open_screen(browser, url, locale="de-DE")
    await tap(first, "Platz nehmen als Ann")
    await see(first, "Warte auf den Start")
    await first.close()
    # ---- the phone's browser opened again on the table (a new page: its cookie and storage)
    ph = await ctx.new_page()
    gate = await _hold_flutter(ph)
    await ph.goto(url, wait_until="commit")
    await ph.get_by_text("Du bist Ann").wait_for(timeout=20_000)
    await ph.get_by_text("Du hast einen Platz. Warte auf den Start…").wait_for(timeout=20_000)
    assert await ph.evaluate("document.querySelectorAll('#tc-join .tj-seat, #tc-join input').length") == 0
    assert await ph.evaluate("document.querySelectorAll('flutter-view, flt-glass-pane').length") == 0
    assert await ph.evaluate("document.getElementById('tc-join').contains(document.elementFromPoint(200, 150))")
    gate.set()
    await enable_semantics(ph)  # (waits for the HTML screen to go: Flutter's first screen is drawn)
    await see(ph, "Du bist Ann")
    await see(ph, "Warte auf den Start")
    # ---- a token that is no seat here: the join screen in HTML, not a seat and not nothing
    await ph.evaluate(f"localStorage.setItem('flutter.seat:{code}', JSON.stringify('no-such-token'))")
    jar = {c["name"]: c["value"] for c in await ctx.cookies() if c["path"] == f"/t/{code}"}
    assert jar.get("tc_seat") == "no-such-token", jar  # (the page keeps the cookie with its storage)
    await ph.close()
    ph = await ctx.new_page()
    gate = await _hold_flutter(ph)
    await ph.goto(url, wait_until="commit")
    sit = ph.get_by_role("button", name="Platz nehmen als Person 3")
    await sit.wait_for(timeout=20_000)
    assert await ph.get_by_role("button", name="Besetzt: Ann").is_disabled()
    await sit.click()
    await ph.get_by_text("Du bist Person 3").wait_for(timeout=20_000)
    gate.set()
    await ph.wait_for_selector("#tc-join", state="detached", timeout=60_000)
    await enable_semantics(ph)
    await see(ph, "Du bist Person 3")
    # ---- the seat given back on Flutter's screen: the cookie goes with the stored token
    await tap(ph, "Nicht Person 3? Anderen Platz wählen")
    await see(ph, "Willkommen am Tisch")
    for _ in range(100):
        if not [c for c in await ctx.cookies() if c["name"] == "tc_seat"]:
            break
        await asyncio.sleep(0.1)
    assert not [c for c in await ctx.cookies() if c["name"] == "tc_seat"]
    await ctx.close()
