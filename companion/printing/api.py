"""The functions the CLI and the web app call. Pure CPU work, no I/O: run them off the event
loop (e.g. `await asyncio.to_thread(render_pdf, game_id)`).

Every function takes `lang` ("en", "de", "fr"; default "en"): the language of the texts printed
on the cards and sheets. Anything else raises ValueError naming the choices."""

from __future__ import annotations

from typing import Any

from companion.printing import decks as D
from companion.printing.engine import (
    JPEG_QUALITY,
    PageJob,
    Progress,
    board_jobs,
    deck_jobs,
    guide_jobs,
    registration_jobs,
)
from companion.printing.layout import LayoutOptions
from companion.printing.runner import pdf_from_jobs

LAYOUT_KEYS = {"paper", "orientation", "card", "bleed", "margin", "gap", "dpi", "backs", "offset", "crop_marks"}
OTHER_KEYS = ("copies", "quality", "optimize", "workers", "progress", "lang", "ink_saver", "image_format")


def split_options(layout: dict[str, Any], game: str | None = None) -> tuple[LayoutOptions, dict[str, Any]]:
    """(layout options, the rest); the rest's "game" holds the game's own print options
    (decks.options(game), e.g. a deck's counts) that were given."""
    own = D.options(game) if game is not None else {}
    unknown = set(layout) - LAYOUT_KEYS - set(OTHER_KEYS) - set(own)
    if unknown:
        raise TypeError(f"unknown print options: {', '.join(sorted(unknown))}")
    opts = LayoutOptions(**{k: v for k, v in layout.items() if k in LAYOUT_KEYS and v is not None})
    opts.normalised()  # validate early
    rest = {k: layout.get(k) for k in OTHER_KEYS}
    rest["lang"] = D.check_lang(rest["lang"])
    rest["game"] = {k: layout[k] for k in own if layout.get(k) is not None}
    return opts, rest


def select_items(game: str, deck: str | None = None, lang: str = "en", **options: Any) -> list[D.Deck | D.Board]:
    """The game's decks and boards (one `deck`, or all), with its own print `options`."""
    items = D.game_items(game, lang, **options)
    if deck is None or deck == "all":
        return items
    chosen = [i for i in items if i.name == deck.lower()]
    if not chosen:
        raise ValueError(f"unknown deck {deck!r} for {game}; choose one of {', '.join(i.name for i in items)}")
    return chosen


def game_jobs(game: str, deck: str | None = None, guide: bool | None = None, **layout: Any) -> list[PageJob]:
    """Page jobs of a game's printables. `guide` (default: when printing the whole game): start
    with the how-to-print sheet (what to print, checklist, cutting order, duplex test)."""
    opts, rest = split_options(layout, D.game_id(game))
    given = frozenset(k for k, v in layout.items() if k in LAYOUT_KEYS and v is not None)
    jobs: list[PageJob] = []
    parts: list[tuple[str, int, str, int, int]] = []
    chips: list[str] = []  # the diameters of the round pieces on the sheets, e.g. "24 mm"
    has_cards = has_board = False
    copies = int(rest["copies"] or 1)
    for item in select_items(game, deck, rest["lang"], **rest["game"]):
        start = len(jobs)
        if isinstance(item, D.Board):
            jobs += board_jobs(item, opts, ink_saver=bool(rest["ink_saver"]))
            pieces = sum(1 for j in jobs[start:] if j.kind == "board")
            parts.append(("board", pieces, item.title, start, len(jobs) - 1))
            has_board = True
        else:
            layout, item_jobs = deck_jobs(item, opts, copies=copies, given=given, ink_saver=bool(rest["ink_saver"]))
            jobs += item_jobs
            parts.append(("cards", item.count() * copies, item.title, start, len(jobs) - 1))
            if layout.options.shape == "circle":
                size = f"{layout.options.card[0]:g} mm"
                if size not in chips:
                    chips.append(size)
            else:
                has_cards = True
    if guide is None:
        guide = deck is None or deck == "all"
    if not guide:
        return jobs
    first = guide_jobs(D.printing(game).TITLE, [], opts, rest["lang"])
    n = len(first)
    items = [(k, c, t, a + n + 1, b + n + 1) for k, c, t, a, b in parts]
    return guide_jobs(D.printing(game).TITLE, items, opts, rest["lang"], chips=tuple(chips), board=has_board,
                      cards=has_cards) + jobs


