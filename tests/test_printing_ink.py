"""--ink-saver roughly halves the ink of every page of every game (issue 34.2), measured on the
rendered pages: mean grey coverage (0 = white paper, 1 = solid black) of each page with the
option at most 0.6 × the same page without it. The how-to-print sheet (black text on white,
the same in both) and the blank backs of board pages have no colour to save and are left out."""

from __future__ import annotations

import pytest
from PIL import ImageStat

from companion.printing import decks as D
from companion.printing.api import game_jobs
from companion.printing.engine import paint

DPI = 100  # low enough to be quick; at 50 dpi the 2-pixel minimum line width is most of a thin line


def coverage(job: object) -> float:
    return 1 - ImageStat.Stat(paint(job).convert("L")).mean[0] / 255  # type: ignore[arg-type]


@pytest.mark.parametrize("game", D.GAMES)
def test_ink_saver_halves_every_page(game: str) -> None:
    full = game_jobs(game, dpi=DPI, backs="duplex-long", guide=False)
    saver = game_jobs(game, dpi=DPI, backs="duplex-long", guide=False, ink_saver=True)
    assert len(full) == len(saver)
    bad = []
    pages = 0
    for n, (a, b) in enumerate(zip(full, saver, strict=True), start=1):
        assert a.kind == b.kind
        if a.kind not in ("cards", "board"):
            continue
        pages += 1
        ca, cb = coverage(a), coverage(b)
        if cb > 0.6 * ca:
            bad.append(f"page {n} ({a.kind}): {100 * ca:.1f} % -> {100 * cb:.1f} %")
    assert pages and not bad, bad
