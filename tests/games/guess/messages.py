"""The guess message catalog (en/de/fr): gettext .po files in locale/<lang>/LC_MESSAGES/guess.po.

Made by tools/catalog_to_po.py from the dict this module held; edit the .po files (msgid = the key
in the code, see companion/i18n/po.py).
"""

from __future__ import annotations

from pathlib import Path

from companion.i18n import load_catalog

MESSAGES = load_catalog(Path(__file__).resolve().parent / "locale")
