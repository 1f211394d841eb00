"""The Flet client's two big files, gzipped once by zopfli and committed (tools/precompress_web.py):
sent as their gzip copy only while the installed file is exactly the one they were made from."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.web import (
    PRECOMPRESSED,
    PRECOMPRESSED_DIR,
    Precompressed,
    WebFront,
    matching_precompressed,
    web_dir,
)
from tests.web_client import app_client

META = json.loads((PRECOMPRESSED_DIR / "precompressed.json").read_text("utf-8"))


def _cache(tmp_path: Path) -> Precompressed:
    """The compressed copies of a server (companion/web.py), made once into this cache directory."""
    return Precompressed(tmp_path / "c")


@pytest.mark.parametrize("rel", PRECOMPRESSED)
def test_the_committed_gzip_is_the_installed_file(rel: str) -> None:
    """flet is pinned: if this fails after an upgrade, the server quietly gzips the new files with
    zlib – run tools/precompress_web.py to get the smaller copies back."""
    original = web_dir() / rel
    packed = matching_precompressed(rel, original)
    assert packed is not None
    assert gzip.decompress(packed.read_bytes()) == original.read_bytes()
    info = META["files"][rel]
    assert info["gzip"]["size"] < info["zlib_9_size"]  # else it is not worth a file in the repository


def test_no_copy_for_another_file(tmp_path: Path) -> None:
    rel = "main.dart.wasm"
    other = tmp_path / rel
    data = bytearray((web_dir() / rel).read_bytes())
    data[1000] ^= 1  # same size, one bit different
    other.write_bytes(bytes(data))
    assert matching_precompressed(rel, other) is None
    assert matching_precompressed(rel, tmp_path / "missing.wasm") is None
    assert matching_precompressed("flutter.js", web_dir() / "flutter.js") is None  # not one of them
    assert matching_precompressed("flutter.js", web_dir() / rel) is None  # the right bytes under another name
    broken = tmp_path / "pre"  # a gzip that does not match its record
    shutil.copytree(PRECOMPRESSED_DIR, broken)
    gz = broken / META["files"][rel]["gzip"]["file"]
    gz.write_bytes(b"x" * gz.stat().st_size)
    assert matching_precompressed(rel, web_dir() / rel, broken) is None


def test_the_server_copies_the_committed_gzip_and_zlib_gzips_any_other(tmp_path: Path) -> None:
    rel = "canvaskit/skwasm.wasm"
    f = web_dir() / rel
    got = _cache(tmp_path).make(rel, f, "gzip")
    assert got is not None
    assert got.read_bytes() == (PRECOMPRESSED_DIR / META["files"][rel]["gzip"]["file"]).read_bytes()

    root = tmp_path / "web"  # the same name, other bytes: gzipped here, by zlib
    (root / "canvaskit").mkdir(parents=True)
    data = bytearray(f.read_bytes())
    data[-1] ^= 1
    (root / rel).write_bytes(bytes(data))
    g2 = _cache(tmp_path).make(rel, root / rel, "gzip")
    assert g2 is not None and g2 != got
    assert gzip.decompress(g2.read_bytes()) == bytes(data)


def test_an_older_zlib_copy_in_the_shared_cache_is_not_taken_for_it(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rel = "main.dart.wasm"
    f = web_dir() / rel
    monkeypatch.setenv("COMPANION_PRECOMPRESSED", "0")  # a server without the committed copies ...
    old = WebFront(lambda *a: None, [web_dir()], tmp_path / "c").cache  # type: ignore[arg-type, return-value]
    assert not old.zopfli
    monkeypatch.delenv("COMPANION_PRECOMPRESSED")
    new = WebFront(lambda *a: None, [web_dir()], tmp_path / "c").cache  # type: ignore[arg-type, return-value]
    assert new.zopfli  # ... and one with them, sharing a cache directory
    assert old.path(rel, f, f.stat(), "gzip") != new.path(rel, f, f.stat(), "gzip")
    assert old.path("flutter.js", f, f.stat(), "gzip") == new.path("flutter.js", f, f.stat(), "gzip")


@pytest.fixture(scope="module")
def client() -> Any:
    with app_client(unset=("COMPANION_PRECOMPRESSED",)) as c:
        yield c


@pytest.mark.parametrize("rel", PRECOMPRESSED)
def test_a_phone_gets_the_committed_gzip(client: TestClient, rel: str) -> None:
    r = client.get(f"/{rel}", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert int(r.headers["content-length"]) == META["files"][rel]["gzip"]["size"]
    assert r.content == (web_dir() / rel).read_bytes()  # the client decodes it to the very file


def test_the_client_notices_are_served(client: TestClient) -> None:
    """The licences README points at the client's own notices file: it is there."""
    r = client.get("/assets/NOTICES")
    assert r.status_code == 200 and "flutter" in r.text.lower()
