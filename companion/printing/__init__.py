"""Print-and-play: card sheets, boards and join cards as PDFs (issue 6).

    render_pdf(game, deck=None, **layout) -> bytes      every deck/board of a game, or one
    join_card_pdf(code, url, paper="a4") -> bytes        a sheet of join cards for a table
    registration_pdf(paper, backs, offset) -> bytes      duplex offset test page
    companion.printing.cli.main(argv)                    `companion print ...`

Each takes lang="en" | "de" | "fr": the language of every text printed on cards and sheets
(catalog keys "print.*" in companion/i18n/locale/*/LC_MESSAGES/companion.po for the platform's
sheets, "<id>.print.*" in each game's own locale/ for its cards). printables/ holds the English files.

Modules: units (lengths), layout (pure positions), decks (what to print), cards/board/art
(drawing), engine (page jobs, painting), runner (parallel pages -> PDF), pdf (exact-size
PDF writer), printables (--all).
"""

from companion.printing.api import join_card_pdf, join_card_png, registration_pdf, render_pdf

__all__ = ["render_pdf", "join_card_pdf", "join_card_png", "registration_pdf"]
