"""Rendered PDFs: page size, cut boxes and crop marks in the pixels, backs behind fronts."""

from __future__ import annotations

import pytest
from PIL import Image, ImageOps

from companion.printing import render_pdf
from companion.printing.cards import FRONT_EDGE_MM
from companion.printing.decks import CardSpec, Deck, face
from companion.printing.engine import deck_jobs
from companion.printing.layout import PAPERS, LayoutOptions, layout_cards
from companion.printing.pdf import read_pages
from companion.printing.runner import pdf_from_jobs
from companion.printing.units import mm_to_px

COLOURS = ["#c8322b", "#2560b8", "#2f8a3c", "#f1c40f", "#2b2b2b", "#7d3c98", "#e08020", "#1fa3a3", "#a0522d",
           "#ff69b4", "#556b2f", "#4682b4"]


def rgb(h: str) -> tuple[int, int, int]:
    return int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 28) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def rainbow_deck(n: int = 12, card: str = "poker") -> Deck:
    """Every card a different colour, its back the same colour: a back behind the wrong front shows."""
    cards = tuple(
        CardSpec("vote", f"c{i}", face("lutetia.vote", value=str(10 * (i + 1)), name=f"c{i}", colour=COLOURS[i]),
                 face("lutetia.vote_back", name=f"c{i}", colour=COLOURS[i]))
        for i in range(n)
    )
    return Deck("test", "rainbow", "rainbow", cards, card=card)


def page_images(pdf: bytes) -> list[Image.Image]:
    return [p.to_image() for p in read_pages(pdf)]


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_pdf_page_size_is_the_paper_size(paper: str, orientation: str) -> None:
    pdf = render_pdf("lutetia", "mods", mod_deck="1,1,1", paper=paper, orientation=orientation, dpi=60,
                     backs="duplex-long", workers=1)
    pages = read_pages(pdf)
    assert len(pages) == 2
    w, h = PAPERS[paper] if orientation == "portrait" else PAPERS[paper][::-1]
    for p in pages:
        pw, ph = p.size_mm
        assert abs(pw - w) < 0.1 and abs(ph - h) < 0.1
        assert (p.width, p.height) == (mm_to_px(w, 60), mm_to_px(h, 60))
    if paper == "letter":
        assert abs(pages[0].size_mm[0] / 25.4 - (8.5 if orientation == "portrait" else 11)) < 0.004


def test_cut_boxes_in_the_pixels_match_the_layout() -> None:
    """With a gap and no bleed, each card's colour starts exactly at its cut box."""
    dpi = 150
    opts = LayoutOptions(paper="a4", dpi=dpi, bleed="0mm", gap="8mm", card="poker")
    lay, jobs = deck_jobs(rainbow_deck(9), opts)
    img = page_images(pdf_from_jobs(jobs[:1], quality=95, workers=1))[0]
    assert img.size == lay.page_px
    cw, ch = mm_to_px(63, dpi), mm_to_px(88, dpi)
    assert lay.card_px == (cw, ch)
    white = (255, 255, 255)
    for s in lay.pages[0].slots:
        assert (s.w, s.h) == (cw, ch)
        colour = rgb(COLOURS[s.index])
        midx, midy = s.x + s.w // 2, s.y + s.h // 2
        for inside, outside in (((s.x + 2, midy), (s.x - 3, midy)), ((s.x + s.w - 3, midy), (s.x + s.w + 2, midy)),
                                ((midx, s.y + 2), (midx, s.y - 3)), ((midx, s.y + s.h - 3), (midx, s.y + s.h + 2))):
            assert close(img.getpixel(inside), colour), (s.index, inside)
            assert close(img.getpixel(outside), white, 12), (s.index, outside)


