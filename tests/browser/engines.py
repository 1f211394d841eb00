"""One phone API on all three engines a table brings: Chromium, WebKit (every iPhone browser) and Firefox.

    async with engine("webkit") as eng:           # or "chromium", "firefox"
        phone = await eng.open(url)               # a new phone: its own storage and cookies
        await phone.tap("Sit as Anna")
        await phone.see("Waiting for the host to start")
        png = await phone.screenshot()

Everything goes through the page's own script (the semantics tree's DOM: role + aria-label),
the same in every engine, so a test written once runs on all three with one parameter
(`@pytest.mark.parametrize("engine_name", ENGINES)` + the `engine` fixture in conftest.py).

How each engine is driven offline, from Debian's packages and PyPI only:
- chromium: Playwright for Python with Debian's /usr/bin/chromium (helpers.CHROMIUM_ARGS).
- webkit: WebKitGTK 2.50 (Debian `webkit2gtk-driver`: /usr/bin/WebKitWebDriver, which starts
  WebKitGTK's MiniBrowser in automation mode) through Selenium (PyPI) – one WebDriver session per
  phone (each an ephemeral profile of its own). It needs an X display: run under `xvfb-run -a`
  (Debian `xvfb`); without DISPLAY the engine is reported missing. The first screenshot can lag
  the first frame: `screenshot()` waits a second after the canvas first appears.
- firefox: Debian `firefox-esr` speaks WebDriver BiDi itself (`--remote-debugging-port`): this
  module talks BiDi over a WebSocket with the `websockets` package the server already uses. No
  geckodriver (not packaged by Debian; its installers download from the internet), no
  puppeteer/Node. Each phone is a BiDi user context (own storage and cookies). A background tab
  gets no animation frames, so Flutter draws nothing there: every call activates the phone's tab
  first (`browsingContext.activate`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tests.browser.helpers import CHROMIUM_ARGS, PHONE, chromium_path, free_port

ENGINES = ("chromium", "webkit", "firefox")
POLL = 0.15  # seconds between two looks at a phone (Phone.until); a look is one script call
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
               "/usr/libexec/webkit2gtk-4.1/MiniBrowser")
FIREFOX = ("firefox-esr", "firefox")

# The semantics tree as text, buttons by name, a tap: the same script in every engine.
_TEXT_JS = """(() => {const out = [];
document.querySelectorAll('flt-semantics, flt-semantics *').forEach(n => {
  const l = n.getAttribute && n.getAttribute('aria-label'); if (l) out.push(l);});
const host = document.querySelector('flt-semantics-host'); if (host) out.push(host.innerText);
return out.join('\\n');})()"""
_TAP_JS = """((name, exact) => {
const norm = s => (s || '').replace(/\\s+/g, ' ').trim();
for (const n of document.querySelectorAll('flt-semantics[role=button], [role=button]')) {
  const label = norm(n.getAttribute('aria-label') || n.innerText);
  if (exact ? label === name : label.indexOf(name) >= 0) {n.click(); return true;}
}
return false;})"""
_HTML_SEATS_JS = "!!document.querySelector('#tc-join:not([hidden]) button.tj-seat')"
_HTML_TAP_JS = """((name) => {for (const b of document.querySelectorAll('#tc-join button.tj-seat')) {
  if (!b.disabled && (b.textContent || '').trim() === name) {b.click(); return true;}} return false;})"""
_SEMANTICS_JS = """(() => {const p = document.querySelector('flt-semantics-placeholder');
if (p) {p.click(); return true;} return !!document.querySelector('flt-semantics-host flt-semantics');})()"""


def _languages_js(languages: list[str]) -> str:
    v = json.dumps(languages)
    return (f"Object.defineProperty(navigator,'languages',{{configurable:true,get:()=>{v}}});"
            f"Object.defineProperty(navigator,'language',{{configurable:true,get:()=>{v}[0]}});")


def missing(name: str) -> str | None:
    """Why `name` cannot run here (None: it can)."""
    if name == "chromium":
        return None if chromium_path() else "no Chromium (Debian: apt-get install chromium)"
    if name == "webkit":
        if not os.path.exists(WEBKIT_DRIVER) or not any(os.path.exists(p) for p in MINIBROWSER):
            return "no WebKitGTK driver (Debian: apt-get install webkit2gtk-driver)"
        if not os.environ.get("DISPLAY"):
            return "WebKitGTK needs an X display: run the tests under xvfb-run -a (Debian: apt-get install xvfb)"
        try:
            import selenium  # noqa: F401
        except ImportError:
            return "no selenium (pip install -e '.[test]')"
        return None
    if name == "firefox":
        return None if any(shutil.which(f) for f in FIREFOX) else "no Firefox (Debian: apt-get install firefox-esr)"
    return f"unknown engine {name!r}"


class Phone:
    """One phone's tab; every method works the same in each engine."""

    engine = ""

    async def js(self, expression: str) -> Any:  # the value of a JS expression (JSON-able)
        raise NotImplementedError

    async def goto(self, url: str) -> None:
        raise NotImplementedError

    async def reload(self) -> None:
        raise NotImplementedError

    async def screenshot(self) -> bytes:  # PNG
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def url(self) -> str:
        return str(await self.js("location.href"))

    async def open(self, url: str, timeout: float = 90, app: bool = True) -> Phone:
        """At `url`, Flutter's screen ready; app=False: only the page's own HTML join screen
        (companion/join_page.py) shown, Flutter perhaps still starting."""
        await self.goto(url)
        if app:
            await self.enable_semantics(timeout)
        else:
            await self.until(lambda: self.js(_HTML_SEATS_JS), timeout, "the HTML join screen")
        return self

    async def tap_html(self, name: str, timeout: float = 30) -> None:
        """Tap a seat button of the page's own HTML join screen (not Flutter's)."""
        call = f"{_HTML_TAP_JS}({json.dumps(name)})"
        await self.until(lambda: self.js(call), timeout, f"HTML button {name!r}")

    async def enable_semantics(self, timeout: float = 90) -> None:
        await self.until(lambda: self.js(_SEMANTICS_JS), timeout, "Flutter's semantics placeholder")
        # (the page's HTML join screen goes once Flutter's first screen is drawn: helpers.enable_semantics)
        await self.until(lambda: self.js("!document.getElementById('tc-join')"), timeout, "Flutter's own screen")

    async def until(self, check: Any, timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                last = await check()
                if last:
                    return last
            await asyncio.sleep(POLL)
        raise AssertionError(f"{self.engine}: no {what} within {timeout:.0f}s "
                             f"(screen: {(await self.text())[:400]!r})")

    async def text(self) -> str:
        try:
            return str(await self.js(_TEXT_JS))
        except Exception as e:  # noqa: BLE001 - only for messages
            return f"<{e}>"

    async def see(self, text: str, timeout: float = 60) -> None:
        async def seen() -> bool:
            return text in await self.text()
        await self.until(seen, timeout, f"text {text!r}")

    async def tap(self, name: str, exact: bool = False, timeout: float = 60) -> None:
        call = f"{_TAP_JS}({json.dumps(name)}, {json.dumps(exact)})"
        await self.until(lambda: self.js(call), timeout, f"button {name!r}")

    async def first_frame_shot(self) -> bytes:
        """A screenshot once the canvas has been drawn (WebKitGTK's first ones can lag it)."""
        await asyncio.sleep(1.0)
        return await self.screenshot()


# ---------- Chromium: Playwright ----------
class _PlaywrightPhone(Phone):
    engine = "chromium"

    def __init__(self, ctx: Any, page: Any) -> None:
        self.ctx, self.page = ctx, page

    async def js(self, expression: str) -> Any:
        return await self.page.evaluate(expression)

    async def goto(self, url: str) -> None:
        await self.page.goto(url)

    async def reload(self) -> None:
        await self.page.reload()
        await self.enable_semantics()

    async def screenshot(self) -> bytes:
        return bytes(await self.page.screenshot())

    async def close(self) -> None:
        await self.ctx.close()


class Engine:
    name = ""

    async def open(self, url: str, size: dict[str, int] = PHONE, languages: list[str] | None = None,
                   app: bool = True) -> Phone:
        """A new phone at `url`; `languages`: what its navigator.languages says before any page
        script runs (as a browser under that locale would; Chromium and Firefox only); app=False:
        back as soon as the page's HTML join screen shows (Phone.open)."""
        raise NotImplementedError

    async def close(self) -> None:
        pass


class _Chromium(Engine):
    name = "chromium"
    _pw: Any = None  # None: a running Chromium lent to it (`on`), not its own

    async def start(self) -> None:
        from playwright.async_api import async_playwright

        self._pw = await async_playwright().start()
        self.browser = await self._pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        self.contexts: list[Any] = []

    @classmethod
    def on(cls, browser: Any) -> _Chromium:
        """Phones as new contexts of a running Chromium (the browser tests' own, conftest.py);
        `close` closes those contexts and leaves the browser running."""
        eng = cls()
        eng.browser, eng.contexts = browser, []
        return eng

    async def open(self, url: str, size: dict[str, int] = PHONE, languages: list[str] | None = None,
                   app: bool = True) -> Phone:
        ctx = await self.browser.new_context(viewport=size, locale="en-US")
        self.contexts.append(ctx)
        if languages is not None:
            await ctx.add_init_script(_languages_js(languages))
        return await _PlaywrightPhone(ctx, await ctx.new_page()).open(url, app=app)

    async def close(self) -> None:
        if self._pw is None:
            for ctx in self.contexts:
                with contextlib.suppress(Exception):
                    await ctx.close()
            return
        await self.browser.close()
        await self._pw.stop()


# ---------- WebKitGTK: Selenium + WebKitWebDriver ----------
class _SeleniumPhone(Phone):
    engine = "webkit"

    def __init__(self, driver: Any) -> None:
        self.d = driver

    async def js(self, expression: str) -> Any:
        return await asyncio.to_thread(self.d.execute_script, f"return {expression};")

    async def goto(self, url: str) -> None:
        await asyncio.to_thread(self.d.get, url)

    async def reload(self) -> None:
        await asyncio.to_thread(self.d.refresh)
        await self.enable_semantics()

    async def screenshot(self) -> bytes:
        return bytes(await asyncio.to_thread(self.d.get_screenshot_as_png))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.d.quit)


