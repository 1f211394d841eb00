"""Flutter's fallback fonts come from the table server (issues 18.5 and 31; companion/fallback_fonts.py):
Flutter's table of fallback URLs is read from its client; every URL in it is answered 200 with a
font – the glyphs of its own slice cut from a font on this machine, or an empty font (a 404 makes
the CanvasKit build ask again at every layout); an emoji slice is that slice, not the 11 MB font;
the page points Flutter at our server, never at the font CDN."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from starlette.testclient import TestClient

from companion import fallback_fonts as F
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.web import web_dir
from tests.web_client import app_client

EMOJI = "assets/fonts/notocoloremoji/v32/Yq6P-KqIXTD0t4D9z1ESnKM3-HpFabsE4tq3luCC7p-aXxcn.{}.woff2"


def test_file_names_as_flutter_family_folders(tmp_path: Path) -> None:
    assert F.family_key("NotoColorEmoji.ttf") == "notocoloremoji"
    assert F.family_key("NotoSansArabic-Regular.ttf") == "notosansarabic"
    assert F.asked_family(EMOJI.format(3)) == "notocoloremoji"
    assert F.asked_family("assets/fonts/notosanssc/v36/k3kCo84MPvpLmixcA63oeAL7Iqp5IZJF9bmaG9_FnYxNbPzS5HE.woff2") \
        == "notosanssc"
    assert F.asked_family("assets/fonts/roboto.woff2") is None
    assert F.asked_family("assets/fonts/../../etc/v1/passwdpasswd.woff2") is None
    own, system = tmp_path / "own", tmp_path / "system"
    own.mkdir()
    system.mkdir()
    for d, name in ((own, "NotoColorEmoji.ttf"), (system, "NotoColorEmoji.ttf"), (system, "NotoSansArabic-Regular.ttf"),
                    (system, "NotoSansArabic-Bold.ttf"), (system, "NotoSansArabicUI-Regular.ttf"), (system, "DejaVuSans.ttf")):
        (d / name).write_bytes(b"font")
    found = F.find_fonts([own, system, tmp_path / "missing"])
    assert found == {"notocoloremoji": own / "NotoColorEmoji.ttf", "notosansarabic": system / "NotoSansArabic-Regular.ttf"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with app_client(Hub(SQLiteStore(tmp_path_factory.mktemp("fonts") / "data"))) as c:
        yield c


def _version(client: TestClient) -> str:
    m = re.search(r'/v/([0-9a-f]+)/flutter_bootstrap\.js', client.get("/", headers={"Accept": "text/html"}).text)
    assert m
    return m.group(1)


def test_the_page_points_flutter_at_our_fonts(client: TestClient) -> None:
    html = client.get("/", headers={"Accept": "text/html"}).text
    v = _version(client)
    assert f'flet.fontFallbackBaseUrl="/v/{v}/assets/fonts/"' in html
    assert "gstatic" not in html


def _slices() -> dict[str, tuple[str, tuple[tuple[int, int], ...]]]:
    return F.flutter_slices((web_dir() / "main.dart.js").read_text("utf-8"))


def test_flutter_table_of_fallback_urls_is_read_from_its_client() -> None:
    slices = _slices()
    assert len(slices) > 500  # 724 in Flet 1.0.5's client
    assert all(F.asked_family("assets/fonts/" + u) for u in slices)
    name, ranges = slices[EMOJI.format(7).removeprefix("assets/fonts/")]
    assert name == "Noto Color Emoji 7" and 0x1F984 in F.code_points(ranges)  # 🦄
    assert 0x1F984 not in F.code_points(slices[EMOJI.format(2).removeprefix("assets/fonts/")][1])
    symbols = [r for u, (n, r) in slices.items() if n == "Noto Sans Symbols"]
    assert len(symbols) == 1 and ord("ë") in F.code_points(symbols[0])  # why "Zoë" asked for it
    assert F.flutter_slices("no table here") == {}


def test_every_url_flutter_may_ask_for_is_a_font_even_with_no_font_here() -> None:
    """With nothing to cut from, each of Flutter's URLs still gets a valid (empty) font."""
    fonts = F.FallbackFonts(web_dir() / "main.dart.js", None, {})
    for url in _slices():
        body = fonts.answer("assets/fonts/" + url)
        assert body is not None
        with TTFont(io.BytesIO(body)) as f:
            assert not f.getBestCmap()


