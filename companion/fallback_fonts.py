"""Flutter's fallback fonts (emoji, scripts Roboto lacks), served by the table server.

Flutter's web engine draws every glyph with its own fonts. A character that Roboto lacks (an
emoji, Arabic, Devanagari, CJK, ...) makes it fetch a Noto font from `fontFallbackBaseUrl` –
Google's font CDN unless told otherwise; offline that fails and the glyph is an empty box. Flet's
no_cdn page points `fontFallbackBaseUrl` at `assets/fonts/` of the client (companion/page.py makes
that `/v/<version>/assets/fonts/`), and asks there for the CDN's file names, e.g.

    assets/fonts/notocoloremoji/v32/Yq6P-KqIXTD0t4D9z1ESnKM3-HpFabsE4tq3luCC7p-aXxcn.3.woff2

(a family folder, a version, a hash and – for big fonts – the number of one of the CDN's
slices). Flet has none of these files. This module maps the family folder to a whole font file
on this machine: our own `companion/assets/fallback-fonts/` first, then the system's font
folders (Debian: `fonts-noto-color-emoji` → /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf,
`fonts-noto-core` → NotoSansArabic-Regular.ttf, ...). Every slice of a family is answered by a
redirect to that one file (`fallback/<file>` under the client's version, cached for a year), so a
phone downloads a family once, and only when a screen shows a character that needs it (Flutter
asks for nothing before that). Only openly licensed (OFL) Noto fonts are looked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

OWN_DIR = Path(__file__).resolve().parent / "assets" / "fallback-fonts"
SYSTEM_DIRS = (Path("/usr/share/fonts/truetype/noto"), Path("/usr/share/fonts/opentype/noto"),
               Path("/usr/share/fonts/truetype/noto-color-emoji"), Path("/usr/local/share/fonts"))
SUFFIXES = (".ttf", ".otf")
# What Flutter asks for under its fallback base URL (a path below the web root).
FLUTTER_FONT = re.compile(r"^assets/fonts/([a-z0-9]{3,60})/v\d{1,4}/[A-Za-z0-9_-]{8,120}(?:\.\d{1,4})?\.(?:woff2|ttf|otf)$")
PREFIX = "fallback/"  # where the whole files are served (below the web root and its /v/<version>/)


def family_key(name: str) -> str:
    """A font file's name as Flutter's family folder: "NotoSansArabic-Regular.ttf" → "notosansarabic"."""
    stem = Path(name).stem
    stem = re.sub(r"-Regular$", "", stem, flags=re.IGNORECASE)
    return re.sub(r"[^a-z0-9]", "", stem.lower())


def find_fonts(dirs: Iterable[Path] = (OWN_DIR, *SYSTEM_DIRS)) -> dict[str, Path]:
    """Family folder → font file, the first folder that has a family winning. Only Noto fonts, and
    only regular faces (a family's bold or UI variants are not what Flutter asks for)."""
    out: dict[str, Path] = {}
    for d in dirs:
        try:
            files = sorted(p for p in d.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file())
        except OSError:
            continue
        for f in files:
            if not f.name.lower().startswith("noto") or re.search(r"-(?!Regular)[A-Za-z]+$", f.stem):
                continue
            key = family_key(f.name)
            if key.endswith("ui"):
                continue
            out.setdefault(key, f)
    return out


def asked_family(rel: str) -> str | None:
    """The family folder of a path Flutter asks for (below the web root), else None."""
    m = FLUTTER_FONT.match(rel)
    return m.group(1) if m else None


def served_path(f: Path) -> str:
    """Where a fallback font file is served (below the web root)."""
    return PREFIX + f.name