class _WebKit(Engine):
    name = "webkit"

    async def start(self) -> None:
        self.phones: list[_SeleniumPhone] = []

    def _driver(self, size: dict[str, int]) -> Any:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        o = Options()
        o.binary_location = next(p for p in MINIBROWSER if os.path.exists(p))
        o.add_argument("--automation")
        env = {**os.environ, "LANG": os.environ.get("COMPANION_WEBKIT_LANG", "en_US.UTF-8")}
        d = webdriver.WebKitGTK(options=o, service=Service(WEBKIT_DRIVER, env=env))
        d.set_window_size(size["width"], size["height"])
        return d

    async def open(self, url: str, size: dict[str, int] = PHONE, languages: list[str] | None = None,
                   app: bool = True) -> Phone:
        if languages is not None:
            raise NotImplementedError("WebKitWebDriver has no init scripts: set COMPANION_WEBKIT_LANG")
        phone = _SeleniumPhone(await asyncio.to_thread(self._driver, size))
        self.phones.append(phone)
        return await phone.open(url, app=app)

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.phones))


# ---------- Firefox ESR: WebDriver BiDi, spoken directly ----------
class _BiDi:
    def __init__(self, ws: Any) -> None:
        self.ws, self.ids = ws, itertools.count(1)
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            fut = self.waiting.pop(msg.get("id", -1), None)
            if fut is not None and not fut.done():
                if msg.get("type") == "error":
                    fut.set_exception(RuntimeError(f"{msg.get('error')}: {msg.get('message')}"))
                else:
                    fut.set_result(msg.get("result"))

    async def call(self, method: str, timeout: float = 90, **params: Any) -> Any:
        i = next(self.ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[i] = fut
        await self.ws.send(json.dumps({"id": i, "method": method, "params": params}))
        return await asyncio.wait_for(fut, timeout)


class _BiDiPhone(Phone):
    engine = "firefox"

    def __init__(self, bidi: _BiDi, context: str, user_context: str) -> None:
        self.b, self.ctx, self.user = bidi, context, user_context

    async def front(self) -> None:
        """Firefox gives a background tab no frames: the phone being read or tapped comes first."""
        await self.b.call("browsingContext.activate", context=self.ctx)

    async def js(self, expression: str) -> Any:
        await self.front()
        r = await self.b.call("script.evaluate", expression=f"JSON.stringify({expression})",
                              target={"context": self.ctx}, awaitPromise=True, resultOwnership="none")
        if r.get("type") != "success":
            raise RuntimeError(str(r.get("exceptionDetails", r))[:300])
        v = r["result"].get("value")
        return None if v is None else json.loads(v)

    async def goto(self, url: str) -> None:
        await self.front()
        await self.b.call("browsingContext.navigate", context=self.ctx, url=url, wait="interactive")

    async def reload(self) -> None:
        await self.front()
        await self.b.call("browsingContext.reload", context=self.ctx, wait="interactive")
        await self.enable_semantics()

    async def screenshot(self) -> bytes:
        await self.front()
        r = await self.b.call("browsingContext.captureScreenshot", context=self.ctx)
        return base64.b64decode(r["data"])

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.b.call("browser.removeUserContext", userContext=self.user, timeout=20)


FIREFOX_PREFS = {  # a quiet profile: no first-run pages, no update or telemetry requests
    "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False, "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False, "app.update.disabledForTesting": True,
    "browser.safebrowsing.malware.enabled": False, "browser.safebrowsing.phishing.enabled": False,
    "network.captive-portal-service.enabled": False, "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False, "browser.search.update": False, "remote.prefs.recommended": True,
    "dom.min_background_timeout_value": 10,
}


class _Firefox(Engine):
    name = "firefox"

    async def start(self) -> None:
        from websockets.asyncio.client import connect

        self.profile = Path(tempfile.mkdtemp(prefix="tc-firefox-"))
        (self.profile / "user.js").write_text("".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n"
                                                      for k, v in FIREFOX_PREFS.items()))
        port = free_port()
        exe = next(shutil.which(f) for f in FIREFOX if shutil.which(f))
        env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
        self.proc = subprocess.Popen([exe, "--headless", "--no-remote", "--profile", str(self.profile),
                                      "--remote-debugging-port", str(port), "about:blank"], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.ws = await connect(f"ws://127.0.0.1:{port}/session", max_size=2**27, open_timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise
                await asyncio.sleep(0.3)
        self.bidi = _BiDi(self.ws)
        await self.bidi.call("session.new", capabilities={})
        self.phones: list[_BiDiPhone] = []

    async def open(self, url: str, size: dict[str, int] = PHONE, languages: list[str] | None = None,
                   app: bool = True) -> Phone:
        user = (await self.bidi.call("browser.createUserContext"))["userContext"]
        ctx = (await self.bidi.call("browsingContext.create", type="tab", userContext=user))["context"]
        if languages is not None:
            await self.bidi.call("script.addPreloadScript", functionDeclaration=f"() => {{{_languages_js(languages)}}}",
                                 contexts=[ctx])
        await self.bidi.call("browsingContext.setViewport", context=ctx,
                             viewport={"width": size["width"], "height": size["height"]})
        phone = _BiDiPhone(self.bidi, ctx, user)
        self.phones.append(phone)
        return await phone.open(url, app=app)

    def alive(self) -> bool:
        return self.proc.poll() is None and not self.bidi.reader.done()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.bidi.call("session.end", timeout=10)
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.bidi.reader.cancel()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


_SHARED: dict[str, Any] = {}  # engine(name, shared=True): one running engine per name, for a whole test run


@contextlib.asynccontextmanager
async def engine(name: str, shared: bool = False) -> AsyncIterator[Engine]:
    """A started engine by name (see `missing` for why one cannot start here).

    shared=True (Firefox; the others start as usual): the run's one Firefox, started on first use
    (again if it went away) and left running for the next test – a start costs seconds. Each phone
    is a user context of its own as always (own storage, cookies and cache), and the phones opened
    here are closed when the block ends. Call `close_shared()` at the end of the run, in the same
    event loop."""
    if shared and name == "firefox":
        eng = _SHARED.get(name)
        if eng is None or not eng.alive():
            if eng is not None:
                await eng.close()
            eng = _Firefox()
            await eng.start()
            _SHARED[name] = eng
        first = len(eng.phones)
        try:
            yield eng
        finally:
            mine = eng.phones[first:]
            del eng.phones[first:]
            await asyncio.gather(*(p.close() for p in mine))
        return
    eng = {"chromium": _Chromium, "webkit": _WebKit, "firefox": _Firefox}[name]()
    await eng.start()
    try:
        yield eng
    finally:
        await eng.close()


async def close_shared() -> None:
    """Stop the engines `engine(..., shared=True)` left running."""
    for eng in list(_SHARED.values()):
        await eng.close()
    _SHARED.clear()
