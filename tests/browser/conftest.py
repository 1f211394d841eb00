from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.browser.helpers import CHROMIUM_ARGS, ServerProcess, chromium_path

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing in CI: .ci/run must install it (apt-get install -y chromium)")
        pytest.skip("No Chromium found: install it to run the browser tests (Debian: sudo apt-get install chromium)")
    return path


@pytest_asyncio.fixture
async def browser(chromium: str) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            # Last look at every screen, for diagnosing a failure (not part of docs/).
            out = Path(os.environ.get("COMPANION_LAST_SCREENS", "/tmp/companion-last-screens"))
            out.mkdir(parents=True, exist_ok=True)
            for i, ctx in enumerate(b.contexts):
                for j, pg in enumerate(ctx.pages):
                    try:
                        await pg.screenshot(path=str(out / f"ctx{i}-page{j}.png"), timeout=5000)
                    except Exception:
                        pass
            await b.close()


@pytest.fixture
def server(tmp_path: Path) -> Any:
    s = ServerProcess(tmp_path / "data")
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
