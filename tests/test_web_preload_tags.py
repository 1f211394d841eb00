"""The page names its boot files in plain <link> tags (found by the browser's preload scanner while
the page arrives) where the build Flutter will pick is known from the User-Agent (companion/page.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.web import WebFront, web_dir
from tests.web_client import app_client

ANDROID_CHROME = ("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/131.0.0.0 Mobile Safari/537.36")
HEADLESS = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36"
OLD_CHROME = "Mozilla/5.0 (Linux; Android 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/110.0.0.0 Mobile Safari/537.36"
IPHONE_CHROME = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                 "CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1")
IPHONE_SAFARI = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                 "Version/18.2 Mobile/15E148 Safari/604.1")
FIREFOX = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"
SKWASM = ("main.dart.mjs", "main.dart.wasm", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm")


@pytest.fixture(scope="module")
def client() -> Any:
    with app_client(unset=("COMPANION_PRELOAD_TAGS", "COMPANION_WEB_RENDERER")) as c:
        yield c


def page(client: TestClient, ua: str) -> tuple[str, Any]:
    r = client.get("/t/ABCD", headers={"Accept": "text/html", "User-Agent": ua})
    assert r.status_code == 200
    return r.text, r


def tags(html: str) -> dict[str, str]:
    """path → the <link> tag that preloads it (only the tags written into the page, not the script's)."""
    out = {}
    for tag in re.findall(r"<link rel=\"(?:module)?preload\"[^>]*>", html):
        m = re.search(r'href="/v/[0-9a-f]+/([^"]+)"', tag)
        assert m
        out[m.group(1)] = tag
    return out


@pytest.mark.parametrize("ua", [ANDROID_CHROME, HEADLESS])
def test_a_chromium_with_wasm_gc_gets_the_skwasm_build_as_tags(client: TestClient, ua: str) -> None:
    html, r = page(client, ua)
    got = tags(html)
    for p in SKWASM:
        assert p in got
    assert 'as="fetch" crossorigin="anonymous"' in got["main.dart.wasm"]  # what Flutter's fetch() asks for
    assert got["main.dart.mjs"].startswith('<link rel="modulepreload"')
    for p in ("assets/FontManifest.json", "assets/fonts/MaterialIcons-Regular.otf", "assets/fonts/roboto.woff2"):
        assert 'as="fetch" crossorigin="anonymous"' in got[p]
    # in <head>, with no script the parser waits for before them (Flet's python.js is not loaded)
    assert html.index(got["main.dart.wasm"]) < html.index("</head>")
    assert "<script src=" not in html[:html.index(got["main.dart.wasm"])]
    # the script does not add them a second time
    skip = re.search(r"d=(\[[^\]]*\])", html)
    assert skip and all(f'"{p}"' in skip.group(1) for p in SKWASM)
    assert "user-agent" in r.headers["vary"].lower()


@pytest.mark.parametrize("ua", [OLD_CHROME, IPHONE_CHROME, IPHONE_SAFARI, FIREFOX, ""])
def test_other_browsers_get_only_the_fonts_as_tags_and_the_script_decides(client: TestClient, ua: str) -> None:
    html, _ = page(client, ua)
    got = tags(html)
    assert not any(p in got for p in SKWASM)
    assert "assets/fonts/roboto.woff2" in got
    assert "main.dart.wasm" in html and "canvaskit.wasm" in html  # still in the script's choice


def test_the_page_differs_by_user_agent_class_and_revalidates(client: TestClient) -> None:
    a_html, a = page(client, ANDROID_CHROME)
    b_html, b = page(client, IPHONE_SAFARI)
    assert a.headers["etag"] != b.headers["etag"]
    again = client.get("/t/ABCD", headers={"Accept": "text/html", "User-Agent": ANDROID_CHROME,
                                           "If-None-Match": a.headers["etag"]})
    assert again.status_code == 304


def test_no_tags_for_a_canvaskit_page_or_when_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    html = ('<html><head><script>flet.assetBase="/";flet.webRenderer="canvaskit";</script>'
            '<script src="python.js"></script></head><body></body></html>')
    mw = WebFront(lambda *a: None, [web_dir()], tmp_path / "c")  # type: ignore[arg-type, return-value]
    out = mw.page.rewrite(html, None, ANDROID_CHROME)
    assert not any(p in tags(out) for p in SKWASM)
    assert "assets/fonts/roboto.woff2" in tags(out)
    monkeypatch.setenv("COMPANION_PRELOAD_TAGS", "0")
    off = WebFront(lambda *a: None, [web_dir()], tmp_path / "c")  # type: ignore[arg-type, return-value]
    assert tags(off.page.rewrite(html.replace("canvaskit", "auto"), None, ANDROID_CHROME)) == {}
