"""Draw the app's own icon (Pillow, original artwork) into the files a browser asks for.

Flet's web client comes with Flet's logo as favicon, home-screen icons and the picture a phone
shows while the client loads. This draws ours instead – two fanned voting cards and a wax seal
on the app's brown – and writes them where the server serves them in place of Flet's
(`companion/assets/web/` is the first static root, see companion/app.py):

    .venv/bin/python tools/draw_icons.py      # writes companion/assets/web/favicon.png and icons/*.png

Deterministic: the same Pillow gives the same bytes (tests/test_own_face.py checks the files
are what this script draws).
"""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "companion" / "assets" / "web"
BROWN = (141, 85, 36)  # the app's theme seed, #8d5524
CREAM = (250, 240, 226)
CARD_EDGE = (120, 70, 28)
BACK_CARD = (236, 214, 186)
SEAL = (176, 42, 38)
SEAL_RING = (212, 86, 70)
SS = 4  # drawn at 4x, then scaled down: smooth edges


def _card(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float, angle: float,
          fill: tuple[int, int, int], edge: tuple[int, int, int], width: float) -> None:
    a = math.radians(angle)
    pts = []
    for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        pts.append((cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)))
    draw.polygon(pts, fill=fill, outline=edge, width=max(1, round(width)))


def draw(size: int, background: bool = True, maskable: bool = False) -> Image.Image:
    """The icon at `size` px: on a rounded brown square (background), full-bleed for maskable
    icons (the content inside the central 80 % circle), or on transparency."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if maskable:
        d.rectangle((0, 0, s, s), fill=BROWN)
    elif background:
        d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.22, fill=BROWN)
    scale = 0.62 if maskable else (0.78 if background else 0.95)
    u = s * scale  # the drawing's box
    ox, oy = (s - u) / 2, (s - u) / 2
    w, h = u * 0.50, u * 0.68
    edge = max(1.0, u * 0.018)
    _card(d, ox + u * 0.40, oy + u * 0.50, w, h, -14, BACK_CARD, CARD_EDGE, edge)
    _card(d, ox + u * 0.58, oy + u * 0.50, w, h, 9, CREAM, CARD_EDGE, edge)
    # three lines of "writing" on the front card, then the seal over its lower half
    a = math.radians(9)
    for i, frac in enumerate((0.30, 0.42, 0.54)):
        length = w * (0.62 if i < 2 else 0.40)
        x0, y0 = -w * 0.31, -h / 2 + h * frac
        p0 = (ox + u * 0.58 + x0 * math.cos(a) - y0 * math.sin(a), oy + u * 0.50 + x0 * math.sin(a) + y0 * math.cos(a))
        x1 = x0 + length
        p1 = (ox + u * 0.58 + x1 * math.cos(a) - y0 * math.sin(a), oy + u * 0.50 + x1 * math.sin(a) + y0 * math.cos(a))
        d.line((p0, p1), fill=CARD_EDGE, width=max(1, round(u * 0.025)))
    r = u * 0.13
    cx, cy = ox + u * 0.60, oy + u * 0.70
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=SEAL)
    d.ellipse((cx - r * 0.62, cy - r * 0.62, cx + r * 0.62, cy + r * 0.62), outline=SEAL_RING,
              width=max(1, round(r * 0.16)))
    out = img.resize((size, size), Image.Resampling.LANCZOS)
    return out.convert("RGB") if maskable else out


FILES: dict[str, tuple[int, bool, bool]] = {  # path → (size, background, maskable)
    "favicon.png": (32, True, False),
    "icons/icon-192.png": (192, True, False),
    "icons/icon-512.png": (512, True, False),
    "icons/icon-maskable-192.png": (192, True, True),
    "icons/icon-maskable-512.png": (512, True, True),
    "icons/apple-touch-icon-192.png": (192, True, True),  # iOS rounds the corners itself
    "icons/loading-animation.png": (192, True, False),  # shown at 96 px by the page (companion/ui/boot.py)
}


def render(path: str) -> bytes:
    size, background, maskable = FILES[path]
    buf = io.BytesIO()
    draw(size, background, maskable).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def main() -> None:
    for path in FILES:
        target = OUT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(render(path))
        print(f"{target.relative_to(ROOT)}: {target.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
