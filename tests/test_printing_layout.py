"""Layout engine: sizes, cut boxes, crop marks, duplex and fold mirroring (pure data)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.printing.layout import (
    CARD_PRESETS,
    PAPERS,
    LayoutOptions,
    card_size,
    layout_cards,
    mirror_slot,
)
from companion.printing.units import mm_to_px, parse_length, parse_size, px_to_mm


def test_lengths_and_sizes() -> None:
    assert parse_length("3mm") == 3
    assert parse_length("0.125in") == pytest.approx(3.175)
    assert parse_length("1cm") == 10
    assert parse_length(2.5) == 2.5
    assert parse_size("63x88mm") == (63, 88)
    assert parse_size("2.5x3.5in") == pytest.approx((63.5, 88.9))
    assert parse_size("2.5inx3.5in") == pytest.approx((63.5, 88.9))
    assert parse_size("25mm") == (25, 25)
    assert card_size("poker") == (63, 88)
    assert card_size("63mm,88mm") == (63, 88)
    for bad in ("", "abc", "3 parsecs", "1x2x3"):
        with pytest.raises(ValueError):
            parse_size(bad) if "x" in bad else parse_length(bad)


@pytest.mark.parametrize("paper,preset,backs", list(itertools.product(
    PAPERS, list(CARD_PRESETS) + ["2.5x3.5in", "40x40mm"], ["none", "duplex-long", "duplex-short", "fold"])))
def test_every_cut_box_is_exactly_the_card_size(paper: str, preset: str, backs: str) -> None:
    dpi = 300
    lay = layout_cards(40, LayoutOptions(paper=paper, card=preset, backs=backs, dpi=dpi))
    W, H = lay.page_px
    pw, ph = lay.paper_mm
    assert (W, H) == (mm_to_px(pw, dpi), mm_to_px(ph, dpi))
    cw, ch = card_size(preset)
    assert lay.card_px == (mm_to_px(cw, dpi), mm_to_px(ch, dpi))
    # a cut box measures the card size to within half a pixel
    assert abs(px_to_mm(lay.card_px[0], dpi) - cw) <= px_to_mm(0.5, dpi)
    seen = []
    margin = mm_to_px(4, dpi)
    for page in lay.pages:
        boxes = [s.cut_box for s in page.slots]
        for s in page.slots:
            assert (s.w, s.h) == lay.card_px
            x0, y0, x1, y1 = s.bleed_box
            assert x0 >= margin - 1 and y0 >= margin - 1 and x1 <= W - margin + 1 and y1 <= H - margin + 1
            if s.side == "front":
                seen.append(s.index)
        for a, b in itertools.combinations(boxes, 2):  # cut boxes never overlap
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert sorted(seen) == list(range(40))


@pytest.mark.parametrize("paper,backs,orientation", list(itertools.product(
    PAPERS, ["none", "duplex-long", "duplex-short", "fold"], [None, "portrait", "landscape"])))
def test_crop_marks_stay_outside_every_card(paper: str, backs: str, orientation: str | None) -> None:
    lay = layout_cards(20, LayoutOptions(paper=paper, backs=backs, orientation=orientation))
    W, H = lay.page_px
    for page in lay.pages:
        if page.kind == "back":
            assert page.marks == []  # cut from the fronts: no ink near a back's edge
            continue
        assert page.marks, "every sheet has crop marks"
        xs = {v for s in page.slots for v in (s.x, s.x + s.w)}
        ys = {v for s in page.slots for v in (s.y, s.y + s.h)}
        for x0, y0, x1, y1 in page.marks:
            assert 0 <= min(x0, x1) and max(x0, x1) <= W and 0 <= min(y0, y1) and max(y0, y1) <= H
            assert x0 == x1 or y0 == y1
            assert (x0 in xs) if x0 == x1 else (y0 in ys)  # a mark continues a cut line
            for s in page.slots:
                bx0, by0, bx1, by1 = page.art_box(s)
                assert max(x0, x1) < bx0 or min(x0, x1) > bx1 or max(y0, y1) < by0 or min(y0, y1) > by1
        # every cut edge has a mark on at least one side
        assert xs <= {x0 for x0, _, x1, _ in page.marks if x0 == x1}
        assert ys <= {y0 for _, y0, _, y1 in page.marks if y0 == y1}


@pytest.mark.parametrize("backs,orientation", list(itertools.product(["duplex-long", "duplex-short"],
                                                                ["portrait", "landscape"])))
def test_each_back_lies_behind_its_front(backs: str, orientation: str) -> None:
    for offset in (None, "1.5,-2"):
        lay = layout_cards(25, LayoutOptions(backs=backs, orientation=orientation, offset=offset, card="mini"))
        W, H = lay.page_px
        ox, oy = (0, 0) if offset is None else (mm_to_px(1.5, 300), mm_to_px(-2, 300))
        fronts = [p for p in lay.pages if p.kind == "front"]
        backs_ = [p for p in lay.pages if p.kind == "back"]
        assert len(fronts) == len(backs_) and [p.kind for p in lay.pages[:2]] == ["front", "back"]
        # turning over the long edge of a portrait sheet (or the short edge of a landscape
        # one) mirrors left-right; otherwise top-bottom
        left_right = (backs == "duplex-long") == (orientation == "portrait")
        for f, b in zip(fronts, backs_, strict=True):
            by_index = {s.index: s for s in b.slots}
            assert set(by_index) == {s.index for s in f.slots}
            for s in f.slots:
                t = by_index[s.index]
                if left_right:
                    assert (t.x - ox, t.y - oy) == (W - s.x - s.w, s.y)
                else:
                    assert (t.x - ox, t.y - oy) == (s.x, H - s.y - s.h)
                assert (t.w, t.h) == (s.w, s.h)


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_fold_puts_backs_mirrored_across_the_fold_line(orientation: str) -> None:
    lay = layout_cards(10, LayoutOptions(backs="fold", orientation=orientation))
    W, H = lay.page_px
    for page in lay.pages:
        assert page.kind == "fold" and page.fold_line is not None
        fronts = {s.index: s for s in page.slots if s.side == "front"}
        backs = {s.index: s for s in page.slots if s.side == "back"}
        assert fronts.keys() == backs.keys()
        for i, s in fronts.items():
            t = backs[i]
            if orientation == "landscape":  # vertical fold line at W/2: fronts left, backs right
                assert t.x == W - s.x - s.w and t.y == s.y and s.bleed_box[2] < W // 2 < t.bleed_box[0]
            else:
                assert t.y == H - s.y - s.h and t.x == s.x and s.bleed_box[3] < H // 2 < t.bleed_box[1]


def test_mirror_slot_is_an_involution() -> None:
    lay = layout_cards(9, LayoutOptions())
    s = lay.pages[0].slots[4]
    for backs in ("duplex-long", "duplex-short", "fold"):
        back = mirror_slot(s, backs, "portrait", lay.page_px, (0, 0))
        again = mirror_slot(back, backs, "portrait", lay.page_px, (0, 0))
        assert (again.x, again.y) == (s.x, s.y)


def test_poker_fits_nine_on_a4_and_letter_with_defaults() -> None:
    for paper in PAPERS:
        lay = layout_cards(9, LayoutOptions(paper=paper))
        assert lay.per_sheet == 9 and len(lay.pages) == 1


def test_bad_options_are_refused() -> None:
    for bad in (dict(paper="a3"), dict(backs="both"), dict(dpi=10), dict(card="2x2km"), dict(bleed="-1mm"),
                dict(orientation="diagonal"), dict(card="500x500mm")):
        with pytest.raises(ValueError):
            layout_cards(1, LayoutOptions(**bad))
    with pytest.raises(ValueError):
        layout_cards(1, LayoutOptions(card="300x300mm"))  # does not fit on the paper


@settings(max_examples=60, deadline=None)
@given(w=st.floats(20, 120), h=st.floats(20, 140), bleed=st.floats(0, 5), gap=st.floats(0, 10),
       margin=st.floats(0, 15), dpi=st.sampled_from([72, 150, 300, 600]), paper=st.sampled_from(sorted(PAPERS)),
       backs=st.sampled_from(["none", "duplex-long", "duplex-short", "fold"]), n=st.integers(1, 40))
def test_any_layout_keeps_cards_apart_on_the_page_and_marks_off_them(w: float, h: float, bleed: float, gap: float,
                                                                   margin: float, dpi: int, paper: str,
                                                                   backs: str, n: int) -> None:
    opts = LayoutOptions(paper=paper, card=(w, h), bleed=bleed, gap=gap, margin=margin, dpi=dpi, backs=backs)
    try:
        lay = layout_cards(n, opts)
    except ValueError:
        return  # does not fit: refused, never squeezed
    W, H = lay.page_px
    assert lay.card_px == (mm_to_px(w, dpi), mm_to_px(h, dpi))
    fronts = sorted(s.index for p in lay.pages for s in p.slots if s.side == "front")
    assert fronts == list(range(n))
    for page in lay.pages:
        for s in page.slots:
            x0, y0, x1, y1 = s.bleed_box
            assert 0 <= x0 and 0 <= y0 and x1 <= W and y1 <= H
        for a, b in itertools.combinations(page.slots, 2):
            ca, cb = a.cut_box, b.cut_box
            assert ca[2] <= cb[0] or cb[2] <= ca[0] or ca[3] <= cb[1] or cb[3] <= ca[1]
        for m in page.marks:
            for s in page.slots:
                bx0, by0, bx1, by1 = page.art_box(s)
                assert max(m[0], m[2]) < bx0 or min(m[0], m[2]) > bx1 or max(m[1], m[3]) < by0 or min(m[1], m[3]) > by1
