"""Driving the real app in headless Chromium: a server process, phones as browser contexts.

Flutter draws on a canvas; clicking `flt-semantics-placeholder` turns on its accessibility
tree, which gives every button and text a DOM node with a role and a label.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--enable-unsafe-swiftshader",
                 "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 412, "height": 860}
HOST = {"width": 1280, "height": 900}


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class ServerProcess:
    """`python -m companion` on a free loopback port; can be killed and restarted on the same data."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "FLET_FORCE_WEB_SERVER": "true", "PYTHONUNBUFFERED": "1"}
        # gzip only: every test server would otherwise spend a core on zstd-compressing the client
        env.setdefault("COMPANION_STATIC_ENCODINGS", "gzip")
        env.pop("DISPLAY", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir",
             str(self.data_dir), "--public-url", self.base, "--no-browser"],
            cwd=ROOT, env=env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None


# `make screenshots` (docs/screenshots/) sets this; an ordinary run's pictures go to a scratch folder
DOC_PICTURES = bool(os.environ.get("COMPANION_SCREENSHOTS", "").strip())


@contextlib.contextmanager
def lobby_server(data_dir: Path, names: tuple[str, ...], taken: tuple[int, str] = (1, "Bea"),
                 game: str = "sealed_vote") -> Iterator[tuple[ServerProcess, str]]:
    """A real server (`python -m companion`) over a table in its lobby with these seat names, one
    seat (`taken`: index, name) already taken by a player; yields (server, table code)."""
    from companion.table.hub import Hub
    from companion.table.store import SQLiteStore

    store = SQLiteStore(data_dir)
    t = Hub(store).create(game, None, [{"name": n} for n in names])
    t.request_sync(None, {"op": "join", "seat": taken[0], "name": taken[1]})
    code = t.code
    store.close()
    s = ServerProcess(data_dir)
    s.start()
    try:
        yield s, code
    finally:
        s.stop()


async def before_picture(seconds: float) -> None:
    """Before a screenshot that nothing checks (a picture to look at): Flutter paints its canvas a
    moment after the accessibility tree changes, so `make screenshots` waits `seconds` for a finished
    picture; an ordinary run, whose pictures go to a scratch folder, waits 0.3 s and goes on."""
    await asyncio.sleep(seconds if DOC_PICTURES else min(seconds, 0.3))


async def enable_semantics(page: Any) -> None:
    """Flutter's accessibility tree on, and the page's HTML join screen (companion/join_page.py)
    gone – it goes by itself once Flutter's first screen is drawn, as no one typed into it: the
    tests that drive Flutter's screens find its buttons, not the HTML ones of the same name
    (tests/browser/test_join_html.py drives those)."""
    await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    await page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    await page.wait_for_selector("#tc-join", state="detached", timeout=60_000)


async def open_screen(browser: Any, url: str, size: dict[str, int] = PHONE, locale: str = "en-US") -> tuple[Any, Any]:
    ctx = await browser.new_context(viewport=size, locale=locale)
    page = await ctx.new_page()
    page.on("crash", lambda p: setattr(p, "crashed", True))  # (said by `describe` if a check fails)
    await page.goto(url)
    await enable_semantics(page)
    return ctx, page


async def reload(page: Any) -> None:
    await page.reload()
    await enable_semantics(page)


def button(page: Any, name: str, exact: bool = False) -> Any:
    return page.get_by_role("button", name=name, exact=exact)


async def tap(page: Any, name: str, exact: bool = False, timeout: float = 60_000) -> None:
    b = button(page, name, exact).first
    await b.wait_for(timeout=timeout)
    await b.click()


async def tap_and_confirm(page: Any, name: str, asks: str, exact: bool = False,
                          timeout: float = 60_000) -> None:
    """Tap `name`, wait for the dialog it opens to ask `asks`, then tap its button of the same name
    ("End the table" asks "End this table for everyone?"). Without the wait, the second click can land
    on the first button again while the dialog is still on its way (a CI failure: no "Game over")."""
    await tap(page, name, exact, timeout)
    await see(page, asks, timeout)
    await button(page, name, exact).last.click()


async def see(page: Any, text: str, timeout: float = 60_000, exact: bool = False) -> None:
    await page.get_by_text(text, exact=exact).first.wait_for(timeout=timeout)


async def type_into(page: Any, label: str, value: str) -> None:
    box = page.get_by_role("textbox", name=label).first
    await box.wait_for(timeout=60_000)
    await box.click()
    # Flutter moves its one editing element to the tapped field a moment after the tap; typing at
    # once can land in the field that had the focus before (seen in CI: "David3").
    await asyncio.sleep(0.4)
    await box.fill(value)


