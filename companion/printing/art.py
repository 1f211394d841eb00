"""Drawing helpers and simple original icons (Pillow only, no images from anywhere else).

A `Canvas` is one card face including its bleed: `cut` is the cut box, `safe` a box inset
from it where text and icons stay, and `u(mm)` converts millimetres to pixels.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from companion.printing.units import mm_to_px

INK = (34, 30, 28)
PAPER = (250, 246, 236)
WHITE = (255, 255, 255)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def text_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Ink or white, whichever reads better on `colour`."""
    r, g, b = colour
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


class Canvas:
    def __init__(self, w: int, h: int, bleed: int, dpi: int, background: tuple[int, int, int] = PAPER):
        self.w, self.h, self.b, self.dpi = w, h, bleed, dpi
        self.img = Image.new("RGB", (w + 2 * bleed, h + 2 * bleed), background)
        self.draw = ImageDraw.Draw(self.img)
        self.cut = (bleed, bleed, bleed + w, bleed + h)
        self.full = (0, 0, w + 2 * bleed, h + 2 * bleed)
        self.saver = False  # the ink-saving variant: light tints and outlines instead of full colour

    def u(self, mm: float) -> int:
        return mm_to_px(mm, self.dpi)

    def inset(self, mm: float, box: tuple[int, int, int, int] | None = None) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = box or self.cut
        d = self.u(mm)
        return x0 + d, y0 + d, x1 - d, y1 - d

    @property
    def cx(self) -> int:
        return self.b + self.w // 2

    @property
    def cy(self) -> int:
        return self.b + self.h // 2


def rounded(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], r: int, fill: object = None,
            outline: object = None, width: int = 1) -> None:
    draw.rounded_rectangle(box, radius=r, fill=fill, outline=outline, width=width)  # type: ignore[arg-type]


def stripes(c: Canvas, colour: tuple[int, int, int], step_mm: float = 4.0, width_mm: float = 1.2) -> None:
    """Diagonal stripes over the whole face (bleed included)."""
    W, H = c.img.size
    step, wd = c.u(step_mm), c.u(width_mm)
    for k in range(-H, W + H, step):
        c.draw.line([(k, 0), (k + H, H)], fill=colour, width=wd)


def dots_row(c: Canvas, cx: int, cy: int, n: int, r: int, fill: object, gap: int | None = None) -> None:
    gap = gap if gap is not None else r
    total = n * 2 * r + (n - 1) * gap
    x = cx - total // 2 + r
    for _ in range(n):
        c.draw.ellipse((x - r, cy - r, x + r, cy + r), fill=fill)  # type: ignore[arg-type]
        x += 2 * r + gap


# ---- icons: each draws into the box (x0, y0, x1, y1), keeping its aspect -------------------

def _square(box: tuple[int, int, int, int]) -> tuple[float, float, float]:
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    return x0 + (x1 - x0 - s) / 2, y0 + (y1 - y0 - s) / 2, s


