"""Turns decks and boards into sheets: page jobs -> page images -> JPEG.

A `PageJob` is plain picklable data (what to draw where, in page pixels); `paint` draws it
into an RGB page image and `encode` makes the JPEG. runner.py runs many jobs in parallel.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from companion import i18n
from companion.printing import board as boards
from companion.printing.art import INK, WHITE, mix
from companion.printing.cards import FRONT_EDGE_MM, render_face
from companion.printing.decks import Board, Deck, Face
from companion.printing.fonts import fit_text, font
from companion.printing.layout import (
    CROP_MARK_WIDTH_MM,
    SAFE_MM,
    DeckLayout,
    LayoutOptions,
    Page,
    layout_cards,
    mirror_slot,
    paper_size,
)
from companion.printing.pdf import PdfImage, indexed_image
from companion.printing.units import mm_to_px

JPEG_QUALITY = 85
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Placed:
    face: Face
    x: int
    y: int
    w: int
    h: int
    bleed: int


@dataclass(frozen=True)
class PageJob:
    kind: str  # "cards" | "board" | "registration" | "blank"
    page_px: tuple[int, int]
    paper_mm: tuple[float, float]
    dpi: int
    placed: tuple[Placed, ...] = ()
    shape: str = "rect"
    marks: tuple[tuple[int, int, int, int], ...] = ()
    fold_line: tuple[int, int, int, int] | None = None
    extra: tuple[tuple[str, Any], ...] = field(default=())
    label: str = ""
    clip: tuple[int, int, int, int] | None = None
    label_box: tuple[int, int, int, int] | None = None  # where the label goes (default: bottom right)
    ink_saver: bool = False  # light tints and outlines instead of full-colour frames and backs


# ---- painting ------------------------------------------------------------------------------

@lru_cache(maxsize=48)
def _face_image(face: Face, w: int, h: int, bleed: int, dpi: int, saver: bool = False) -> Image.Image:
    return render_face(face.renderer, face.kw, w, h, bleed, dpi, saver).img


@lru_cache(maxsize=8)
def _circle_mask(w: int, h: int, bleed: int) -> Image.Image:
    m = Image.new("L", (w + 2 * bleed, h + 2 * bleed), 0)
    ImageDraw.Draw(m).ellipse((0, 0, w + 2 * bleed - 1, h + 2 * bleed - 1), fill=255)
    return m


def paint(job: PageJob) -> Image.Image:
    page = Image.new("RGB", job.page_px, WHITE)
    if job.kind == "cards":
        _paint_cards(page, job)
    elif job.kind == "board":
        extra = dict(job.extra)
        img = boards.board_image(dict(extra["params"]), job.dpi, job.ink_saver)
        boards.paint_tile(page, img, extra["tile"], job.dpi, extra["title"], extra.get("lang", "en"))
    elif job.kind == "registration":
        _paint_registration(page, job)
    elif job.kind == "guide":
        _paint_guide(page, job)
    if job.label:
        d = ImageDraw.Draw(page)
        u = lambda mm: mm_to_px(mm, job.dpi)  # noqa: E731
        box = job.label_box or (u(SAFE_MM), page.height - u(SAFE_MM + 2.2), page.width - u(SAFE_MM),
                                page.height - u(SAFE_MM))
        fit_text(d, box, job.label, kind="sans", max_size=u(2.2), fill=mix(WHITE, INK, 0.6), align="right")
    return page


def _bleed_extents(p: Placed, others: tuple[Placed, ...]) -> tuple[int, int, int, int]:
    """How far (left, top, right, bottom) this card's bleed may run: all of it, except towards a
    neighbour closer than two bleeds, where it stops half-way, so it never covers that card."""
    ext = [p.bleed] * 4
    for q in others:
        if q is p:
            continue
        if q.y < p.y + p.h and p.y < q.y + q.h:  # same row band
            if q.x + q.w <= p.x:
                ext[0] = min(ext[0], (p.x - q.x - q.w) // 2)
            elif q.x >= p.x + p.w:
                ext[2] = min(ext[2], (q.x - p.x - p.w) // 2)
        if q.x < p.x + p.w and p.x < q.x + q.w:  # same column band
            if q.y + q.h <= p.y:
                ext[1] = min(ext[1], (p.y - q.y - q.h) // 2)
            elif q.y >= p.y + p.h:
                ext[3] = min(ext[3], (q.y - p.y - p.h) // 2)
    return ext[0], ext[1], ext[2], ext[3]


def _extents(p: Placed, job: PageJob) -> tuple[int, int, int, int]:
    """How far (left, top, right, bottom) card p's art may run past its cut: its bleed, halfway to a
    neighbour, and within the page's clip."""
    el, et, er, eb = _bleed_extents(p, job.placed)
    if job.clip is not None:
        cx0, cy0, cx1, cy1 = job.clip
        el, et = max(0, min(el, p.x - cx0)), max(0, min(et, p.y - cy0))
        er, eb = max(0, min(er, cx1 - p.x - p.w)), max(0, min(eb, cy1 - p.y - p.h))
    return el, et, er, eb


