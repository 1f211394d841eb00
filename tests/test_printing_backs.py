"""Face-down cards must not mark themselves (issue 20.1): the sheets are rendered, every back is
"cut out" with a 1 mm miscut and a 2 mm duplex shift in every direction, and the edge strips of
all backs of a face-down deck must look the same."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageStat

from companion.games.lutece import printing as LCP
from companion.games.lutetia import printing as LP
from companion.printing.decks import CardSpec, Deck, face
from companion.printing.engine import deck_jobs, encode
from companion.printing.layout import LayoutOptions
from companion.printing.units import mm_to_px

DPI = 200
SHIFT_MM = 2.0  # the printer moves the back side this much (any direction)
MISCUT_MM = 1.0  # the cut is this much off (any direction)
STRIP_MM = 0.7  # what one sees of an edge: this deep a strip inside the real cut


def face_down_decks() -> list[Deck]:
    return [LP.lutetia_votes(), LP.lutetia_plans(), LP.lutetia_mods("3,3,3"), LCP.lutece_actions()]


def edge_signatures(deck: Deck, paper: str, backs: str = "duplex-long", orientation: str | None = None,
                    ) -> dict[tuple[float, float, float, float], list[list[tuple[float, ...]]]]:
    """For every (shift x, shift y, miscut x, miscut y): per back, the mean colour of its four edge strips."""
    lay, jobs = deck_jobs(deck, LayoutOptions(paper=paper, dpi=DPI, backs=backs, orientation=orientation))
    u = lambda mm: mm_to_px(mm, DPI)  # noqa: E731
    strip = u(STRIP_MM)
    out: dict[tuple[float, float, float, float], list[list[tuple[float, ...]]]] = {}
    for page, job in zip(lay.pages, jobs, strict=True):
        if page.kind != "back":
            continue
        img = Image.open(io.BytesIO(encode(job, 85, image_format="jpeg").data)).convert("RGB")  # JPEG: the worst case
        for sx, sy, cx, cy in itertools.product((-SHIFT_MM, 0, SHIFT_MM), (-SHIFT_MM, 0, SHIFT_MM),
                                                (-MISCUT_MM, 0, MISCUT_MM), (-MISCUT_MM, 0, MISCUT_MM)):
            for s in page.slots:
                x0, y0 = s.x + u(sx + cx), s.y + u(sy + cy)
                x1, y1 = x0 + s.w, y0 + s.h
                boxes = [(x0, y0, x0 + strip, y1), (x0, y0, x1, y0 + strip),
                         (x1 - strip, y0, x1, y1), (x0, y1 - strip, x1, y1)]
                sig = [tuple(ImageStat.Stat(img.crop(b)).mean) for b in boxes]
                out.setdefault((sx, sy, cx, cy), []).append(sig)  # type: ignore[arg-type]
    return out


def spread(sigs: list[list[tuple[float, ...]]]) -> float:
    """The largest difference of one edge's mean colour between two backs (0-255)."""
    worst = 0.0
    for side in range(4):
        for ch in range(3):
            vals = [s[side][ch] for s in sigs]
            worst = max(worst, max(vals) - min(vals))
    return worst


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("deck", face_down_decks(), ids=lambda d: f"{d.game}-{d.name}")
def test_no_two_backs_of_a_face_down_deck_differ_at_the_edge(deck: Deck, paper: str) -> None:
    for case, sigs in edge_signatures(deck, paper).items():
        assert spread(sigs) <= 6, (deck.name, paper, case, spread(sigs))


def test_the_check_sees_the_old_tell() -> None:
    """Backs coloured to their edge, touching each other, in two colours by row: the check must fail."""
    cards = tuple(CardSpec("vote", f"v{i}", face("lutetia.vote", value="10", name="red", colour="#c8322b"),
                           face("lutetia.vote", value="10", name="x", colour="#c8322b" if i < 6 else "#2560b8"))
                  for i in range(9))
    sigs = edge_signatures(Deck("t", "t", "t", cards), "a4")
    assert spread(sigs[(0, SHIFT_MM, 0, 0)]) > 30
