"""The layout engine: where every card, back, crop mark and fold line goes on every sheet.

Pure data, no pixels drawn here. Positions are integer pixels at the layout's dpi (the page
image is exactly `page_px`, which the PDF stretches over exactly the paper size), and every
card's cut box is `card_px` = round(card size in mm at the dpi), so all cards are the same
size and tests can check each cut box exactly.

Backs:
- "none":         fronts only.
- "duplex-long":  sheet = front page + back page; the sheet is turned over its long edge,
                  so a back sits at the front's position mirrored left-right (portrait).
- "duplex-short": turned over its short edge: mirrored top-bottom (portrait).
  (In landscape the long edge is horizontal, so the mirror axes swap.)
- "fold":         fronts and backs on one page, the backs mirrored across a fold line
                  through the middle of the page (fold, glue, cut).
An offset (mm, in back-page coordinates) shifts every back to correct a printer's duplex
misregistration; print the registration page to measure it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from companion.printing.units import KeyedError, mm_to_px, parse_length, parse_size, px_to_mm

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD_PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "mini-euro": (44.0, 68.0),  # the sleeve sizes: mini-euro sleeves 45x68, mini-US 41x63
    "mini-us": (41.0, 63.0),
    "euro": (59.0, 92.0),
    "square": (70.0, 70.0),
}
BACKS = ("none", "duplex-long", "duplex-short", "fold")
ORIENTATIONS = ("portrait", "landscape")
SHAPES = ("rect", "circle")
CROP_MARK_LEN_MM = 6.0
CROP_MARK_GAP_MM = 0.8  # distance between the bleed edge and the start of a mark
CROP_MARK_WIDTH_MM = 0.2
SAFE_MM = 5.0  # everything that must print (marks, labels, cards) stays this far inside the paper edge
CROP_MARK_MIN_MM = 1.8  # a mark shorter than this is not drawn; the outer bleed shrinks to make room
FOLD_CLEAR_MM = 1.0  # nothing is printed this close to the fold line


def card_size(card: str | tuple[float, float]) -> tuple[float, float]:
    """A preset name, "63x88mm", "2.5x3.5in", or a (w, h) tuple in mm -> (w, h) in mm."""
    if isinstance(card, tuple | list):
        w, h = (parse_length(v) for v in card)
    elif str(card).lower() in CARD_PRESETS:
        w, h = CARD_PRESETS[str(card).lower()]
    else:
        w, h = parse_size(str(card))
    if not (5 <= w <= 400 and 5 <= h <= 400):
        raise ValueError(f"card size {w:g}x{h:g} mm is out of range")
    return w, h


def parse_offset(value: str | tuple[float, float] | None) -> tuple[float, float]:
    if value is None or value == "":
        return 0.0, 0.0
    parts = list(value) if isinstance(value, tuple | list) else str(value).split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = parse_length(parts[0]), parse_length(parts[1])
    except (ValueError, TypeError):
        raise KeyedError("pcli.offset", value=repr(str(value)[:30])) from None
    if not (-20 <= x <= 20 and -20 <= y <= 20):
        raise KeyedError("pcli.offset_range")
    return x, y


@dataclass(frozen=True)
class LayoutOptions:
    """Every knob of the layout, with Squib-like defaults. Lengths accept strings ("3mm")."""

    paper: str = "a4"
    orientation: str | None = None  # None = whichever needs fewer sheets (portrait on a tie)
    card: Any = "poker"
    bleed: Any = "3mm"
    margin: Any = "4mm"  # minimum distance from the paper edge to any printed bleed
    gap: Any = "0mm"
    dpi: int = 300
    backs: str = "none"
    offset: Any = None  # "X,Y" (mm or units) shift of back pages
    crop_marks: bool = True
    shape: str = "rect"

    def normalised(self) -> LayoutOptions:
        """Check every value; return a copy with lengths in mm and names lower-case."""
        paper = str(self.paper).lower()
        if paper not in PAPERS:
            raise ValueError(f"paper must be one of {', '.join(PAPERS)}")
        orient = None if self.orientation in (None, "", "auto") else str(self.orientation).lower()
        if orient is not None and orient not in ORIENTATIONS:
            raise ValueError("orientation must be portrait or landscape")
        backs = str(self.backs).lower()
        if backs not in BACKS:
            raise ValueError(f"backs must be one of {', '.join(BACKS)}")
        if self.shape not in SHAPES:
            raise ValueError(f"shape must be one of {', '.join(SHAPES)}")
        dpi = int(self.dpi)
        if not 50 <= dpi <= 1200:
            raise ValueError("dpi must be between 50 and 1200")
        bleed, margin, gap = (parse_length(v) for v in (self.bleed, self.margin, self.gap))
        if not (0 <= bleed <= 20 and 0 <= margin <= 50 and 0 <= gap <= 50):
            raise ValueError("bleed, margin and gap must be small non-negative lengths")
        return replace(
            self, paper=paper, orientation=orient, card=card_size(self.card), bleed=bleed,
            margin=margin, gap=gap, dpi=dpi, backs=backs, offset=parse_offset(self.offset),
        )


@dataclass(frozen=True)
class Slot:
    """One card on one page. (x, y, w, h) is the cut box in page pixels; the art is drawn
    `bleed_px` beyond it on every side. `index` is the position in the deck sequence."""

    index: int
    side: str  # "front" | "back"
    x: int
    y: int
    w: int
    h: int
    bleed_px: int

    @property
    def cut_box(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.x + self.w, self.y + self.h

    @property
    def bleed_box(self) -> tuple[int, int, int, int]:
        b = self.bleed_px
        return self.x - b, self.y - b, self.x + self.w + b, self.y + self.h + b


@dataclass
class Page:
    kind: str  # "front" | "back" | "fold"
    slots: list[Slot] = field(default_factory=list)
    marks: list[tuple[int, int, int, int]] = field(default_factory=list)  # crop-mark lines
    fold_line: tuple[int, int, int, int] | None = None
    sheet: int = 0
    clip: tuple[int, int, int, int] | None = None  # no card art beyond this box (the outer bleed, trimmed)

    def art_box(self, s: Slot) -> tuple[int, int, int, int]:
        """Where slot `s`'s art may be painted: its bleed box, within the page's clip."""
        x0, y0, x1, y1 = s.bleed_box
        if self.clip is None:
            return x0, y0, x1, y1
        cx0, cy0, cx1, cy1 = self.clip
        return max(x0, cx0), max(y0, cy0), min(x1, cx1), min(y1, cy1)


@dataclass
class DeckLayout:
    options: LayoutOptions  # normalised
    orientation: str
    paper_mm: tuple[float, float]  # oriented (width, height)
    page_px: tuple[int, int]
    card_mm: tuple[float, float]
    card_px: tuple[int, int]
    cols: int
    rows: int
    pages: list[Page]

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def mm(self, px: float) -> float:
        return px_to_mm(px, self.options.dpi)

    def summary(self) -> dict[str, Any]:
        o = asdict(self.options)
        return {
            "options": o, "orientation": self.orientation, "paper_mm": self.paper_mm,
            "page_px": self.page_px, "card_mm": self.card_mm, "card_px": self.card_px,
            "cols": self.cols, "rows": self.rows, "pages": len(self.pages),
        }


def paper_size(paper: str, orientation: str) -> tuple[float, float]:
    w, h = PAPERS[paper]
    return (w, h) if orientation == "portrait" else (h, w)


def _fit(span_px: int, card_px: int, gap_px: int, bleed_px: int) -> int:
    n = 0
    while (n + 1) * card_px + n * gap_px + 2 * bleed_px <= span_px:
        n += 1
    return n


def _grid(o: LayoutOptions, orientation: str) -> tuple[int, int, tuple[int, int, int, int]]:
    """cols, rows and the region (x0, y0, x1, y1) px that holds the fronts' grid."""
    dpi = o.dpi
    pw, ph = paper_size(o.paper, orientation)
    W, H = mm_to_px(pw, dpi), mm_to_px(ph, dpi)
    m = mm_to_px(o.margin, dpi)
    if o.shape == "circle":  # a token's cut circle must print: keep it out of the safe zone
        m = max(m, mm_to_px(SAFE_MM + 0.5, dpi))
    region = (m, m, W - m, H - m)
    if o.backs == "fold":
        clear = mm_to_px(FOLD_CLEAR_MM, dpi)
        if orientation == "portrait":  # fold line horizontal, fronts on top
            region = (m, m, W - m, H // 2 - clear)
        else:  # fold line vertical, fronts on the left
            region = (m, m, W // 2 - clear, H - m)
    cw, ch = (mm_to_px(v, dpi) for v in o.card)
    gap, bleed = mm_to_px(o.gap, dpi), mm_to_px(o.bleed, dpi)
    cols = _fit(region[2] - region[0], cw, gap, bleed)
    rows = _fit(region[3] - region[1], ch, gap, bleed)
    return cols, rows, region


def mirror_slot(s: Slot, layout_backs: str, orientation: str, page_px: tuple[int, int],
                offset_px: tuple[int, int]) -> Slot:
    """Where the back of front slot `s` goes so that it lies behind it once printed."""
    W, H = page_px
    horizontal = (layout_backs == "duplex-long") == (orientation == "portrait")
    if layout_backs == "fold":
        horizontal = orientation == "landscape"  # vertical fold line -> mirror left-right
    if horizontal:
        x, y = W - s.x - s.w, s.y
    else:
        x, y = s.x, H - s.y - s.h
    return replace(s, side="back", x=x + offset_px[0], y=y + offset_px[1])


def layout_cards(n_cards: int, options: LayoutOptions | None = None) -> DeckLayout:
    """Lay out `n_cards` cards (deck sequence, copies already expanded)."""
    o = (options or LayoutOptions()).normalised()
    orients = [o.orientation] if o.orientation else ["portrait", "landscape"]
    def sheets(r: str) -> float:
        per = _grid(o, r)[0] * _grid(o, r)[1]
        return -(-max(1, n_cards) // per) if per else float("inf")
    # fewest sheets; on a tie portrait, whose long-edge flip (left-right) is the printers' default
    # and least ambiguous (60 mini cards: 4 sheets either way, so portrait)
    best = min(orients, key=lambda r: (sheets(r), r != "portrait"))
    cols, rows, region = _grid(o, best)
    if cols * rows == 0:
        raise ValueError("the card does not fit on the paper with these margins and bleed")
    dpi = o.dpi
    pw, ph = paper_size(o.paper, best)
    page_px = (mm_to_px(pw, dpi), mm_to_px(ph, dpi))
    cw, ch = (mm_to_px(v, dpi) for v in o.card)
    gap, bleed = mm_to_px(o.gap, dpi), mm_to_px(o.bleed, dpi)
    gw, gh = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    x0 = region[0] + (region[2] - region[0] - gw) // 2
    y0 = region[1] + (region[3] - region[1] - gh) // 2
    offset_px = (mm_to_px(o.offset[0], dpi), mm_to_px(o.offset[1], dpi))
    per = cols * rows
    pages: list[Page] = []
    for sheet, start in enumerate(range(0, n_cards, per)):
        fronts = [
            Slot(i, "front", x0 + (k % cols) * (cw + gap), y0 + (k // cols) * (ch + gap), cw, ch, bleed)
            for k, i in enumerate(range(start, min(start + per, n_cards)))
        ]
        if o.backs == "none":
            pages.append(Page("front", fronts, sheet=sheet))
        elif o.backs == "fold":
            backs = [mirror_slot(s, o.backs, best, page_px, offset_px) for s in fronts]
            pages.append(Page("fold", fronts + backs, sheet=sheet, fold_line=_fold_line(best, page_px)))
        else:
            backs = [mirror_slot(s, o.backs, best, page_px, offset_px) for s in fronts]
            pages.append(Page("front", fronts, sheet=sheet))
            pages.append(Page("back", backs, sheet=sheet))
    if o.shape == "rect":
        for p in pages:
            p.clip = _clip(p, page_px, dpi, o.crop_marks)
    if o.crop_marks and o.shape == "rect":
        for p in pages:
            if p.kind != "back":  # cutting is done from the fronts; no ink near a back's edge
                p.marks = crop_marks(p, page_px, dpi)
    return DeckLayout(o, best, (pw, ph), page_px, o.card, (cw, ch), cols, rows, pages)


def _clip(page: Page, page_px: tuple[int, int], dpi: int, marks: bool) -> tuple[int, int, int, int]:
    """The outer bleed of the grid, trimmed where it would leave no room for a crop mark between it
    and the safe zone (Letter's top and bottom), and never into the safe zone."""
    W, H = page_px
    safe = mm_to_px(SAFE_MM, dpi)
    need = mm_to_px(CROP_MARK_GAP_MM / 2 + CROP_MARK_MIN_MM, dpi) if marks else 0
    x0 = min(s.x for s in page.slots)
    y0 = min(s.y for s in page.slots)
    x1 = max(s.x + s.w for s in page.slots)
    y1 = max(s.y + s.h for s in page.slots)
    b = max(s.bleed_px for s in page.slots)
    left = max(0, min(b, x0 - safe - need))
    top = max(0, min(b, y0 - safe - need))
    right = max(0, min(b, W - safe - need - x1))
    bottom = max(0, min(b, H - safe - need - y1))
    return x0 - left, y0 - top, x1 + right, y1 + bottom


def _fold_line(orientation: str, page_px: tuple[int, int]) -> tuple[int, int, int, int]:
    W, H = page_px
    return (0, H // 2, W, H // 2) if orientation == "portrait" else (W // 2, 0, W // 2, H)


def _hits(seg: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    x0, y0, x1, y1 = min(seg[0], seg[2]), min(seg[1], seg[3]), max(seg[0], seg[2]), max(seg[1], seg[3])
    return not (x1 < box[0] or x0 > box[2] or y1 < box[1] or y0 > box[3])


def crop_marks(page: Page, page_px: tuple[int, int], dpi: int) -> list[tuple[int, int, int, int]]:
    """Lines extending every cut edge outside the grid; none ever enters a card's bleed box
    (nor crosses a fold line), so no mark is printed across a card."""
    W, H = page_px
    length, gap = mm_to_px(CROP_MARK_LEN_MM, dpi), mm_to_px(CROP_MARK_GAP_MM, dpi)
    edge = mm_to_px(SAFE_MM, dpi)  # home printers cannot print closer to the paper edge
    shortest = mm_to_px(CROP_MARK_MIN_MM, dpi)
    out: list[tuple[int, int, int, int]] = []
    groups = [[s for s in page.slots if s.side == side] for side in ("front", "back")]
    keep_out = [page.art_box(s) for s in page.slots]
    if page.fold_line:
        fx0, fy0, fx1, fy1 = page.fold_line
        c = mm_to_px(FOLD_CLEAR_MM, dpi)
        keep_out.append((fx0 - c, fy0 - c, fx1 + c, fy1 + c))
    for group in groups:
        if not group:
            continue
        bx0 = min(page.art_box(s)[0] for s in group)
        by0 = min(page.art_box(s)[1] for s in group)
        bx1 = max(page.art_box(s)[2] for s in group)
        by1 = max(page.art_box(s)[3] for s in group)
        g = {side: gap if room >= gap + shortest else gap // 2 for side, room in
             (("l", bx0 - edge), ("t", by0 - edge), ("r", W - edge - bx1), ("b", H - edge - by1))}
        xs = sorted({v for s in group for v in (s.x, s.x + s.w)})
        ys = sorted({v for s in group for v in (s.y, s.y + s.h)})
        cands = []
        for x in xs:
            cands.append((x, max(edge, by0 - g["t"] - length), x, by0 - g["t"]))
            cands.append((x, by1 + g["b"], x, min(H - edge, by1 + g["b"] + length)))
        for y in ys:
            cands.append((max(edge, bx0 - g["l"] - length), y, bx0 - g["l"], y))
            cands.append((bx1 + g["r"], y, min(W - edge, bx1 + g["r"] + length), y))
        for seg in cands:
            if seg[2] - seg[0] + seg[3] - seg[1] < shortest:  # no room
                continue
            if any(_hits(seg, box) for box in keep_out):
                continue
            out.append(seg)
    return out