def _paint_cards(page: Image.Image, job: PageJob) -> None:
    d = ImageDraw.Draw(page)
    edge = mm_to_px(FRONT_EDGE_MM, job.dpi)
    # cards that touch (closer than two edge zones) get a white edge zone, all of them alike – on a
    # sheet with crop marks (without them, the colour edge where two cards meet is the cut line)
    white_edges = job.shape == "rect" and bool(job.marks) and any(min(_bleed_extents(replace(p, bleed=edge), job.placed)) < edge
                                              for p in job.placed)
    for p in job.placed:
        img = _face_image(p.face, p.w, p.h, p.bleed, job.dpi, job.ink_saver)
        if job.shape == "circle":
            page.paste(img, (p.x - p.bleed, p.y - p.bleed), _circle_mask(p.w, p.h, p.bleed))
            continue
        el, et, er, eb = _extents(p, job)
        b = p.bleed
        if white_edges:  # the art from FRONT_EDGE_MM inside the cut; white (unprinted) outside it
            inner = (p.x + edge, p.y + edge, p.x + p.w - edge, p.y + p.h - edge)
            if inner[2] > inner[0] and inner[3] > inner[1]:
                page.paste(img.crop((b + edge, b + edge, b + p.w - edge, b + p.h - edge)), inner[:2])
            continue
        if (el, et, er, eb) == (b, b, b, b):
            page.paste(img, (p.x - b, p.y - b))
        else:
            page.paste(img.crop((b - el, b - et, b + p.w + er, b + p.h + eb)), (p.x - el, p.y - et))
    if job.shape == "circle":  # round tokens: a thin cut circle on the cut line
        lw = max(1, mm_to_px(0.2, job.dpi))
        for p in job.placed:
            d.ellipse((p.x, p.y, p.x + p.w - 1, p.y + p.h - 1), outline=INK, width=lw)
    lw = max(1, mm_to_px(CROP_MARK_WIDTH_MM, job.dpi))
    for x0, y0, x1, y1 in job.marks:
        if x0 == x1:
            d.rectangle((x0 - lw // 2, y0, x0 - lw // 2 + lw - 1, y1), fill=(0, 0, 0))
        else:
            d.rectangle((x0, y0 - lw // 2, x1, y0 - lw // 2 + lw - 1), fill=(0, 0, 0))
    if job.fold_line:
        x0, y0, x1, y1 = job.fold_line
        dash = mm_to_px(3, job.dpi)
        grey = mix(WHITE, INK, 0.5)
        if x0 == x1:
            for y in range(y0, y1, 2 * dash):
                d.line([(x0, y), (x0, min(y1, y + dash))], fill=grey, width=lw)
        else:
            for x in range(x0, x1, 2 * dash):
                d.line([(x, y0), (min(x1, x + dash), y0)], fill=grey, width=lw)


PALETTE_COLOURS = 96  # indexed pages: enough for flat card art and its anti-aliased edges
IMAGE_FORMATS = ("indexed", "jpeg")


def encode(job: PageJob, quality: int = JPEG_QUALITY, optimize: bool = False, image_format: str = "indexed"
           ) -> PdfImage:
    """Paint and encode one page: "indexed" (a palette of PALETTE_COLOURS, Flate; crisp, small) or
    "jpeg" (`quality`; `optimize`: smaller Huffman tables, ~15 % smaller, slower)."""
    img = paint(job) if job.kind != "blank" else Image.new("RGB", (16, 16), WHITE)
    if image_format == "indexed":
        q = img.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
        pal = bytes(q.getpalette() or [])[: 3 * (int(q.getextrema()[1]) + 1)]
        return indexed_image(q.tobytes(), pal, img.width, img.height)
    if image_format != "jpeg":
        raise ValueError(f"image format must be one of {', '.join(IMAGE_FORMATS)}")
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality, subsampling=2, dpi=(job.dpi, job.dpi), optimize=optimize)
    return PdfImage(buf.getvalue(), img.width, img.height)


# ---- jobs from decks -----------------------------------------------------------------------

def deck_options(deck: Deck, opts: LayoutOptions, given: frozenset[str] = frozenset()) -> LayoutOptions:
    """A deck's own defaults (card size, gap, bleed, shape) for every option the caller left unset."""
    o = replace(opts, shape=deck.shape)
    if "card" not in given:
        o = replace(o, card=deck.card)
    if "gap" not in given and deck.shape == "circle":
        o = replace(o, gap=deck.gap)
    if "bleed" not in given and deck.bleed is not None:
        o = replace(o, bleed=deck.bleed)
    return o


def deck_jobs(deck: Deck, opts: LayoutOptions, copies: int = 1, given: frozenset[str] = frozenset(),
              ink_saver: bool = False) -> tuple[DeckLayout, list[PageJob]]:
    """Page jobs for a deck. `given`: layout options the caller set (the rest: the deck's defaults)."""
    seq = [c for c in deck.sequence() for _ in range(max(1, copies))]
    layout = layout_cards(len(seq), deck_options(deck, opts, given))
    jobs = []
    n_sheets = max((p.sheet for p in layout.pages), default=0) + 1
    for page in layout.pages:
        placed = []
        for s in page.slots:
            card = seq[s.index]
            f = card.front if s.side == "front" else card.back
            if f is None:
                continue
            placed.append(Placed(f, s.x, s.y, s.w, s.h, s.bleed_px))
        side = i18n.t(deck.lang, {"front": "print.side.fronts", "back": "print.side.backs", "fold": "print.side.fold"}[page.kind])
        label = i18n.t(deck.lang, "print.sheet", title=deck.title, sheet=page.sheet + 1, sheets=n_sheets, side=side,
                       paper=layout.options.paper.upper())
        if page.kind == "back":
            label = ""  # nothing printed near a back's edge (a shifted back would show it)
        jobs.append(PageJob("cards", layout.page_px, layout.paper_mm, layout.options.dpi, tuple(placed),
                            layout.options.shape, tuple(page.marks), page.fold_line, label=label, clip=page.clip,
                            label_box=_label_box(page, layout), ink_saver=ink_saver))
    return layout, jobs


def _label_box(page: Page, layout: DeckLayout) -> tuple[int, int, int, int]:
    """The sheet label: bottom right, inside the safe zone, between two cut lines (no crop mark
    through it) and below the cards' art."""
    W, H = layout.page_px
    dpi = layout.options.dpi
    u = lambda mm: mm_to_px(mm, dpi)  # noqa: E731
    safe, tall = u(SAFE_MM), u(2.2)
    y1 = H - safe
    art_bottom = max((page.art_box(s)[3] for s in page.slots), default=0)
    y0 = max(y1 - tall, art_bottom + u(0.3))
    if y1 - y0 < u(1.2):  # no room under the cards: above them
        art_top = min((page.art_box(s)[1] for s in page.slots), default=H)
        y0, y1 = safe, min(safe + tall, art_top - u(0.3))
    xs = sorted({v for s in page.slots for v in (s.x, s.x + s.w)})
    if len(xs) >= 2 and layout.options.shape == "rect" and layout.options.crop_marks:
        x0, x1 = xs[-2] + u(1), xs[-1] - u(1)  # between the last two cut lines
    else:
        x0, x1 = safe, W - safe
    return x0, y0, min(x1, W - safe), y1


def board_jobs(b: Board, opts: LayoutOptions, ink_saver: bool = False) -> list[PageJob]:
    o = opts.normalised()
    params = dict(b.params)
    tiles = boards.tile_board(boards.board_size_mm(params), o.paper, o.orientation)
    jobs = []
    for t in tiles:
        pw, ph = paper_size(o.paper, t.orientation)
        px = (mm_to_px(pw, o.dpi), mm_to_px(ph, o.dpi))
        extra = (("params", b.params), ("tile", t), ("title", b.title), ("lang", b.lang))
        jobs.append(PageJob("board", px, (pw, ph), o.dpi, extra=extra, ink_saver=ink_saver))
        if o.backs in ("duplex-long", "duplex-short"):
            jobs.append(PageJob("blank", px, (pw, ph), o.dpi))  # keeps later sheets' sides right
    return jobs


# ---- registration --------------------------------------------------------------------------

def registration_points(page_px: tuple[int, int], dpi: int) -> list[tuple[int, int]]:
    W, H = page_px
    m = mm_to_px(40, dpi)
    return [(W // 2, H // 2), (m, m), (W - m, m), (m, H - m), (W - m, H - m)]


def registration_jobs(paper: str = "a4", backs: str = "duplex-long", offset: Any = None, dpi: int = 300,
                      orientation: str | None = None, lang: str = "en") -> list[PageJob]:
    """Two pages: crosses on the front; rulers on the back, at the mirrored places."""
    o = LayoutOptions(paper=paper, backs=backs, offset=offset, dpi=dpi,
                      orientation=orientation or "portrait").normalised()
    if o.backs not in ("duplex-long", "duplex-short"):
        o = replace(o, backs="duplex-long")
    pw, ph = paper_size(o.paper, o.orientation or "portrait")
    px = (mm_to_px(pw, dpi), mm_to_px(ph, dpi))
    common = dict(page_px=px, paper_mm=(pw, ph), dpi=dpi)
    extra_front = (("side", "front"), ("backs", o.backs), ("orientation", o.orientation), ("offset", o.offset),
                   ("lang", lang))
    extra_back = (("side", "back"), ("backs", o.backs), ("orientation", o.orientation), ("offset", o.offset),
                  ("lang", lang))
    return [PageJob("registration", extra=extra_front, label=i18n.t(lang, "print.reg.label_front"),
                    **common),  # type: ignore[arg-type]
            PageJob("registration", extra=extra_back, label=i18n.t(lang, "print.reg.label_back"),
                    **common)]  # type: ignore[arg-type]


def _paint_registration(page: Image.Image, job: PageJob) -> None:
    from companion.printing.layout import Slot

    e = dict(job.extra)
    lang = e.get("lang", "en")
    d = ImageDraw.Draw(page)
    dpi = job.dpi
    u = lambda mm: mm_to_px(mm, dpi)  # noqa: E731
    lw = max(1, u(0.25))
    off = (u(e["offset"][0]), u(e["offset"][1]))
    W, H = job.page_px
    if e["side"] == "front":
        for x, y in registration_points(job.page_px, dpi):
            d.rectangle((x - u(12), y - lw // 2, x + u(12), y - lw // 2 + lw - 1), fill=(200, 0, 0))
            d.rectangle((x - lw // 2, y - u(12), x - lw // 2 + lw - 1, y + u(12)), fill=(200, 0, 0))
            d.ellipse((x - u(3), y - u(3), x + u(3), y + u(3)), outline=(200, 0, 0), width=lw)
        text = i18n.t(lang, "print.reg.front", backs=e["backs"])
        fit_text(d, (u(55), u(20), W - u(55), u(75)), text, kind="sans", max_size=u(3.6), fill=INK)
        return
    for x, y in registration_points(job.page_px, dpi):
        s = mirror_slot(Slot(0, "front", x, y, 0, 0, 0), e["backs"], e["orientation"], job.page_px, off)
        bx, by = s.x, s.y
        for k in range(-10, 11):
            t = u(3.5 if k % 5 == 0 else 1.8)
            kx, ky = bx + u(k), by + u(k)
            d.line([(kx, by - t), (kx, by + t)], fill=INK, width=lw)
            d.line([(bx - t, ky), (bx + t, ky)], fill=INK, width=lw)
            if k % 5 == 0 and k:
                f_size = u(3)
                d.line([(kx, by + t), (kx, by + u(11.5))], fill=mix(WHITE, INK, 0.5), width=max(1, lw // 2))
                fit_text(d, (kx - u(4), by + u(12), kx + u(4), by + u(12) + f_size), f"{k:+d}", kind="bold",
                         max_size=f_size, fill=INK)
                fit_text(d, (bx + u(4.5), ky - f_size // 2, bx + u(12), ky + f_size // 2), f"{k:+d}", kind="bold",
                         max_size=f_size, fill=INK, align="left")
        d.text((bx - u(11), by - u(1)), "X", font=font("bold", u(3)), fill=INK, anchor="rm")
        d.text((bx, by - u(11)), "Y", font=font("bold", u(3)), fill=INK, anchor="mb")
        d.line([(bx - u(10), by), (bx + u(10), by)], fill=INK, width=lw)
        d.line([(bx, by - u(10)), (bx, by + u(10))], fill=INK, width=lw)
    text = i18n.t(lang, "print.reg.back", x=f"{e['offset'][0]:g}", y=f"{e['offset'][1]:g}")
    fit_text(d, (u(55), u(20), W - u(55), u(60)), text, kind="sans", max_size=u(3.6), fill=INK)


# ---- the first sheet: how to print ---------------------------------------------------------

GUIDE_LINE_A_MM = 45.0  # line A: this far above the bottom edge, across the sheet
GUIDE_RULER_MM = 6  # rulers read ±this many mm


def guide_jobs(game_title: str, items: list[tuple[str, int, int, int, int]], opts: LayoutOptions,
               lang: str = "en", chips: tuple[str, ...] = (), board: bool = False, cards: bool = True
               ) -> list[PageJob]:
    """The first sheet of a game's PDF: what to print and how, the checklist, the cutting order and
    a duplex test that works on opaque card (cut, turn over, read the ruler at the cut edge).

    items: (kind "cards"|"board", count or pieces, title, first page, last page) – pages counted
    with this sheet. The cutting order says how to cut what the sheets hold: `cards` (rectangles at
    crop marks), `chips` (round pieces of these diameters, e.g. ("24 mm", "20 mm")), a `board`.
    Duplex: a front and a back page (the rulers); otherwise one page."""
    o = opts.normalised()
    pw, ph = paper_size(o.paper, "portrait")
    px = (mm_to_px(pw, o.dpi), mm_to_px(ph, o.dpi))
    duplex = o.backs in ("duplex-long", "duplex-short")
    common = dict(page_px=px, paper_mm=(pw, ph), dpi=o.dpi)
    extra = (("title", game_title), ("items", tuple(items)), ("backs", o.backs), ("offset", o.offset),
             ("paper", o.paper), ("lang", lang), ("chips", tuple(chips)), ("board", board), ("cards", cards),
             ("marks", o.crop_marks))
    label = i18n.t(lang, "print.guide.label", game=game_title)
    jobs = [PageJob("guide", extra=(("side", "front"), *extra), label=label, **common)]  # type: ignore[arg-type]
    if duplex:
        jobs.append(PageJob("guide", extra=(("side", "back"), *extra), label=label, **common))  # type: ignore[arg-type]
    return jobs


def guide_cutting(lang: str, cards: bool, chips: tuple[str, ...], board: bool, marks: bool = True) -> list[str]:
    """The cutting order, a paragraph per kind of piece the sheets hold: cards (at the crop marks, or
    along their colour edges without marks), round pieces (their diameters: a circle punch or
    scissors), a board's pieces."""
    out = []
    if cards:
        out.append(i18n.t(lang, "print.guide.cut_cards" if marks else "print.guide.cut_cards_plain"))
    if chips:
        sizes = chips[0] if len(chips) == 1 else i18n.t(lang, "print.guide.and", a=", ".join(chips[:-1]), b=chips[-1])
        out.append(i18n.t(lang, "print.guide.cut_chips", sizes=sizes))
    if board:
        out.append(i18n.t(lang, "print.guide.cut_board"))
    return out


def _guide_points(W: int, H: int, dpi: int) -> tuple[int, int, list[int], int]:
    """Line A's y, line B's x, the x of A's rulers, the y of B's ruler (front-page pixels)."""
    u = lambda mm: mm_to_px(mm, dpi)  # noqa: E731
    ya = H - u(GUIDE_LINE_A_MM)
    return ya, W // 2, [u(40), W - u(40)], H - u(22)


def _paint_guide(page: Image.Image, job: PageJob) -> None:
    from companion.printing.layout import Slot

    e = dict(job.extra)
    lang = e["lang"]
    d = ImageDraw.Draw(page)
    dpi = job.dpi
    u = lambda mm: mm_to_px(mm, dpi)  # noqa: E731
    W, H = job.page_px
    lw = max(1, u(0.25))
    ya, xb, ruler_xs, yb = _guide_points(W, H, dpi)
    duplex = e["backs"] in ("duplex-long", "duplex-short")
    grey = mix(WHITE, INK, 0.55)
    if e["side"] == "back":
        off = (u(e["offset"][0]), u(e["offset"][1]))

        def back(x: int, y: int) -> tuple[int, int]:
            s = mirror_slot(Slot(0, "front", x, y, 0, 0, 0), e["backs"], "portrait", job.page_px, off)
            return s.x, s.y

        n = GUIDE_RULER_MM
        f = font("bold", u(1.7))
        for rx in ruler_xs:  # vertical rulers across line A: values grow downwards (Y)
            bx, by = back(rx, ya)
            d.line([(bx, by - u(n + 0.5)), (bx, by + u(n + 0.5))], fill=INK, width=lw)
            for k in range(-2 * n, 2 * n + 1):
                y = by + mm_to_px(k / 2, dpi)
                t = u(4 if k % 2 == 0 else 2)
                d.line([(bx - t, y), (bx + t, y)], fill=INK, width=lw)
                if k % 2 == 0:
                    v = k // 2
                    x_text = bx - u(5) if v % 2 == 0 else bx + u(5)
                    d.text((x_text, y), f"{v:+d}" if v else "0", font=f, fill=INK,
                           anchor="rm" if v % 2 == 0 else "lm")
            d.text((bx, by - u(n + 1.5)), "A · Y", font=font("bold", u(2.6)), fill=INK, anchor="mb")
        bx, by = back(xb, yb)  # horizontal ruler across line B: values grow to the right (X)
        d.line([(bx - u(n + 0.5), by), (bx + u(n + 0.5), by)], fill=INK, width=lw)
        for k in range(-2 * n, 2 * n + 1):
            x = bx + mm_to_px(k / 2, dpi)
            t = u(4 if k % 2 == 0 else 2)
            d.line([(x, by - t), (x, by + t)], fill=INK, width=lw)
            if k % 4 == 0:  # a label every 2 mm, alternating above and below
                v = k // 2
                above = v % 4 == 0
                d.text((x, by - u(4.5) if above else by + u(4.5)), f"{v:+d}" if v else "0", font=f, fill=INK,
                       anchor="mb" if above else "mt")
        d.text((bx - u(n + 1.5), by), "B · X", font=font("bold", u(2.6)), fill=INK, anchor="rm")
        fit_text(d, (u(20), u(20), W - u(20), u(60)),
                 i18n.t(lang, "print.guide.back", x=f"{e['offset'][0]:g}", y=f"{e['offset'][1]:g}"),
                 kind="sans", max_size=u(4), fill=INK)
        return
    m = u(14)
    fit_text(d, (m, u(10), W - m, u(22)), i18n.t(lang, "print.guide.title", game=e["title"]), kind="serif",
             max_size=u(9), fill=INK, align="left")
    total = max((it[4] for it in e["items"]), default=2)
    edge = i18n.t(lang, "print.guide.edge_long" if e["backs"] != "duplex-short" else "print.guide.edge_short")
    paper = e["paper"].upper() if e["paper"] == "a4" else "Letter"
    body = (i18n.t(lang, "print.guide.print_duplex", pages=total, paper=paper, edge=edge) if duplex
            else i18n.t(lang, "print.guide.print_single", pages=total, paper=paper))
    if e["backs"] == "fold":
        body += " " + i18n.t(lang, "print.guide.fold")
    y = u(26)

    def section(head: str, text: str, height_mm: float) -> None:
        nonlocal y
        fit_text(d, (m, y, W - m, y + u(6)), head, kind="bold", max_size=u(5), fill=INK, align="left")
        fit_text(d, (m, y + u(7), W - m, y + u(height_mm)), text, kind="sans", max_size=u(3.6), fill=INK,
                 align="left", valign="top")
        y += u(height_mm + 3)

    section(i18n.t(lang, "print.guide.print_head"), body, 28)
    fit_text(d, (m, y, W - m, y + u(6)), i18n.t(lang, "print.guide.check_head"), kind="bold", max_size=u(5),
             fill=INK, align="left")
    y += u(8)
    for kind, count, title, first, last in e["items"]:
        box = u(4)
        d.rectangle((m, y, m + box, y + box), outline=INK, width=max(1, u(0.35)))
        key = "print.guide.item_board" if kind == "board" else "print.guide.item"
        text = i18n.t(lang, key, count=count, pieces=count, title=title, first=first, last=last)
        fit_text(d, (m + box + u(3), y - u(0.5), W - m, y + box + u(0.5)), text, kind="sans", max_size=u(3.8),
                 fill=INK, align="left")
        y += u(7)
    y += u(3)
    cut = guide_cutting(lang, e["cards"], e["chips"], e["board"], e.get("marks", True))
    section(i18n.t(lang, "print.guide.cut_head"), "\n".join(cut), 12 + 13 * len(cut))
    if not duplex:
        return
    test = "print.guide.test_body" if e["cards"] else "print.guide.test_body_round"  # no white-edged backs
    section(i18n.t(lang, "print.guide.test_head"), i18n.t(lang, test),
            max(12.0, (ya - y) * 25.4 / dpi - 10))
    # the cut lines of the test: A across the sheet, B from A down to the safe zone
    safe = u(SAFE_MM + 1)
    d.rectangle((safe, ya - lw // 2, W - safe, ya - lw // 2 + lw - 1), fill=INK)
    d.rectangle((xb - lw // 2, ya, xb - lw // 2 + lw - 1, H - safe), fill=INK)
    fit_text(d, (safe, ya - u(5), xb - u(5), ya - u(1)), i18n.t(lang, "print.guide.line_a"), kind="bold",
             max_size=u(3.2), fill=grey, align="left")
    fit_text(d, (xb + u(2), ya + u(2), xb + u(40), ya + u(6)), i18n.t(lang, "print.guide.line_b"), kind="bold",
             max_size=u(3.2), fill=grey, align="left")