def test_crop_marks_are_drawn_on_the_cut_lines() -> None:
    dpi = 300
    lay, jobs = deck_jobs(rainbow_deck(9), LayoutOptions(dpi=dpi))
    colour_img = page_images(pdf_from_jobs(jobs[:1], quality=95, workers=1))[0]
    img = colour_img.convert("L")
    marks = lay.pages[0].marks
    assert len(marks) == 16  # 4 vertical cut lines x 2 ends + 4 horizontal x 2 ends
    for x0, y0, x1, y1 in marks:
        mx, my = (x0 + x1) // 2, (y0 + y1) // 2
        assert img.getpixel((mx, my)) < 110, (mx, my)
        away = (mx + 6, my) if x0 == x1 else (mx, my + 6)
        assert img.getpixel(away) > 235
    # nothing printed between the bleed edge and the paper edge except marks: corners are white
    x0, y0 = min(s.bleed_box[0] for s in lay.pages[0].slots), min(s.bleed_box[1] for s in lay.pages[0].slots)
    assert img.getpixel((x0 - 10, y0 - 10)) > 240
    # cards touch: no colour past the outer cut line either; every front has the same white edge zone
    # inside its cut (issue 34.4: a miscut shows no sliver of the neighbour), its colour starts there
    s = lay.pages[0].slots[0]
    e = mm_to_px(FRONT_EDGE_MM, dpi)
    assert close(colour_img.getpixel((s.x - mm_to_px(2.5, dpi), s.y + s.h // 2)), (255, 255, 255), 12)
    assert close(colour_img.getpixel((s.x + e - 3, s.y + s.h // 2)), (255, 255, 255), 12)
    assert close(colour_img.getpixel((s.x + e + 3, s.y + s.h // 2)), rgb(COLOURS[0]))


@pytest.mark.parametrize("backs", ["duplex-long", "duplex-short"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_each_back_lands_behind_its_front_on_the_printed_sheet(backs: str, orientation: str) -> None:
    dpi = 60
    lay, jobs = deck_jobs(rainbow_deck(12), LayoutOptions(dpi=dpi, backs=backs, orientation=orientation))
    imgs = page_images(pdf_from_jobs(jobs, quality=95, workers=1))
    assert len(imgs) == 2 * len({p.sheet for p in lay.pages})
    left_right = (backs == "duplex-long") == (orientation == "portrait")
    for sheet in range(len(imgs) // 2):
        front, back = imgs[2 * sheet], imgs[2 * sheet + 1]
        # turn the sheet over: the back page seen through the paper from the front side
        seen = ImageOps.mirror(back) if left_right else ImageOps.flip(back)
        for s in lay.pages[2 * sheet].slots:
            p = (s.x + mm_to_px(1.5, dpi), s.y + s.h // 2)
            colour = rgb(COLOURS[s.index])
            assert close(front.getpixel(p), colour)
            q = (s.x + mm_to_px(7, dpi), s.y + s.h // 2)  # inside the back's white edge zone
            assert close(seen.getpixel(q), colour, 50), (backs, orientation, s.index)


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_fold_backs_meet_their_fronts_when_folded(orientation: str) -> None:
    dpi = 60
    lay, jobs = deck_jobs(rainbow_deck(8), LayoutOptions(dpi=dpi, backs="fold", orientation=orientation))
    for img, page in zip(page_images(pdf_from_jobs(jobs, quality=95, workers=1)), lay.pages, strict=True):
        folded = ImageOps.mirror(img) if orientation == "landscape" else ImageOps.flip(img)
        for s in (s for s in page.slots if s.side == "front"):
            p = (s.x + mm_to_px(7, dpi), s.y + s.h // 2)
            assert close(folded.getpixel(p), rgb(COLOURS[s.index]), 50)


def test_offset_moves_only_the_backs() -> None:
    base = layout_cards(9, LayoutOptions(backs="duplex-long"))
    moved = layout_cards(9, LayoutOptions(backs="duplex-long", offset="1mm,-0.5mm"))
    dx, dy = mm_to_px(1, 300), mm_to_px(-0.5, 300)
    for a, b in zip(base.pages, moved.pages, strict=True):
        for s, t in zip(a.slots, b.slots, strict=True):
            assert (t.x - s.x, t.y - s.y) == ((dx, dy) if a.kind == "back" else (0, 0))


def test_round_tokens_have_cut_circles_and_no_crop_marks() -> None:
    dpi = 150
    pdf = render_pdf("quovadis", dpi=dpi, backs="none", quality=95, workers=1)
    img = page_images(pdf)[1].convert("L")  # page 1: the how-to-print sheet (one page, no duplex)
    from companion.printing.api import game_jobs

    job = game_jobs("quovadis", dpi=dpi, backs="none", guide=False)[0]
    assert job.shape == "circle" and not job.marks
    p = job.placed[0]
    cx, cy, r = p.x + p.w / 2, p.y + p.h / 2, p.w / 2
    assert p.w == p.h == mm_to_px(24, dpi)
    assert img.getpixel((int(cx), int(cy - r))) < 120  # the cut circle, on the cut line
    corner = (int(cx + r * 0.9), int(cy + r * 0.9))  # outside the circle (and its bleed): white
    assert img.getpixel(corner) > 240


def test_every_page_stays_under_1_5_mb_at_300_dpi() -> None:
    pdf = render_pdf("lutetia", "votes", dpi=300, backs="duplex-long")
    assert all(len(p.image) <= 1_500_000 for p in read_pages(pdf))