def icon_helmet(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, line: object) -> None:
    """A crested soldier's helmet in profile-free front view: dome, crest, cheek guards."""
    x, y, s = _square(box)
    lw = max(2, int(s * 0.035))
    # crest (a brush of bristles on a ridge)
    draw.chord((x + s * 0.18, y + s * 0.02, x + s * 0.82, y + s * 0.5), 180, 360, fill=line)
    for i in range(9):
        bx = x + s * (0.22 + i * 0.07)
        draw.line([(bx, y + s * 0.22), (bx + s * 0.01, y + s * 0.06)], fill=fill, width=max(1, lw // 2))
    # dome
    draw.chord((x + s * 0.16, y + s * 0.22, x + s * 0.84, y + s * 0.86), 180, 360, fill=fill, outline=line, width=lw)
    # brow band
    draw.rectangle((x + s * 0.14, y + s * 0.52, x + s * 0.86, y + s * 0.6), fill=line)
    # cheek guards
    for side in (0, 1):
        sx = x + s * (0.16 if side == 0 else 0.64)
        draw.polygon([(sx, y + s * 0.6), (sx + s * 0.2, y + s * 0.6), (sx + s * 0.16, y + s * 0.92),
                      (sx + s * 0.04, y + s * 0.92)], fill=fill, outline=line, width=lw)
    # neck guard line
    draw.line([(x + s * 0.36, y + s * 0.66), (x + s * 0.64, y + s * 0.66)], fill=line, width=lw)


def icon_shield(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, line: object) -> None:
    """A round shield with a boss and rim studs."""
    x, y, s = _square(box)
    lw = max(2, int(s * 0.04))
    draw.ellipse((x, y, x + s, y + s), fill=fill, outline=line, width=lw)
    draw.ellipse((x + s * 0.1, y + s * 0.1, x + s * 0.9, y + s * 0.9), outline=line, width=max(1, lw // 2))
    draw.ellipse((x + s * 0.36, y + s * 0.36, x + s * 0.64, y + s * 0.64), fill=line)
    draw.ellipse((x + s * 0.43, y + s * 0.43, x + s * 0.52, y + s * 0.52), fill=fill)
    for k in range(8):
        a = k * math.pi / 4
        cx, cy, r = x + s / 2 + math.cos(a) * s * 0.45, y + s / 2 + math.sin(a) * s * 0.45, s * 0.025
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=line)
    for k in range(4):
        a = k * math.pi / 2 + math.pi / 4
        draw.line([(x + s / 2 + math.cos(a) * s * 0.16, y + s / 2 + math.sin(a) * s * 0.16),
                   (x + s / 2 + math.cos(a) * s * 0.38, y + s / 2 + math.sin(a) * s * 0.38)], fill=line, width=lw)


def icon_ballot(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, line: object) -> None:
    """A ballot box with a card going in."""
    x, y, s = _square(box)
    lw = max(2, int(s * 0.04))
    draw.polygon([(x + s * 0.3, y + s * 0.05), (x + s * 0.7, y + s * 0.05), (x + s * 0.7, y + s * 0.48),
                  (x + s * 0.3, y + s * 0.48)], fill=fill, outline=line, width=lw)
    draw.line([(x + s * 0.38, y + s * 0.17), (x + s * 0.62, y + s * 0.17)], fill=line, width=lw)
    draw.line([(x + s * 0.38, y + s * 0.29), (x + s * 0.56, y + s * 0.29)], fill=line, width=lw)
    draw.rectangle((x + s * 0.1, y + s * 0.42, x + s * 0.9, y + s * 0.95), fill=line)
    draw.rectangle((x + s * 0.25, y + s * 0.46, x + s * 0.75, y + s * 0.52), fill=fill)


def icon_person(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, line: object) -> None:
    x, y, s = _square(box)
    lw = max(2, int(s * 0.04))
    draw.ellipse((x + s * 0.33, y + s * 0.05, x + s * 0.67, y + s * 0.39), fill=fill, outline=line, width=lw)
    draw.chord((x + s * 0.12, y + s * 0.44, x + s * 0.88, y + s * 1.35), 180, 360, fill=fill, outline=line, width=lw)


def icon_temple(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, line: object) -> None:
    """A small temple: pediment, four columns, steps."""
    x, y, s = _square(box)
    lw = max(2, int(s * 0.04))
    draw.polygon([(x + s * 0.05, y + s * 0.32), (x + s * 0.5, y + s * 0.06), (x + s * 0.95, y + s * 0.32)],
                 fill=fill, outline=line, width=lw)
    draw.rectangle((x + s * 0.08, y + s * 0.32, x + s * 0.92, y + s * 0.4), fill=line)
    for k in range(4):
        cx = x + s * (0.2 + k * 0.2)
        draw.rectangle((cx - s * 0.05, y + s * 0.42, cx + s * 0.05, y + s * 0.8), fill=fill, outline=line, width=lw)
    draw.rectangle((x + s * 0.06, y + s * 0.82, x + s * 0.94, y + s * 0.88), fill=line)
    draw.rectangle((x + s * 0.02, y + s * 0.9, x + s * 0.98, y + s * 0.96), fill=line)


def icon_coin(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, line: object,
              label: str = "", font: object = None) -> None:
    x, y, s = _square(box)
    lw = max(2, int(s * 0.05))
    draw.ellipse((x, y, x + s, y + s), fill=fill, outline=line, width=lw)
    draw.ellipse((x + s * 0.12, y + s * 0.12, x + s * 0.88, y + s * 0.88), outline=line, width=max(1, lw // 2))
    if label and font is not None:
        draw.text((x + s / 2, y + s / 2), label, font=font, fill=line, anchor="mm")  # type: ignore[arg-type]


def icon_arrows(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], line: object) -> None:
    """A double arrow (plus or minus along the track)."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    h = (y1 - y0) / 2
    lw = max(2, int(h * 0.35))
    draw.line([(x0 + h, cy), (x1 - h, cy)], fill=line, width=lw)
    draw.polygon([(x0, cy), (x0 + h * 1.4, cy - h), (x0 + h * 1.4, cy + h)], fill=line)
    draw.polygon([(x1, cy), (x1 - h * 1.4, cy - h), (x1 - h * 1.4, cy + h)], fill=line)


def laurel(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: object, leaves: int = 9,
           gap_deg: float = 50.0) -> None:
    """A laurel wreath: two branches along a circle of radius r, meeting at the bottom,
    open at the top; leaves point along the branch, alternately out and in."""
    lw = max(1, int(r * 0.035))
    span = 180 - gap_deg / 2 - 8
    draw.arc((cx - r, cy - r, cx + r, cy + r), 90, 90 + span + 4, fill=fill, width=lw)  # type: ignore[arg-type]
    draw.arc((cx - r, cy - r, cx + r, cy + r), 90 - span - 4, 90, fill=fill, width=lw)  # type: ignore[arg-type]
    leaf_l, leaf_w = r * 0.34, r * 0.15
    for side in (-1, 1):
        for k in range(leaves):
            a = math.radians(90 - side * (10 + k * span / max(1, leaves - 1)))
            px, py = cx + math.cos(a) * r, cy + math.sin(a) * r
            # tangent towards the top opening
            tx, ty = (math.sin(a), -math.cos(a)) if side == 1 else (-math.sin(a), math.cos(a))
            tilt = math.atan2(ty, tx) + (0.55 if k % 2 == 0 else -0.55) * side
            ux, uy = math.cos(tilt), math.sin(tilt)
            pts = []
            for j in range(13):
                t = j / 12
                along, across = t * leaf_l, math.sin(t * math.pi) * leaf_w / 2
                pts.append((px + ux * along - uy * across, py + uy * along + ux * across))
            for j in range(11, 0, -1):
                t = j / 12
                along, across = t * leaf_l, math.sin(t * math.pi) * leaf_w / 2
                pts.append((px + ux * along + uy * across, py + uy * along - ux * across))
            draw.polygon(pts, fill=fill)  # type: ignore[arg-type]
    # top leaf of each branch
    for side in (-1, 1):
        a = math.radians(90 - side * (span + 8))
        px, py = cx + math.cos(a) * r, cy + math.sin(a) * r
        rr = leaf_w * 0.45
        draw.ellipse((px - rr, py - rr, px + rr, py + rr), fill=fill)  # type: ignore[arg-type]


# ---- colour-blind safe: every colour also has a shape ------------------------------------------
# The second code of every colour (issue 20.5): with red/green or blue/purple confused (deuteranopia),
# the shape still tells them apart. The app's screens should use the same shapes (COLOUR_SHAPES).
COLOUR_SHAPES: dict[str, str] = {
    "red": "triangle", "blue": "square", "green": "circle", "yellow": "diamond", "black": "star",
    "white": "cross", "purple": "hourglass", "orange": "pentagon", "grey": "ring", "brown": "bar",
}


def shape_points(shape: str, box: tuple[int, int, int, int]) -> list[tuple[float, float]]:
    import math

    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0) / 2

    def ring(n: int, rot: float, rad: float = r) -> list[tuple[float, float]]:
        return [(cx + rad * math.cos(rot + 2 * math.pi * k / n), cy + rad * math.sin(rot + 2 * math.pi * k / n))
                for k in range(n)]
    if shape == "triangle":
        return [(cx, cy - r), (cx + r * 0.95, cy + r * 0.8), (cx - r * 0.95, cy + r * 0.8)]
    if shape == "square":
        s = r * 0.85
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
    if shape == "star":
        outer, inner = ring(5, -math.pi / 2), ring(5, -math.pi / 2 + math.pi / 5, r * 0.45)
        return [p for pair in zip(outer, inner, strict=True) for p in pair]
    if shape == "cross":
        a = r * 0.36
        return [(cx - a, cy - r), (cx + a, cy - r), (cx + a, cy - a), (cx + r, cy - a), (cx + r, cy + a),
                (cx + a, cy + a), (cx + a, cy + r), (cx - a, cy + r), (cx - a, cy + a), (cx - r, cy + a),
                (cx - r, cy - a), (cx - a, cy - a)]
    if shape == "hexagon":
        return ring(6, 0)
    if shape == "hourglass":
        return [(cx - r * 0.85, cy - r), (cx + r * 0.85, cy - r), (cx, cy), (cx + r * 0.85, cy + r),
                (cx - r * 0.85, cy + r), (cx, cy)]
    if shape == "pentagon":
        return ring(5, -math.pi / 2)
    if shape == "bar":
        return [(cx - r, cy - r * 0.4), (cx + r, cy - r * 0.4), (cx + r, cy + r * 0.4), (cx - r, cy + r * 0.4)]
    return []  # circle, ring: drawn as ellipses


def colour_shape(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour_name: str,
                 fill: object = WHITE, outline: object = INK, width: int = 2) -> None:
    """The shape code of a colour (COLOUR_SHAPES) inside box: filled, with an outline."""
    shape = COLOUR_SHAPES.get(colour_name, "ring")
    if shape in ("circle", "ring"):
        x0, y0, x1, y1 = box
        r = min(x1 - x0, y1 - y0) / 2 * 0.92
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill if shape == "circle" else None,
                     outline=outline, width=width if shape == "circle" else max(width, int(r * 0.35)))
        return
    draw.polygon(shape_points(shape, box), fill=fill, outline=outline, width=width)  # type: ignore[arg-type]
