"""The message catalog: every user-facing string, in English, German and French.

`t(lang, key, **params)` formats a message; unknown languages fall back to English, unknown
keys to the key itself (a test checks that every key exists in all three languages). A message
that shows a count has plural forms, and `t` picks the one for the count's value by the
language's rule (`t("fr", "tbl.err.too_many_guesses", seconds=1)` -> "… 1 seconde.").
The platform's messages are gettext .po files in `companion/i18n/locale/<lang>/LC_MESSAGES/`
(read with Babel: companion/i18n/po.py). Games bring their own catalog (`MESSAGES` on the game
module, a dict or `load_catalog(<folder>)`); `register()` merges it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.i18n.po import Plural, load_catalog, negotiate

__all__ = ["LANGS", "LANG_NAMES", "LOCALE_DIR", "Plural", "catalog", "has", "load_catalog", "pick_lang",
           "register", "t"]

LANGS = ("en", "de", "fr")
LANG_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

CORE: dict[str, dict[str, str]] = load_catalog(LOCALE_DIR)
_catalog: dict[str, dict[str, str]] = {lang: dict(CORE.get(lang, {})) for lang in LANGS}


def register(messages: Mapping[str, Mapping[str, str]]) -> None:
    for lang in LANGS:
        _catalog[lang].update(messages.get(lang, {}))


def has(key: str, lang: str = "en") -> bool:
    return key in _catalog.get(lang, {})


def catalog(lang: str) -> dict[str, str]:
    """Key -> text in `lang` (a plural entry is a `Plural`: its str value is the many form)."""
    return _catalog[lang]


def pick_lang(locale: str | None) -> str:
    """The device's locale ('de-CH', 'fr_FR') -> one of LANGS, by Babel's negotiation; else 'en'."""
    if not isinstance(locale, str):
        return "en"
    return negotiate([locale], LANGS) or "en"


def environment_lang() -> str:
    """The command line's language: the locale's ($LC_ALL, else $LC_MESSAGES, else $LANG, as POSIX
    orders them) -> one of LANGS; else 'en'. `companion print` and `companion history` without --lang."""
    env = os.environ
    return pick_lang(env.get("LC_ALL") or env.get("LC_MESSAGES") or env.get("LANG"))


def seat_name(lang: str, name: Any) -> Any:
    """A seat's name as this language says it: a default name ("Player 2", "Person 2", "Joueur 2",
    given when the host left the seat unnamed) in `lang`; any other name as it is."""
    if not isinstance(name, str) or not name[-1:].isdigit() or len(name) > 24:
        return name
    head, _, n = name.rpartition(" ")
    if not n.isdigit():
        return name
    for other in LANGS:
        pattern = str(_catalog.get(other, {}).get("ui.player_n") or "")
        if pattern and pattern.replace("{n}", n) == name:
            return t(lang, "ui.player_n", n=int(n))
    return name


def t(lang: str, key: str, **params: Any) -> str:
    if params:  # seats' default names in the reader's language ("Waiting for Person 2" on a German phone)
        params = {k: seat_name(lang, v) if isinstance(v, str) else v for k, v in params.items()}
    cat = _catalog.get(lang)
    if cat is None or not cat.get(key):
        lang, cat = "en", _catalog["en"]
    text = cat.get(key) or key
    if isinstance(text, Plural):
        text = text.form(params.get(text.count))
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text
