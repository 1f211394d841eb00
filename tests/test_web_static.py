"""The web client is sent compressed and revalidated (companion/web.py through ServeStatic, the page by
companion/page.py), and still without a CDN."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.app import build
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.web import Precompressed, WebFront, web_dir
from tests.web_client import app_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with app_client(Hub(SQLiteStore(tmp_path_factory.mktemp("web") / "data"))) as c:
        yield c


def test_main_dart_js_is_gzipped_and_decompresses_to_the_original(client: TestClient) -> None:
    original = (web_dir() / "main.dart.js").read_bytes()
    r = client.get("/main.dart.js", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["etag"]
    assert r.headers["content-type"].startswith("text/javascript")
    # skwasm's threads need cross-origin isolation, which Flet's own middleware would have added
    assert r.headers["cross-origin-embedder-policy"] == "require-corp"
    assert r.headers["cross-origin-opener-policy"] == "same-origin"
    assert r.content == original  # httpx undoes the gzip
    raw = client.get("/main.dart.js", headers={"Accept-Encoding": "gzip"})
    assert int(raw.headers["content-length"]) < len(original) // 3
    assert len(raw.content) == len(original)


def test_raw_body_is_valid_gzip(client: TestClient) -> None:
    original = (web_dir() / "main.dart.js").read_bytes()
    with client.stream("GET", "/main.dart.js", headers={"Accept-Encoding": "gzip"}) as r:
        raw = b"".join(r.iter_raw())
    assert raw[:2] == b"\x1f\x8b"
    assert len(raw) == int(r.headers["content-length"])
    assert gzip.decompress(raw) == original


def test_no_gzip_without_accept_encoding(client: TestClient) -> None:
    r = client.get("/main.dart.js", headers={"Accept-Encoding": "identity"})
    assert r.status_code == 200
    assert "content-encoding" not in r.headers
    assert len(r.content) == (web_dir() / "main.dart.js").stat().st_size


def test_if_none_match_gets_304(client: TestClient) -> None:
    first = client.get("/canvaskit/skwasm.wasm", headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200
    assert first.headers["content-type"] == "application/wasm"
    etag = first.headers["etag"]
    again = client.get("/canvaskit/skwasm.wasm", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    assert client.get("/canvaskit/skwasm.wasm", headers={"If-None-Match": '"other"'}).status_code == 200


def test_index_has_no_cdn_and_revalidates(client: TestClient) -> None:
    for path in ("/", "/t/ABCD"):
        r = client.get(path, headers={"Accept": "text/html"})
        assert r.status_code == 200
        html = r.text
        assert "flet.noCdn=true" in html
        m = re.search(r'flet\.canvasKitBaseUrl="(/v/[0-9a-f]+/)canvaskit/";', html)
        assert m, "CanvasKit/skwasm from our own origin (versioned)"
        v = m.group(1)
        assert f'flet.assetBase="{v}";' in html and f'flet.entrypointBaseUrl="{v}";' in html
        assert f'flet.fontFallbackBaseUrl="{v}assets/fonts/";' in html
        for cdn in ("gstatic.com", "jsdelivr", "googleapis", "unpkg"):
            assert cdn not in html
        assert r.headers["cache-control"] == "no-cache"  # the page names the version: always asked for
        # the browser itself keeps the page off the internet: every source is this server or the page
        policy = dict(d.strip().split(" ", 1) for d in r.headers["content-security-policy"].split(";"))
        assert {"default-src", "script-src", "connect-src", "worker-src"} <= set(policy)
        allowed = {"'self'", "'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'", "'none'", "blob:", "data:",
                   "ws:", "wss:"}
        assert all(set(v.split()) <= allowed for v in policy.values()), policy
        again = client.get(path, headers={"Accept": "text/html", "If-None-Match": r.headers["etag"]})
        assert again.status_code == 304
        head = client.head(path, headers={"Accept": "text/html"})
        assert head.status_code == 200 and head.content == b""
        assert head.headers["etag"] == r.headers["etag"] and head.headers["content-length"] == r.headers["content-length"]
    fm = client.get("/assets/FontManifest.json")  # patched by Flet for no_cdn, then trimmed by us
    families = [f["family"] for f in fm.json()]
    assert "Roboto" in families and "MaterialIcons" in families
    assert not any("KaTeX" in f or "Cupertino" in f for f in families)
    assert int(fm.headers["content-length"]) == len(fm.content)


def _version(client: TestClient) -> str:
    html = client.get("/", headers={"Accept": "text/html"}).text
    m = re.search(r'flet\.assetBase="/v/([0-9a-f]+)/";', html)
    assert m
    return m.group(1)


def test_versioned_files_are_immutable_and_the_page_points_at_them(client: TestClient) -> None:
    v = _version(client)
    r = client.get("/t/ABCD", headers={"Accept": "text/html", "Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    for ref in ("flutter_bootstrap.js", "favicon.png", "icons/loading-animation.png"):
        assert f'"/v/{v}/{ref}"' in r.text
    assert f'href="/v/{v}/manifest.json"' in r.text  # Flet's patched copy, versioned too
    wasm = client.get(f"/v/{v}/main.dart.wasm", headers={"Accept-Encoding": "gzip"})
    assert wasm.status_code == 200
    assert wasm.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert wasm.content == (web_dir() / "main.dart.wasm").read_bytes()
    assert wasm.headers["cross-origin-embedder-policy"] == "require-corp"
    fm = client.get(f"/v/{v}/assets/FontManifest.json")
    assert fm.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "Roboto" in [f["family"] for f in fm.json()]
    assert not any("KaTeX" in f["family"] for f in fm.json())
    # another version (a page from before an upgrade): the current file, but asked for again next time
    old = client.get("/v/0123456789ab/main.dart.mjs")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    missing = client.get(f"/v/{v}/no-such-file.js")
    assert missing.headers["cache-control"] == "no-cache"
    route = client.get(f"/v/{v}/health")  # a route, not a file of this version
    assert route.headers.get("cache-control", "no-cache") == "no-cache"
    assert client.get("/main.dart.mjs").headers["cache-control"] == "no-cache"  # unversioned still works


def test_a_return_visit_asks_for_the_manifest_and_its_icons_never_again(client: TestClient) -> None:
    """The web manifest (and so its icons, which resolve against its URL) under the version, cached
    for a year: a phone's return visit asked for both again at every load (issue 31.4); its start
    URL and scope stay the site's root, as at /manifest.json."""
    from urllib.parse import urljoin

    v = _version(client)
    html = client.get("/t/ABCD", headers={"Accept": "text/html"}).text
    href = re.search(r'<link rel="manifest" href="([^"]+)"', html)
    assert href and href.group(1) == f"/v/{v}/manifest.json"
    r = client.get(href.group(1))
    assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable"
    m = r.json()
    assert (m["start_url"], m["scope"]) == ("/", "/")
    assert m["theme_color"] == "#8d5524"
    assert m["icons"]
    for icon in m["icons"]:
        got = client.get(urljoin(href.group(1), icon["src"]))
        assert got.status_code == 200 and got.headers["content-type"] == "image/png"
        assert got.headers["cache-control"] == "public, max-age=31536000, immutable"
    plain = client.get("/manifest.json")  # the unversioned one, as before
    assert plain.headers["cache-control"] == "no-cache" and plain.json()["start_url"] == "."


