"""Card faces, drawn with Pillow from the `Face` parameters in decks.py: the registry of
renderers and the pieces every game's cards share; a game's own renderers live in its folder
(companion/games/<id>/printing.py).

Every renderer gets a `Canvas` (card + bleed) and the face's parameters, and paints the
whole canvas: backgrounds run into the bleed, text and icons stay inside the safe area
(3 mm inside the cut line) and shrink to fit. Names are generic (PLAN, VOTE, ROMAN, ...):
no game logos, no borrowed artwork.

Texts come from the message catalog (keys "print.*" of the platform's, "<id>.print.*" of the game's) in the face's
`lang` ("en" when not given); colour names are English ids translated with "print.colour.*".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.i18n import t
from companion.printing import art
from companion.printing.art import INK, PAPER, WHITE, Canvas, mix, rgb, text_on
from companion.printing.fonts import big_glyph, fit_text, font

Renderer = Callable[..., None]
RENDERERS: dict[str, Renderer] = {}


def renderer(name: str) -> Callable[[Renderer], Renderer]:
    def wrap(fn: Renderer) -> Renderer:
        RENDERERS[name] = fn
        return fn
    return wrap


def render_face(name: str, params: dict[str, Any], w: int, h: int, bleed: int, dpi: int,
                saver: bool = False) -> Canvas:
    """Paint face `name`. `saver`: the ink-saving variant (light tints and outlines, no full-colour
    frames or backs). A game's renderers ("<id>.front") live in its printing module
    (companion/games/<id>/printing.py), imported on first use (also in a worker process)."""
    if name not in RENDERERS:
        _load_game_renderers()
    c = Canvas(w, h, bleed, dpi)
    c.saver = saver
    RENDERERS[name](c, **params)
    return c


def _load_game_renderers() -> None:
    from companion.games import specs

    for s in specs().values():
        s.printing_module()


# ---- shared pieces -------------------------------------------------------------------------

def colour_name(lang: str, name: str) -> str:
    """A colour id ("green") in capitals in `lang` ("GRÜN")."""
    return t(lang, f"print.colour.{name}").upper()


def frame(c: Canvas, colour: tuple[int, int, int], border_mm: float = 3.2, radius_mm: float = 3.0,
          inner: tuple[int, int, int] = PAPER) -> tuple[int, int, int, int]:
    """Colour to the bleed edge, a light rounded panel inside. Returns the panel box.
    Ink saver: white, the panel outlined in the colour."""
    box = c.inset(border_mm)
    if c.saver:
        c.draw.rectangle(c.full, fill=WHITE)
        art.rounded(c.draw, box, c.u(radius_mm), fill=WHITE, outline=colour, width=max(2, c.u(0.6)))
        return box
    c.draw.rectangle(c.full, fill=colour)
    light_border(c, colour)
    box = c.inset(border_mm)
    art.rounded(c.draw, box, c.u(radius_mm), fill=inner, outline=mix(colour, INK, 0.35), width=max(2, c.u(0.35)))
    return box


def light_border(c: Canvas, colour: tuple[int, int, int]) -> None:
    """A pale colour (the white player) gets a dark line just inside the cut, so its cards read
    as a set and not as blank paper."""
    r, g, b = colour
    if 0.299 * r + 0.587 * g + 0.114 * b > 200:
        art.rounded(c.draw, c.inset(1.2), c.u(2.5), outline=mix(colour, INK, 0.75), width=max(2, c.u(0.6)))


def shape_badge(c: Canvas, name: str | None, cx: int, cy: int, size_mm: float) -> None:
    """The colour's shape code (art.COLOUR_SHAPES), white with a dark outline: readable at arm's
    length whatever colours the eye confuses."""
    if not name:
        return
    h = c.u(size_mm) // 2
    art.colour_shape(c.draw, (cx - h, cy - h, cx + h, cy + h), name, fill=WHITE, outline=INK,
                     width=max(2, c.u(0.45)))


def shape_corners(c: Canvas, name: str | None, box: tuple[int, int, int, int], size_mm: float,
                  pad_mm: float = 1.6) -> None:
    """The shape code in the top-right and bottom-left corners of box (the index takes the others)."""
    x0, y0, x1, y1 = box
    h = c.u(size_mm) // 2 + c.u(pad_mm)
    shape_badge(c, name, x1 - h, y0 + h, size_mm)
    shape_badge(c, name, x0 + h, y1 - h, size_mm)


def corner_index(c: Canvas, text: str, fill: object, box: tuple[int, int, int, int], size_mm: float = 5.0,
                 both: bool = True) -> None:
    """Small index in the top-left corner of box (and rotated in the bottom-right) for fanned hands."""
    from PIL import Image, ImageDraw

    x0, y0, x1, y1 = box
    pad = c.u(1.8)
    f = font("bold", c.u(size_mm))
    left, t, r, b = c.draw.textbbox((0, 0), text, font=f)
    tile = Image.new("RGBA", (r - left + 2, b - t + 2), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((-left + 1, -t + 1), text, font=f, fill=fill)  # type: ignore[arg-type]
    c.img.paste(tile, (x0 + pad, y0 + pad), tile)
    if both:
        rot = tile.rotate(180)
        c.img.paste(rot, (x1 - pad - rot.width, y1 - pad - rot.height), rot)


# The edge zone of every card back: plain paper white from the bleed edge to this far inside the
# cut line, the same on every back of every deck. A cut 1 mm off plus a printer that shifts the
# back side by 2 mm shows only more or less of this white band (the same on every card of the
# sheet), never a sliver of a neighbour's colour: no face-down card can be told by its edge.
# (Unprinted bleed near the paper edge is white too.)
BACK_EDGE_MM = 4.5
# The fronts' edge zone, painted by the engine over every rectangular front on a sheet where cards
# touch (or their outer bleed is cut short): white from the bleed edge to this far inside the cut
# line. Cards touch, so there is no room for bleed between them; a cut up to this far off shows a
# slightly wider or narrower white border – the same on every card – never a sliver of the
# neighbour's colour (nor unprinted paper beside a colour edge).
FRONT_EDGE_MM = 1.5


def back_pattern(c: Canvas, colour: tuple[int, int, int], title: str, subtitle: str,
                 icon: Callable[..., None] | None, shape: str | None = None) -> None:
    """A card back: a white edge zone (BACK_EDGE_MM), inside it a colour panel with stripes, a light
    medallion with an icon, a title."""
    from PIL import Image, ImageDraw

    c.draw.rectangle(c.full, fill=WHITE)
    panel = c.inset(BACK_EDGE_MM)
    field = Canvas(c.w, c.h, c.b, c.dpi, background=mix(colour, WHITE, 0.86) if c.saver else colour)
    if not c.saver:
        art.stripes(field, mix(colour, INK if sum(colour) > 300 else WHITE, 0.07), step_mm=9, width_mm=4)
    mask = Image.new("L", c.img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(panel, radius=c.u(2.5), fill=255)
    c.img.paste(field.img, (0, 0), mask)
    r_, g_, b_ = colour
    pale = 0.299 * r_ + 0.587 * g_ + 0.114 * b_ > 200
    art.rounded(c.draw, panel, c.u(2.5), outline=mix(colour, INK, 0.75 if pale else 0.35),
                width=max(2, c.u(0.6 if pale or c.saver else 0.35)))
    inner = c.inset(1.5, panel)
    art.rounded(c.draw, inner, c.u(2), outline=mix(colour, PAPER, 0.7), width=max(2, c.u(0.5)))
    if shape:  # the colour's shape code in the two top corners
        size = 6.0 if c.w >= c.u(55) else 5.0
        h = c.u(size) // 2 + c.u(1.5)
        shape_badge(c, shape, inner[0] + h, inner[1] + h, size)
        shape_badge(c, shape, inner[2] - h, inner[1] + h, size)
    r = int(min(c.w, c.h) * 0.32)
    cx, cy = c.cx, c.b + int(c.h * 0.42)
    c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE if c.saver else PAPER, outline=mix(colour, INK, 0.4),
                   width=max(2, c.u(0.6)))
    if icon:
        ir = int(r * 0.62)
        icon(c.draw, (cx - ir, cy - ir, cx + ir, cy + ir), mix(colour, WHITE, 0.6) if c.saver else colour, INK)
    ink = mix(colour, INK, 0.55) if c.saver else text_on(colour)
    band_top = cy + r + c.u(2.5)
    fit_text(c.draw, (inner[0] + c.u(2), band_top, inner[2] - c.u(2), band_top + c.u(8.5)), title,
             kind="serif", max_size=c.u(8), fill=ink)
    if subtitle:
        fit_text(c.draw, (inner[0] + c.u(2), band_top + c.u(9), inner[2] - c.u(2),
                          min(band_top + c.u(13.5), inner[3] - c.u(1.5))),
                 subtitle, kind="bold", max_size=c.u(4.5), fill=ink)


def track_cells(c: Canvas, box: tuple[int, int, int, int], lo: int, hi: int, colour: tuple[int, int, int],
                mark: int | None) -> None:
    """A row of the area's spaces, `mark` filled (all filled when mark is None)."""
    x0, y0, x1, y1 = box
    n = hi - lo + 1
    cw = (x1 - x0) // n
    ox = x0 + (x1 - x0 - cw * n) // 2
    lw = max(1, c.u(0.3))
    f = font("bold", int((y1 - y0) * 0.5))
    for k in range(n):
        cell = (ox + k * cw, y0, ox + (k + 1) * cw, y1)
        on = mark is None or lo + k == mark
        c.draw.rectangle(cell, fill=colour if on else mix(colour, PAPER, 0.85), outline=INK, width=lw)
        if on and mark is not None:
            c.draw.text(((cell[0] + cell[2]) / 2, (cell[1] + cell[3]) / 2), str(lo + k), font=f,
                        fill=text_on(colour), anchor="mm")


