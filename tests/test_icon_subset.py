"""The Material icon font is served as the committed subset (companion/web.py, tools/subset_icons.py):
every icon the app's source names is in it, and it replaces only the exact file it was cut from."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.web import ICON_FONT, ICON_SUBSET_DIR, WebFront, matching_icon_subset, web_dir
from tests.web_client import app_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import subset_icons  # noqa: E402  (tools/ is not a package)

META = json.loads((ICON_SUBSET_DIR / "MaterialIcons-Regular.json").read_text("utf-8"))
SUBSET = ICON_SUBSET_DIR / "MaterialIcons-Regular.otf"
HAVE_FONTTOOLS = importlib.util.find_spec("fontTools") is not None


def test_every_icon_the_app_names_is_in_the_subset() -> None:
    used = subset_icons.app_icons()
    assert "CHECK" in used and len(used) >= 10  # the scan finds the app's icons at all
    missing = [n for n in used if n not in META["icons"]]
    assert not missing, f"icons added since the subset was made: {missing} – run tools/subset_icons.py"
    kept = set(META["codepoints"])
    assert all(META["icons"][n] in kept for n in used)


def test_the_framework_icons_are_in_the_subset() -> None:
    assert set(META["framework_icons"]) >= {"arrow_back", "close", "arrow_drop_down", "expand_more", "more_vert",
                                            "visibility", "visibility_off", "cancel", "check", "arrow_upward"}
    assert len(META["codepoints"]) > 4 * len(META["framework_icons"])  # every style of each


def test_glyph_names_follow_flutters_naming() -> None:
    assert subset_icons.glyph_for("CHECK") == "check_baseline"
    assert subset_icons.glyph_for("CHECK_CIRCLE_OUTLINED") == "check_circle_outlined"
    assert subset_icons.glyph_for("LOCK_ROUNDED") == "lock_rounded"
    assert subset_icons.glyph_for("COPY_SHARP") == "content_copy_sharp"


def test_recorded_hashes_match_the_files() -> None:
    assert hashlib.sha256(SUBSET.read_bytes()).hexdigest() == META["subset"]["sha256"]
    assert SUBSET.stat().st_size == META["subset"]["size"] < 100_000
    assert (ICON_SUBSET_DIR / "LICENSE-Apache-2.0.txt").is_file()  # the font's licence travels with it


@pytest.mark.skipif(not HAVE_FONTTOOLS, reason="fontTools not installed (only tools/subset_icons.py needs it)")
def test_subset_font_holds_the_recorded_code_points_with_the_original_glyphs() -> None:
    from fontTools.ttLib import TTFont

    sub = TTFont(str(SUBSET)).getBestCmap()
    assert sorted(sub) == META["codepoints"]
    original = web_dir() / ICON_FONT
    if original.stat().st_size == META["source"]["size"]:
        full = TTFont(str(original)).getBestCmap()
        assert all(full[cp] == name for cp, name in sub.items())  # same code point, same glyph
        for n, cp in META["icons"].items():
            assert full[cp] == subset_icons.glyph_for(n)


def test_the_installed_flet_matches_the_subset() -> None:
    """flet is pinned: if this fails after an upgrade, the server quietly serves the full font –
    run tools/subset_icons.py to get the subset back."""
    original = web_dir() / ICON_FONT
    assert original.stat().st_size == META["source"]["size"]
    assert matching_icon_subset(original) == SUBSET


def test_no_subset_for_another_original(tmp_path: Path) -> None:
    other = tmp_path / "MaterialIcons-Regular.otf"
    other.write_bytes(b"\0" * META["source"]["size"])  # same size, other bytes
    assert matching_icon_subset(other) is None
    assert matching_icon_subset(tmp_path / "missing.otf") is None
    broken = tmp_path / "icons"  # a subset dir whose font does not match its record
    broken.mkdir()
    shutil.copy(ICON_SUBSET_DIR / "MaterialIcons-Regular.json", broken)
    (broken / "MaterialIcons-Regular.otf").write_bytes(b"x" * META["subset"]["size"])
    assert matching_icon_subset(web_dir() / ICON_FONT, broken) is None


def test_a_web_root_with_another_font_gets_no_substitute(tmp_path: Path) -> None:
    root = tmp_path / "web"
    (root / "assets" / "fonts").mkdir(parents=True)
    (root / ICON_FONT).write_bytes(b"not the font")
    mw = WebFront(lambda *a: None, [root], tmp_path / "c")  # type: ignore[arg-type, return-value]
    assert mw.substitutes == {}
    assert mw.resolve("/" + ICON_FONT) == (ICON_FONT, (root / ICON_FONT).resolve())


@pytest.fixture(scope="module")
def client() -> Any:
    with app_client(unset=("COMPANION_ICON_SUBSET",)) as c:
        yield c


def test_server_sends_the_subset_under_the_fonts_usual_url(client: TestClient) -> None:
    html = client.get("/", headers={"Accept": "text/html"}).text
    v = re.search(r'flet\.assetBase="/v/([0-9a-f]+)/";', html)
    assert v
    for url in (f"/v/{v.group(1)}/{ICON_FONT}", f"/{ICON_FONT}"):
        r = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200
        assert r.content == SUBSET.read_bytes()
        assert r.headers["content-type"] == "font/otf"
    assert "assets/fonts/MaterialIcons-Regular.otf" in html  # still preloaded, under the same name
    fm = client.get("/assets/FontManifest.json").json()
    assert {"family": "MaterialIcons", "fonts": [{"asset": "fonts/MaterialIcons-Regular.otf"}]} in fm


def test_switched_off_the_full_font_is_sent_under_another_version(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_ICON_SUBSET", "0")
    on = WebFront(lambda *a: None, [web_dir()], tmp_path / "c", icon_subset=True)  # type: ignore[arg-type, return-value]
    off = WebFront(lambda *a: None, [web_dir()], tmp_path / "c")  # type: ignore[arg-type, return-value]
    assert off.substitutes == {} and on.substitutes == {ICON_FONT: SUBSET}
    assert on.version != off.version  # a phone never keeps the subset under the full font's URL or back
    assert off.resolve("/" + ICON_FONT) == (ICON_FONT, web_dir().resolve() / ICON_FONT)
