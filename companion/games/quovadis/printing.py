"""Quo Vadis' printed material: laurel chips, senators and the Caesar token (deck data and
renderers)."""

from __future__ import annotations

from typing import Any

from companion.i18n import t
from companion.printing import art
from companion.printing.art import INK, WHITE, Canvas, mix, rgb
from companion.printing.cards import (
    renderer,
)
from companion.printing.decks import PLAYER_COLOURS, Board, CardSpec, Deck, check_lang, face
from companion.printing.fonts import big_glyph, fit_text

TITLE = "Quo Vadis"  # on the how-to-print sheet

LAUREL_CHIPS: list[tuple[int, bool, int]] = [  # value, caesar, count
    (1, False, 18), (2, False, 8), (3, False, 15), (4, False, 9), (5, False, 6), (2, True, 6),
]
LAUREL_COLOURS = {1: "#b0773c", 2: "#8fa3ad", 3: "#3f8f5a", 4: "#2f6fb0", 5: "#b03a3a", 0: "#6b3d8f"}


# ---- Quo Vadis -----------------------------------------------------------------------------
def quovadis_laurels(diameter: str = "24mm", lang: str = "en") -> Deck:
    """Laurel chips: 18 x 1 (open supply) and the pool 8 x 2, 15 x 3, 9 x 4, 6 x 5, 6 x 2 Caesar."""
    lang = check_lang(lang)
    back = face("quovadis.laurel_back")
    cards = []
    for value, caesar, count in LAUREL_CHIPS:
        colour = LAUREL_COLOURS[0 if caesar else value]
        name = f"laurel {value}" + (" caesar" if caesar else "")
        kind = "caesar" if caesar else ("supply" if value == 1 else "laurel")
        cards.append(CardSpec(kind, name, face("quovadis.laurel", value=value, caesar=caesar, colour=colour,
                                               lang=lang), back, copies=count))
    return Deck("quovadis", "laurels", t(lang, "quovadis.print.deck.laurels"), tuple(cards), card=diameter,
                shape="circle", gap="4mm", bleed="1.5mm", lang=lang)


QUOVADIS_SENATORS = 8  # per player (seed: "die acht Senatoren seiner Farbe"); 3–5 players


def quovadis_pieces(lang: str = "en") -> Deck:
    """8 senators in each of 5 player colours (with the colour's shape code) and the Caesar token,
    round, the same on both sides: for a group without the figures."""
    lang = check_lang(lang)
    cards = []
    for name, colour in PLAYER_COLOURS[:5]:
        f = face("marker.token", label="S", caption="", colour=colour, name=name, lang=lang)
        cards.append(CardSpec("senator", f"senator {name}", f, f, copies=QUOVADIS_SENATORS))
    caesar = face("marker.token", label="C", caption="quovadis.print.caesar", colour=LAUREL_COLOURS[0], lang=lang)
    cards.append(CardSpec("caesar", "caesar", caesar, caesar))
    return Deck("quovadis", "pieces", t(lang, "quovadis.print.deck.pieces"), tuple(cards), card="20mm",
                shape="circle", gap="4mm", bleed="1.5mm", lang=lang)



# ---- Quo Vadis -----------------------------------------------------------------------------

@renderer("quovadis.laurel")
def quovadis_laurel(c: Canvas, value: int, caesar: bool, colour: str, lang: str = "en") -> None:
    col = rgb(colour)
    gold = rgb("#f2d16b")
    if c.saver:  # a pale tint of the value's colour, the laurel drawn in the colour itself
        c.draw.rectangle(c.full, fill=mix(col, WHITE, 0.86))
        leaf = mix(gold, INK, 0.35) if caesar else col
        gold = mix(gold, INK, 0.45)
    else:
        c.draw.rectangle(c.full, fill=col)
        leaf = gold if caesar else mix(col, WHITE, 0.6)
    r = c.w / 2
    cx, cy = c.cx, c.cy
    c.draw.ellipse((cx - r * 0.93, cy - r * 0.93, cx + r * 0.93, cy + r * 0.93), outline=leaf, width=max(1, c.u(0.3)))
    art.laurel(c.draw, cx, cy, r * 0.72, leaf, leaves=7, gap_deg=80)
    if caesar:
        box = (int(cx - r * 0.42), int(cy - r * 0.58), int(cx + r * 0.42), int(cy + r * 0.22))
        big_glyph(c.draw, box, str(value), kind="serif", fill=WHITE, stroke=max(2, c.u(0.4)), stroke_fill=INK)
        fit_text(c.draw, (int(cx - r * 0.5), int(cy + r * 0.25), int(cx + r * 0.5), int(cy + r * 0.5)),
                 t(lang, "quovadis.print.caesar"), kind="bold", max_size=c.u(3), fill=gold)
    else:
        box = (int(cx - r * 0.45), int(cy - r * 0.5), int(cx + r * 0.45), int(cy + r * 0.5))
        big_glyph(c.draw, box, str(value), kind="serif", fill=WHITE, stroke=max(2, c.u(0.4)), stroke_fill=INK)


@renderer("quovadis.laurel_back")
def quovadis_laurel_back(c: Canvas) -> None:
    col = rgb("#2f5d3a")
    c.draw.rectangle(c.full, fill=mix(col, WHITE, 0.85) if c.saver else col)  # ink saver: a pale green, dark leaves
    r = c.w / 2
    leaf = mix(col, WHITE, 0.2) if c.saver else mix(col, WHITE, 0.5)
    c.draw.ellipse((c.cx - r * 0.93, c.cy - r * 0.93, c.cx + r * 0.93, c.cy + r * 0.93), outline=leaf,
                   width=max(1, c.u(0.3)))
    art.laurel(c.draw, c.cx, c.cy, r * 0.72, leaf, leaves=7, gap_deg=80)
    art.laurel(c.draw, c.cx, c.cy, r * 0.36, mix(col, WHITE, 0.45 if c.saver else 0.35), leaves=4, gap_deg=90)


def items(lang: str = "en", **_: Any) -> list[Deck | Board]:
    """Everything printable for Quo Vadis, in print order."""
    return [quovadis_laurels(lang=lang), quovadis_pieces(lang)]
