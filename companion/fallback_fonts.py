"""Flutter's fallback fonts (emoji, scripts Roboto lacks), served by the table server.

Flutter's web engine draws every glyph with its own fonts. A character that the text's fonts lack
(an emoji, Devanagari, CJK, ...) makes it fetch a Noto font from `fontFallbackBaseUrl` – Google's
font CDN unless told otherwise; offline that fails and the glyph is an empty box. Flet's no_cdn
page points `fontFallbackBaseUrl` at `assets/fonts/` of the client (companion/page.py makes that
`/v/<version>/assets/fonts/`), and asks there for the CDN's file names, e.g.

    assets/fonts/notocoloremoji/v32/Yq6P-KqIXTD0t4D9z1ESnKM3-HpFabsE4tq3luCC7p-aXxcn.3.woff2

(a family folder, a version, a hash and – for big fonts – the number of one of the CDN's slices).
Flet has none of these files. Flutter's client carries the list of every URL it may ask for and
the code points each one covers (its `font_fallback_data.dart`, compiled into `main.dart.js`:
`flutter_slices` reads it back), so each request is answered with **the glyphs of its own slice**
(`FallbackFonts.answer`): fontTools' subsetter cuts them from a font on this machine – our own
`companion/assets/fallback-fonts/` first, then the system's Noto fonts (Debian:
`fonts-noto-color-emoji`, `fonts-noto-core`), then the client's Roboto – made once into the cache
folder (never into git), woff2 where `brotli` is installed. One emoji costs a phone its slice
(0.1–0.9 MB) instead of the 11 MB colour emoji font.

Every URL Flutter may ask for is answered 200 with a valid font – an empty one (no glyph) where
nothing on this machine covers the slice: on the CanvasKit build (iPhones, Firefox) Flutter's
fallback does not remember a failed download and asks again at every layout, 13–18 times a
second for as long as the screen is open (each failure ends in a "fonts changed" message, every
text is laid out again, and the check starts over). Why a plain "Zoë" or the French interface
made it ask for Noto Sans Symbols: Flutter checks a text's code points ≥ U+00A0 against the
fonts of the text style's own families only; a text whose style names no family (the seat
buttons: CanvasKit draws them with its default Roboto, which has "ë") gives it no font to check,
so every such code point counts as missing. "ë" is in 140 of Flutter's Noto fonts at once, and
its tie-break prefers Noto Sans Symbols. A Devanagari name goes to "Noto Sans" the same way (it
covers the name's Latin and Devanagari letters together). Only openly licensed fonts are used (OFL Noto, Apache Roboto).
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import re
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

OWN_DIR = Path(__file__).resolve().parent / "assets" / "fallback-fonts"
SYSTEM_DIRS = (Path("/usr/share/fonts/truetype/noto"), Path("/usr/share/fonts/opentype/noto"),
               Path("/usr/share/fonts/truetype/noto-color-emoji"), Path("/usr/local/share/fonts"))
SUFFIXES = (".ttf", ".otf")
# What Flutter asks for under its fallback base URL (a path below the web root).
FLUTTER_FONT = re.compile(r"^assets/fonts/([a-z0-9]{3,60})/v\d{1,4}/[A-Za-z0-9_-]{8,120}(?:\.\d{1,4})?\.(?:woff2|ttf|otf)$")
PREFIX = "fallback/"  # where the whole files are served (below the web root and its /v/<version>/)
MAX_CODE_POINT = 0x10FFFF
SLICES_RULES = "1"  # bump when a slice is cut differently (part of each cached file's key)


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


# ---------- Flutter's table: the code points of every URL it may ask for ----------
# In main.dart.js (dart2js keeps the strings of engine/src/flutter/lib/web_ui/lib/src/engine/
# font_fallback_data.dart as they are): the fonts in order, ("Noto Sans Symbols", "<url>"); the
# font sets, one string of comma-separated sets of font indexes; the ranges, one string mapping
# every code point 0..U+10FFFF to a font set. Read by shape, not by the minifier's names.
_FONT_ENTRY = re.compile(r'\("(Noto [^"\\]{1,80})","(noto[a-z0-9]{0,60}/v\d{1,4}/[A-Za-z0-9_.-]{4,160}\.(?:woff2|ttf|otf))"\)')
_FONT_SETS = re.compile(r'"([a-z0-9,]{2000,})"')
_RANGES = re.compile(r'"([A-Za-z0-9]{2000,})"')


def _decode_set(data: str, n_fonts: int) -> list[int] | None:
    """One font set: letters a–z are a step to the next index (digits before them: a prefix in base 26)."""
    out: list[int] = []
    previous, prefix = -1, 0
    for ch in data:
        c = ord(ch)
        if 97 <= c < 123:
            previous = previous + prefix * 26 + (c - 97) + 1
            if previous >= n_fonts:
                return None
            out.append(previous)
            prefix = 0
        else:
            prefix = prefix * 10 + (c - 48)
    return out


def _decode_ranges(data: str, n_sets: int) -> tuple[list[int], list[int]] | None:
    """Range ends (exclusive) and each range's font set; None unless they cover exactly 0..U+10FFFF."""
    ends: list[int] = []
    values: list[int] = []
    start, prefix, size = 0, 0, 1
    for ch in data:
        c = ord(ch)
        if 65 <= c < 91:
            value = prefix * 26 + (c - 65)
            if value >= n_sets:
                return None
            start += size
            ends.append(start)
            values.append(value)
            prefix, size = 0, 1
        elif 97 <= c < 123:
            size = prefix * 26 + (c - 97) + 2
            prefix = 0
        else:
            prefix = prefix * 10 + (c - 48)
    return (ends, values) if start == MAX_CODE_POINT + 1 else None


