"""LUTETIA's printed material: plan, vote and modification cards, the track, the markers.

The deck data (what is printed, how many copies; from shared/rules/lutetia.md) and the card
renderers (Pillow, on the shared pieces of companion/printing/cards.py). The area names and
colours come from the rules (COLOURS and the default of the `areas` option,
"green-yellow-blue-red-purple"), as do the modification counts (options mod_1..3). Texts: keys
"lutetia.print.*" of the game's own catalog (locale/), the shared pieces' "print.*" of the platform's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from companion import i18n
from companion.games.lutetia import rules
from companion.i18n import t
from companion.printing import art
from companion.printing.art import INK, PAPER, WHITE, Canvas, mix, rgb
from companion.printing.board import board_renderer, dashed_line
from companion.printing.cards import (
    back_pattern,
    colour_name,
    corner_index,
    footer,
    frame,
    header,
    renderer,
    shape_corners,
    track_cells,
)
from companion.printing.decks import PLAYER_COLOURS, Board, CardSpec, Deck, check_lang, face
from companion.printing.fonts import big_glyph, fit_text
from companion.printing.units import mm_to_px, parse_length

TITLE = "LUTETIA"  # on the how-to-print sheet

LUTETIA_AREAS: list[tuple[str, str]] = [
    ("green", "#3d8b3d"), ("yellow", "#e3a800"), ("blue", "#2462b5"),
    ("red", "#c4302b"), ("purple", "#7d3c98"),
]
LUTETIA_VOTES = ["10", "20", "30", "70", "M", "R"]
LUTETIA_MOD_DECK = {1: 12, 2: 12, 3: 12}


def _lutetia_game() -> Any:
    return rules


def _option_default(mod: Any, name: str) -> Any:
    for opt in getattr(mod, "OPTIONS", None) or []:
        if getattr(opt, "name", None) == name:
            return opt.default
    return None


def lutetia_areas(areas: str | None = None) -> list[tuple[str, str]]:
    """[(name, "#rrggbb")] x 5. `areas` is the game's option ("green-yellow-blue-red-purple");
    names and colours come from companion.games.lutetia (COLOURS, option `areas`) when present."""
    mod = _lutetia_game()
    colours = dict(LUTETIA_AREAS)
    if mod is not None and isinstance(getattr(mod, "COLOURS", None), dict):
        colours.update({str(k): str(v) for k, v in mod.COLOURS.items()})
    preset = areas or (_option_default(mod, "areas") if mod is not None else None)
    if not preset:
        return [(n, colours[n]) for n, _ in LUTETIA_AREAS]
    names = str(preset).lower().split("-")
    if len(names) != 5 or any(n not in colours for n in names):
        raise ValueError(f"areas must be five colours like green-yellow-blue-red-purple, not {preset!r}")
    return [(n, colours[n]) for n in names]


def default_mod_deck() -> dict[int, int]:
    mod = _lutetia_game()
    out = dict(LUTETIA_MOD_DECK)
    if mod is not None:
        for v in (1, 2, 3):
            d = _option_default(mod, f"mod_{v}")
            if isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= 99:
                out[v] = d
    return out


def parse_mod_deck(value: Any) -> dict[int, int]:
    """`mod_deck` as "12,12,12", [12, 12, 12] or {1: 12, 2: 12, 3: 12} -> {value: count}."""
    if value is None:
        return default_mod_deck()
    try:
        if isinstance(value, dict):
            out = {int(k): int(v) for k, v in value.items()}
        else:
            parts = str(value).replace(";", ",").split(",") if isinstance(value, str) else list(value)
            out = {i + 1: int(str(v).strip()) for i, v in enumerate(parts)}
    except (ValueError, TypeError):
        out = {}
    if set(out) != {1, 2, 3} or any(not 0 <= v <= 99 for v in out.values()):
        shown = value if isinstance(value, str) else ",".join(map(str, value)) if isinstance(value, list | tuple) else value
        raise ValueError(f"--mod-deck (mod_deck) needs three whole numbers 0..99, the cards of value 1, 2 and 3, "
                         f"e.g. 12,12,12 (not {str(shown)[:30]!r})")
    return out


# ---- LUTETIA -------------------------------------------------------------------------------
def lutetia_plans(areas: str | None = None, lang: str = "en") -> Deck:
    """60 plan cards: per colour area its 10 numbers + 2 Roman plans; back = area colour."""
    lang = check_lang(lang)
    cards = []
    for a, (name, colour) in enumerate(lutetia_areas(areas)):
        lo, hi = a * 10 + 1, a * 10 + 10
        back = face("lutetia.plan_back", area=a, name=name, colour=colour, lo=lo, hi=hi, lang=lang)
        for n in range(lo, hi + 1):
            cards.append(CardSpec("plan", f"plan {n}", face("lutetia.plan", number=n, colour=colour, lo=lo, hi=hi,
                                                            name=name, lang=lang), back))
        cards.append(CardSpec("roman", f"roman {name}", face("lutetia.roman", name=name, colour=colour, lo=lo, hi=hi,
                                                              lang=lang), back, copies=2))
    return Deck("lutetia", "plans", t(lang, "lutetia.print.deck.plans"), tuple(cards), lang=lang)


def lutetia_votes(lang: str = "en") -> Deck:
    """6 vote-card sets (10, 20, 30, 70, M, R), one per player colour; back = player colour."""
    lang = check_lang(lang)
    cards = []
    for name, colour in PLAYER_COLOURS:
        back = face("lutetia.vote_back", name=name, colour=colour, lang=lang)
        for v in LUTETIA_VOTES:
            cards.append(CardSpec("vote", f"vote {name} {v}", face("lutetia.vote", value=v, name=name, colour=colour,
                                                                   lang=lang), back))
    return Deck("lutetia", "votes", t(lang, "lutetia.print.deck.votes"), tuple(cards), lang=lang)


def lutetia_mods(mod_deck: Any = None, lang: str = "en") -> Deck:
    """Modification cards 1, 2, 3 (12 each by default; counts from the `mod_deck` option)."""
    lang = check_lang(lang)
    counts = parse_mod_deck(mod_deck)
    back = face("lutetia.mod_back", lang=lang)
    cards = tuple(CardSpec("mod", f"mod {v}", face("lutetia.mod", value=v, lang=lang), back, copies=counts[v])
                  for v in (1, 2, 3) if counts[v])
    return Deck("lutetia", "mods", t(lang, "lutetia.print.deck.mods"), cards, lang=lang)


def lutetia_track(areas: str | None = None, space: str = "32mm", lang: str = "en") -> Board:
    """The track 1..50 (five colour areas) with the virtual spaces 51-55, in pieces that join."""
    lang = check_lang(lang)
    return Board("lutetia", "track", t(lang, "lutetia.print.deck.track"),
                 (("areas", tuple(lutetia_areas(areas))), ("space", space), ("lang", lang),
                  ("renderer", "lutetia.track")), lang=lang)


def lutetia_markers(lang: str = "en") -> Deck:
    """The two track markers the rules name (Miraculix: the approved position; Asterix: the
    proposal), as round tokens, the same on both sides."""
    lang = check_lang(lang)
    pos = face("marker.token", label="P", caption="lutetia.print.marker.position", colour="#8a8f98", lang=lang)
    prop = face("marker.token", label="+", caption="lutetia.print.marker.proposal", colour="#e08a1e", lang=lang)
    cards = (CardSpec("marker", "position", pos, pos), CardSpec("marker", "proposal", prop, prop))
    return Deck("lutetia", "markers", t(lang, "lutetia.print.deck.markers"), cards, card="26mm", shape="circle",
                gap="4mm", bleed="1.5mm", lang=lang)



# ---- LUTETIA -------------------------------------------------------------------------------

@renderer("lutetia.plan")
def lutetia_plan(c: Canvas, number: int, colour: str, lo: int, hi: int, lang: str = "en",
                 name: str | None = None) -> None:
    col = rgb(colour)
    top = header(c, col, str(number), t(lang, "lutetia.print.plan_range", lo=lo, hi=hi))
    bottom = footer(c, col, 7.5, shape=name)
    strip_h = c.u(6)
    strip = (c.b + c.u(5), bottom - c.u(4) - strip_h, c.b + c.w - c.u(5), bottom - c.u(4))
    track_cells(c, strip, lo, hi, col, number)
    text_top = strip[1] - c.u(7)
    r = min(c.u(24), (text_top - top - c.u(6)) // 2)
    cy = (top + text_top) // 2
    c.draw.ellipse((c.cx - r, cy - r, c.cx + r, cy + r), fill=WHITE if c.saver else mix(col, PAPER, 0.82),
                   outline=mix(col, PAPER, 0.5), width=max(2, c.u(0.5)))
    k = int(r * 0.72)
    big_glyph(c.draw, (c.cx - k - c.u(2), cy - k, c.cx + k + c.u(2), cy + k), str(number), kind="serif",
              fill=mix(col, WHITE, 0.6) if c.saver else col, stroke=max(2, c.u(0.5)), stroke_fill=INK)
    fit_text(c.draw, (strip[0], text_top, strip[2], strip[1] - c.u(1)),
             t(lang, "lutetia.print.plan_rule", number=number), kind="sans", max_size=c.u(2.6), fill=INK)


@renderer("lutetia.roman")
def lutetia_roman(c: Canvas, name: str, colour: str, lo: int, hi: int, lang: str = "en") -> None:
    col = rgb(colour)
    top = header(c, col, "R", t(lang, "lutetia.print.roman_range", lo=lo, hi=hi))
    bottom = footer(c, col, 7.5, shape=name)
    strip_h = c.u(6)
    strip = (c.b + c.u(5), bottom - c.u(4) - strip_h, c.b + c.w - c.u(5), bottom - c.u(4))
    track_cells(c, strip, lo, hi, col, None)
    icon_box = (c.b + c.u(14), top + c.u(5), c.b + c.w - c.u(14), top + c.u(37))
    art.icon_helmet(c.draw, icon_box, mix(col, WHITE, 0.75) if c.saver else mix(col, PAPER, 0.25), INK)
    fit_text(c.draw, (c.b + c.u(5), icon_box[3] + c.u(1), c.b + c.w - c.u(5), icon_box[3] + c.u(10)),
             t(lang, "lutetia.print.roman_title", colour=colour_name(lang, name)), kind="serif", max_size=c.u(6.5),
             fill=col)
    fit_text(c.draw, (c.b + c.u(6), icon_box[3] + c.u(11), c.b + c.w - c.u(6), strip[1] - c.u(2)),
             t(lang, "lutetia.print.roman_rule", lo=lo, hi=hi), kind="sans", max_size=c.u(3.0), fill=INK)


@renderer("lutetia.plan_back")
def lutetia_plan_back(c: Canvas, area: int, name: str, colour: str, lo: int, hi: int, lang: str = "en") -> None:
    back_pattern(c, rgb(colour), t(lang, "lutetia.print.plan"), f"{lo}–{hi} · {colour_name(lang, name)}",
                 art.icon_temple, shape=name)


VOTE_TEXT = {  # catalog keys: title, rule
    "M": ("lutetia.print.power", "lutetia.print.power_rule"),
    "R": ("lutetia.print.roman", "lutetia.print.roman_vote_rule"),
}


@renderer("lutetia.vote")
def lutetia_vote(c: Canvas, value: str, name: str, colour: str, lang: str = "en") -> None:
    col = rgb(colour)
    panel = frame(c, col)
    corner_index(c, value, col if sum(col) < 600 else INK, panel, size_mm=6.5)
    shape_corners(c, name, panel, 6.5)
    px0, py0, px1, py1 = panel
    big = (px0 + c.u(6), py0 + c.u(13), px1 - c.u(6), py0 + c.u(46))
    ink = col if sum(col) < 600 else mix(col, INK, 0.3)
    big_glyph(c.draw, big, value, kind="serif", fill=mix(col, WHITE, 0.55) if c.saver else ink,
              stroke=max(2, c.u(0.55)), stroke_fill=INK)
    if value in VOTE_TEXT:
        title, rule = (t(lang, key) for key in VOTE_TEXT[value])
        fit_text(c.draw, (px0 + c.u(4), big[3] + c.u(3), px1 - c.u(4), big[3] + c.u(11)), title,
                 kind="serif", max_size=c.u(6.5), fill=INK)
        fit_text(c.draw, (px0 + c.u(5), big[3] + c.u(12), px1 - c.u(5), py1 - c.u(10)), rule,
                 kind="sans", max_size=c.u(3.2), fill=INK)
    else:
        fit_text(c.draw, (px0 + c.u(4), big[3] + c.u(3), px1 - c.u(4), big[3] + c.u(11)), t(lang, "lutetia.print.vote"),
                 kind="serif", max_size=c.u(6.5), fill=INK)
        pips = int(value) // 10
        r = c.u(2.1)
        rows = [pips] if pips <= 4 else [4, pips - 4]
        y = big[3] + c.u(17)
        for n in rows:
            art.dots_row(c, c.cx, y, n, r, fill=ink, gap=c.u(1.6))
            y += c.u(6)
    fit_text(c.draw, (px0 + c.u(4), py1 - c.u(8), px1 - c.u(4), py1 - c.u(2.5)), colour_name(lang, name),
             kind="bold", max_size=c.u(3.2), fill=mix(col, INK, 0.5))


@renderer("lutetia.vote_back")
def lutetia_vote_back(c: Canvas, name: str, colour: str, lang: str = "en") -> None:
    back_pattern(c, rgb(colour), t(lang, "lutetia.print.vote"), colour_name(lang, name), art.icon_ballot, shape=name)


MOD_COLOUR = rgb("#7a5230")


@renderer("lutetia.mod")
def lutetia_mod(c: Canvas, value: int, lang: str = "en") -> None:
    col = MOD_COLOUR
    panel = frame(c, col)
    px0, py0, px1, py1 = panel
    corner_index(c, f"±{value}", col, panel, size_mm=5)
    big = (px0 + c.u(6), py0 + c.u(11), px1 - c.u(6), py0 + c.u(36))
    big_glyph(c.draw, big, f"±{value}", kind="serif", fill=mix(col, WHITE, 0.6) if c.saver else mix(col, PAPER, 0.1),
              stroke=max(2, c.u(0.5)), stroke_fill=INK)
    art.dots_row(c, c.cx, py0 + c.u(41), value, c.u(2.0), fill=col, gap=c.u(1.8))
    art.icon_arrows(c.draw, (px0 + c.u(9), py0 + c.u(45), px1 - c.u(9), py0 + c.u(50)), INK)
    fit_text(c.draw, (px0 + c.u(4), py0 + c.u(52), px1 - c.u(4), py0 + c.u(59)),
             t(lang, "lutetia.print.mod"), kind="serif", max_size=c.u(5), fill=INK)
    fit_text(c.draw, (px0 + c.u(5), py0 + c.u(60), px1 - c.u(5), py1 - c.u(8.5)),
             t(lang, "lutetia.print.mod_rule", value=value), kind="sans", max_size=c.u(3.0), fill=INK)


@renderer("lutetia.mod_back")
def lutetia_mod_back(c: Canvas, lang: str = "en") -> None:
    back_pattern(c, MOD_COLOUR, t(lang, "lutetia.print.mod"), "±1 · ±2 · ±3", art.icon_shield)


# ---- the track (a board: drawn whole, cut into pieces by companion/printing/board.py) --------
# A serpentine of 30 mm spaces, one row per colour area (1-10, 11-20, ...), plus the virtual
# spaces 51-55.
BOARD_BORDER_MM = 10.0
TITLE_MM = 12.0


def track_geometry(space_mm: float) -> tuple[float, float, dict[int, tuple[int, int]]]:
    """Board size (mm) and the (col, row) of every space 1..55 on the serpentine."""
    cells: dict[int, tuple[int, int]] = {}
    for n in range(1, 56):
        row, k = (n - 1) // 10, (n - 1) % 10
        col = k if row % 2 == 0 else 9 - k
        cells[n] = (col, row)
    w = 10 * space_mm + 2 * BOARD_BORDER_MM
    h = 6 * space_mm + 2 * BOARD_BORDER_MM + TITLE_MM
    return w, h, cells


@lru_cache(maxsize=4)
def render_track(areas: tuple[tuple[str, str], ...], space: str, dpi: int, lang: str = "en",
                 saver: bool = False) -> Image.Image:
    """The track; `saver`: the ink saver (pale spaces, a light colour band, outlined numbers)."""
    s_mm = parse_length(space)
    w_mm, h_mm, cells = track_geometry(s_mm)

    def u(mm: float) -> int:
        return mm_to_px(mm, dpi)

    img = Image.new("RGB", (u(w_mm), u(h_mm)), WHITE if saver else PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((u(2), u(2), img.width - u(2), img.height - u(2)), outline=mix(PAPER, INK, 0.5), width=u(0.6))
    half = img.width // 2
    fit_text(d, (u(BOARD_BORDER_MM), u(4), half - u(20), u(3 + TITLE_MM - 2)),
             i18n.t(lang, "lutetia.print.track_title"), kind="bold", max_size=u(5.5), fill=INK, align="left")
    fit_text(d, (half + u(20), u(4), img.width - u(BOARD_BORDER_MM), u(3 + TITLE_MM - 2)),
             i18n.t(lang, "lutetia.print.track_virtual"), kind="bold", max_size=u(4.5), fill=INK, align="right")
    x0, y0 = BOARD_BORDER_MM, BOARD_BORDER_MM + TITLE_MM
    lw = max(2, u(0.35 if saver else 0.5))
    # connectors between rows (behind the spaces)
    for n in range(1, 55):
        (c1, r1), (c2, r2) = cells[n], cells[n + 1]
        a = (u(x0 + (c1 + 0.5) * s_mm), u(y0 + (r1 + 0.5) * s_mm))
        b = (u(x0 + (c2 + 0.5) * s_mm), u(y0 + (r2 + 0.5) * s_mm))
        d.line([a, b], fill=mix(PAPER, INK, 0.15 if saver else 0.35), width=u(1.5 if saver else 3))
    for n, (col, row) in cells.items():
        virtual = n > 50
        name, colour = areas[min(4, (n - 1) // 10)] if not virtual else ("virtual", "#9a9a9a")
        c = rgb(colour)
        pad = u(1.2)
        box = (u(x0 + col * s_mm) + pad, u(y0 + row * s_mm) + pad,
               u(x0 + (col + 1) * s_mm) - pad, u(y0 + (row + 1) * s_mm) - pad)
        if virtual:
            d.rounded_rectangle(box, radius=u(3), fill=WHITE)
            _dashed_rect(d, box, INK, lw, u(2.5))
        else:
            band = mix(c, WHITE, 0.65) if saver else c
            d.rounded_rectangle(box, radius=u(3), fill=WHITE if saver else mix(c, PAPER, 0.72), outline=INK,
                                width=lw)
            d.rounded_rectangle((box[0], box[1], box[2], box[1] + u(5)), radius=u(3), fill=band)
            d.rectangle((box[0], box[1] + u(3), box[2], box[1] + u(5)), fill=band)
            d.rounded_rectangle(box, radius=u(3), outline=INK, width=lw)
            # the area's shape code (colour-blind safe), in the colour band and big in the corner
            h = u(4.6) // 2
            art.colour_shape(d, (box[2] - u(1.5) - 2 * h, box[1] + u(0.2), box[2] - u(1.5), box[1] + u(0.2) + 2 * h),
                             name, fill=WHITE, outline=INK, width=max(2, u(0.35)))
        ink = mix(c, INK, 0.55) if not virtual else mix(PAPER, INK, 0.6)
        if saver:  # the number outlined in the area's dark tone
            big_glyph(d, (box[0] + u(3), box[1] + u(7), box[2] - u(3), box[3] - u(4)), str(n), kind="serif",
                      fill=WHITE, stroke=max(2, u(0.45)), stroke_fill=ink)
        else:
            big_glyph(d, (box[0] + u(3), box[1] + u(7), box[2] - u(3), box[3] - u(4)), str(n), kind="serif",
                      fill=ink)
        if n % 10 == 1 and not virtual:
            fit_text(d, (box[0] + u(1), box[1] + u(0.5), box[2] - u(1), box[1] + u(4.5)),
                     f"{n}–{n + 9}", kind="bold", max_size=u(3.2), fill=mix(c, INK, 0.6) if saver else art.text_on(c))
    # the start space marker ("before 1")
    sx, sy = u(x0) - u(BOARD_BORDER_MM * 0.8), u(y0 + s_mm / 2)
    d.polygon([(sx, sy - u(4)), (sx + u(6), sy), (sx, sy + u(4))], fill=INK)
    return img


def _dashed_rect(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, width: int, dash: int) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        dashed_line(d, a, b, fill, width, dash)


def track_size_mm(params: dict[str, Any]) -> tuple[float, float]:
    w, h, _ = track_geometry(parse_length(params["space"]))
    return w, h


@board_renderer("lutetia.track", track_size_mm)
def track_image(params: dict[str, Any], dpi: int) -> Image.Image:
    areas = tuple(tuple(a) for a in params["areas"])
    return render_track(areas, params["space"], dpi, params.get("lang", "en"),  # type: ignore[arg-type]
                        bool(params.get("saver")))


# `companion print lutetia --mod-deck ... --areas ...` (companion/printing/decks.py: options)
OPTIONS = {
    "mod_deck": "modification cards per value 1,2,3 (default 12,12,12)",
    "areas": "area colours, e.g. green-yellow-blue-red-purple (the game's option)",
}
# docs/print-lutetia-<name>.png besides the first page of each deck: the how-to-print sheet, a sheet of vote backs
PREVIEWS = {"guide": (None, 0), "votes-backs": ("votes", 1)}


def items(lang: str = "en", mod_deck: Any = None, areas: str | None = None, **_: Any) -> list[Deck | Board]:
    """Everything printable for LUTETIA, in print order (options mod_deck, areas)."""
    return [lutetia_plans(areas, lang), lutetia_votes(lang), lutetia_mods(mod_deck, lang),
            lutetia_track(areas, lang=lang), lutetia_markers(lang)]