def test_page_preloads_the_boot_files_of_both_builds_and_the_fonts(client: TestClient) -> None:
    v = _version(client)
    html = client.get("/t/ABCD", headers={"Accept": "text/html"}).text
    head = html[:html.index("</head>")]
    assert "modulepreload" in head and "<script src=" not in head  # (no script the parser waits for)
    for f in ("main.dart.wasm", "main.dart.mjs", "skwasm", "skwasm_heavy", "main.dart.js", "canvaskit.wasm",
              "assets/FontManifest.json", "assets/fonts/MaterialIcons-Regular.otf", "assets/fonts/roboto.woff2"):
        assert f in head
    for name in re.findall(r'"(assets/[^"]+)"', head):
        assert client.get(f"/v/{v}/{name}").status_code == 200
    assert "KaTeX" not in head and "Cupertino" not in head


def test_the_page_loads_no_pyodide_bridge(client: TestClient, tmp_path: Path) -> None:
    """Flet's python.js (the bridge to a Python running in the browser, Pyodide) was a
    parser-blocking script in every page's <head>: a request on a first join and a main-thread task
    at every load of a slow phone for nothing (issue 31.4). A Pyodide page keeps it."""
    v = _version(client)
    for path in ("/", "/t/ABCD", "/host/ABCD"):
        html = client.get(path, headers={"Accept": "text/html"}).text
        assert not re.search(r"<script[^>]*python(-worker)?\.js", html), path
        assert "flet.pyodide = false;" in html  # (what says so)
        assert f'<script src="/v/{v}/flutter_bootstrap.js" async></script>' in html  # Flutter's loader stays
    mw = WebFront(lambda *a: None, [web_dir()], tmp_path / "c")  # type: ignore[arg-type, return-value]
    page = '<html><head><script>flet.assetBase="/";flet.pyodide = %s;</script><script src="python.js"></script></head></html>'
    assert "python.js" not in mw.page.rewrite(page % "false")
    assert f'<script src="/v/{mw.version}/python.js"></script>' in mw.page.rewrite(page % "true")


