"""Names and words on real phones (issue 18.5) and the turn felt (18.6), headless Chromium.

- A seat named "🦄 Zoé 🎲" is drawn with glyphs, not empty boxes: Flutter asks the table server for
  slices of the Noto Color Emoji font (companion/fallback_fonts.py), the server answers each with
  its own glyphs, and no request
  leaves the table's network (the `browser` fixture fails the test on any request to the
  internet; here every request is recorded too). The picture shows the unicorn's colours.
- No text is cut at 360 px width on the phone's screens, in all three languages, with a name of
  the longest length a seat takes.
- The turn: when the round opens, each phone shows "Your turn!" and calls navigator.vibrate.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.browser.helpers import (
    PHONE,
    before_picture,
    create_table,
    cut_texts,
    enable_semantics,
    eventually,
    page_text,
    see,
    tap,
    type_into,
)

EMOJI_NAME = "🦄 Zoé 🎲"


async def _without(page: Any, text: str) -> bool:
    return text not in await page_text(page)


def _purple_pixels(png: bytes, box: dict[str, float]) -> int:
    """Pixels of the unicorn's mane (violet/magenta hues) in a box of the screenshot: an empty box
    or a black-and-white glyph has none (the seat dots are red, blue, green, yellow)."""
    import colorsys

    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    crop = img.crop((int(box["x"]), int(box["y"]), int(box["x"] + box["width"]), int(box["y"] + box["height"])))
    n = 0
    for r, g, b in crop.getdata():
        h, s, v = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)
        if s > 0.35 and v > 0.35 and 0.70 <= h <= 0.95:
            n += 1
    return n


async def test_an_emoji_name_is_drawn_with_the_font_our_server_sends(browser: Any, server: Any, shots: Any) -> None:
    table = await create_table(browser, server, qr=False)
    ctx = await browser.new_context(viewport=PHONE, locale="fr-FR")
    asked: list[str] = []
    answered: dict[str, int] = {}
    ctx.on("request", lambda r: asked.append(r.url))
    ctx.on("response", lambda r: answered.__setitem__(r.url, r.status))
    ph = await ctx.new_page()
    await ph.goto(table.join_url)
    await enable_semantics(ph)
    await type_into(ph, "Votre nom", EMOJI_NAME)
    await tap(ph, "S’asseoir comme Joueur 1")
    await see(ph, "En attente du début")
    await see(table.page, EMOJI_NAME)

    async def font_asked_and_sent() -> bool:  # the emoji font's slices (cut on the first request)
        return any("/assets/fonts/notocoloremoji/" in u and answered.get(u) == 200 for u in asked)
    await eventually(font_asked_and_sent, timeout=60)

    fonts = [u for u in asked if "/fallback/" in u or "/assets/fonts/noto" in u]
    # each slice Flutter asks for is answered with its own glyphs, never the whole 11 MB font
    assert not any(u.endswith("/fallback/NotoColorEmoji.ttf") for u in fonts), fonts
    base = urlparse(server.base).netloc
    assert {urlparse(u).netloc for u in asked if u.startswith("http") and "cdn.jsdelivr.net" not in u} == {base}
    # (the Rive runtime's request is refused by the page's policy before any look-up: conftest)

    async def drawn_in_colour(page: Any, width: int, shot: str | None = None) -> bool:
        # (the text is laid out again once the font is there: looked at until it is, not after a fixed wait)
        box = await page.get_by_text(EMOJI_NAME, exact=False).first.bounding_box()
        assert box
        png = await page.screenshot()
        if shot:
            (shots / shot).write_bytes(png)
        return _purple_pixels(png, {"x": 0, "y": box["y"] - 4, "width": width, "height": box["height"] + 8}) > 20

    await eventually(lambda: drawn_in_colour(ph, PHONE["width"], "names-emoji-phone.png"), timeout=30, interval=1)
    await eventually(lambda: drawn_in_colour(table.page, 1280), timeout=30, interval=1)


async def test_no_text_is_cut_at_360_px_and_the_turn_is_felt(browser: Any, server: Any, shots: Any) -> None:
    long_name = "Maximiliane-Genoveva Xy"  # 23 characters: a seat takes 24
    table = await create_table(browser, server, qr=False)
    phones = []
    for lang, locale, field, sit, name in (
            ("en", "en-GB", "Your name", "Sit as Player 1", long_name),
            ("de", "de-DE", "Dein Name", "Platz nehmen als Person 2", "Bärbel"),
            ("fr", "fr-FR", "Votre nom", "S’asseoir comme Joueur 3", "Éloïse")):
        ctx = await browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
        await ctx.add_init_script("window.__buzz=[];navigator.vibrate=function(p){window.__buzz.push(p);return true;};")
        ph = await ctx.new_page()
        await ph.goto(table.join_url)
        await enable_semantics(ph)
        assert not await cut_texts(ph), (lang, await cut_texts(ph))  # the join screen
        await type_into(ph, field, name)
        await tap(ph, sit)
        phones.append(ph)
    async def uncut(ph: Any) -> bool:
        # (looked at until the screen has settled: a frame laid out half-way, on a loaded machine, is not a cut)
        cut = await cut_texts(ph)
        assert not cut, cut
        return True

    for ph in phones:
        await eventually(lambda ph=ph: uncut(ph), timeout=20, interval=0.5)  # the lobby: seat list, header, rename
    # a name too long gets a message on the field, nothing cut silently
    en = phones[0]
    await type_into(en, "Your name", "x" * 30)
    await see(en, "That name is too long (24 characters at most).")

    await tap(table.page, "Start")
    for ph, banner in zip(phones, ["Your turn!", "Du bist dran!", "À vous de jouer\u00a0!"], strict=True):
        await see(ph, banner)
        buzz = await eventually(lambda ph=ph: ph.evaluate("window.__buzz.length ? window.__buzz : null"), timeout=15)
        assert buzz[0] == [400, 150, 400, 150, 400], buzz
        await eventually(lambda ph=ph: uncut(ph), timeout=20, interval=0.5)  # the game's screen
    await en.screenshot(path=str(shots / "names-turn-phone-360.png"))
    # a phone that has locked has nothing to do: its banner goes (the others' stay)
    await tap(en, "Yes", exact=True)
    await tap(en, "Lock my choice")
    await see(en, "Locked in:")
    await eventually(lambda: _without(en, "Your turn!"), timeout=30)
    assert "Du bist dran!" in await page_text(phones[1])
    # the host sees no banner: the turn is a seat's own
    assert "Your turn!" not in await table.page.evaluate("document.body.innerText")


def _played_to_the_end(data_dir: Any, game: str, names: list[str], seed: int) -> tuple[str, list[str]]:
    """A table of `game` played by random legal moves until its scorer, stored in `data_dir` (the
    server is started on it afterwards): its code and the seats' tokens."""
    import random

    from companion.games import spec as game_spec
    from companion.table.hub import Hub
    from companion.table.store import SQLiteStore
    from tests.gameplay import random_step

    store = SQLiteStore(data_dir)
    hub = Hub(store)
    sp = game_spec(game)
    t = hub.create(game, None, [{"name": n} for n in names])
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(len(names))]
    t.request_sync(t.host_token, {"op": "start"})
    r = random.Random(seed)
    for _ in range(3000):
        if sp.done(t.state):
            break
        step = random_step(sp, t.state, len(names), r)
        if step is None:
            break
        seat = step.pop("seat")
        try:
            if seat is None:
                t.request_sync(t.host_token, {"op": "host_act", "action": step})
            else:
                t.request_sync(tokens[seat], {"op": "act", "action": step})
        except Exception:  # noqa: BLE001 - a random move the rules refuse: draw another
            continue
    assert sp.done(t.state), f"{game}: no end after 3000 random moves"
    store.close()
    return t.code, tokens


