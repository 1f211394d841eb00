"""Game screens: companion/ui/games/<game id>.py with phone(ctx), host(ctx) and result(ctx).

Each returns a list of Flet controls built only from ctx.view / ctx.legal (what that seat may
see) and calls `await ctx.act({...})` for actions. No rules arithmetic here.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def screens(game_id: str) -> ModuleType:
    return importlib.import_module(f"companion.ui.games.{game_id}")
