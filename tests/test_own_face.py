"""The app shows its own face, not Flet's: its icon (drawn by tools/draw_icons.py, original
artwork) as favicon, home-screen icons and loading picture, its colours in the web manifest,
and a loading screen that says which table is opening, in the phone's language."""

from __future__ import annotations

import importlib.util
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from companion import i18n
from companion.page import MANIFEST_COLOURS
from companion.ui import boot
from companion.web import web_dir
from tests.web_client import app_client

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("draw_icons", ROOT / "tools" / "draw_icons.py")
assert _spec and _spec.loader
draw_icons: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(draw_icons)


@pytest.fixture(scope="module")
def client() -> Any:
    with app_client() as c:
        yield c


@pytest.mark.parametrize("path", sorted(draw_icons.FILES))
def test_every_icon_is_ours(client: Any, path: str) -> None:
    served = client.get("/" + path).content
    assert served == (ROOT / "companion" / "assets" / "web" / path).read_bytes(), "served from companion/assets/web/, before Flet's copy"
    assert served != (web_dir() / path).read_bytes(), "not Flet's logo"
    # the committed file is what the script draws (pixels: another Pillow may encode other bytes)
    got = Image.open(io.BytesIO(served)).convert("RGBA")
    want = Image.open(io.BytesIO(draw_icons.render(path))).convert("RGBA")
    assert got.size == want.size == (draw_icons.FILES[path][0],) * 2
    assert max(ImageStat.Stat(ImageChops.difference(got, want)).mean) < 1.0


def test_the_manifest_names_and_colours_are_ours(client: Any) -> None:
    m = client.get("/manifest.json").json()
    assert (m["name"], m["short_name"]) == ("Tabletop Companion", "Companion")
    assert m["description"] == i18n.t("en", "app.description")
    assert {k: m[k] for k in MANIFEST_COLOURS} == MANIFEST_COLOURS
    for icon in m["icons"]:
        assert client.get("/" + icon["src"]).content == (ROOT / "companion" / "assets" / "web" / icon["src"]).read_bytes()


def test_the_loading_screen_says_what_is_opening_in_every_language(client: Any) -> None:
    html = client.get("/t/ABCD", headers={"Accept": "text/html"}).text
    assert 'content="Flet application."' not in html
    loading = html[html.index('<div id="loading"'):html.index("</div>\n  <script")]
    assert re.search(r'<img src="/v/[0-9a-f]+/icons/loading-animation\.png"', loading)
    assert ">Starting…<" in loading and ">Tabletop Companion<" in loading  # before the script runs
    messages = json.loads(re.search(r"var M=(\{.*?\}\}),", loading).group(1))  # type: ignore[union-attr]
    assert set(messages) == set(i18n.LANGS)
    for lang in i18n.LANGS:
        assert messages[lang]["o"] == i18n.t(lang, "boot.opening", code="{code}")
        assert messages[lang]["s"] == i18n.t(lang, "boot.starting")
    assert boot.loading_screen('x"><script>').count("<script>") == 1  # the URL is escaped