def flutter_slices(js: str) -> dict[str, tuple[str, tuple[tuple[int, int], ...]]]:
    """Every URL Flutter's client may ask for (below the fallback base URL) → (its font's name,
    the code point ranges it covers, inclusive), read from the client's main.dart.js; {} when the
    script does not hold the table in the expected shape."""
    fonts = _FONT_ENTRY.findall(js)
    if not fonts:
        return {}
    sets: list[list[int]] | None = None
    for cand in _FONT_SETS.findall(js):
        if cand.count(",") < 100:
            continue
        decoded = [_decode_set(part, len(fonts)) for part in cand.split(",")]
        if all(d is not None for d in decoded):
            sets = [d for d in decoded if d is not None]
            break
    if sets is None:
        return {}
    for cand in _RANGES.findall(js):
        if (ranges := _decode_ranges(cand, len(sets))) is not None:
            break
    else:
        return {}
    covered: dict[int, list[tuple[int, int]]] = {}
    start = 0
    for end, value in zip(*ranges, strict=True):
        for i in sets[value]:
            spans = covered.setdefault(i, [])
            if spans and spans[-1][1] == start - 1:
                spans[-1] = (spans[-1][0], end - 1)
            else:
                spans.append((start, end - 1))
        start = end
    return {url: (name, tuple(covered.get(i, ()))) for i, (name, url) in enumerate(fonts)}


def code_points(ranges: Iterable[tuple[int, int]]) -> set[int]:
    return {c for a, b in ranges for c in range(a, b + 1)}


def has_brotli() -> bool:
    """fontTools writes woff2 only with the brotli package."""
    try:
        import brotli  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def media_type(font: bytes) -> str:
    return "font/woff2" if font[:4] == b"wOF2" else "font/otf" if font[:4] == b"OTTO" else "font/ttf"


