"""(a) A phone's first join and return visit, on a throttled network, in Chromium, WebKitGTK and Firefox ESR.

    python -m benchmarks.phone_join [--repeat 3] [--mbit 30] [--latency 20]
        [--variants stock,before,ours] [--renderers auto] [--encodings gzip] [--out phone_join]
        [--engines chromium]
    xvfb-run -a python -m benchmarks.phone_join --engines chromium,chromium-cpu4,webkit,firefox \
        --variants stock,ours --encodings default --repeat 1

Engines (`--engines`, each runs every variant, stock Flet's side by side with ours, in turn):
`chromium` (below), `chromium-cpuN` = the same with the page's CPU N× slower (DevTools
`Emulation.setCPUThrottlingRate`: a mid-range phone), `webkit` (WebKitGTK's MiniBrowser under
WebKitWebDriver + Selenium, as tests/browser/engines.py drives it; needs `xvfb-run -a`) and
`firefox` (Firefox ESR over WebDriver BiDi, on a persistent profile: quit and started again for
the return visit). WebKit and Firefox have no DevTools network emulation: they reach each server
through the benchmark's own throttling proxy (benchmarks/throttle.py: one link paced at --mbit,
--latency added to each round trip), which also counts the bytes of every response (headers
included) and of the WebSocket – those replace DevTools' byte counts there. Their time is the
page's clock (navigation start → the button found; polled every 0.1 s). WebKit's first join is
timed under WebDriver, whose profile is ephemeral (no HTTP cache, no storage: a return visit
there would be a second first join); its return visit is counted in bytes only, in a plain
MiniBrowser on a persistent profile (`minibrowser_return`: opened, closed after
--webkit-settle s, opened again; ours seated in between – the join's POST and its `?s=` page – so
the return is a seated phone's, its page with "You are …"; no page clock: the page's response
complete at the proxy, from the MiniBrowser's start). `--encodings default` = everything the server offers (each engine takes its best: Safari
brotli, Firefox zstd); ratios against stock Flet are printed per engine.

Network: Chrome DevTools `Network.emulateNetworkConditions` (30 Mbit/s down and up, 20 ms
latency) on a persistent browser profile (a disk cache, like a phone's browser).

What is timed – two moments, both reported:
- **usable** ("first s"): the first moment a seat button a player can tap is there – the page's own
  HTML join screen (companion/join_page.py: a `<button>` named "Sit as …" in `#tc-join`, shown
  and enabled; found by the page itself, a MutationObserver plus a 50 ms poll, in the page's
  clock) or Flutter's seat button in its accessibility tree, whichever comes first. Since the
  HTML join screen (issue 31.4) that is the HTML one on a first join; stock Flet has none, so its
  usable = its Flutter button. On the return visit (a seated phone: Flutter's "Rename") the page
  carries the phone's own seat in HTML ("You are …" and the lobby's wait, join_page.seated_html:
  nothing to tap there – renaming is Flutter's), shown until Flutter's screen is drawn: usable =
  that, whichever comes first (`html` true in the figures).
- **Flutter** ("first Flutter s"): Flutter's own screen ready – its "Sit as …" button in its
  accessibility tree (what "usable" was before the HTML join screen).
Chromium: Flutter's time is the wall clock (navigation → the button found by Playwright); the
HTML time is that wall clock less the page-clock gap between the two marks. WebKit/Firefox: both
in the page's clock (polled every 0.1 s). Bytes = encoded bytes received for every HTTP response
(headers included) plus WebSocket frames, until Flutter's screen is ready.

A return visit closes the browser and starts it again on the same profile (the phone's browser
was closed, or the system ended it): a new browser, a new renderer process. After each return
visit the same tab is then reloaded and timed again ("reload": the phone's browser still runs
and the page loads again in its tab – pull to refresh, a tab brought back; `--no-reload` skips
it).

Variants, all served at once and visited in turn (round-robin, the order reversed every other
round, so a load spike on this shared machine hits each of them): `stock` = the stock-Flet
hello page (baseline, uncompressed); `ours` = our app with each web renderer and encoding;
`before` = the same with COMPANION_STATIC_VERSIONED=0 and COMPANION_STATIC_PRELOAD=0 (every
file revalidated, no preloads: the state before versioned URLs); `fullicons` = ours with the
whole Material icon font instead of the app's subset (COMPANION_ICON_SUBSET=0); `zlibgzip` = the
client's two big files gzipped by zlib instead of the committed zopfli copies
(COMPANION_PRECOMPRESSED=0); `scriptpreload`
= no <link> preload tags (COMPANION_PRELOAD_TAGS=0); `previous` = both off (the state before
them); `ours@DIR` = ours run from another source tree (e.g. `git archive <commit> | tar -x -C DIR`):
a change and the code before it in the same run, interleaved.

Besides the wall clock, every visit records a timeline in the page's own clock
(performance.now(), ms): the first request, when main.dart.wasm / skwasm.wasm have arrived,
Flutter's first frame, the WebSocket open, the last WebSocket message before the screen is
usable, and the moment the button appears in the DOM (a MutationObserver, not Playwright's
polling); the requests that reached the server (not served from the browser's cache); and the
CPU seconds the browser (all its processes) and the server spent on the visit – on a loaded
machine these say more than seconds of wall clock.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, header, load, median, save, table

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--enable-unsafe-swiftshader",
                 "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 412, "height": 860}


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, argv: list[str], env: dict[str, str], port: int, log: Path, cwd: Path = ROOT) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        e = {**os.environ, "FLET_FORCE_WEB_SERVER": "true", "PYTHONUNBUFFERED": "1", **env}
        e.pop("DISPLAY", None)
        self.proc = subprocess.Popen(argv, cwd=cwd, env=e, stdout=open(log, "ab"), stderr=subprocess.STDOUT)
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def wait_compressed(base: str, files: list[str], enc: str, timeout: float = 300) -> None:
    """Wait until the server has the compressed copies (made once, at start-up), so we time serving."""
    if enc == "identity":
        return
    deadline = time.time() + timeout
    pending = list(files)
    while pending and time.time() < deadline:
        f = pending[0]
        req = urllib.request.Request(f"{base}/{f}", method="HEAD", headers={"Accept-Encoding": enc})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                got = r.headers.get("Content-Encoding", "identity")
        except OSError:
            got = "error"
        if got in ("error", enc):
            pending.pop(0)
        else:
            time.sleep(1)


def make_table(data_dir: Path) -> str:
    sys.path.insert(0, str(ROOT))
    from companion.table.hub import Hub
    from companion.table.store import SQLiteStore

    store = SQLiteStore(data_dir)
    hub = Hub(store)
    t = hub.create("sealed_vote", None, [{"name": f"P{i + 1}"} for i in range(6)])
    store.close()
    return t.code


MARKS_JS = """
window.__t = {}; window.__ready = null;
const mark = (n) => { if (!(n in window.__t)) window.__t[n] = performance.now(); };
window.addEventListener('flutter-first-frame', () => mark('first_frame'));
const NativeWS = window.WebSocket;
window.WebSocket = function (...a) {
  mark('ws_new'); const w = new NativeWS(...a);
  w.addEventListener('open', () => mark('ws_open'));
  w.addEventListener('message', () => { if (!('seen' in window.__t)) { window.__t.ws_last = performance.now();
    window.__t.ws_msgs = (window.__t.ws_msgs || 0) + 1; } });
  return w; };