def test_version_changes_with_the_files(tmp_path: Path) -> None:
    root = tmp_path / "web"
    (root / "assets").mkdir(parents=True)
    (root / "main.dart.js").write_text("x" * 2000)
    a = WebFront(lambda *a: None, [root], tmp_path / "c")  # type: ignore[arg-type, return-value]
    b = WebFront(lambda *a: None, [root], tmp_path / "c")  # type: ignore[arg-type, return-value]
    assert a.version == b.version
    (root / "main.dart.js").write_text("y" * 2001)
    assert WebFront(lambda *a: None, [root], tmp_path / "c").version != a.version  # type: ignore[arg-type, return-value]
    html = '<script>flet.assetBase="/";</script><script src="main.dart.js"></script><a href="gone.js">'
    out = a.page.rewrite(html)
    assert f'src="/v/{a.version}/main.dart.js"' in out and 'href="gone.js"' in out


def test_small_and_precompressed_files_are_sent_as_they_are(client: TestClient) -> None:
    r = client.get("/assets/fonts/roboto.woff2", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert "content-encoding" not in r.headers
    assert r.headers["etag"]


def test_paths_outside_the_web_dir_are_not_served(tmp_path: Path, client: TestClient) -> None:
    mw = WebFront(lambda *a: None, [web_dir()], tmp_path)  # type: ignore[arg-type, return-value]
    for bad in ("/../secret", "/canvaskit/../../x", "/a//b", "/index.html", "/", "/%2e%2e/x"):
        assert mw.resolve(bad) is None
    assert mw.resolve("/main.dart.js") is not None
    assert all(f.resolve().is_relative_to(r) for f in mw.files.values() for r in mw.roots if f.is_relative_to(r))
    # through HTTP: ServeStatic answers only the URLs of the files it listed; anything else is Flet's
    # (its page for a path it does not know), never a file from outside the client's directories
    outside = (web_dir().parent / "__init__.py").read_bytes()
    for bad in ("/../__init__.py", "/canvaskit/../../__init__.py", "/%2e%2e/__init__.py", "/..%2f__init__.py"):
        r = client.get(bad, headers={"Accept-Encoding": "gzip"})
        assert r.content != outside and "content-encoding" not in r.headers


def test_accept_encoding_is_read_as_the_browser_meant_it(client: TestClient) -> None:
    for header, enc in (("gzip, deflate, br, zstd", "gzip"), ("gzip;q=0, br", None), ("", None), ("identity", None),
                        ("GZIP;q=0.5", "gzip")):
        r = client.get("/flutter_bootstrap.js", headers={"Accept-Encoding": header})
        assert r.status_code == 200 and r.headers.get("content-encoding") == enc, header
        page = client.get("/", headers={"Accept": "text/html", "Accept-Encoding": header})
        assert page.headers.get("content-encoding") == enc, header


def test_the_client_is_compressed_once_and_never_per_request(tmp_path: Path) -> None:
    """The copies are made by precompress() (at the first start), into the cache directory, and kept
    there: a request never compresses, a file without its copy yet goes out as it is, a second
    server on the same cache makes nothing, and a half-written copy (a server killed while it
    wrote) is never served."""
    root = tmp_path / "web"
    root.mkdir()
    data = ("console.log('hello');\n" * 400).encode()
    (root / "app.js").write_bytes(data)
    (root / "tiny.js").write_bytes(b"x" * 100)  # too small to be worth it
    cache = tmp_path / "cache"

    async def not_found(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    def front() -> WebFront:
        return WebFront(not_found, [root], cache, encodings=["gzip"], warm=["app.js"])

    a = front()
    assert a.static.variants == {}  # nothing made on construction
    stray = Precompressed(cache).path("app.js", root / "app.js", (root / "app.js").stat(), "gzip")
    stray.parent.mkdir(parents=True)
    stray.with_name(stray.name + ".123.456.tmp").write_bytes(b"half")  # killed while writing
    c = TestClient(a)
    a._started = True  # (the first start's precompress() is called by hand below)
    r = c.get("/app.js", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in r.headers and r.content == data  # not made per request
    assert not stray.exists()
    a.precompress()
    r = c.get("/app.js", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip" and r.content == data
    assert "content-encoding" not in c.get("/tiny.js", headers={"Accept-Encoding": "gzip"}).headers
    made = sorted(p for p in cache.rglob("*") if p.is_file() and not p.name.endswith(".tmp"))
    assert made == [stray]
    before = stray.stat().st_mtime_ns
    b = front()  # a restart, or a second server sharing the cache
    assert b.static.variants == {str(root / "app.js"): {"gzip": str(stray)}}  # found at once
    b.precompress()
    assert stray.stat().st_mtime_ns == before
    assert gzip.decompress(stray.read_bytes()) == data


def test_versioned_urls_revalidate_and_range(client: TestClient) -> None:
    """ServeStatic's HTTP on the versioned URLs too: 304 for the ETag, a HEAD without body, ranges."""
    v = _version(client)
    url = f"/v/{v}/flutter_bootstrap.js"
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.headers["content-encoding"] == "gzip"
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == "public, max-age=31536000, immutable"
    head = client.head(url, headers={"Accept-Encoding": "gzip"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == first.headers["content-length"]
    part = client.get(url, headers={"Range": "bytes=0-9", "Accept-Encoding": "identity"})
    assert part.status_code == 206 and part.content == (web_dir() / "flutter_bootstrap.js").read_bytes()[:10]


def test_ws_per_table_seam(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sharding seam (docs/SCALING.md): a table page opens its socket at /ws/CODE, which reaches Flet's /ws."""
    monkeypatch.setenv("COMPANION_STATIC_WARM", "0")
    monkeypatch.setenv("COMPANION_STATIC_ENCODINGS", "gzip")
    monkeypatch.setenv("COMPANION_WS_PER_TABLE", "1")
    hub = Hub(SQLiteStore(tmp_path / "data"))
    with TestClient(build(hub, "http://127.0.0.1:1")) as c:
        html = c.get("/t/abcd").text
        assert 'flet.webSocketEndpoint="/ws/ABCD";' in html
        assert 'flet.webSocketEndpoint="/ws";' in c.get("/").text
        with c.websocket_connect("/ws/ABCD") as ws:  # Flet's handler accepts it
            assert ws is not None


def test_the_first_start_gzips_the_boot_files_before_the_first_request(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """On an empty cache the boot files' gzip copies are made before anything is served (no phone
    gets the client uncompressed); the other files follow from a background thread."""
    import time

    monkeypatch.delenv("COMPANION_STATIC_WARM", raising=False)
    root = tmp_path / "web"
    root.mkdir()
    data = ("let x = 1;\n" * 500).encode()
    for name in ("boot.js", "later.js"):
        (root / name).write_bytes(data)

    async def not_found(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    front = WebFront(not_found, [root], tmp_path / "cache", encodings=["gzip"], warm=["boot.js"])
    c = TestClient(front)
    assert c.get("/boot.js", headers={"Accept-Encoding": "gzip"}).headers["content-encoding"] == "gzip"
    deadline = time.time() + 30
    while time.time() < deadline:
        if c.get("/later.js", headers={"Accept-Encoding": "gzip"}).headers.get("content-encoding") == "gzip":
            break
        time.sleep(0.05)
    else:
        raise AssertionError("later.js was not compressed in the background")


def test_zstd_where_the_browser_takes_it_and_the_smallest_copy_wins(tmp_path: Path) -> None:
    """Chromium asks for zstd (Safari for br, never zstd): each gets the smallest copy it accepts."""
    from companion.web import _zstd_module, available_encoders

    zstd = _zstd_module()
    if zstd is None or "zstd" not in available_encoders():
        pytest.skip("no zstd encoder (backports-zstd before Python 3.14)")
    root = tmp_path / "web"
    root.mkdir()
    data = "".join(f"function f{i}() {{ return {i * 7919 % 1000}; }}\n" for i in range(3000)).encode()
    (root / "app.js").write_bytes(data)
    front = WebFront(lambda *a: None, [root], tmp_path / "cache", encodings=["zstd", "gzip"])  # type: ignore[arg-type, return-value]
    front.precompress()
    c = TestClient(front.static)
    for accept, enc in (("gzip, deflate, br, zstd", "zstd"), ("gzip, deflate, br", "gzip"), ("identity", None)):
        with c.stream("GET", "/app.js", headers={"Accept-Encoding": accept}) as r:
            raw = b"".join(r.iter_raw())
        assert r.headers.get("content-encoding") == enc, accept
        assert {"zstd": zstd.decompress, "gzip": gzip.decompress, None: bytes}[enc](raw) == data


def test_brotli_for_safari_which_takes_no_zstd(tmp_path: Path) -> None:
    """Safari sends `gzip, deflate, br` (no zstd): with brotli installed (a dependency since issue
    31) it gets the br copy – main.dart.js 1.89 MB instead of 2.55 MB gzip, canvaskit.wasm 2.25 / 2.90."""
    import brotli

    from companion.web import available_encoders

    assert "br" in available_encoders() and next(iter(available_encoders())) == "br"  # offered first
    root = tmp_path / "web"
    root.mkdir()
    data = "".join(f"function f{i}() {{ return {i * 7919 % 1000}; }}\n" for i in range(3000)).encode()
    (root / "main.dart.js").write_bytes(data)
    front = WebFront(lambda *a: None, [root], tmp_path / "cache", encodings=["br", "gzip"])  # type: ignore[arg-type, return-value]
    front.precompress()
    c = TestClient(front.static)
    for accept, enc in (("gzip, deflate, br", "br"), ("gzip, deflate", "gzip")):
        with c.stream("GET", "/main.dart.js", headers={"Accept-Encoding": accept}) as r:
            raw = b"".join(r.iter_raw())
        assert r.headers.get("content-encoding") == enc, accept
        assert {"br": brotli.decompress, "gzip": gzip.decompress}[enc](raw) == data
    assert r.headers["cache-control"] == "no-cache"  # (unversioned path: the same caching rules as gzip)
