"""The registry of games: every sub-package of companion.games with a `SPEC` (a GameSpec).

A game is one folder, companion/games/<id>/ (docs/ADDING_A_GAME.md); nothing here names a game.
`games()` gives {id: rules module} (what the table plays), `specs()` {id: GameSpec}. A game with
`test_only=True` is only listed once a test registers it with `add()`.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from companion import i18n
from companion.games.base import GameSpec

_specs: dict[str, GameSpec] = {}
_games: dict[str, Any] = {}


def _discover() -> None:
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            spec = getattr(importlib.import_module(f"{__name__}.{info.name}"), "SPEC", None)
            if isinstance(spec, GameSpec) and not spec.test_only:
                found.append(spec)
    for spec in sorted(found, key=lambda s: (s.order, s.id)):
        _put(spec)


def _put(spec: GameSpec) -> None:
    i18n.register({lang: dict(texts) for lang, texts in spec.catalog.items()})
    _specs[spec.id] = spec
    _games[spec.id] = spec.rules


def specs() -> dict[str, GameSpec]:
    if not _specs:
        _discover()
    return _specs


def games() -> dict[str, Any]:
    specs()
    return _games


def spec(game_id: str) -> GameSpec:
    s = specs().get(game_id)
    if s is None:
        raise KeyError(game_id)
    return s


def get(game_id: str) -> Any:
    return spec(game_id).rules


def screens(game_id: str) -> Any:
    """The screen module of a game: phone(ctx), host(ctx) and result(ctx)."""
    return spec(game_id).screen_module()


def add(spec_: GameSpec) -> None:
    """Register a game that is not discovered (a test-only game); `remove()` takes it out again."""
    specs()
    _put(spec_)


def remove(game_id: str) -> None:
    _specs.pop(game_id, None)
    _games.pop(game_id, None)
