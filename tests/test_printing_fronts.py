"""Card fronts touch on the sheet, so a cut a little off shows the edge of the neighbour (issue
34.4): every front has the same white edge zone (cards.FRONT_EDGE_MM, like the backs' white edge),
so with a cut 0.5 or 1 mm off in any direction the edge strips of all fronts of a sheet look the
same – no sliver of the neighbour's colour, no unprinted paper beside a colour edge."""

from __future__ import annotations

import itertools

import pytest
from PIL import ImageStat

from companion.games.lutece import printing as LCP
from companion.games.lutetia import printing as LP
from companion.printing.decks import Deck
from companion.printing.engine import deck_jobs, paint
from companion.printing.layout import LayoutOptions
from companion.printing.units import mm_to_px

DPI = 150
STRIP_MM = 0.4  # what one sees of an edge: this deep a strip inside the real cut


def front_decks() -> list[Deck]:
    return [LP.lutetia_votes(), LP.lutetia_plans(), LP.lutetia_mods("3,3,3"), LCP.lutece_actions()]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("deck", front_decks(), ids=lambda d: f"{d.game}-{d.name}")
def test_a_miscut_front_never_shows_the_neighbours_colour(deck: Deck, paper: str) -> None:
    lay, jobs = deck_jobs(deck, LayoutOptions(paper=paper, dpi=DPI, backs="duplex-long"))
    u = lambda mm: mm_to_px(mm, DPI)  # noqa: E731
    strip = u(STRIP_MM)
    for page, job in zip(lay.pages, jobs, strict=True):
        if page.kind != "front":
            continue
        img = paint(job)
        for mx, my in itertools.product((-1.0, -0.5, 0, 0.5, 1.0), repeat=2):
            sigs = []
            for s in page.slots:
                x0, y0 = s.x + u(mx), s.y + u(my)
                x1, y1 = x0 + s.w, y0 + s.h
                boxes = [(x0, y0, x0 + strip, y1), (x0, y0, x1, y0 + strip),
                         (x1 - strip, y0, x1, y1), (x0, y1 - strip, x1, y1)]
                sigs.append([ImageStat.Stat(img.crop(b)).mean for b in boxes])
            for side, ch in itertools.product(range(4), range(3)):
                vals = [sig[side][ch] for sig in sigs]
                assert max(vals) - min(vals) <= 6, (deck.name, paper, page.sheet, (mx, my), side, vals)


def test_without_crop_marks_the_colour_edge_shows_the_cut() -> None:
    """No crop marks: nothing but the cards' own edges shows where to cut, so their colour runs to the cut."""
    from companion.printing.cards import FRONT_EDGE_MM

    lay, jobs = deck_jobs(LP.lutetia_votes(), LayoutOptions(dpi=DPI, backs="none", crop_marks=False))
    img = paint(jobs[0])
    s = lay.pages[0].slots[0]
    inside = img.getpixel((s.x + mm_to_px(FRONT_EDGE_MM, DPI) // 2, s.y + s.h // 2))
    assert sum(inside) < 600, inside  # the vote's red frame, not white