window.WebSocket.prototype = NativeWS.prototype; Object.assign(window.WebSocket, NativeWS);
const look = () => {
  if (!('html_seen' in window.__t)) {  // the page's own HTML join screen (companion/join_page.py)
    for (const e of document.querySelectorAll('#tc-join button.tj-seat')) {
      if (!e.disabled && !e.closest('[hidden]') && /^Sit as /.test(e.textContent || '')) { mark('html_seen'); break; } }
    // ... or, on a return visit, the seated phone's own seat in HTML (join_page.seated_html)
    const you = document.querySelector('#tc-join[data-seated]:not([hidden]) .tj-you');
    if (you && /^You are /.test(you.textContent || '')) mark('html_seen'); }
  if (window.__ready === null || 'seen' in window.__t) return;
  for (const e of document.querySelectorAll('[role=button]')) {
    if (window.__ready.test(e.textContent || '') || window.__ready.test(e.getAttribute('aria-label') || '')) {
      mark('seen'); return; } }
};
new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
const poll = setInterval(() => { look(); if ('seen' in window.__t) clearInterval(poll); }, 50);
"""
TIMELINE_JS = """() => { const t = {...window.__t}; const r = performance.getEntriesByType('resource');
  const end = (s) => { const e = r.find(x => x.name.includes(s)); return e ? e.responseEnd : null; };
  t.first_request = r.length ? Math.min(...r.map(e => e.startTime)) : null;
  t.main_wasm = end('main.dart.wasm'); t.skwasm_wasm = end('skwasm.wasm'); t.fonts = end('MaterialIcons');
  return t; }"""


def cpu_seconds(pid: int | None) -> float:
    """utime + stime of a process and all its descendants (Linux /proc), in seconds."""
    if pid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    own: dict[int, float] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            raw = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        rest = raw[raw.rfind(")") + 2:].split()
        own[int(d)] = (int(rest[11]) + int(rest[12])) / tick
        children.setdefault(int(rest[1]), []).append(int(d))
    total, stack = 0.0, [pid]
    while stack:
        p = stack.pop()
        total += own.get(p, 0.0)
        stack += children.get(p, [])
    return total


def browser_pid(profile: Path) -> int | None:
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                cmd = Path(f"/proc/{d}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if f"--user-data-dir={profile}".encode() in cmd and not any(c.startswith(b"--type=") for c in cmd):
                return int(d)
    return None


async def visit(pw: Any, chromium: str, profile: Path, url: str, ready: str, mbit: float, latency: float,
                then_click: str | None = None, then_ready: str | None = None,
                server_pid: int | None = None, reload: bool = False, cpu_rate: float = 1) -> dict[str, Any]:
    ctx = await pw.chromium.launch_persistent_context(str(profile), executable_path=chromium, headless=True,
                                                      args=CHROMIUM_ARGS, viewport=PHONE)
    try:
        page = ctx.pages[0] if ctx.pages else await ctx.new_page()
        await page.add_init_script(MARKS_JS)
        cdp = await ctx.new_cdp_session(page)
        got: dict[str, Any] = {"http": 0, "ws": 0, "requests": 0, "not_modified": 0, "cached": 0, "urls": set(),
                               "enc": {}, "network": 0}

        def finished(ev: dict[str, Any]) -> None:
            got["http"] += int(ev.get("encodedDataLength", 0))

        def response(ev: dict[str, Any]) -> None:
            r = ev["response"]
            got["requests"] += 1
            got["urls"].add(r["url"])
            if r.get("status") == 304:
                got["not_modified"] += 1
            if r.get("fromDiskCache") or r.get("fromPrefetchCache") or r.get("fromServiceWorker"):
                got["cached"] += 1
            elif r["url"].startswith("http"):
                got["network"] += 1  # reached the server (a download or a revalidation)
            enc = {k.lower(): v for k, v in (r.get("headers") or {}).items()}.get("content-encoding")
            if enc:
                got["enc"][enc] = got["enc"].get(enc, 0) + 1

        def frame(ev: dict[str, Any]) -> None:
            resp = ev.get("response", {})
            data = resp.get("payloadData", "")
            got["ws"] += len(base64.b64decode(data)) if resp.get("opcode") == 2 else len(data.encode())

        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.responseReceived", response)
        cdp.on("Network.webSocketFrameReceived", frame)
        await cdp.send("Network.enable")
        bps = mbit * 1_000_000 / 8
        await cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
                                                             "downloadThroughput": bps, "uploadThroughput": bps})
        if cpu_rate > 1:  # a mid-range phone: the page's renderer runs `cpu_rate` times slower
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_rate})
        bpid = browser_pid(profile)

        async def timed(go: Any, ready: str) -> dict[str, Any]:
            for k in ("http", "ws", "requests", "not_modified", "cached", "network"):
                got[k] = 0
            got["enc"] = {}
            cpu0, srv0 = cpu_seconds(bpid), cpu_seconds(server_pid)
            t0 = time.perf_counter()
            await go()
            await page.evaluate(f"window.__ready = new RegExp({json.dumps(ready)})")
            await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=120_000)
            await page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
            await page.locator("flt-semantics-host").get_by_role("button", name=re.compile(ready)).first.wait_for(
                timeout=120_000)
            seconds = time.perf_counter() - t0
            cpu1, srv1 = cpu_seconds(bpid), cpu_seconds(server_pid)
            timeline = {k: (round(v) if isinstance(v, float) else v)
                        for k, v in (await page.evaluate(TIMELINE_JS)).items()}
            # usable: the HTML join screen's button if it came first (the same page clock as Flutter's)
            html_at, seen_at = timeline.get("html_seen"), timeline.get("seen")
            usable = seconds - max(0.0, (seen_at - html_at) / 1000) if isinstance(html_at, (int, float)) and \
                isinstance(seen_at, (int, float)) else seconds
            return {"seconds": usable, "flutter_seconds": seconds, "html": isinstance(html_at, (int, float)),
                    "bytes": got["http"] + got["ws"], "http_bytes": got["http"],
                    "ws_bytes": got["ws"], "requests": got["requests"], "304": got["not_modified"],
                    "from_cache": got["cached"], "to_server": got["network"], "encodings": dict(got["enc"]),
                    "cpu_browser": round(cpu1 - cpu0, 2), "cpu_server": round(srv1 - srv0, 2), "timeline": timeline,
                    "renderer": "skwasm" if any("skwasm" in u for u in got["urls"]) else
                    "canvaskit" if any("canvaskit.wasm" in u for u in got["urls"]) else "?"}

        out = await timed(lambda: page.goto(url, wait_until="commit", timeout=120_000), ready)
        if reload:
            # The same phone's page loaded again in the same tab (its browser's reload, or a tab
            # brought back): the renderer process and what it keeps in memory are still there.
            await asyncio.sleep(1.0)
            out["reload"] = await timed(lambda: page.reload(wait_until="commit", timeout=120_000), ready)
        if then_click:  # (Flutter's own button: the HTML join screen has gone once Flutter's is drawn)
            await page.wait_for_selector("#tc-join", state="detached", timeout=60_000)
            await page.get_by_role("button", name=re.compile(then_click)).first.click()
            await page.get_by_role("button", name=re.compile(then_ready or ".")).first.wait_for(timeout=60_000)
            await asyncio.sleep(1.0)  # let the seat token reach localStorage
        return out
    finally:
        await ctx.close()


async def measure(pw: Any, chromium: str, url: str, first_ready: str, return_ready: str, mbit: float,
                  latency: float, click: str | None, server_pid: int | None,
                  returns: int = 1, reload: bool = True, cpu_rate: float = 1
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    profile = Path(tempfile.mkdtemp(prefix="bench-phone-"))
    try:
        first = await visit(pw, chromium, profile, url, first_ready, mbit, latency, then_click=click,
                            then_ready=return_ready, server_pid=server_pid, cpu_rate=cpu_rate)
        again = [await visit(pw, chromium, profile, url, return_ready, mbit, latency, server_pid=server_pid,
                             reload=reload, cpu_rate=cpu_rate)
                 for _ in range(returns)]
        return first, again
    finally:
        shutil.rmtree(profile, ignore_errors=True)



# ---------- WebKitGTK and Firefox ESR: no DevTools; the benchmark's own throttling proxy ----------
# (benchmarks/throttle.py between the engine and the server: the link's pace and latency, and the
# bytes of every response as they crossed it). Driven as the browser tests drive them
# (tests/browser/engines.py): WebKitGTK's MiniBrowser through WebKitWebDriver + Selenium (needs
# an X display: xvfb-run -a), Firefox ESR through WebDriver BiDi on a profile of its own.

READY_JS = """((re) => {const p = document.querySelector('flt-semantics-placeholder'); if (p) p.click();
const rx = new RegExp(re);
for (const n of document.querySelectorAll('flt-semantics[role=button], [role=button]')) {
  if (rx.test(n.getAttribute('aria-label') || '') || rx.test(n.textContent || '')) return performance.now();}
return null;})"""
# the page's own HTML join screen (companion/join_page.py): a shown, enabled "Sit as …" button
HTML_READY_JS = """(() => {for (const e of document.querySelectorAll('#tc-join button.tj-seat')) {
  if (!e.disabled && !e.closest('[hidden]') && /^Sit as /.test(e.textContent || '')) return performance.now();}
const you = document.querySelector('#tc-join[data-seated]:not([hidden]) .tj-you');
if (you && /^You are /.test(you.textContent || '')) return performance.now();
return null;})()"""
RESOURCES_JS = """(() => {const r = performance.getEntriesByType('resource');
const end = (s) => {const e = r.find(x => x.name.includes(s)); return e ? Math.round(e.responseEnd) : null;};
return {first_request: r.length ? Math.round(Math.min(...r.map(e => e.startTime))) : null,
  main_js: end('main.dart.js'), main_wasm: end('main.dart.wasm'), canvaskit_wasm: end('canvaskit.wasm'),
  skwasm_wasm: end('skwasm.wasm')};})()"""


class _Driven:
    """One engine's browser for one visit: js(), navigate(), its process id for CPU seconds."""

    pid: int | None = None

    async def js(self, expression: str) -> Any:
        raise NotImplementedError

    async def navigate(self, url: str) -> None:
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError


