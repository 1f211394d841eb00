"""The bundled font (DejaVu, see companion/assets/fonts/LICENSE-DejaVu.txt) and text that fits.

`fit_text` finds the largest size at which a text, wrapped on spaces, fits its box: text
shrinks, it never overflows the card.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

from companion import resources

# package data (companion/resources.py): an installed wheel prints with the same font as the source tree
FONT_DIR = resources.path("assets/fonts")
FONTS = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "serif": "DejaVuSerif-Bold.ttf",
}


@lru_cache(maxsize=512)
def font(kind: str, size: int) -> ImageFont.FreeTypeFont:
    path = FONT_DIR / FONTS[kind]
    if not path.is_file():  # Pillow would quietly take a system font of that name (or none on macOS)
        raise FileNotFoundError(f"the card font is missing from the package: {path}")
    return ImageFont.truetype(str(path), max(1, int(size)))


def _wrap(draw: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, max_w: int) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split(" ")
        cur = ""
        for w in words:
            trial = f"{cur} {w}".strip()
            if not cur or draw.textlength(trial, font=f) <= max_w:
                cur = trial
            else:
                lines.append(cur)
                cur = w
        lines.append(cur)
    return lines


def measure(draw: ImageDraw.ImageDraw, text: str, kind: str, size: int, max_w: int,
            spacing: float = 0.15) -> tuple[list[str], int, int]:
    """Wrapped lines, total width and height (px) of `text` at `size`."""
    f = font(kind, size)
    lines = _wrap(draw, text, f, max_w)
    widths = [draw.textlength(line, font=f) for line in lines]
    asc, desc = f.getmetrics()
    line_h = asc + desc
    height = line_h * len(lines) + int(spacing * size) * (len(lines) - 1)
    return lines, int(max(widths) if widths else 0), height


def fit_size(draw: ImageDraw.ImageDraw, text: str, kind: str, box_w: int, box_h: int,
             max_size: int, min_size: int = 4) -> int:
    """Largest size <= max_size at which `text` (wrapped) fits in box_w x box_h."""
    lo, hi = min_size, max(min_size, max_size)
    if _fits(draw, text, kind, hi, box_w, box_h):
        return hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _fits(draw, text, kind, mid, box_w, box_h):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _fits(draw: ImageDraw.ImageDraw, text: str, kind: str, size: int, w: int, h: int) -> bool:
    _, tw, th = measure(draw, text, kind, size, w)
    return tw <= w and th <= h


def fit_text(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, *,
             kind: str = "sans", max_size: int = 60, fill: object = "black",
             align: str = "center", valign: str = "middle") -> tuple[int, tuple[int, int, int, int]]:
    """Draw `text` inside box (x0, y0, x1, y1), shrunk to fit. Returns (size, drawn bbox)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    size = fit_size(draw, text, kind, bw, bh, max_size)
    f = font(kind, size)
    lines, _tw, th = measure(draw, text, kind, size, bw)
    asc, desc = f.getmetrics()
    line_h = asc + desc
    step = line_h + int(0.15 * size)
    y = y0 + {"top": 0, "middle": (bh - th) // 2, "bottom": bh - th}[valign]
    top = y
    minx, maxx = x1, x0
    for line in lines:
        lw = draw.textlength(line, font=f)
        x = x0 + {"left": 0, "center": (bw - lw) / 2, "right": bw - lw}[align]
        draw.text((x, y), line, font=f, fill=fill)  # type: ignore[arg-type]
        minx, maxx = min(minx, int(x)), max(maxx, int(x + lw))
        y += step
    return size, (minx, top, maxx, top + th)


def big_glyph(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, *,
              kind: str = "serif", fill: object = "black", stroke: int = 0,
              stroke_fill: object = None, max_size: int = 1000) -> int:
    """One line of text as large as fits, centred on its ink (not on the font's line box)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    lo, hi = 4, max_size
    while lo < hi:
        mid = (lo + hi + 1) // 2
        left, t, r, b = draw.textbbox((0, 0), text, font=font(kind, mid), stroke_width=stroke)
        if r - left <= bw and b - t <= bh:
            lo = mid
        else:
            hi = mid - 1
    f = font(kind, lo)
    left, t, r, b = draw.textbbox((0, 0), text, font=f, stroke_width=stroke)
    x = x0 + (bw - (r - left)) / 2 - left
    y = y0 + (bh - (b - t)) / 2 - t
    draw.text((x, y), text, font=f, fill=fill, stroke_width=stroke, stroke_fill=stroke_fill)  # type: ignore[arg-type]
    return lo
