"""What gets printed: decks of cards (with copy counts and backs) and boards – the shapes.

Data only; the drawing lives in cards.py / board.py. A game's own decks (counts from its rules
page) and card renderers live in its folder, companion/games/<id>/printing.py, named by its
GameSpec; `game_items` asks it. Card faces are `Face`s: a renderer name plus plain parameters,
so pages can be rendered in worker processes and a deck's content can be hashed for the
printables manifest.

Language: every builder takes `lang` ("en", "de", "fr"); it goes into each face's parameters
(the renderers look their texts up in the message catalog: the platform's sheets and shared
pieces "print.*" in companion/i18n/locale/, a game's own cards "<id>.print.*" in its folder's
locale/) and into the deck's title. Colour names stay English ids in the parameters (the
renderers translate them).

A game's printing module may also declare `OPTIONS` ({name: help}: its own print options, e.g.
a deck's counts; `companion print` offers each as `--name`, `items()` gets them as keywords) and
`PREVIEWS` ({name: (deck or None, page index)}: extra pictures for the docs, docs/print-<id>-<name>.png).
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
GAMES = tuple(gid for gid, s in specs().items() if s.printing)  # (a test-only game too, once registered)


def product_games() -> tuple[str, ...]:
    """The printing games of the product (no test-only game): printables/, its manifest, the previews."""
    return tuple(gid for gid, s in specs().items() if s.printing and not s.test_only)


def game_id(name: str) -> str:
    plain = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode().lower().strip()
    plain = plain.replace("-", "").replace("_", "").replace(" ", "")  # a name as people write it ("Quo-Vadis")
    known = {gid: s for gid, s in specs().items() if s.printing}
    match = next((gid for gid in known if gid.replace("_", "") == plain), None)
    if match is None:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(product_games())}")
    return match


def printing(game: str) -> Any:
    """The game's printing module (companion/games/<id>/printing.py: `TITLE`, `items()`, renderers)."""
    module = spec(game_id(game)).printing_module()
    assert module is not None
    return module


def options(game: str) -> dict[str, str]:
    """The game's own print options, {name: help} (its printing module's `OPTIONS`; none by default)."""
    return dict(getattr(printing(game), "OPTIONS", {}))


def previews(game: str) -> dict[str, tuple[str | None, int]]:
    """Extra preview pictures of the game for the docs: {name: (deck or None = whole game, page index)}."""
    return dict(getattr(printing(game), "PREVIEWS", {}))


def game_items(game: str, lang: str = "en", **opts: Any) -> list[Deck | Board]:
    """Everything printable for a game, in print order (`opts`: the game's own print options, see
    `options()`; `lang`: the language of the printed texts): the game's own printing module says what."""
    known = options(game)
    unknown = sorted(k for k, v in opts.items() if k not in known and v is not None)
    if unknown:
        raise ValueError(f"{game} has no print option {', '.join(unknown)}"
                         + (f" (its options: {', '.join(known)})" if known else ""))
    return list(printing(game).items(lang=lang, **{k: v for k, v in opts.items() if k in known}))


def deck_names(game: str) -> list[str]:
    return [d.name for d in game_items(game)]