def header(c: Canvas, colour: tuple[int, int, int], left: str, right: str, height_mm: float = 13) -> int:
    """Colour band across the top (into the bleed). Returns its bottom y."""
    bottom = c.b + c.u(height_mm)
    band = mix(colour, WHITE, 0.8) if c.saver else colour
    c.draw.rectangle((0, 0, c.img.width, bottom), fill=band)
    c.draw.line([(0, bottom), (c.img.width, bottom)], fill=mix(colour, INK, 0.45), width=max(2, c.u(0.5)))
    ink = mix(colour, INK, 0.5) if c.saver else text_on(colour)
    pad = c.u(4)
    fit_text(c.draw, (c.b + pad, c.b + c.u(2), c.cx - c.u(6), bottom - c.u(1.5)), left, kind="serif",
             max_size=c.u(7.5), fill=ink, align="left")
    fit_text(c.draw, (c.cx - c.u(6), c.b + c.u(3), c.b + c.w - pad, bottom - c.u(2.5)), right, kind="bold",
             max_size=c.u(4.2), fill=ink, align="right")
    return bottom


def footer(c: Canvas, colour: tuple[int, int, int], height_mm: float = 5, shape: str | None = None) -> int:
    top = c.b + c.h - c.u(height_mm)
    c.draw.rectangle((0, top, c.img.width, c.img.height), fill=mix(colour, WHITE, 0.8) if c.saver else colour)
    if shape:  # centred in the part above the fronts' white edge zone
        visible = height_mm - FRONT_EDGE_MM
        size = max(5.0, visible - 1.0)
        for x in (c.b + c.u(4) + c.u(size) // 2, c.cx, c.b + c.w - c.u(4) - c.u(size) // 2):
            shape_badge(c, shape, x, top + c.u(visible) // 2, size)
    return top


# ---- markers (round tokens for the board) -----------------------------------------------

@renderer("marker.token")
def marker_token(c: Canvas, label: str, caption: str, colour: str, name: str | None = None,
                 lang: str = "en") -> None:
    """A round marker: the colour to the bleed, a light disc, a big label, its caption and – for a
    player's piece – the colour's shape code. `caption` is a catalog key ("" for none)."""
    col = rgb(colour)
    c.draw.rectangle(c.full, fill=mix(col, WHITE, 0.82) if c.saver else col)
    r = c.w / 2
    cx, cy = c.cx, c.cy
    inner = r * 0.8
    c.draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=WHITE if c.saver else PAPER,
                   outline=mix(col, INK, 0.4),
                   width=max(2, c.u(0.4)))
    top = cy - inner * 0.75
    if name:
        shape_badge(c, name, int(cx), int(cy - inner * 0.5), min(6.0, c.w / c.u(1) * 0.28))
        top = cy - inner * 0.2
    text = t(lang, caption) if caption else ""
    glyph_bottom = cy + inner * (0.35 if text else 0.6)
    big_glyph(c.draw, (int(cx - inner * 0.6), int(top), int(cx + inner * 0.6), int(glyph_bottom)), label,
              kind="serif", fill=mix(col, WHITE, 0.5) if c.saver else mix(col, INK, 0.3), stroke=max(2, c.u(0.35)),
              stroke_fill=INK)
    if text:
        fit_text(c.draw, (int(cx - inner * 0.7), int(glyph_bottom + c.u(0.5)), int(cx + inner * 0.7),
                          int(cy + inner * 0.7)), text, kind="bold", max_size=c.u(2.6), fill=INK)


# ---- join card -----------------------------------------------------------------------------

@renderer("join.card")
def join_card(c: Canvas, code: str, url: str, title: str | None = None, lang: str = "en") -> None:
    import qrcode
    from PIL import Image

    col = rgb("#1f4e79")
    panel = frame(c, col, border_mm=3, radius_mm=4, inner=WHITE)
    px0, py0, px1, py1 = panel
    fit_text(c.draw, (px0 + c.u(5), py0 + c.u(3), px1 - c.u(5), py0 + c.u(13)),
             title or t(lang, "print.join.title"), kind="serif",
             max_size=c.u(8), fill=col)
    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(url)
    qr.make(fit=True)
    modules = qr.modules_count + 4
    avail = min(px1 - px0 - c.u(12), (py1 - py0) - c.u(46))
    scale = max(1, avail // modules)
    img = qr.make_image(fill_color="black", back_color="white").get_image().convert("RGB")
    img = img.resize((modules * scale, modules * scale), Image.NEAREST)
    qx, qy = c.cx - img.width // 2, py0 + c.u(15)
    c.img.paste(img, (qx, qy))
    y = qy + img.height + c.u(2)
    fit_text(c.draw, (px0 + c.u(5), y, px1 - c.u(5), y + c.u(5)), t(lang, "print.join.code"), kind="sans",
             max_size=c.u(4), fill=INK)
    big_glyph(c.draw, (px0 + c.u(8), y + c.u(5.5), px1 - c.u(8), y + c.u(19)), code, kind="bold", fill=INK)
    fit_text(c.draw, (px0 + c.u(4), y + c.u(20.5), px1 - c.u(4), py1 - c.u(3)),
             t(lang, "print.join.scan", url=url), kind="sans", max_size=c.u(3.6), fill=INK)
