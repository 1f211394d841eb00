"""The message catalog: every user-facing string, in English, German and French.

`t(lang, key, **params)` formats a message; unknown languages fall back to English, unknown
keys to the key itself (a test checks that every key exists in all three languages).
Games bring their own catalog (`MESSAGES` on the game module); `register()` merges it.
"""

from __future__ import annotations

from typing import Any

from companion.i18n.core import MESSAGES as CORE

LANGS = ("en", "de", "fr")
LANG_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}

_catalog: dict[str, dict[str, str]] = {lang: dict(CORE[lang]) for lang in LANGS}


def register(messages: dict[str, dict[str, str]]) -> None:
    for lang in LANGS:
        _catalog[lang].update(messages.get(lang, {}))


def has(key: str, lang: str = "en") -> bool:
    return key in _catalog.get(lang, {})


def catalog(lang: str) -> dict[str, str]:
    return _catalog[lang]


def pick_lang(locale: str | None) -> str:
    """'de-CH' -> 'de'; anything unknown -> 'en'."""
    if locale:
        code = locale.replace("_", "-").split("-")[0].lower()
        if code in LANGS:
            return code
    return "en"


def t(lang: str, key: str, **params: Any) -> str:
    text = _catalog.get(lang, _catalog["en"]).get(key) or _catalog["en"].get(key) or key
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text
