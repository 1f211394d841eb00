"""Lutèce's printed material: the mini action cards (deck data and renderers)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.printing import art
from companion.printing.art import INK, PAPER, Canvas, mix, rgb
from companion.printing.cards import (
    back_pattern,
    colour_name,
    corner_index,
    frame,
    renderer,
    shape_corners,
)
from companion.printing.decks import PLAYER_COLOURS, Board, CardSpec, Deck, check_lang, face
from companion.printing.fonts import big_glyph, fit_text, font

TITLE = "Lutèce"  # on the how-to-print sheet

LUTECE_COLOURS = PLAYER_COLOURS[:5]
LUTECE_CHARACTERS = ["A", "B", "C", "D", "E"]
LUTECE_PLACES = ["I", "II", "III", "IV", "V"]


# ---- Lutece --------------------------------------------------------------------------------
def lutece_actions(lang: str = "en") -> Deck:
    """60 mini action cards: per player colour A-E, I-V and 2 Revenus (12 x 5 colours)."""
    lang = check_lang(lang)
    cards = []
    for name, colour in LUTECE_COLOURS:
        back = face("lutece.action_back", name=name, colour=colour, lang=lang)
        for ch in LUTECE_CHARACTERS:
            cards.append(CardSpec("character", f"{name} {ch}", face("lutece.action", label=ch, kind="character",
                                                                    name=name, colour=colour, lang=lang), back))
        for pl in LUTECE_PLACES:
            cards.append(CardSpec("place", f"{name} {pl}", face("lutece.action", label=pl, kind="place",
                                                                name=name, colour=colour, lang=lang), back))
        cards.append(CardSpec("revenus", f"{name} revenus", face("lutece.action", label="+3", kind="revenus",
                                                                 name=name, colour=colour, lang=lang), back, copies=2))
    return Deck("lutece", "actions", t(lang, "lutece.print.deck.actions"), tuple(cards), card="mini", lang=lang)



# ---- Lutece --------------------------------------------------------------------------------
LUTECE_TEXT = {"character": "lutece.print.character", "place": "lutece.print.place", "revenus": "lutece.print.revenus"}


@renderer("lutece.action")
def lutece_action(c: Canvas, label: str, kind: str, name: str, colour: str, lang: str = "en") -> None:
    col = rgb(colour)
    panel = frame(c, col, border_mm=2.6, radius_mm=2.5)
    px0, py0, px1, py1 = panel
    ink = col if sum(col) < 600 else mix(col, INK, 0.3)
    corner_index(c, label, ink, panel, size_mm=5)
    shape_corners(c, name, panel, 5.0, pad_mm=1.2)
    icon_box = (px0 + c.u(9), py0 + c.u(7), px1 - c.u(9), py0 + c.u(25))
    tint = mix(col, PAPER, 0.8 if c.saver else 0.55)
    if kind == "character":
        art.icon_person(c.draw, icon_box, tint, INK)
    elif kind == "place":
        art.icon_temple(c.draw, icon_box, tint, INK)
    else:
        gold = rgb("#e8b923")
        art.icon_coin(c.draw, icon_box, mix(gold, PAPER, 0.6) if c.saver else gold, INK, "+3", font("serif", c.u(6)))
    big = (px0 + c.u(3), icon_box[3] + c.u(2), px1 - c.u(3), icon_box[3] + c.u(17))
    big_glyph(c.draw, big, label if kind != "revenus" else "+3", kind="serif",
              fill=mix(col, PAPER, 0.7) if c.saver else ink, stroke=max(2, c.u(0.45)),
              stroke_fill=mix(col, INK, 0.6) if c.saver else INK)
    caption = t(lang, LUTECE_TEXT[kind]) + ("\n" + t(lang, "lutece.print.revenus_gold") if kind == "revenus" else "")
    fit_text(c.draw, (px0 + c.u(3), big[3] + c.u(1.5), px1 - c.u(3), py1 - c.u(6)), caption,
             kind="bold", max_size=c.u(3.6), fill=INK)
    fit_text(c.draw, (px0 + c.u(3), py1 - c.u(5.5), px1 - c.u(3), py1 - c.u(1.5)),
             colour_name(lang, name), kind="bold", max_size=c.u(2.4), fill=mix(col, INK, 0.5))


@renderer("lutece.action_back")
def lutece_action_back(c: Canvas, name: str, colour: str, lang: str = "en") -> None:
    back_pattern(c, rgb(colour), t(lang, "lutece.print.action"), colour_name(lang, name),
                 lambda d, box, fill, line: art.icon_coin(d, box, fill, line), shape=name)


def items(lang: str = "en", **_: Any) -> list[Deck | Board]:
    """Everything printable for Lutèce, in print order."""
    return [lutece_actions(lang)]