@functools.lru_cache(maxsize=64)
def empty_font(name: str) -> bytes:
    """A valid font without a glyph but .notdef: the answer where nothing here covers a slice
    (Flutter takes it as downloaded and stops asking; the characters stay boxes)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef"])
    fb.setupCharacterMap({})
    fb.setupGlyf({".notdef": TTGlyphPen(None).glyph()})
    fb.setupHorizontalMetrics({".notdef": (500, 0)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": name[:60], "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    buf = io.BytesIO()
    fb.save(buf)
    return buf.getvalue()


class FallbackFonts:
    """The answers to Flutter's fallback font requests: each slice cut from the font on this
    machine that covers most of it, made once into `cache_dir` (a file per slice, keyed by the
    source font's path, size and mtime, the slice and fontTools' version) and read from there."""

    def __init__(self, client_js: Path | None, cache_dir: Path | None, found: dict[str, Path],
                 extra: Iterable[Path] = ()) -> None:
        self.client_js = client_js
        self.dir = cache_dir / "fallback-fonts" if cache_dir is not None else None
        self.found = dict(found)
        self.sources = list(dict.fromkeys([*self.found.values(), *extra]))
        self.flavor = "woff2" if has_brotli() else None
        self._slices: dict[str, tuple[str, tuple[tuple[int, int], ...]]] | None = None
        self._cmaps: dict[Path, frozenset[int]] = {}
        self._lock = threading.Lock()
        self._making: dict[str, threading.Lock] = {}
        self._kept: dict[str, bytes] = {}  # slices that could not be written to the cache folder

    def slices(self) -> dict[str, tuple[str, tuple[tuple[int, int], ...]]]:
        """Flutter's table (read once)."""
        with self._lock:
            if self._slices is None:
                try:
                    js = self.client_js.read_text("utf-8", "replace") if self.client_js else ""
                except OSError:
                    js = ""
                self._slices = flutter_slices(js)
            return self._slices

    def cmap(self, f: Path) -> frozenset[int]:
        if f not in self._cmaps:
            from fontTools.ttLib import TTFont
            try:
                with TTFont(str(f), lazy=True) as font:
                    self._cmaps[f] = frozenset(font.getBestCmap() or ())
            except Exception:  # noqa: BLE001 - a file that is no font covers nothing
                self._cmaps[f] = frozenset()
        return self._cmaps[f]

    def source(self, family: str, wanted: set[int]) -> tuple[Path | None, list[int]]:
        """The font to cut a slice of `family` from: the family's own file if it covers any of
        the slice, else the font here that covers most of it; and the code points it covers."""
        own = self.found.get(family)
        best: tuple[Path | None, set[int]] = (None, set())
        for f in ([own] if own else []) + [s for s in self.sources if s != own]:
            got = wanted & self.cmap(f)
            if got and f == own:
                return f, sorted(got)
            if len(got) > len(best[1]):
                best = (f, got)
        return best[0], sorted(best[1])

    def answer(self, rel: str) -> bytes | None:
        """The font for a path Flutter asks for (below the web root, `assets/fonts/…`): its
        slice's glyphs, or an empty font where nothing here covers it. None for a URL that is
        not in Flutter's table while a whole font of its family is here (the caller sends that)."""
        family = asked_family(rel) or "font"
        try:
            return self._answer(rel, family)
        except Exception:  # noqa: BLE001 - a font that cannot be cut: still a font, or Flutter asks forever
            return empty_font(family)

    def _answer(self, rel: str, family: str) -> bytes | None:
        url = rel.removeprefix("assets/fonts/")
        entry = self.slices().get(url) if self.sources else None
        if entry is None:
            return None if family in self.found else empty_font(family)
        name, ranges = entry
        with self._lock:
            src, cps = self.source(family, code_points(ranges))
        if src is None:
            return empty_font(name)
        try:
            st = src.stat()
        except OSError:
            return empty_font(name)
        from fontTools import version as fonttools_version

        made = f"{SLICES_RULES}\0{url}\0{src}\0{st.st_size}\0{st.st_mtime_ns}\0{fonttools_version}\0{self.flavor}"
        key = hashlib.sha256(made.encode()).hexdigest()[:24]
        suffix = ".woff2" if self.flavor else ".ttf"
        return self._cached(f"{key}-{family}{suffix}", lambda: self.cut(src, cps))

    def _cached(self, name: str, make: Callable[[], bytes]) -> bytes:
        path = self.dir / name if self.dir is not None else None
        with self._lock:
            lock = self._making.setdefault(name, threading.Lock())
        with lock:  # one cut per slice, however many phones ask at once
            if name in self._kept:
                return self._kept[name]
            if path is not None:
                try:
                    return path.read_bytes()
                except OSError:
                    pass
            data = make()
            try:
                if path is None:
                    raise OSError("no cache folder")
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
                tmp.write_bytes(data)
                os.replace(tmp, path)
            except OSError:  # kept in memory instead (a few, a slice is ≤ 1 MB): never cut twice
                if len(self._kept) < 32:
                    self._kept[name] = data
            return data

    def cut(self, src: Path, cps: list[int]) -> bytes:
        """fontTools' subset of `src` to these code points (and what its layout reaches from them:
        an emoji's skin tones, ZWJ sequences and flags are ligatures), without hinting."""
        from fontTools import subset

        opts = subset.Options()
        opts.layout_features = ["*"]
        opts.hinting = False
        opts.notdef_outline = True
        opts.ignore_missing_unicodes = True
        opts.flavor = self.flavor
        font = subset.load_font(str(src), opts)
        try:
            sub = subset.Subsetter(opts)
            sub.populate(unicodes=cps)
            sub.subset(font)
            buf = io.BytesIO()
            subset.save_font(font, buf, opts)
            return buf.getvalue()
        finally:
            font.close()
