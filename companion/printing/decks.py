"""What gets printed for each game: decks of cards (with copy counts and backs) and boards.

Data only; the drawing lives in cards.py / board.py. Counts come from the rules pages in
shared/rules/*.md (see the docstring of each builder). Card faces are `Face`s: a renderer
name plus plain parameters, so pages can be rendered in worker processes and a deck's
content can be hashed for the printables manifest.

LUTETIA colours: the rules only fix 21-30 blue and 31-40 red (flag `areas`). The area
names and colours come from companion.games.lutetia (COLOURS and the default of its `areas`
option, "green-yellow-blue-red-purple"), as do the modification counts (options mod_1..3);
LUTETIA_AREAS / LUTETIA_MOD_DECK below are only the fallback if that module is unavailable.

Language: every builder takes `lang` ("en", "de", "fr"); it goes into each face's parameters
(the renderers look their texts up in the message catalog, keys "print.*" in
companion/i18n/core.py) and into the deck's title. Colour names stay English ids in the
parameters (the renderers translate them).
"""

from __future__ import annotations

import importlib
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import LANGS, t


@dataclass(frozen=True)
class Face:
    renderer: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def kw(self) -> dict[str, Any]:
        return dict(self.params)


def face(renderer: str, **params: Any) -> Face:
    return Face(renderer, tuple(sorted(params.items())))


@dataclass(frozen=True)
class CardSpec:
    kind: str
    name: str
    front: Face
    back: Face | None
    copies: int = 1


@dataclass(frozen=True)
class Deck:
    game: str
    name: str
    title: str
    cards: tuple[CardSpec, ...]
    card: Any = "poker"  # default size
    shape: str = "rect"
    gap: str = "0mm"
    bleed: str | None = None  # None = the layout default
    lang: str = "en"  # language of the sheet labels

    def sequence(self) -> list[CardSpec]:
        """Cards in print order, copies expanded."""
        return [c for c in self.cards for _ in range(c.copies)]

    def count(self, kind: str | None = None) -> int:
        return sum(c.copies for c in self.cards if kind is None or c.kind == kind)


@dataclass(frozen=True)
class Board:
    game: str
    name: str
    title: str
    params: tuple[tuple[str, Any], ...] = field(default=())
    lang: str = "en"  # language of the piece labels


# ---- colours -------------------------------------------------------------------------------
PLAYER_COLOURS: list[tuple[str, str]] = [
    ("red", "#c8322b"), ("blue", "#2560b8"), ("green", "#2f8a3c"),
    ("yellow", "#f1c40f"), ("black", "#2b2b2b"), ("white", "#f3efe6"),
]
LUTETIA_AREAS: list[tuple[str, str]] = [
    ("green", "#3d8b3d"), ("yellow", "#e3a800"), ("blue", "#2462b5"),
    ("red", "#c4302b"), ("purple", "#7d3c98"),
]
LUTETIA_VOTES = ["10", "20", "30", "70", "M", "R"]
LUTETIA_MOD_DECK = {1: 12, 2: 12, 3: 12}
LUTECE_COLOURS = PLAYER_COLOURS[:5]
LUTECE_CHARACTERS = ["A", "B", "C", "D", "E"]
LUTECE_PLACES = ["I", "II", "III", "IV", "V"]
LAUREL_CHIPS: list[tuple[int, bool, int]] = [  # value, caesar, count
    (1, False, 18), (2, False, 8), (3, False, 15), (4, False, 9), (5, False, 6), (2, True, 6),
]
LAUREL_COLOURS = {1: "#b0773c", 2: "#8fa3ad", 3: "#3f8f5a", 4: "#2f6fb0", 5: "#b03a3a", 0: "#6b3d8f"}


def check_lang(lang: Any) -> str:
    """The language of printed texts: one of LANGS, else ValueError with the choices."""
    if lang is None:
        return "en"
    if not isinstance(lang, str) or lang not in LANGS:
        raise ValueError(f"unknown language {str(lang)[:20]!r}; choose one of {', '.join(LANGS)}")
    return lang


def _lutetia_game() -> Any:
    try:
        return importlib.import_module("companion.games.lutetia.rules")
    except Exception:  # the game module is someone else's and may be missing or in flux
        return None


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
    if isinstance(value, dict):
        out = {int(k): int(v) for k, v in value.items()}
    else:
        parts = str(value).replace(";", ",").split(",") if isinstance(value, str) else list(value)
        out = {i + 1: int(v) for i, v in enumerate(parts)}
    if set(out) != {1, 2, 3} or any(not 0 <= v <= 99 for v in out.values()):
        raise ValueError("mod_deck needs three counts 0..99 for the values 1, 2, 3 (e.g. 12,12,12)")
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
    return Deck("lutetia", "plans", t(lang, "print.deck.lutetia.plans"), tuple(cards), lang=lang)