def test_a_slice_is_cut_from_the_font_covering_most_of_it(tmp_path: Path) -> None:
    emoji = F.OWN_DIR / "NotoColorEmoji.ttf"
    roboto = web_dir() / "assets" / "fonts" / "roboto.woff2"
    fonts = F.FallbackFonts(web_dir() / "main.dart.js", tmp_path, {"notocoloremoji": emoji}, [roboto])
    symbols = next(u for u, (n, _) in _slices().items() if n == "Noto Sans Symbols")
    body = fonts.answer("assets/fonts/" + symbols)  # nothing of Noto Sans Symbols here: Roboto's part of it
    assert body is not None
    with TTFont(io.BytesIO(body)) as f:
        cmap = f.getBestCmap()
        assert ord("ë") in cmap and ord("ë") not in F.code_points([(0x20AD, 0x10FFFF)])
    with TTFont(str(roboto)) as f:
        assert len(cmap) < len(f.getBestCmap())  # a part of Roboto, not all of it
    assert [p.suffix for p in (tmp_path / "fallback-fonts").iterdir()] == [".woff2" if F.has_brotli() else ".ttf"]
    assert fonts.answer("assets/fonts/" + symbols) == body  # from the cache folder
    assert fonts.answer("assets/fonts/notocoloremoji/v99/AbCdEfGhIjKlMnOp.0.woff2") is None  # not Flutter's: whole


def test_an_emoji_slice_is_that_slice_only(client: TestClient) -> None:
    v = _version(client)
    r = client.get(f"/v/{v}/" + EMOJI.format(7), follow_redirects=False)
    assert r.status_code == 200
    assert r.headers["content-type"] == ("font/woff2" if F.has_brotli() else "font/ttf")
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert len(r.content) < 1_000_000  # the whole font: 10.98 MB
    with TTFont(io.BytesIO(r.content)) as f:
        cmap = f.getBestCmap()
        assert 0x1F984 in cmap and 0x1F600 not in cmap  # 🦄 (slice 7), not 😀 (another slice)
        assert "CBDT" in f  # the colour bitmaps


def test_a_family_we_do_not_have_is_an_empty_font_never_a_404(client: TestClient) -> None:
    v = _version(client)
    for url in (f"/v/{v}/assets/fonts/notosansklingon/v9/AbCdEfGhIjKlMnOp.woff2",
                f"/v/{v}/assets/fonts/notosanssc/v36/k3kCo84MPvpLmixcA63oeAL7Iqp5IZJF9bmaG9_FnYxNbPzS5HE.1.woff2"):
        r = client.get(url, follow_redirects=False)
        assert r.status_code == 200 and r.headers["content-type"].startswith("font/")
        with TTFont(io.BytesIO(r.content)) as f:
            assert "cmap" in f


def test_without_a_cache_folder_a_slice_is_still_cut_once(monkeypatch: pytest.MonkeyPatch) -> None:
    roboto = web_dir() / "assets" / "fonts" / "roboto.woff2"
    fonts = F.FallbackFonts(web_dir() / "main.dart.js", None, {}, [roboto])
    cuts: list[int] = []
    real = fonts.cut
    monkeypatch.setattr(fonts, "cut", lambda src, cps: cuts.append(len(cps)) or real(src, cps))
    symbols = next(u for u, (n, _) in _slices().items() if n == "Noto Sans Symbols")
    first = fonts.answer("assets/fonts/" + symbols)
    assert first and fonts.answer("assets/fonts/" + symbols) == first and len(cuts) == 1


def test_a_font_that_cannot_be_cut_still_gets_a_font(tmp_path: Path) -> None:
    broken = tmp_path / "NotoColorEmoji.ttf"
    broken.write_bytes((F.OWN_DIR / "NotoColorEmoji.ttf").read_bytes()[:4096])  # a cmap, then nothing
    fonts = F.FallbackFonts(web_dir() / "main.dart.js", tmp_path, {"notocoloremoji": broken})
    fonts.cmap = lambda f: frozenset(range(0x1F300, 0x1FAFF))  # type: ignore[method-assign]
    body = fonts.answer(EMOJI.format(7))
    assert body is not None
    with TTFont(io.BytesIO(body)) as f:
        assert not f.getBestCmap()