class _WebKitVisit(_Driven):
    """A MiniBrowser under WebKitWebDriver: an ephemeral profile (no HTTP cache, no storage kept)."""

    async def start(self) -> _WebKitVisit:
        from tests.browser.engines import MINIBROWSER, WEBKIT_DRIVER

        def make() -> Any:
            from selenium import webdriver
            from selenium.webdriver.webkitgtk.options import Options
            from selenium.webdriver.webkitgtk.service import Service

            o = Options()
            o.binary_location = next(p for p in MINIBROWSER if os.path.exists(p))
            o.add_argument("--automation")
            o.page_load_strategy = "none"  # navigate returns at once; the benchmark polls the page
            env = {**os.environ, "LANG": "en_US.UTF-8"}
            d = webdriver.WebKitGTK(options=o, service=Service(WEBKIT_DRIVER, env=env))
            d.set_window_size(PHONE["width"], PHONE["height"])
            return d

        self.d = await asyncio.to_thread(make)
        self.pid = self.d.service.process.pid
        return self

    async def js(self, expression: str) -> Any:
        return await asyncio.to_thread(self.d.execute_script, f"return {expression};")

    async def navigate(self, url: str) -> None:
        await asyncio.to_thread(self.d.get, url)

    async def stop(self) -> None:
        await asyncio.to_thread(self.d.quit)


