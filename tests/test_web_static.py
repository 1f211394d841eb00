"""The web client is sent compressed and revalidated (companion/web.py), and still without a CDN."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.app import build
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.web import StaticCompression, accepted, web_dir


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    mp.setenv("COMPANION_STATIC_ENCODINGS", "gzip")  # fast: no zstd work in a unit test
    mp.setenv("COMPANION_STATIC_WARM", "0")  # files are compressed on first request instead
    hub = Hub(SQLiteStore(tmp_path_factory.mktemp("web") / "data"))
    try:
        with TestClient(build(hub, "http://127.0.0.1:1")) as c:
            yield c
    finally:
        mp.undo()


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
        r = client.get(path)
        assert r.status_code == 200
        html = r.text
        assert "flet.noCdn=true" in html
        assert 'flet.canvasKitBaseUrl="/canvaskit/"' in html
        for cdn in ("gstatic.com", "jsdelivr", "googleapis", "unpkg"):
            assert cdn not in html
        assert r.headers["cache-control"] == "no-cache"
    fm = client.get("/assets/FontManifest.json")  # patched by Flet for no_cdn, then trimmed by us
    families = [f["family"] for f in fm.json()]
    assert "Roboto" in families and "MaterialIcons" in families
    assert not any("KaTeX" in f or "Cupertino" in f for f in families)
    assert int(fm.headers["content-length"]) == len(fm.content)


def test_small_and_precompressed_files_are_sent_as_they_are(client: TestClient) -> None:
    r = client.get("/assets/fonts/roboto.woff2", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert "content-encoding" not in r.headers
    assert r.headers["etag"]


def test_paths_outside_the_web_dir_are_not_served(tmp_path: Path) -> None:
    mw = StaticCompression(lambda *a: None, [web_dir()], tmp_path)  # type: ignore[arg-type, return-value]
    for bad in ("/../secret", "/canvaskit/../../x", "/a//b", "/index.html", "/", "/%2e%2e/x"):
        assert mw.resolve(bad) is None
    assert mw.resolve("/main.dart.js") is not None


def test_accept_encoding_parsing() -> None:
    assert accepted("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert "gzip" not in accepted("gzip;q=0, br")
    assert accepted("") == set()


def test_ws_per_table_seam(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sharding seam (docs/SCALING.md): a table page opens its socket at /ws/CODE, which reaches Flet's /ws."""
    monkeypatch.setenv("COMPANION_STATIC_WARM", "0")
    monkeypatch.setenv("COMPANION_WS_PER_TABLE", "1")
    hub = Hub(SQLiteStore(tmp_path / "data"))
    with TestClient(build(hub, "http://127.0.0.1:1")) as c:
        html = c.get("/t/abcd").text
        assert 'flet.webSocketEndpoint="/ws/ABCD";' in html
        assert 'flet.webSocketEndpoint="/ws";' in c.get("/").text
        with c.websocket_connect("/ws/ABCD") as ws:  # Flet's handler accepts it
            assert ws is not None
