from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import pytest_asyncio

from tests.browser.helpers import CHROMIUM_ARGS, ServerProcess, chromium_path

# The documentation's pictures (docs/screenshots/) are made by `make screenshots`, which sets this to
# that folder; an ordinary test run writes its screenshots to a scratch folder and leaves the tree clean.
SHOTS_ENV = "COMPANION_SCREENSHOTS"


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            if "shots" in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.screenshots)
            # one event loop for all browser tests: the session's Chromium (`_chromium_session`)
            # lives in it (first: the closest asyncio mark decides the loop)
            item.add_marker(pytest.mark.asyncio(loop_scope="session"), append=False)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    """Each phase's report on the test item (`item.phase_reports`): the browser fixture's teardown
    looks at it to keep its last look at the screens for a failed test only."""
    rep = yield
    item.__dict__.setdefault("phase_reports", {})[rep.when] = rep
    return rep


def failed(node: Any) -> bool:
    """The test's set-up or body failed (or never reported)."""
    reps = getattr(node, "phase_reports", {})
    return "call" not in reps or any(r.failed for r in reps.values())


@pytest.fixture(scope="session")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing in CI: .ci/run must install it (apt-get install -y chromium)")
        pytest.skip("No Chromium found: install it to run the browser tests (Debian: sudo apt-get install chromium)")
    return path


def from_the_internet(url: str) -> bool:
    """A request that would leave the table's network: to a host name (not an address, not localhost)."""
    u = urlparse(url)
    if u.scheme not in ("http", "https", "ws", "wss") or not u.hostname or u.hostname == "localhost":
        return False
    try:
        ipaddress.ip_address(u.hostname)
    except ValueError:
        return True
    return False


class _SessionChromium:
    """Playwright and one Chromium for the whole run (starting them took 1–2 s per test, 5 s and
    more on a loaded machine); started again if it went away (a crash)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.pw: Any = None
        self.browser: Any = None

    async def get(self) -> Any:
        from playwright.async_api import async_playwright

        if self.browser is not None and self.browser.is_connected():
            return self.browser
        await self.close()
        self.pw = await async_playwright().start()
        self.browser = await self.pw.chromium.launch(executable_path=self.path, args=CHROMIUM_ARGS)
        return self.browser

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            if self.browser is not None:
                await self.browser.close()
        with contextlib.suppress(Exception):
            if self.pw is not None:
                await self.pw.stop()
        self.pw = self.browser = None


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _chromium_session(chromium: str) -> AsyncIterator[_SessionChromium]:
    session = _SessionChromium(chromium)
    try:
        yield session
    finally:
        await session.close()


async def last_look(b: Any, node: Any) -> None:
    """A picture of every screen of a failed test, for diagnosing it (not part of docs/) – once:
    the `server` fixture takes it before its server stops (after, every screen shows Flet's
    "Working..." while it reconnects), else the `browser` fixture as the test ends."""
    if node.__dict__.get("last_look_taken"):
        return
    node.__dict__["last_look_taken"] = True
    out = Path(os.environ.get("COMPANION_LAST_SCREENS", "/tmp/companion-last-screens"))
    out = out / re.sub(r"[^\w.-]+", "_", node.name)
    out.mkdir(parents=True, exist_ok=True)
    for i, ctx in enumerate(b.contexts):
        for j, pg in enumerate(ctx.pages):
            try:
                await pg.screenshot(path=str(out / f"ctx{i}-page{j}.png"), timeout=5000)
            except Exception as e:  # (a crashed or hung page: say so instead of nothing)
                (out / f"ctx{i}-page{j}.txt").write_text(f"{pg.url}\ncrashed: {getattr(pg, 'crashed', False)}\n{e!r}\n")


@pytest_asyncio.fixture(loop_scope="session")
async def browser(_chromium_session: _SessionChromium, request: Any) -> AsyncIterator[Any]:
    """The run's Chromium, as a test's own: every context the test opens is watched – no screen may
    ask the internet for anything (the product's offline promise – Flet's client asks a CDN for the
    Rive runtime unless the page forbids it, see companion/web.py CSP) – and closed when the test
    ends, so each test starts with no context open (contexts share no storage, cookies or cache)."""
    b = await _chromium_session.get()
    asked: dict[Any, str] = {}  # requests to the internet the browser did not refuse itself
    own: list[str] = []  # the app's own files the page's policy refused (it would be broken)
    mine: list[Any] = []  # the contexts this test opened
    new_context = type(b).new_context.__get__(b)

    def refused(r: Any) -> None:
        if r.failure == "csp":  # stopped by the page's Content-Security-Policy before any lookup
            if asked.pop(r, None) is None:
                own.append(r.url)

    async def watched_context(*args: Any, **kwargs: Any) -> Any:
        ctx = await new_context(*args, **kwargs)
        mine.append(ctx)
        ctx.on("request", lambda r: asked.update({r: r.url}) if from_the_internet(r.url) else None)
        ctx.on("requestfailed", refused)
        return ctx
    b.new_context = watched_context  # type: ignore[method-assign]
    ok = False
    try:
        yield b
        assert not asked, f"screens asked the internet for: {sorted(set(asked.values()))}"
        assert not own, f"the page's Content-Security-Policy refused: {sorted(set(own))}"
        ok = not failed(request.node)
    finally:
        del b.new_context  # (the class's again, for the next test)
        if not ok:
            await last_look(b, request.node)
        for ctx in [*mine, *b.contexts]:  # (b.contexts: any opened around the watch)
            with contextlib.suppress(Exception):
                await ctx.close()


class _Spare:
    """The next test's server, started in the background while a test runs (a start is 1–3 s of
    the test's wall time otherwise): each test still gets a fresh server on an empty data folder of
    its own, started with the same environment."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.n = 0
        self.next: tuple[ServerProcess, threading.Thread, list[BaseException]] | None = None
        self.stopping: list[threading.Thread] = []

    def _folder(self, name: str) -> Path:
        """A test's folder (its server's log) and the data folder in it, not made yet (as tmp_path / "data")."""
        (self.base / name).mkdir()
        return self.base / name / "data"

    def _start_next(self) -> None:
        self.n += 1
        s = ServerProcess(self._folder(f"server{self.n}"))
        errors: list[BaseException] = []

        def run() -> None:
            try:
                s.start()
            except BaseException as e:  # (raised in the test that takes it)
                errors.append(e)
        t = threading.Thread(target=run, daemon=True)
        t.start()
        self.next = (s, t, errors)

    def take(self) -> ServerProcess:
        if self.next is None:
            self._start_next()
        assert self.next is not None
        s, t, errors = self.next
        self.next = None
        t.join()
        if errors:
            s.stop()
            raise errors[0]
        if s.proc is None or s.proc.poll() is not None:  # (it went away while it waited: a fresh one)
            s = ServerProcess(self._folder(f"server{self.n}b"))
            s.start()
        self._start_next()
        return s

    def give_back(self, s: ServerProcess) -> None:
        """Stopped in the background (a stop waits for the process to end)."""
        t = threading.Thread(target=s.stop, daemon=True)
        t.start()
        self.stopping = [x for x in self.stopping if x.is_alive()] + [t]

    def close(self) -> None:
        if self.next is not None:
            s, t, _ = self.next
            t.join()
            s.stop()
        for t in self.stopping:
            t.join()