class _FirefoxVisit(_Driven):
    """Firefox ESR on a persistent profile (its disk cache and storage kept between visits)."""

    def __init__(self, profile: Path) -> None:
        self.profile = profile

    async def start(self) -> _FirefoxVisit:
        from websockets.asyncio.client import connect

        from tests.browser.engines import FIREFOX, FIREFOX_PREFS, _BiDi

        if not (self.profile / "user.js").exists():
            (self.profile / "user.js").write_text("".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n"
                                                          for k, v in FIREFOX_PREFS.items()))
        port = free_port()
        exe = next(shutil.which(f) for f in FIREFOX if shutil.which(f))
        env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
        self.proc = subprocess.Popen([exe, "--headless", "--no-remote", "--profile", str(self.profile),
                                      "--remote-debugging-port", str(port), "about:blank"], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pid = self.proc.pid
        deadline = time.monotonic() + 90
        while True:
            try:
                self.ws = await connect(f"ws://127.0.0.1:{port}/session", max_size=2**27, open_timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise
                await asyncio.sleep(0.3)
        self.b = _BiDi(self.ws)
        await self.b.call("session.new", capabilities={})
        tree = await self.b.call("browsingContext.getTree", maxDepth=0)
        self.ctx = tree["contexts"][0]["context"]
        await self.b.call("browsingContext.setViewport", context=self.ctx,
                          viewport={"width": PHONE["width"], "height": PHONE["height"]})
        return self

    async def js(self, expression: str) -> Any:
        r = await self.b.call("script.evaluate", expression=f"JSON.stringify({expression})",
                              target={"context": self.ctx}, awaitPromise=True, resultOwnership="none")
        if r.get("type") != "success":
            raise RuntimeError(str(r.get("exceptionDetails", r))[:300])
        v = r["result"].get("value")
        return None if v is None else json.loads(v)

    async def navigate(self, url: str) -> None:
        await self.b.call("browsingContext.navigate", context=self.ctx, url=url, wait="none")

    async def stop(self) -> None:
        try:  # a clean quit writes the disk cache's index (a killed Firefox may not reuse its cache)
            await self.b.call("browser.close", timeout=20)
        except Exception:  # noqa: BLE001
            self.proc.terminate()
        self.b.reader.cancel()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def proxied_visit(engine: str, profile: Path, proxy: Any, url: str, ready: str,
                        then_click: str | None = None, then_ready: str | None = None,
                        server_pid: int | None = None) -> dict[str, Any]:
    b: _Driven = await (_WebKitVisit().start() if engine == "webkit" else _FirefoxVisit(profile).start())
    try:
        await asyncio.sleep(1.0)  # the engine's own start-up requests (none reach the proxy) settle
        proxy.reset()
        cpu0, srv0 = cpu_seconds(b.pid), cpu_seconds(server_pid)
        t0 = time.perf_counter()
        await b.navigate(url)
        seen, html_seen, deadline = None, None, time.monotonic() + 180
        while seen is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{engine}: no button /{ready}/ at {url} within 180 s")
            with contextlib.suppress(Exception):
                if html_seen is None:
                    html_seen = await b.js(HTML_READY_JS)
                seen = await b.js(f"{READY_JS}({json.dumps(ready)})")
            if seen is None:
                await asyncio.sleep(0.1)
        wall = time.perf_counter() - t0
        cpu1, srv1 = cpu_seconds(b.pid), cpu_seconds(server_pid)
        got_bytes, responses, ws = proxy.bytes_down, list(proxy.responses), proxy.ws_bytes
        timeline: dict[str, Any] = {"seen": round(seen), **({"html_seen": round(html_seen)} if html_seen else {})}
        with contextlib.suppress(Exception):
            timeline.update(await b.js(RESOURCES_JS))
        urls = [r["request"] for r in responses]
        out = {"seconds": min(seen, html_seen or seen) / 1000, "flutter_seconds": seen / 1000,
               "html": html_seen is not None, "wall_seconds": wall, "bytes": got_bytes,
               "http_bytes": sum(r["bytes"] for r in responses), "ws_bytes": ws, "requests": len(responses),
               "304": sum(r["status"] == 304 for r in responses), "from_cache": None, "to_server": len(responses),
               "encodings": {e: sum(r["encoding"] == e for r in responses) for e in {r["encoding"] for r in responses}
                             if e},
               "responses": responses, "cpu_browser": round(cpu1 - cpu0, 2), "cpu_server": round(srv1 - srv0, 2),
               "timeline": timeline,
               "renderer": "skwasm" if any("skwasm" in u for u in urls) else
               "canvaskit" if any("canvaskit.wasm" in u for u in urls) else "?"}
        if then_click:
            from tests.browser.engines import _TAP_JS

            deadline = time.monotonic() + 60  # (Flutter's own button: the HTML screen goes once Flutter's is drawn)
            while await b.js("!!document.getElementById('tc-join')") and time.monotonic() < deadline:
                await asyncio.sleep(0.3)

            call = f"{_TAP_JS}({json.dumps(then_click)}, false)"
            deadline = time.monotonic() + 60
            while not await b.js(call):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{engine}: could not tap {then_click!r}")
                await asyncio.sleep(0.3)
            deadline = time.monotonic() + 90
            while await b.js(f"{READY_JS}({json.dumps(then_ready or '.')})") is None:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{engine}: no {then_ready!r} after the tap")
                await asyncio.sleep(0.3)
            await asyncio.sleep(1.0)  # let the seat token reach localStorage
        return out
    finally:
        await b.stop()


async def minibrowser_return(profile: Path, proxy: Any, url: str, settle: float,
                             seat: bool = False) -> dict[str, Any]:
    """WebKit's return visit, bytes only: a plain MiniBrowser (no WebDriver, so its profile – XDG
    cache and data folders of its own, and a persistent cookie file – keeps an HTTP cache, its
    storage and its cookies) opens the join page, is closed after `settle` seconds, and opens it
    again; every byte that crossed the proxy in the second `settle` seconds is counted (an upper
    bound: also what came after the screen was usable).

    `seat` (ours): a seated phone's return visit. A plain MiniBrowser cannot be tapped, so between
    the two the phone sits down as the HTML join screen's tap does: the same `POST /t/CODE/join`
    (a free seat), then the page the tap leads to, `/t/CODE?s=TOKEN`, opened in this MiniBrowser
    for `settle` seconds (the app stores the token; the page keeps it in the `tc_seat` cookie,
    read back from the cookie file to check). The return visit then opens `/t/CODE` with that
    cookie: its page carries the seat's "You are …" (join_page.seated_html). No page clock without
    a driver: `page_s` = the page's response complete at the proxy, from the MiniBrowser's start
    (its own start-up included) – when the HTML seat screen can be drawn, not when it was."""
    import sqlite3

    from tests.browser.engines import MINIBROWSER

    exe = next(p for p in MINIBROWSER if os.path.exists(p))
    env = {**os.environ, "XDG_CACHE_HOME": str(profile / "mb-cache"), "XDG_DATA_HOME": str(profile / "mb-data"),
           "XDG_CONFIG_HOME": str(profile / "mb-config"), "LANG": "en_US.UTF-8"}
    cookies = profile / "mb-cookies.sqlite"
    path = url.split("://", 1)[-1].split("/", 1)[-1]
    path = "/" + path if path else "/"
    out: dict[str, Any] = {}
    steps: list[tuple[str, str]] = [("prime", url)]
    if seat:
        steps.append(("sit", url))
    steps.append(("return", url))
    for which, target in steps:
        if which == "sit":
            def sit() -> str:  # (in a thread: the proxy runs in this event loop)
                with urllib.request.urlopen(url + "/seats", timeout=30) as r:
                    free = [x["i"] for x in json.loads(r.read())["seats"] if x["state"] == "free"]
                req = urllib.request.Request(url + "/join", method="POST",
                                             headers={"Content-Type": "application/json"},
                                             data=json.dumps({"seat": free[-1], "name": "Wendy", "page": None,
                                                              "lang": "en"}).encode())
                with urllib.request.urlopen(req, timeout=30) as r:
                    return str(json.loads(r.read())["token"])

            token = await asyncio.to_thread(sit)
            target = f"{url}?s={urllib.request.quote(token)}"
        proxy.reset()
        t0 = time.monotonic()
        mb = subprocess.Popen([exe, f"--cookies-file={cookies}", target], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        page_s = None
        try:
            while time.monotonic() - t0 < settle:
                if page_s is None and any((r["request"].split(" ") + ["", ""])[1].split("?")[0] == path
                                          for r in list(proxy.responses)):
                    page_s = time.monotonic() - t0
                await asyncio.sleep(0.05)
        finally:
            mb.terminate()
            try:
                mb.wait(20)
            except subprocess.TimeoutExpired:
                mb.kill()
        out[which] = {"bytes": proxy.bytes_down, "requests": len(proxy.responses), "page_s": page_s,
                      "statuses": [r["status"] for r in proxy.responses],
                      "responses": [(r["request"], r["status"], r["bytes"]) for r in proxy.responses]}
        if which == "sit":
            with contextlib.closing(sqlite3.connect(cookies)) as db:
                kept = dict(db.execute("SELECT name, value FROM moz_cookies"))
            out["seated_cookie"] = "tc_seat" in kept
            if not out["seated_cookie"]:
                raise RuntimeError(f"webkit: no tc_seat cookie after the seated visit (cookies: {list(kept)})")

            def page_with_cookie(seat: str = kept["tc_seat"]) -> str:  # the return visit's page: the seat's screen
                req = urllib.request.Request(url, headers={"Cookie": f"tc_seat={seat}"})
                with urllib.request.urlopen(req, timeout=30) as r:
                    return r.read().decode()

            if " data-seated " not in await asyncio.to_thread(page_with_cookie):
                raise RuntimeError("webkit: the page asked with the kept tc_seat cookie is not the seated screen")
        await asyncio.sleep(1.0)
    return out


async def proxied_measure(engine: str, proxy: Any, url: str, first_ready: str, return_ready: str,
                          click: str | None, server_pid: int | None, returns: int = 1,
                          webkit_settle: float = 0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """First join, then (Firefox) return visits: the browser quit and started again on the same
    profile. WebKit: first join only – a WebDriver session's profile is ephemeral (no HTTP cache,
    no storage), so its 'return visit' would be a second first join."""
    profile = Path(tempfile.mkdtemp(prefix=f"bench-{engine}-"))
    try:
        first = await proxied_visit(engine, profile, proxy, url, first_ready, then_click=click,
                                    then_ready=return_ready, server_pid=server_pid)
        if engine == "webkit":
            if webkit_settle > 0:
                first["minibrowser_return"] = await minibrowser_return(profile, proxy, url, webkit_settle,
                                                                       seat=click is not None)
            return first, []
        again = [await proxied_visit(engine, profile, proxy, url, return_ready, server_pid=server_pid)
                 for _ in range(returns)]
        return first, again
    finally:
        shutil.rmtree(profile, ignore_errors=True)


BEFORE = {"COMPANION_STATIC_VERSIONED": "0", "COMPANION_STATIC_PRELOAD": "0", "COMPANION_WARM_MODULES": "0"}


def variants(kinds: list[str], renderers: list[str], encodings: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind in kinds:
        if kind == "stock":
            out.append({"name": "stock Flet hello (baseline)", "kind": "stock", "renderer": "auto", "enc": "identity",
                        "env": {}})
            continue
        for r in renderers:
            for e in encodings:
                if kind.startswith("ours@"):  # the app of another source tree (the code before a change)
                    tree = kind.split("@", 1)[1]
                    out.append({"name": f"companion {r} {e} @{Path(tree).name}", "kind": "ours", "renderer": r,
                                "enc": e, "env": {}, "cwd": tree})
                elif kind == "before":
                    out.append({"name": f"companion {r} {e}, revalidated, no preload (before)", "kind": "ours",
                                "renderer": r, "enc": e, "env": dict(BEFORE)})
                elif kind == "nopreload":  # versioned URLs and warm imports, but no preloads
                    out.append({"name": f"companion {r} {e}, no preload", "kind": "ours", "renderer": r, "enc": e,
                                "env": {"COMPANION_STATIC_PRELOAD": "0"}})
                elif kind == "scriptpreload":  # preloads by the page's script only, no <link> tags
                    out.append({"name": f"companion {r} {e}, preloads by script only", "kind": "ours",
                                "renderer": r, "enc": e, "env": {"COMPANION_PRELOAD_TAGS": "0"}})
                elif kind == "previous":  # the state before the icon subset and preload tags
                    out.append({"name": f"companion {r} {e}, previous (full icons, script preloads)",
                                "kind": "ours", "renderer": r, "enc": e,
                                "env": {"COMPANION_ICON_SUBSET": "0", "COMPANION_PRELOAD_TAGS": "0"}})
                elif kind == "nobootcookie":  # the first screen's storage values asked over the socket
                    out.append({"name": f"companion {r} {e}, no boot cookie", "kind": "ours", "renderer": r,
                                "enc": e, "env": {"COMPANION_BOOT_COOKIE": "0"}})
                elif kind == "zlibgzip":  # the client's big files gzipped by zlib, not the committed zopfli copies
                    out.append({"name": f"companion {r} {e}, zlib gzip", "kind": "ours", "renderer": r,
                                "enc": e, "env": {"COMPANION_PRECOMPRESSED": "0"}})
                elif kind == "fullicons":  # the whole Material icon font instead of the app's subset
                    out.append({"name": f"companion {r} {e}, full icon font", "kind": "ours", "renderer": r,
                                "enc": e, "env": {"COMPANION_ICON_SUBSET": "0"}})
                else:
                    out.append({"name": f"companion {r} {e}", "kind": "ours", "renderer": r, "enc": e, "env": {}})
    return out


def start(v: dict[str, Any], work: Path, i: int) -> tuple[Server, str, str, str, str | None]:
    from companion.web import boot_files

    port = free_port()
    if v["kind"] == "stock":
        srv = Server([sys.executable, "-m", "benchmarks.stock_hello", "--port", str(port)], {}, port,
                     work / "stock.log")
        return srv, srv.base + "/", "Tap me", "Tap me", None
    data = work / f"data-{i}"
    code = make_table(data)
    srv = Server([sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(port),
                  "--data-dir", str(data), "--public-url", f"http://127.0.0.1:{port}", "--no-browser"],
                 {"COMPANION_WEB_RENDERER": v["renderer"], **v["env"],
                  **({} if v["enc"] == "default" else {"COMPANION_STATIC_ENCODINGS": v["enc"]})},
                 port, work / f"server-{i}.log", Path(v.get("cwd") or ROOT))
    from companion.web import available_encoders

    for enc in (available_encoders() if v["enc"] == "default" else [v["enc"]]):
        wait_compressed(srv.base, boot_files(v["renderer"]), enc)
    return srv, f"{srv.base}/t/{code}", "Sit as", "Rename", "Sit as"


PHASES = [("first_request", "main_wasm"), ("main_wasm", "first_frame"), ("first_frame", "ws_open"),
          ("ws_open", "ws_last"), ("ws_last", "seen")]


def phases(t: dict[str, Any]) -> dict[str, float]:
    """Durations (ms) between the timeline's marks: where a visit's time goes."""
    out: dict[str, float] = {}
    for a, b in PHASES:
        if isinstance(t.get(a), (int, float)) and isinstance(t.get(b), (int, float)):
            out[f"{a}→{b}"] = t[b] - t[a]
    if isinstance(t.get("html_seen"), (int, float)):
        out["HTML seat buttons"] = t["html_seen"]
    if isinstance(t.get("seen"), (int, float)):
        out["total"] = t["seen"]
    return out


def parse_engines(spec: str) -> list[tuple[str, str, float]]:
    """'chromium,chromium-cpu4,webkit,firefox' → [(label, engine, CPU slowdown), …]."""
    out = []
    for name in spec.split(","):
        name = name.strip()
        m = re.fullmatch(r"chromium(?:-cpu(\d+(?:\.\d+)?))?", name)
        if m:
            out.append((name, "chromium", float(m.group(1) or 1)))
        elif name in ("webkit", "firefox"):
            out.append((name, name, 1.0))
        elif name:
            raise SystemExit(f"unknown engine {name!r} (chromium, chromium-cpuN, webkit, firefox)")
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    from benchmarks.throttle import ThrottleProxy
    from companion.web import available_encoders

    engines = parse_engines(args.engines)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None and any(e == "chromium" for _, e, _ in engines):
        raise SystemExit("no Chromium found (Debian: apt-get install chromium)")
    if any(e == "webkit" for _, e, _ in engines) and not os.environ.get("DISPLAY"):
        raise SystemExit("WebKitGTK needs an X display: run under xvfb-run -a")
    have = available_encoders()
    encodings = [e for e in args.encodings.split(",") if e in have or e == "default"]
    work = Path(args.data_dir or tempfile.mkdtemp(prefix="bench-join-"))
    work.mkdir(parents=True, exist_ok=True)
    vs = variants(args.variants.split(","), args.renderers.split(","), encodings)
    raw: list[dict[str, Any]] = []
    key = [(label, v["name"]) for label, _, _ in engines for v in vs]
    results: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {k: {"first": [], "return": []} for k in key}
    servers: list[tuple[Server, str, str, str, str | None]] = []
    proxies: list[Any] = []
    try:
        for i, v in enumerate(vs):
            servers.append(start(v, work, i))
        if any(e != "chromium" for _, e, _ in engines):
            for srv, *_ in servers:  # one slow link in front of each server, for the whole run
                proxies.append(await ThrottleProxy("127.0.0.1", srv.port, args.mbit, args.latency).start())
        async with async_playwright() as pw:
            for rnd in range(args.repeat):
                for label, eng, rate in engines:
                    order = list(range(len(vs))) if rnd % 2 == 0 else list(reversed(range(len(vs))))
                    for i in order:
                        v = vs[i]
                        srv, url, first_ready, return_ready, click = servers[i]
                        la = load()
                        if eng == "chromium":
                            f, agains = await measure(pw, chromium, url, first_ready, return_ready, args.mbit,
                                                      args.latency, click, srv.proc.pid, args.returns,
                                                      not args.no_reload, cpu_rate=rate)
                        else:
                            purl = url.replace(srv.base, f"http://127.0.0.1:{proxies[i].port}")
                            f, agains = await proxied_measure(eng, proxies[i], purl, first_ready, return_ready,
                                                              click, srv.proc.pid, args.returns, args.webkit_settle)
                        f["load"] = la
                        results[(label, v["name"])]["first"].append(f)
                        for a in agains:
                            a["load"] = la
                            results[(label, v["name"])]["return"].append(a)
                        raw.append({"engine": label, "variant": v["name"], "round": rnd, "first": f,
                                    "returns": agains})
                        ret = " / ".join(f"{a['seconds']:.2f} s {a['bytes'] / 1e3:.0f} kB {a['to_server']} req "
                                         f"cpu {a['cpu_browser']:.1f}" for a in agains) or "-"
                        if any("reload" in a for a in agains):
                            ret += " · reload " + " / ".join(f"{a['reload']['seconds']:.2f} s" for a in agains
                                                             if "reload" in a)
                        if "minibrowser_return" in f:
                            mr = f["minibrowser_return"]
                            pg = mr["return"]["page_s"]
                            ret = (f"MiniBrowser {'seated ' if mr.get('seated_cookie') else ''}return "
                                   f"(bytes in {args.webkit_settle:g} s) "
                                   f"{mr['return']['bytes'] / 1e3:.1f} kB {mr['return']['requests']} req, "
                                   f"page in at {'–' if pg is None else f'{pg:.2f}'} s from the browser's start "
                                   f"(its priming load {mr['prime']['bytes'] / 1e6:.2f} MB)")
                        fl = f" (HTML seat buttons; Flutter's {f['flutter_seconds']:.2f} s)" if f.get("html") else ""
                        print(f"   {label} · {v['name']}: first {f['seconds']:.2f} s{fl} {f['bytes'] / 1e6:.2f} MB "
                              f"({f['renderer']}, cpu {f['cpu_browser']:.1f}) · return {ret} · load {la}", flush=True)
    finally:
        for p in proxies:
            await p.close()
        for srv, *_ in servers:
            srv.stop()
    rows, timeline_rows = [], []
    for label, name in key:
        firsts, agains = results[(label, name)]["first"], results[(label, name)]["return"]
        if not firsts:
            continue
        row: dict[str, Any] = {"engine": label, "variant": name, "renderer": firsts[0]["renderer"],
                               "first s": median([x["seconds"] for x in firsts]),
                               "first Flutter s": median([x.get("flutter_seconds", x["seconds"]) for x in firsts]),
                               "first MB": median([x["bytes"] for x in firsts]) / 1e6,
                               "first cpu s": median([x["cpu_browser"] for x in firsts])}
        mbr = [x["minibrowser_return"]["return"]["bytes"] for x in firsts if "minibrowser_return" in x]
        if mbr:
            row["return kB (MiniBrowser, no time)"] = median(mbr) / 1e3
            pgs = [x["minibrowser_return"]["return"]["page_s"] for x in firsts if "minibrowser_return" in x]
            if all(p is not None for p in pgs):
                row["return page in s (MiniBrowser: from its start)"] = median(pgs)
        if agains:
            row.update({"return s": median([x["seconds"] for x in agains]),
                        "return kB": median([x["bytes"] for x in agains]) / 1e3,
                        "return requests to server": median([x["to_server"] for x in agains]),
                        "return cpu s": median([x["cpu_browser"] for x in agains])})
        rows.append(row)
        reloads = [x["reload"] for x in agains if "reload" in x]
        if reloads:
            rows[-1].update({"reload s": median([x["seconds"] for x in reloads]),
                             "reload kB": median([x["bytes"] for x in reloads]) / 1e3})
        for which, xs in (("first", firsts), ("return", agains), ("reload", reloads)):
            if not xs:
                continue
            ph = [phases(x["timeline"]) for x in xs]
            keys = [k for k in ph[0]] if ph else []
            timeline_rows.append({"engine": label, "variant": name, "visit": which,
                                  **{k: median([p[k] for p in ph if k in p]) for k in keys}})
    # ratios against stock Flet in the same engine and run
    stock = {r["engine"]: r for r in rows if r["variant"].startswith("stock")}
    ratios = []
    for r in rows:
        s = stock.get(r["engine"])
        if s is None or r is s:
            continue
        ratios.append({"engine": r["engine"], "variant": r["variant"],
                       "first s ×stock": r["first s"] / s["first s"],
                       "first Flutter s ×stock": r["first Flutter s"] / s["first Flutter s"],
                       "first MB ×stock": r["first MB"] / s["first MB"],
                       **({"return s ×stock": r["return s"] / s["return s"]}
                          if "return s" in r and "return s" in s else {})})
    return {"rows": rows, "ratios": ratios, "timeline": timeline_rows, "raw": raw}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mbit", type=float, default=30.0)
    ap.add_argument("--latency", type=float, default=20.0)
    ap.add_argument("--engines", default="chromium",
                    help="chromium, chromium-cpuN (CPU N× slower), webkit (first join timed; a seated return in MiniBrowser, bytes), firefox; "
                         "webkit and firefox through the benchmark's throttling proxy (webkit: under xvfb-run -a)")
    ap.add_argument("--webkit-settle", type=float, default=30.0,
                    help="WebKit's return visit (bytes only) in a plain MiniBrowser on a persistent profile: "
                         "seconds each of its two loads is left open (0: skip)")
    ap.add_argument("--returns", type=int, default=1, help="return visits per first join")
    ap.add_argument("--variants", default="stock,before,ours",
                    help="stock, before (revalidated, no preload, no warm imports), nopreload, previous, scriptpreload, fullicons, "
                         "nobootcookie, zlibgzip, ours")
    ap.add_argument("--renderers", default="auto")
    ap.add_argument("--encodings", default="gzip",
                    help="what the server offers, one variant each: gzip, zstd, br, identity, or default "
                         "(all the server has, as a real server: each engine takes its best)")
    ap.add_argument("--no-reload", action="store_true",
                    help="skip the reload in the same tab measured after each return visit")
    ap.add_argument("--data-dir", default=None, help="keeps the compressed copies between runs")
    ap.add_argument("--out", default="phone_join", help="name of the raw figures file (benchmarks/common.py RESULTS: $COMPANION_BENCH_OUT, else a temp folder)")
    args = ap.parse_args()
    header(f"(a) phone join, {args.mbit:g} Mbit/s + {args.latency:g} ms, median of {args.repeat}")
    # a SIGTERM (timeout, kill) unwinds like Ctrl-C: the servers and proxies are stopped
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    res = asyncio.run(run(args))
    print(table(res["rows"]))
    if res["ratios"]:
        print("\nagainst stock Flet in the same engine and run:")
        print(table(res["ratios"]))
    print("\nwhere the time goes (median ms in the page's clock; total = navigation → button in the DOM):")
    print(table(res["timeline"]))
    print("targets: first join ≤ 3.0 s and ≤ 5 MB; return visit ≤ 1.5 s and ≤ 300 kB")
    save(args.out, {"args": vars(args), **res})


if __name__ == "__main__":
    main()