def render_pdf(game: str, deck: str | None = None, *, progress: Progress | None = None, **layout: Any) -> bytes:
    """The PDF of a game's printables (all decks and boards, or one `deck`).

    layout: paper, orientation, card, bleed, margin, gap, dpi, backs, offset, crop_marks,
    copies (each card this many times), the game's own print options (decks.options(game), e.g. a
    deck's counts), quality (JPEG), optimize (smaller JPEG, slower), workers,
    image_format ("indexed": a small palette, Flate – crisp and small, the default; "jpeg": with
    quality), lang (language of the printed texts: "en", "de", "fr"), ink_saver (light tints and outlines
    instead of full-colour frames and backs).
    """
    jobs = game_jobs(game, deck, **layout)
    title = f"{D.game_id(game)} {deck or 'all'}"
    return pdf_from_jobs(jobs, title=title, quality=int(layout.get("quality") or JPEG_QUALITY),
                         workers=layout.get("workers"), progress=progress,
                         optimize=bool(layout.get("optimize")), image_format=layout.get("image_format") or "indexed")


def registration_pdf(paper: str = "a4", backs: str = "duplex-long", offset: Any = None, dpi: int = 300,
                     quality: int = JPEG_QUALITY, optimize: bool = False, lang: str = "en",
                     orientation: str | None = None, image_format: str = "indexed") -> bytes:
    """Two pages for measuring a printer's duplex offset (see docs/PRINTING.md), in `orientation`
    (portrait unless given: measure with the orientation the cards will be printed in)."""
    jobs = registration_jobs(paper, backs, offset, dpi, orientation=orientation, lang=D.check_lang(lang))
    return pdf_from_jobs(jobs, title="registration", quality=quality, workers=1, optimize=optimize,
                         image_format=image_format)


def join_card_jobs(code: str, url: str, paper: str = "a4", dpi: int = 300, lang: str = "en") -> list[PageJob]:
    from companion.i18n import t
    from companion.printing.decks import CardSpec, Deck, face

    lang = D.check_lang(lang)
    card = CardSpec("join", "join", face("join.card", code=str(code), url=str(url), lang=lang), None, copies=4)
    deck = Deck("table", "join", t(lang, "print.deck.join", code=code), (card,), card="90x125mm", lang=lang)
    opts = LayoutOptions(paper=paper, dpi=dpi, gap="6mm", bleed="0mm")
    return deck_jobs(deck, opts, given=frozenset({"gap", "bleed"}))[1]


def join_card_pdf(code: str, url: str, paper: str = "a4", dpi: int = 300, lang: str = "en") -> bytes:
    """One sheet of four join cards for a table: QR code of `url`, the code, the URL."""
    return pdf_from_jobs(join_card_jobs(code, url, paper, dpi, lang), title=f"join {code}", workers=1)


def join_card_png(code: str, url: str, dpi: int = 150, lang: str = "en") -> bytes:
    """A single join card as PNG bytes (for showing or sharing on screen)."""
    import io

    from companion.printing.cards import render_face
    from companion.printing.units import mm_to_px

    c = render_face("join.card", {"code": code, "url": url, "lang": D.check_lang(lang)}, mm_to_px(90, dpi),
                    mm_to_px(125, dpi), 0, dpi)
    buf = io.BytesIO()
    c.img.save(buf, "PNG")
    return buf.getvalue()