def lutetia_votes(lang: str = "en") -> Deck:
    """6 vote-card sets (10, 20, 30, 70, M, R), one per player colour; back = player colour."""
    lang = check_lang(lang)
    cards = []
    for name, colour in PLAYER_COLOURS:
        back = face("lutetia.vote_back", name=name, colour=colour, lang=lang)
        for v in LUTETIA_VOTES:
            cards.append(CardSpec("vote", f"vote {name} {v}", face("lutetia.vote", value=v, name=name, colour=colour,
                                                                   lang=lang), back))
    return Deck("lutetia", "votes", t(lang, "print.deck.lutetia.votes"), tuple(cards), lang=lang)


def lutetia_mods(mod_deck: Any = None, lang: str = "en") -> Deck:
    """Modification cards 1, 2, 3 (12 each by default; counts from the `mod_deck` option)."""
    lang = check_lang(lang)
    counts = parse_mod_deck(mod_deck)
    back = face("lutetia.mod_back", lang=lang)
    cards = tuple(CardSpec("mod", f"mod {v}", face("lutetia.mod", value=v, lang=lang), back, copies=counts[v])
                  for v in (1, 2, 3) if counts[v])
    return Deck("lutetia", "mods", t(lang, "print.deck.lutetia.mods"), cards, lang=lang)


def lutetia_track(areas: str | None = None, space: str = "32mm", lang: str = "en") -> Board:
    """The track 1..50 (five colour areas) with the virtual spaces 51-55, in pieces that join."""
    lang = check_lang(lang)
    return Board("lutetia", "track", t(lang, "print.deck.lutetia.track"),
                 (("areas", tuple(lutetia_areas(areas))), ("space", space), ("lang", lang)), lang=lang)


def lutetia_markers(lang: str = "en") -> Deck:
    """The two track markers the rules name (Miraculix: the approved position; Asterix: the
    proposal), as round tokens, the same on both sides."""
    lang = check_lang(lang)
    pos = face("marker.token", label="P", caption="print.marker.position", colour="#8a8f98", lang=lang)
    prop = face("marker.token", label="+", caption="print.marker.proposal", colour="#e08a1e", lang=lang)
    cards = (CardSpec("marker", "position", pos, pos), CardSpec("marker", "proposal", prop, prop))
    return Deck("lutetia", "markers", t(lang, "print.deck.lutetia.markers"), cards, card="26mm", shape="circle",
                gap="4mm", bleed="1.5mm", lang=lang)


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
    return Deck("lutece", "actions", t(lang, "print.deck.lutece.actions"), tuple(cards), card="mini", lang=lang)


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
    return Deck("quovadis", "laurels", t(lang, "print.deck.quovadis.laurels"), tuple(cards), card=diameter,
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
    caesar = face("marker.token", label="C", caption="print.quovadis.caesar", colour=LAUREL_COLOURS[0], lang=lang)
    cards.append(CardSpec("caesar", "caesar", caesar, caesar))
    return Deck("quovadis", "pieces", t(lang, "print.deck.quovadis.pieces"), tuple(cards), card="20mm",
                shape="circle", gap="4mm", bleed="1.5mm", lang=lang)


# ---- registry ------------------------------------------------------------------------------
GAMES = ("lutetia", "lutece", "quovadis")
_ALIASES = {"quo-vadis": "quovadis", "quo_vadis": "quovadis", "quo vadis": "quovadis"}


def game_id(name: str) -> str:
    plain = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode().lower().strip()
    plain = _ALIASES.get(plain, plain).replace("-", "").replace("_", "").replace(" ", "")
    if plain not in GAMES:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    return plain


def game_items(game: str, mod_deck: Any = None, areas: str | None = None, lang: str = "en") -> list[Deck | Board]:
    """Everything printable for a game, in print order (options: LUTETIA's mod_deck, areas; the
    language of the printed texts)."""
    g = game_id(game)
    if g == "lutetia":
        return [lutetia_plans(areas, lang), lutetia_votes(lang), lutetia_mods(mod_deck, lang),
                lutetia_track(areas, lang=lang), lutetia_markers(lang)]
    if g == "lutece":
        return [lutece_actions(lang)]
    return [quovadis_laurels(lang=lang), quovadis_pieces(lang)]


def deck_names(game: str) -> list[str]:
    return [d.name for d in game_items(game)]