@pytest.mark.parametrize("game,seed", [
    ("lutece", 3), ("lutetia", 4), ("quovadis", 5)])
async def test_no_text_is_cut_at_360_px_on_the_scorers(browser: Any, server: Any, shots: Any, game: str,
                                                       seed: int) -> None:
    names = ["Maximiliane-Genoveva Xy", "Bärbel", "Éloïse"]
    server.stop()
    code, tokens = _played_to_the_end(server.data_dir, game, names, seed)
    server.start()
    cuts: dict[str, list[str]] = {}
    for lang, locale in (("en", "en-GB"), ("de", "de-DE"), ("fr", "fr-FR")):
        ctx = await browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
        ph = await ctx.new_page()
        await ph.goto(f"{server.base}/t/{code}?s={tokens[0]}")
        await enable_semantics(ph)
        await see(ph, "Maximiliane")
        await asyncio.sleep(2)
        cut = await cut_texts(ph, 360, 2600)  # tall: the whole scorer at once
        if lang == "en":
            await ph.set_viewport_size({"width": 360, "height": 2600})
            await before_picture(2)
            await ph.screenshot(path=str(shots / f"names-scorer-{game}-360.png"))
        if cut:
            cuts[lang] = cut
        await ctx.close()
    assert not cuts, "\n".join(f"{game} {k}: {v}" for k, v in cuts.items())


@pytest.mark.parametrize("engine_name", ["webkit", "firefox"])
async def test_an_emoji_name_on_webkit_and_firefox(browser: Any, server: Any, engine: Any, engine_name: str) -> None:
    """The CanvasKit build (what iPhones and Firefox get) asks for the same fallback fonts."""
    table = await create_table(browser, server, seats=2, names=[EMOJI_NAME, "Bob"], qr=False)
    ph = await engine.open(table.join_url)
    await ph.tap(f"Sit as {EMOJI_NAME}")
    await ph.see("Waiting for the host to start")
    async def drawn() -> bool:  # the font's slice arrives (cut on its first request), the text is laid out again
        return _purple_pixels(await ph.screenshot(), {"x": 0, "y": 0, "width": PHONE["width"], "height": 200}) > 20
    await ph.until(drawn, 60, "the unicorn in colour")
