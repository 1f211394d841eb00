"""Issue 19 item 3: a browser under a `C`/`POSIX` locale (WebKitGTK: navigator.languages == ['C'])
made Flutter throw "invalid language tag" and the page hung on its loading screen. The page's
first script (boot.LOCALE_JS) leaves only well-formed tags, English when none is left; it runs
here in Node against a stand-in navigator (the browser test of it: tests/browser/test_engines.py)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from companion.ui import boot
from tests.web_client import app_client

NODE = shutil.which("node")


def _script() -> str:
    s = boot.LOCALE_JS.strip()
    assert s.startswith("<script>") and s.endswith("</script>")
    return s[len("<script>"):-len("</script>")]


def languages(langs: list[str] | None, language: str | None = None) -> tuple[list[str], str]:
    """(navigator.languages, navigator.language) after the script ran on a navigator that had these."""
    first = json.dumps(language if language is not None else (langs or [None])[0])
    js = ("var P={};Object.defineProperty(P,'languages',{get:function(){return " + json.dumps(langs) + ";}});"
          "Object.defineProperty(P,'language',{get:function(){return " + first + ";}});"
          "globalThis.navigator=Object.create(P);" + _script() + ";"
          "console.log(JSON.stringify([navigator.languages,navigator.language]));")
    out = subprocess.run([NODE, "-e", js], capture_output=True, text=True, timeout=30, check=True).stdout  # type: ignore[list-item]
    got = json.loads(out)
    return got[0], got[1]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize(("given", "expected"), [
    (["C"], ["en"]),
    (["POSIX"], ["en"]),
    (["C.UTF-8"], ["en"]),
    ([], ["en"]),
    (None, ["en"]),
    (["en_US.UTF-8", "C"], ["en-US"]),
    (["de_DE@euro", "fr"], ["de-DE", "fr"]),
    (["C", "fr-CH"], ["fr-CH"]),
])
def test_a_locale_flutter_cannot_read_becomes_one_it_can(given: list[str] | None, expected: list[str]) -> None:
    langs, lang = languages(given)
    assert langs == expected and lang == expected[0]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_good_tags_are_left_alone() -> None:
    assert languages(["fr-FR", "en"]) == (["fr-FR", "en"], "fr-FR")
    assert languages(["de"]) == (["de"], "de")


def test_every_page_runs_it_first() -> None:
    with app_client() as c:
        for path in ("/", "/t/ABCD", "/host/ABCD"):
            html = c.get(path, headers={"Accept": "text/html"}).text
            assert html.count("getCanonicalLocales") == 1, path
            assert html.index("getCanonicalLocales") < html.index(boot.COOKIE) < html.index("var flet")