@pytest.fixture(scope="session")
def _spare_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Spare]:
    spare = _Spare(tmp_path_factory.mktemp("servers"))
    try:
        yield spare
    finally:
        spare.close()


@pytest_asyncio.fixture(loop_scope="session")
async def server(_spare_server: _Spare, request: Any) -> AsyncIterator[ServerProcess]:
    """`python -m companion` for the test alone, on an empty data folder."""
    s = _spare_server.take()
    try:
        yield s
    finally:
        b = request.node.funcargs.get("browser")
        if b is not None and failed(request.node):  # (the screens as they were, the server still up)
            with contextlib.suppress(Exception):
                await last_look(b, request.node)
        _spare_server.give_back(s)


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where a browser test saves its screenshots: $COMPANION_SCREENSHOTS (`make screenshots`:
    docs/screenshots/), else a scratch folder of this run (pytest's basetemp)."""
    raw = os.environ.get(SHOTS_ENV, "").strip()
    out = Path(raw) if raw else tmp_path_factory.mktemp("screenshots")
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest_asyncio.fixture(loop_scope="session")
async def engine(request: Any, _shared_engines: None, _chromium_session: _SessionChromium) -> AsyncIterator[Any]:
    """The engine a test is parametrised with (`@pytest.mark.parametrize("engine_name", ENGINES)`,
    tests/browser/engines.py): started for the test (Chromium and Firefox: the run's one, shared;
    each test's phones are closed when it ends), skipped with the reason when it cannot run here – and a
    failure in CI, where .ci/run installs all three."""
    from tests.browser.engines import engine as start_engine
    from tests.browser.engines import missing

    name = request.getfixturevalue("engine_name")
    why = missing(name)
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} cannot run in CI: {why} (.ci/run installs it)")
        pytest.skip(f"{name}: {why}")
    if name == "chromium":  # the run's Chromium (`browser`): its phones are contexts of their own
        from tests.browser.engines import _Chromium

        eng = _Chromium.on(await _chromium_session.get())
        try:
            yield eng
        finally:
            await eng.close()
        return
    async with start_engine(name, shared=True) as eng:
        yield eng


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _shared_engines() -> AsyncIterator[None]:
    """The engines the tests share (tests/browser/engines.engine(..., shared=True)), stopped at the end."""
    from tests.browser.engines import close_shared

    try:
        yield
    finally:
        await close_shared()
