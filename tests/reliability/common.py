"""Shared helpers: sample tables of every game at many points of random legal play."""

from __future__ import annotations

import copy
import json
import random
from functools import cache

from benchmarks.soak import Phones, game_over, new_table, random_request
from companion.games import games
from companion.table.store import MemoryStore
from companion.table.table import Table

GAME_IDS = sorted(games())


def snapshot(t: Table) -> str:
    return json.dumps([t.entries, t.state, t.phase, t.version, t.actions, t.seats, t.spectators],
                      sort_keys=True)


def fork(t: Table) -> Table:
    """An independent copy of a table (its own in-memory store), cheap enough per example."""
    store = MemoryStore()
    store._logs[t.code] = json.loads(json.dumps(t.entries))
    c = Table(t.code, store)
    c.entries = copy.deepcopy(t.entries)
    c.game, c.game_id, c.options, c.seed, c._host = t.game, t.game_id, t.options, t.seed, t._host
    c.seats = copy.deepcopy(t.seats)
    c.spectators = dict(t.spectators)
    c.phase, c.actions, c.state = t.phase, list(t.actions), t.state  # states are never mutated
    c.setup_seats, c.version = t.setup_seats, t.version
    return c


def play(game_id: str, seed: int, steps: int, phones: int = 6) -> list[tuple[Phones, str]]:
    """Random legal play on one table; returns forks of it along the way (with a label)."""
    r = random.Random(seed)
    p = new_table(MemoryStore(), f"G{seed}", game_id, phones, seed)
    out = [(Phones(fork(p.table), p.tokens, p.watchers), "start")]
    for i in range(steps):
        if game_over(p.table):
            break
        req = random_request(p, r)
        if req is not None:
            p.table.request_sync(*req)
        if i % max(1, steps // 12) == 0:
            out.append((Phones(fork(p.table), p.tokens, p.watchers), f"step {i}"))
    out.append((Phones(fork(p.table), p.tokens, p.watchers), "last"))
    return out


@cache
def samples(game_id: str) -> list[tuple[Phones, str]]:
    out: list[tuple[Phones, str]] = []
    for seed, steps in ((1, 60), (2, 400)):
        out += play(game_id, seed, steps)
    return out


@cache
def action_shapes(game_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Action types and payload field names the game's legal() ever offers (for the fuzzer)."""
    types: set[str] = set()
    fields: set[str] = set()
    for p, _ in samples(game_id):
        t = p.table
        for s in [None, *range(len(p.tokens))]:
            for a in t.legal(s):
                types.add(a["type"])
                fields.update(k for k in a if k not in ("type", "seat"))
    return tuple(sorted(types)), tuple(sorted(fields))


def fresh(p: Phones) -> Phones:
    return Phones(fork(p.table), p.tokens, p.watchers)


