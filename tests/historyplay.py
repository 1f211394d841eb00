"""Finished games at a real Table, for the history and rematch tests: random legal play through
the table's own requests (the game's sample(), tests/gameplay.py) until the game is over, then the
host ends it (a game that never ends by itself, the sealed vote, is ended after a few rounds)."""

from __future__ import annotations

import random
from typing import Any

from benchmarks.soak import Phones, new_table
from companion.games import spec as game_spec
from companion.games.base import RuleError


def finish(p: Phones, r: random.Random, steps: int = 3000, end: bool = True) -> bool:
    """Play the table's game on until it is over (True) or `steps` actions were tried; then the
    host ends it (end=True). A game that never ends by itself stops when its sample_done says so."""
    t = p.table
    sp = game_spec(t.game_id)
    for _ in range(steps):
        if t.finished() or sp.done(t.state):
            break
        who = [s for s in [None, *range(len(p.tokens))] if t.legal(s)]
        if not who:
            break
        seat = r.choice(who)
        action = sp.sample(t.state, seat, r)
        if action is None:
            continue
        op: dict[str, Any] = ({"op": "host_act", "action": action} if seat is None
                              else {"op": "act", "action": action})
        try:
            t.request_sync(t.host_token if seat is None else p.tokens[seat], op)
        except RuleError:
            continue
    if end and t.phase == "playing":
        t.request_sync(t.host_token, {"op": "end"})
    return t.finished()


def finished_table(store: Any, code: str, game_id: str, seed: int, phones: int = 3,
                   options: dict[str, Any] | None = None, end: bool = True,
                   names: list[str] | None = None) -> Phones:
    """A table played to its end; `names`: the seats renamed by the host right after the start."""
    p = new_table(store, code, game_id, phones, seed, options)
    for i, name in enumerate((names or [])[:len(p.table.seats)]):
        p.table.request_sync(p.table.host_token, {"op": "host_rename", "seat": i, "name": name})
    finish(p, random.Random(seed), end=end)
    return p
