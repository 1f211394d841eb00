"""The registry of games. A game issue adds its module name to GAME_MODULES."""

from __future__ import annotations

import importlib
from types import ModuleType

from companion import i18n

GAME_MODULES = ["sealed_vote", "quovadis", "lutece", "lutetia"]

_games: dict[str, ModuleType] = {}


def games() -> dict[str, ModuleType]:
    if not _games:
        for name in GAME_MODULES:
            mod = importlib.import_module(f"companion.games.{name}")
            i18n.register(mod.MESSAGES)
            _games[mod.ID] = mod
    return _games


def get(game_id: str) -> ModuleType:
    g = games().get(game_id)
    if g is None:
        raise KeyError(game_id)
    return g
