"""Guess's printed material: five number cards 1..5 per seat, to guess with at a table without
phones – the small example of a game's printing module (docs/ADDING_A_GAME.md)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.printing import art
from companion.printing.art import INK, PAPER, Canvas, mix, rgb
from companion.printing.cards import back_pattern, colour_name, corner_index, frame, renderer
from companion.printing.decks import PLAYER_COLOURS, Board, CardSpec, Deck, check_lang, face
from companion.printing.fonts import big_glyph, fit_text

TITLE = "Guess"  # on the how-to-print sheet
SEATS = PLAYER_COLOURS[:2]


def numbers(lang: str = "en") -> Deck:
    """10 number cards: 1..5 for each of the two seats' colours, with a back in the seat's colour."""
    lang = check_lang(lang)
    cards = []
    for name, colour in SEATS:
        back = face("guess.back", name=name, colour=colour, lang=lang)
        for n in range(1, 6):
            cards.append(CardSpec("number", f"{name} {n}", face("guess.number", value=n, name=name, colour=colour,
                                                               lang=lang), back))
    return Deck("guess", "numbers", t(lang, "guess.print.deck.numbers"), tuple(cards), lang=lang)


@renderer("guess.number")
def number_card(c: Canvas, value: int, name: str, colour: str, lang: str = "en") -> None:
    col = rgb(colour)
    panel = frame(c, col)
    px0, py0, px1, py1 = panel
    corner_index(c, str(value), col, panel)
    big = (px0 + c.u(6), py0 + c.u(14), px1 - c.u(6), py1 - c.u(24))
    big_glyph(c.draw, big, str(value), kind="serif", fill=mix(col, PAPER, 0.7) if c.saver else col,
              stroke=max(2, c.u(0.45)), stroke_fill=mix(col, INK, 0.6) if c.saver else INK)
    fit_text(c.draw, (px0 + c.u(4), big[3] + c.u(3), px1 - c.u(4), py1 - c.u(9)), t(lang, "guess.print.number"),
             kind="bold", max_size=c.u(4), fill=INK)
    fit_text(c.draw, (px0 + c.u(4), py1 - c.u(8), px1 - c.u(4), py1 - c.u(3)), colour_name(lang, name),
             kind="bold", max_size=c.u(3), fill=mix(col, INK, 0.5))


@renderer("guess.back")
def number_back(c: Canvas, name: str, colour: str, lang: str = "en") -> None:
    back_pattern(c, rgb(colour), t(lang, "guess.print.back"), colour_name(lang, name),
                 lambda d, box, fill, line: art.icon_coin(d, box, fill, line), shape=name)


def items(lang: str = "en", **_: Any) -> list[Deck | Board]:
    """Everything printable for Guess, in print order."""
    return [numbers(lang)]
