"""Everything printed stays ≥ 5 mm inside the paper edge, on A4 and Letter (issue 20.2): home
printers cannot print closer, so a crop mark or label there would be lost."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from companion.printing import api
from companion.printing import decks as D
from companion.printing.engine import PageJob, paint, registration_jobs
from companion.printing.layout import SAFE_MM, LayoutOptions, layout_cards
from companion.printing.units import mm_to_px

DPI = 60


def ink_near_edge(img: Image.Image, mm: float) -> list[tuple[str, int]]:
    """(side, darkest-ink count) for each paper-edge band of `mm` that is not blank."""
    u = mm_to_px(mm, DPI) - 1  # one pixel of rounding
    W, H = img.size
    bands = {"left": (0, 0, u, H), "top": (0, 0, W, u), "right": (W - u, 0, W, H), "bottom": (0, H - u, W, H)}
    out = []
    for side, box in bands.items():
        g = img.crop(box).convert("L")
        dark = sum(g.point(lambda v: 255 if v < 245 else 0).histogram()[255:])
        if dark:
            out.append((side, dark))
    return out


def every_job(game: str | None, paper: str) -> list[PageJob]:
    if game is None:
        return (registration_jobs(paper, dpi=DPI) + api.join_card_jobs("K7QX", "http://192.168.1.20:8550/t/K7QX",
                                                                        paper, DPI))
    return api.game_jobs(game, paper=paper, backs="duplex-long", dpi=DPI)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", [*D.GAMES, None])
def test_nothing_is_printed_within_5_mm_of_the_paper_edge(game: str | None, paper: str) -> None:
    for i, job in enumerate(every_job(game, paper)):
        if job.kind == "blank":
            continue
        img = paint(job)
        assert ImageChops.invert(img).getbbox() is not None  # the page has something on it
        assert ink_near_edge(img, SAFE_MM) == [], (game, paper, i, job.kind, job.label)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "mini", "bridge"])
def test_every_cut_line_keeps_a_crop_mark_inside_the_safe_zone(paper: str, card: str) -> None:
    lay = layout_cards(18, LayoutOptions(paper=paper, card=card, backs="duplex-long", dpi=500))
    safe = mm_to_px(SAFE_MM, 300)
    W, H = lay.page_px
    for page in lay.pages:
        if page.kind == "back":
            assert page.marks == []  # no ink near a back's edge: cutting is done from the fronts
            continue
        for x0, y0, x1, y1 in page.marks:
            assert safe <= min(x0, x1) and max(x0, x1) <= W - safe and safe <= min(y0, y1) and max(y0, y1) <= H - safe
            assert abs(x1 - x0) + abs(y1 - y0) >= mm_to_px(1.8, 300)
        xs = {v for s in page.slots for v in (s.x, s.x + s.w)}
        ys = {v for s in page.slots for v in (s.y, s.y + s.h)}
        assert xs <= {x0 for x0, _, x1, _ in page.marks if x0 == x1}, "a vertical cut without a guide"
        assert ys <= {y0 for _, y0, _, y1 in page.marks if y0 == y1}, "a horizontal cut without a guide"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_game_prints_portrait_so_the_flip_is_the_long_edge_default(paper: str) -> None:
    """Issue 20.3: Lutèce printed landscape (same 8 pages as portrait) with its backs mirrored
    top-bottom; now the orientation needing fewer sheets wins, portrait on a tie."""
    for game in D.GAMES:
        for job in api.game_jobs(game, paper=paper, backs="duplex-long", dpi=50):
            assert job.paper_mm[0] < job.paper_mm[1], (game, paper)
    assert len(api.game_jobs("lutece", paper=paper, backs="duplex-long", dpi=50, guide=False)) == 8
    # asked for, landscape is honoured
    jobs = api.game_jobs("lutece", paper=paper, backs="duplex-long", dpi=50, orientation="landscape", guide=False)
    assert all(j.paper_mm[0] > j.paper_mm[1] for j in jobs)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", D.GAMES)
def test_each_game_starts_with_how_to_print(game: str, paper: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20.4: the first sheet says what to print (pages, flip edge, 100 %, card weight), lists the
    components with counts and pages, the cutting order, and has a duplex test for opaque card."""
    from companion.printing import engine

    texts: list[str] = []
    orig = engine.fit_text
    monkeypatch.setattr(engine, "fit_text", lambda d, box, text, *a, **k: (texts.append(text), orig(d, box, text, *a, **k))[1])
    jobs = api.game_jobs(game, paper=paper, backs="duplex-long", dpi=50)
    assert [j.kind for j in jobs[:2]] == ["guide", "guide"]
    engine.paint(jobs[0])
    engine.paint(jobs[1])
    text = "\n".join(texts)
    assert f"{len(jobs)} pages" in text and "flip on LONG edge" in text and "100 %" in text and "g/m²" in text
    for item in D.game_items(game):
        assert item.title in text
        if isinstance(item, D.Deck):
            assert f"{item.count()} × {item.title}" in text
    assert "Cutting order" in text and "Duplex test" in text and "A · cut along this line" in text
    assert "offset now 0,0 mm" in text  # the back: the rulers
    assert api.game_jobs(game, paper=paper, dpi=50, guide=False)[0].kind != "guide"
    one = api.game_jobs(game, D.game_items(game)[0].name, paper=paper, dpi=50)
    assert one[0].kind != "guide"  # one deck: no guide sheet
