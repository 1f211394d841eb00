"""Every user-facing string exists in English, German and French, with the same placeholders."""

from __future__ import annotations

import re
import string

import pytest

from companion import i18n
from companion.games import games
from companion.i18n.core import MESSAGES as CORE

CATALOGS = {"core": CORE, **{gid: g.MESSAGES for gid, g in games().items()}}


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("name", sorted(CATALOGS))
def test_all_languages_have_the_same_keys_and_placeholders(name):
    cat = CATALOGS[name]
    en = cat["en"]
    for lang in ("de", "fr"):
        assert set(cat[lang]) == set(en), f"{name}/{lang}: {set(cat[lang]) ^ set(en)}"
        for key, text in en.items():
            assert fields(cat[lang][key]) == fields(text), f"{name}/{lang}/{key}"


def test_every_key_used_in_code_exists():
    """Literal catalog keys in the platform code and screens exist in the catalog."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "companion"
    missing = set()
    for path in list((root / "table").glob("*.py")) + list((root / "ui").glob("*.py")) + [root / "app.py"]:
        for key in re.findall(r'"((?:ui|tbl|store|err|sv)\.[a-z_.]+)"', path.read_text()):
            if not key.endswith(".") and not i18n.has(key):
                missing.add(key)
    assert not missing


def test_language_pick_and_fallback():
    assert i18n.pick_lang("de-CH") == "de" and i18n.pick_lang("fr_FR") == "fr"
    assert i18n.pick_lang("es-ES") == "en" and i18n.pick_lang(None) == "en"
    assert i18n.t("xx", "err.not_now") == i18n.t("en", "err.not_now")
    assert i18n.t("de", "tbl.err.no_table", code="QQQQ").startswith("Es gibt keinen Tisch")
