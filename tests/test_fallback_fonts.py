"""Flutter's fallback fonts come from the table server (issue 18.5; companion/fallback_fonts.py):
every slice of a Noto family Flutter asks for is redirected to the one whole font file on this
machine; a family we do not have is a plain 404, never the app's page; the page points Flutter at
our server, never at the font CDN."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion import fallback_fonts as F
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
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


@pytest.mark.skipif("notocoloremoji" not in F.find_fonts(), reason="no Noto Color Emoji here (Debian: fonts-noto-color-emoji)")
def test_every_emoji_slice_is_the_one_whole_font_of_this_machine(client: TestClient) -> None:
    v = _version(client)
    targets = set()
    for part in (0, 4, 7):
        r = client.get(f"/v/{v}/" + EMOJI.format(part), follow_redirects=False)
        assert r.status_code == 302
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
        targets.add(r.headers["location"])
    assert targets == {f"/v/{v}/fallback/NotoColorEmoji.ttf"}
    r = client.get(targets.pop())
    assert r.status_code == 200 and r.headers["content-type"] == "font/ttf"
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert r.content == F.find_fonts()["notocoloremoji"].read_bytes()[:len(r.content)]
    assert len(r.content) == F.find_fonts()["notocoloremoji"].stat().st_size


def test_a_family_we_do_not_have_is_a_plain_404(client: TestClient) -> None:
    v = _version(client)
    r = client.get(f"/v/{v}/assets/fonts/notosansklingon/v9/AbCdEfGhIjKlMnOp.woff2", follow_redirects=False)
    assert r.status_code == 404 and r.content == b""
    assert r.headers["cache-control"] == "no-cache"
