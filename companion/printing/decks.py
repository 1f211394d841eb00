"""What gets printed: decks of cards (with copy counts and backs) and boards – the shapes.

Data only; the drawing lives in cards.py / board.py. A game's own decks (counts from its rules
page) and card renderers live in its folder, companion/games/<id>/printing.py, named by its
GameSpec; `game_items` asks it. Card faces are `Face`s: a renderer name plus plain parameters,
so pages can be rendered in worker processes and a deck's content can be hashed for the
printables manifest.

Language: every builder takes `lang` ("en", "de", "fr"); it goes into each face's parameters
(the renderers look their texts up in the message catalog, keys "print.*" in
companion/i18n/core.py) and into the deck's title. Colour names stay English ids in the
parameters (the renderers translate them).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from companion.games import spec, specs
from companion.i18n import LANGS


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


def check_lang(lang: Any) -> str:
    """The language of printed texts: one of LANGS, else ValueError with the choices."""
    if lang is None:
        return "en"
    if not isinstance(lang, str) or lang not in LANGS:
        raise ValueError(f"unknown language {str(lang)[:20]!r}; choose one of {', '.join(LANGS)}")
    return lang


# ---- registry ----------------------------------------------------------------------------
# A game prints when its GameSpec names a printing module (companion/games/<id>/printing.py with
# `items(lang=..., **options)`); the deck data and card renderers live there.
GAMES = tuple(gid for gid, s in specs().items() if s.printing)


def game_id(name: str) -> str:
    plain = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode().lower().strip()
    plain = plain.replace("-", "").replace("_", "").replace(" ", "")  # "Quo Vadis", "quo-vadis" -> quovadis
    if plain not in GAMES:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    return plain


def printing(game: str) -> Any:
    """The game's printing module (companion/games/<id>/printing.py: `TITLE`, `items()`, renderers)."""
    module = spec(game_id(game)).printing_module()
    assert module is not None
    return module


def game_items(game: str, mod_deck: Any = None, areas: str | None = None, lang: str = "en") -> list[Deck | Board]:
    """Everything printable for a game, in print order (options: LUTETIA's mod_deck, areas; the
    language of the printed texts): the game's own printing module says what."""
    return list(printing(game).items(lang=lang, mod_deck=mod_deck, areas=areas))


def deck_names(game: str) -> list[str]:
    return [d.name for d in game_items(game)]