async def page_text(page: Any) -> str:
    """All text the accessibility tree exposes (what a screen reader would read)."""
    return await page.evaluate("""() => {
        const out = [];
        document.querySelectorAll('flt-semantics, flt-semantics *').forEach(n => {
            const l = n.getAttribute && n.getAttribute('aria-label'); if (l) out.push(l);
        });
        const host = document.querySelector('flt-semantics-host');
        if (host) out.push(host.innerText);
        return out.join('\\n');
    }""")


# Every text the accessibility tree showed since `record` (as page_text reads it, on each change of
# the tree): a reveal's moment is up for about 4 s, and a loaded machine's polling can miss it.
RECORD_JS = """() => {
    if (window.__seen) return;
    const seen = window.__seen = new Set();
    let pending = false;
    const grab = () => {
        pending = false;
        document.querySelectorAll('flt-semantics, flt-semantics *').forEach(n => {
            const l = n.getAttribute && n.getAttribute('aria-label'); if (l) seen.add(l);
        });
        const host = document.querySelector('flt-semantics-host');
        if (host) host.innerText.split('\\n').forEach(t => seen.add(t));
    };
    new MutationObserver(() => { if (!pending) { pending = true; queueMicrotask(grab); } })
        .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
SEEN_JS = "() => Array.from(window.__seen || []).join('\\n')"


async def record(pages: list[Any]) -> None:
    """From now on each page keeps every text its screen shows (call it before the reveal)."""
    await asyncio.gather(*(p.evaluate(RECORD_JS) for p in pages))


async def seen(page: Any, needles: tuple[str, ...]) -> str | bool:
    """The texts `page` showed since `record` if they hold every needle, else False (for `eventually`)."""
    text = await page.evaluate(SEEN_JS)
    return text if all(n in text for n in needles) else False


CARD_BACK = (0x6D, 0x3B, 0x1A)  # a reveal's card before it turns (views/display.card_face, views/moment._back)
MOMENT_EDGE = (0xE8, 0xC0, 0x7A)  # the border of a reveal's moment (views/moment.SeatMoment, display.MomentView)


def pixels(png: bytes, colour: tuple[int, int, int]) -> int:
    """How many pixels of a screenshot have (about) this colour."""
    from PIL import Image

    colours = Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 24) or []
    return sum(n for n, rgb in colours if all(abs(a - b) <= 6 for a, b in zip(rgb, colour, strict=True)))


async def moment_shot(page: Any, path: Any, timeout: float = 40.0) -> None:
    """Save a screenshot of a reveal's moment with its cards turned; start it as the reveal is made.
    The outcome's line is in the accessibility tree as soon as its update arrives, but on a loaded
    machine the canvas still showed the cards' backs seconds later (a shot taken a fixed while after
    the line showed them), and a phone's moment closes by itself 4 s after the line. So shots are
    taken from the reveal on until one shows the moment (its border) and no card back, then until
    two such are alike (the flip's animation is over); if the moment closes first, the last good
    shot is kept."""
    deadline = time.monotonic() + timeout
    good = b""
    while time.monotonic() < deadline:
        png = await page.screenshot()
        if not pixels(png, CARD_BACK) and pixels(png, MOMENT_EDGE) > 300:
            if png == good:
                break
            good = png
        elif good:  # (the moment has closed: the last shot of it is kept)
            break
        await asyncio.sleep(0.05)
    assert good, f"{path}: no shot of the moment with its cards turned in {timeout} s"
    Path(path).write_bytes(good)


async def read_qr(page: Any) -> str:
    import zxingcpp
    from PIL import Image

    for _ in range(40):  # the image may still be decoding
        png = await page.screenshot()
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
        if found:
            return found[0].text
        await asyncio.sleep(0.5)
    raise AssertionError("no QR code on the host screen")


async def eventually(check: Any, timeout: float = 20.0, interval: float = 0.1) -> Any:
    deadline = time.time() + timeout
    last: Any = None
    while time.time() < deadline:
        try:
            last = await check()
            if last:
                return last
        except AssertionError:
            pass
        await asyncio.sleep(interval)
    raise AssertionError(f"condition not met in {timeout}s (last={last!r})")


async def fill(page: Any, label: str, value: str) -> None:
    """Type into a field and check it took (a keystroke racing a re-render can be lost)."""
    for _ in range(4):
        await type_into(page, label, value)
        await asyncio.sleep(0.3)
        if await page.get_by_role("textbox", name=label).first.input_value() == value:
            return
    raise AssertionError(f"could not type {value!r} into {label!r}")


async def fill_all(page: Any, values: dict[str, str]) -> None:
    """`fill` for several fields (label: value): each typed, then – after one settle for all, not
    one per field – every field checked, and those that lost their value (a keystroke racing a
    re-render, also one that came while the next field was typed) typed again."""
    todo = dict(values)
    for _ in range(4):
        for label, value in todo.items():
            await type_into(page, label, value)
        await asyncio.sleep(0.3)
        todo = {label: value for label, value in values.items()
                if await page.get_by_role("textbox", name=label).first.input_value() != value}
        if not todo:
            return
    raise AssertionError(f"could not type {todo!r}")


async def text_with(page: Any, needle: str) -> str | bool:
    """The page's text if it contains `needle`, else False (for `eventually`)."""
    text = await page_text(page)
    return text if needle in text else False


# A game as the create form's game buttons name it, and a field (or a text) that appears once
# the form shows that game's options.
GAME_FORMS = {
    "LUTETIA": ("textbox", "Modification cards of value 1"),
    "Lutèce": ("textbox", "Character deck size"),
    "Quo Vadis": ("text", "Support laurels"),  # a switch: its label is an aria-label only
}


class HostTable:
    """A table created on the home screen: the host's browser context and page, and the join URL."""

    def __init__(self, ctx: Any, page: Any, join_url: str) -> None:
        self.ctx, self.page, self.join_url = ctx, page, join_url

    @property
    def code(self) -> str:
        return self.join_url.rsplit("/", 1)[1]


async def create_table(browser: Any, server: Any, game: str | None = None, seats: int | None = None,
                       names: list[str] | None = None, fields: dict[str, str] | None = None,
                       choices: list[str] | None = None, qr: bool = True, shared: tuple[int, ...] = ()) -> HostTable:
    """The host opens the home screen and creates a table: taps `game` (default: the generic
    vote) and the number of `seats` in the form's button rows, then each of `choices` (an
    option's button, by its text), types `names` into the seats, then `fields` (label: value), and
    ticks "Shared device" for the seats in `shared` (0-based; pass-and-play, issue 29).
    The join URL is read from the QR code on the host screen (qr=False: from its URL)."""
    ctx, host = await open_screen(browser, server.base + "/", HOST)
    await see(host, "Create table")
    if game is not None:
        await tap(host, game)
        kind, label = GAME_FORMS[game]
        if kind == "textbox":
            await host.get_by_role("textbox", name=label).wait_for(timeout=60_000)
        else:
            await eventually(lambda: text_with(host, label), timeout=60)
    if seats is not None:
        await tap(host, str(seats), exact=True)
        await host.get_by_role("textbox", name=f"Player {seats} (optional)").wait_for(timeout=60_000)
        await host.get_by_role("textbox", name=f"Player {seats + 1} (optional)").wait_for(
            state="detached", timeout=60_000)
    for option in choices or []:
        await tap(host, option)
    await fill_all(host, {**{f"Player {i + 1} (optional)": name for i, name in enumerate(names or [])},
                          **(fields or {})})
    if shared:
        boxes = host.get_by_role("checkbox", name="Shared device")
        for i in shared:
            await boxes.nth(i).click()
            await eventually(lambda i=i: boxes.nth(i).is_checked(), timeout=30)
    await tap(host, "Create table")
    await host_page_opened(ctx, host)
    if qr:
        join_url = await read_qr(host)
    else:
        join_url = f"{server.base}/t/{host.url.split('?')[0].rsplit('/', 1)[1]}"
    return HostTable(ctx, host, join_url)


async def host_page_opened(ctx: Any, host: Any) -> None:
    """After "Create table" (or a host link): the host page is loaded anew at /host/CODE – the key
    goes into storage and the table's host cookie, never into the address (the screen the whole
    table reads: issue 17 item 3)."""
    await host.wait_for_url(re.compile(r"/host/[A-Z]+$"), timeout=60_000)
    await host.wait_for_load_state()
    await enable_semantics(host)
    await see(host, "Scan with your phone")
    assert "k=" not in host.url, host.url
    jar = {c["name"]: c["value"] for c in await ctx.cookies()}
    assert any(name.startswith("tc_h_") for name in jar), "the host page keeps no host cookie"


async def join_phones(browser: Any, join_url: str, names: list[str], typed: bool = False,
                      together: bool = False) -> list[Any]:
    """A phone per name opens the join URL and sits down; returns their pages in seat order.

    typed: the seats have no names yet – each phone types its name and takes "Player n";
    otherwise each taps the seat the host named for it. together: the phones load at once and
    then sit down one after the other (a seat taken re-draws the other join screens, which would
    move a button under a concurrent tap); otherwise each loads after the previous one sat down
    (several Flutter apps starting at once can overload a busy machine)."""
    phones: list[Any] = []
    if together:
        phones = [ph for _ctx, ph in await asyncio.gather(*(open_screen(browser, join_url) for _ in names))]
    for i, name in enumerate(names):
        if not together:
            phones.append((await open_screen(browser, join_url))[1])
        ph = phones[i]
        if typed:
            await type_into(ph, "Your name", name)
            await tap(ph, f"Sit as Player {i + 1}")
        else:
            await tap(ph, f"Sit as {name}")
        await seated(ph, name)
    return phones


async def seated(ph: Any, name: str, timeout: float = 60_000) -> None:
    """The phone shows its seat's lobby screen; if not, the failure says what it shows instead
    (its address, whether the page's HTML join screen is up, what has the focus, the screen's
    text – or that the page crashed or does not answer)."""
    try:
        await see(ph, "Waiting for the host to start", timeout=timeout)
    except Exception as e:
        raise AssertionError(f"{name}'s phone did not sit down: {await describe(ph)}") from e


async def describe(page: Any) -> str:
    """What a page shows, for a failure's message."""
    if getattr(page, "crashed", False):
        return f"its page crashed ({page.url})"
    try:
        state = await asyncio.wait_for(page.evaluate("""() => ({url: location.href,
            html_join_screen: !!document.getElementById('tc-join'),
            focus: document.activeElement ? document.activeElement.tagName + '#' + document.activeElement.id : null})"""),
            10)
        return f"{state}, screen: {(await asyncio.wait_for(page_text(page), 10))[:600]!r}"
    except Exception as e:  # noqa: BLE001 - only for the message
        return f"its page does not answer ({page.url}: {e!r})"


async def tall_shot(page: Any, path: Any, width: int, height: int) -> None:
    """The screen scrolls inside the canvas: a tall viewport shows all of it in one picture."""
    old = page.viewport_size
    await page.set_viewport_size({"width": width, "height": height})
    await page.mouse.move(width / 2, height / 2)
    await page.mouse.wheel(0, -20_000)  # taps scrolled the screen: show it from its top
    await before_picture(3.0)  # on a busy machine the canvas paints well after the resize
    await page.screenshot(path=str(path))
    await page.set_viewport_size(old)


async def see_below(page: Any, text: str, timeout: float = 60_000) -> None:
    """`see` for a line that may sit below the window's fold: Flutter leaves what is scrolled out of
    view out of the accessibility tree, so the window is made tall while looking (then restored)."""
    old = page.viewport_size
    await page.set_viewport_size({"width": old["width"], "height": max(old["height"], 2400)})
    try:
        await see(page, text, timeout=timeout)
    finally:
        await page.set_viewport_size(old)


async def cut_texts(page: Any, width: int = 360, height: int = 740) -> list[str]:
    """Texts whose box does not fit in a `width` px wide window (cut at an edge), as "label: left–right".
    The window is set to width × height while looking (restored after). Flutter's accessibility tree
    gives each text or button a box, clipped to the window: every screen keeps a margin, so a box
    that reaches the window's edge is one that a row pushed out (an ellipsis is not a cut)."""
    old = page.viewport_size
    await page.set_viewport_size({"width": width, "height": height})
    try:
        await asyncio.sleep(2.0)  # the canvas lays out anew after the resize
        return await page.evaluate("""(w) => {
            const out = [];
            document.querySelectorAll('flt-semantics').forEach(n => {
                const label = (n.getAttribute('aria-label') || n.innerText || '').trim();
                if (!label || n.querySelector('flt-semantics')) return;  // a leaf: one text or button
                const r = n.getBoundingClientRect();
                // (Flutter clips a node's box to the window: a text cut at an edge ends there)
                if (r.width > 0 && (r.left < 2 || r.right > w - 2))
                    out.push(label.slice(0, 60) + ': ' + Math.round(r.left) + '–' + Math.round(r.right));
            });
            return out;
        }""", width)
    finally:
        await page.set_viewport_size(old)
