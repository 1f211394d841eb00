"""Soak run: many tables, simulated phones playing random legal games through `Table.request`.

    python -m benchmarks.soak --tables 50 --phones 6 --actions 20000 [--minutes M] [--data-dir DIR] [--memory]

A fixed amount of work (`--actions`: acknowledged actions in all; or `--games`: finished games),
so the verdict is the same on a fast and a slow machine; `--minutes` is only a cap (the run fails
if it stops there before the work is done).

Each table gets a game (round robin over every registered game), `--phones` phones join (a game
with fewer seats gets the rest as spectators) and the host starts it. Every seat and the host run
as their own asyncio task on one event loop: each picks a random legal action from what *it*
sees (`Table.legal`) and sends it through `Table.request` with its own token, so actions race the
way taps from real phones do. A refused stale action (RuleError) is normal and counted; any other
exception is a failure. When a game is over (or a game that never ends by itself has played
enough – its `sample_done` –, or the game has had `--game-actions` actions) the host ends it and
the table is checked: the live state must equal
a fresh `Table.load` from the store and the replay of its log. The table is then replaced by a new
one. The tables live in a `Hub` as on the server: an ended table is left to it, and its sweep
(once a second, on the loop) unloads it once it has been ended `--ended-grace` seconds.

Memory is sampled by work done, not by time: RSS after every 2 % of the actions (after a full
garbage collection). The verdict: RSS may grow at most `--rss-per-table-mb` per table in play
after the first 10 % of the work, and at the end – every game ended – no table may be left in
memory (the history is in SQLite only) and the live Python objects (tracemalloc) may be at most
`--end-traced-mb` above what they were at the start of the work.

The random players (`pick_action`: the game's `sample()` from its folder, companion/games/<id>/) are
also used by the reliability tests.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games import games, spec
from companion.games.base import RuleError
from companion.table.hub import Hub
from companion.table.store import MemoryStore, SQLiteStore
from companion.table.table import Table

# ---------------------------------------------------------------- random legal actions


def seat_count(state: dict[str, Any]) -> int:
    return int(state.get("n") or len(state["names"]))


def pick_action(game_id: str, state: dict[str, Any], seat: int | None, legal: list[dict[str, Any]],
                r: random.Random) -> dict[str, Any] | None:
    """A concrete random action for `seat` from its legal() entries (without "seat"), or None:
    the game's own `sample` (GameSpec.sample), whatever the game."""
    if not legal:
        return None
    return spec(game_id).sample(state, seat, r, legal)


def game_over(table: Table) -> bool:
    """The game ended, or a game that never ends by itself has been played enough (GameSpec.done)."""
    if table.state is None:
        return False
    return spec(table.game_id).done(table.state)


# ---------------------------------------------------------------- tables with phones


@dataclass
class Phones:
    table: Table
    tokens: list[str]  # seat tokens in seat order
    watchers: list[str] = field(default_factory=list)


def new_table(store: Any, code: str, game_id: str, phones: int, seed: int,
              options: dict[str, Any] | None = None) -> Phones:
    """Create a table, let `phones` phones join (the rest of a smaller game spectates), start it."""
    game = games()[game_id]
    n = max(game.MIN_SEATS, min(phones, game.MAX_SEATS))
    t = Table.create(store, code, game_id, options, [{"name": f"P{i + 1}"} for i in range(n)], seed)
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(n)]
    watchers = [t.request_sync(None, {"op": "spectate", "name": f"W{i}"})["token"] for i in range(phones - n)]
    t.request_sync(t.host_token, {"op": "start"})
    return Phones(t, tokens, watchers)


def random_request(p: Phones, r: random.Random, seat: int | None = None,
                   any_actor: bool = True) -> tuple[str, dict[str, Any]] | None:
    """A random legal (token, op) for a seat (or the host), or for anybody who can act."""
    t = p.table
    assert t.state is not None
    actors = [seat] if not any_actor else [s for s in [None, *range(len(p.tokens))] if t.legal(s)]
    if not actors:
        return None
    actor = r.choice(actors)
    action = pick_action(t.game_id, t.state, actor, t.legal(actor), r)
    if action is None:
        return None
    if actor is None:
        return t.host_token, {"op": "host_act", "action": action}
    return p.tokens[actor], {"op": "act", "action": action}


def check_table(t: Table, store: Any) -> None:
    """The live table equals a fresh load from the store and the replay of its log."""
    again = Table.load(store, t.code)
    assert again.entries == json.loads(json.dumps(t.entries)), f"{t.code}: stored log differs"
    assert again.state == t.state, f"{t.code}: reloaded state differs"
    assert again.phase == t.phase
    if t.state is not None:
        assert t.replay(t.actions) == t.state, f"{t.code}: replay differs"


# ---------------------------------------------------------------- the soak run


@dataclass
class Stats:
    actions: int = 0
    refused: int = 0
    games: int = 0
    started: int = 0
    errors: list[str] = field(default_factory=list)
    rss_kb: list[tuple[float, int]] = field(default_factory=list)  # (fraction of the work done, RSS kB)
    traced_start: int = 0
    traced_end: int = 0
    traced_peak: int = 0
    loaded_max: int = 0
    loaded_end: int = -1
    unloads: int = 0
    capped: bool = False  # stopped by --minutes before the work was done


@dataclass
class Work:
    """How much to do: `actions` acknowledged actions in all, or `games` finished games (or both)."""

    actions: int | None = None
    games: int | None = None
    game_actions: int = 400  # a game is ended after this many actions (its table is then replaced)

    def done(self, stats: Stats) -> bool:
        return (self.actions is not None and stats.actions >= self.actions) or \
            (self.games is not None and stats.started >= self.games)

    def fraction(self, stats: Stats) -> float:
        parts = []
        if self.actions:
            parts.append(stats.actions / self.actions)
        if self.games:
            parts.append(stats.games / self.games)
        return max(parts, default=0.0)


def rss_kb() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except OSError:  # not Linux
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


async def _actor(p: Phones, seat: int | None, r: random.Random, stats: Stats, stop: asyncio.Event,
                 done: asyncio.Event, think: float) -> None:
    t = p.table
    token = t.host_token if seat is None else p.tokens[seat]
    while not stop.is_set() and not done.is_set():
        await asyncio.sleep(r.random() * think)
        if stop.is_set() or done.is_set() or t.phase != "playing" or t.state is None:
            return
        if game_over(t):
            done.set()
            return
        action = pick_action(t.game_id, t.state, seat, t.legal(seat), r)
        if action is None:
            continue
        op = {"op": "host_act" if seat is None else "act", "action": action}
        try:
            await t.request(token, op)
            stats.actions += 1
        except RuleError:
            stats.refused += 1  # another phone changed the table first: a stale tap
        except Exception as e:  # noqa: BLE001 - anything else is a failure of the platform
            stats.errors.append(f"{t.code} {t.game_id}: {type(e).__name__}: {e}")
            done.set()


async def _table_loop(slot: int, hub: Hub, phones: int, stats: Stats, stop: asyncio.Event,
                      seed: int, think: float, work: Work) -> None:
    ids = sorted(games())
    n = 0
    while not stop.is_set() and not work.done(stats):
        stats.started += 1
        game_id = ids[(slot + n) % len(ids)]
        r = random.Random(f"{seed}:{slot}:{n}")
        code = hub.new_code()
        p = await asyncio.to_thread(new_table, hub.store, code, game_id, phones, r.randrange(2**31))
        hub.add(p.table)
        done = asyncio.Event()
        t = p.table
        tasks = [asyncio.create_task(_actor(p, s, random.Random(f"{seed}:{slot}:{n}:{s}"), stats, stop, done,
                                            think)) for s in [None, *range(len(p.tokens))]]
        while not (stop.is_set() or done.is_set() or all(x.done() for x in tasks)):
            if len(t.actions) >= work.game_actions or (work.actions is not None and stats.actions >= work.actions):
                break
            await asyncio.sleep(0.05)
        done.set()
        await asyncio.gather(*tasks)
        if t.phase == "playing":
            await t.request(t.host_token, {"op": "end"})
        try:
            await asyncio.to_thread(check_table, t, hub.store)
        except AssertionError as e:
            stats.errors.append(str(e))
        stats.games += 1
        n += 1
        del p, t, tasks  # the ended table is the hub's now: its sweep lets it go


async def soak(tables: int, phones: int, work: Work, store: Any, seed: int = 1, think: float = 0.02,
               trace: bool = True, max_seconds: float | None = None, ended_grace: float = 1.0) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    hub = Hub(store, ended_grace=ended_grace)
    gc.collect()
    if trace:
        tracemalloc.start()
        stats.traced_start = tracemalloc.get_traced_memory()[0]
    loops = [asyncio.create_task(_table_loop(i, hub, phones, stats, stop, seed, think, work))
             for i in range(tables)]
    t0 = time.monotonic()
    next_sample, next_sweep = 0.0, 0.0
    while not all(x.done() for x in loops):
        await asyncio.sleep(0.05)
        now = time.monotonic()
        if max_seconds is not None and now - t0 >= max_seconds and not stop.is_set():
            stats.capped = True
            stop.set()
        if stats.errors:
            stop.set()
        if now >= next_sweep:  # the hub's sweep, as the server runs it on access
            next_sweep = now + 1.0
            hub.sweep()
            stats.loaded_max = max(stats.loaded_max, len(hub.loaded()))
        if work.fraction(stats) >= next_sample:
            gc.collect()
            stats.rss_kb.append((work.fraction(stats), rss_kb()))
            next_sample = work.fraction(stats) + 0.02
    await asyncio.gather(*loops)
    # Every game is over: none may stay in memory. Two sweeps, as the server's own go by: a sweep
    # that sees a table changed since the last one (a game that ended after it) only notes the
    # change, the next one lets the quiet table go – one sweep left such a table loaded at random.
    end = hub.clock()
    hub.sweep(end)
    hub.sweep(end + ended_grace + 1)
    stats.loaded_end = len(hub.loaded())
    stats.unloads = hub.unloads
    gc.collect()
    stats.rss_kb.append((work.fraction(stats), rss_kb()))
    if trace:
        stats.traced_end, stats.traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50, help="tables in play at once")
    ap.add_argument("--phones", type=int, default=6)
    ap.add_argument("--actions", type=int, default=None, help="work: this many acknowledged actions in all")
    ap.add_argument("--games", type=int, default=None, help="work: this many games (finished and checked)")
    ap.add_argument("--game-actions", type=int, default=400, help="a game is ended after this many actions")
    ap.add_argument("--minutes", type=float, default=None,
                    help="a cap only: stop (and fail) if the work is not done by then")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=0.02, help="max random pause of a phone between taps (s)")
    ap.add_argument("--data-dir", default=None, help="SQLite data directory (default: a temporary one)")
    ap.add_argument("--memory", action="store_true", help="use the in-memory store instead of SQLite")
    ap.add_argument("--ended-grace", type=float, default=1.0, help="an ended table leaves memory after (s)")
    ap.add_argument("--rss-per-table-mb", type=float, default=3.0,
                    help="fail if RSS grows by more than this per table in play after the first 10%% of the work")
    ap.add_argument("--end-traced-mb", type=float, default=2.0,
                    help="fail if live Python objects at the end exceed those at the start by more than this")
    ap.add_argument("--no-trace", action="store_true", help="skip tracemalloc (faster; no end check of objects)")
    args = ap.parse_args(argv)
    if args.actions is None and args.games is None:
        args.actions = 20_000
    work = Work(args.actions, args.games, args.game_actions)
    tmp = None
    if args.memory:
        store: Any = MemoryStore()
        where = "memory"
    else:
        if args.data_dir is None:
            tmp = tempfile.TemporaryDirectory(prefix="companion-soak-")
            args.data_dir = tmp.name
        store = SQLiteStore(args.data_dir)
        where = str(Path(args.data_dir) / SQLiteStore.FILE)
    t0 = time.monotonic()
    stats = asyncio.run(soak(args.tables, args.phones, work, store, args.seed, args.think,
                             trace=not args.no_trace, ended_grace=args.ended_grace,
                             max_seconds=None if args.minutes is None else args.minutes * 60))
    wall = time.monotonic() - t0
    rss = [kb for _, kb in stats.rss_kb] or [rss_kb()]
    warm_i = next((i for i, (f, _) in enumerate(stats.rss_kb) if f >= 0.1), 0)  # after 10 % of the work
    warm = rss[warm_i]
    growth_mb = (max(rss[warm_i:]) - warm) / 1024
    bound_mb = args.rss_per_table_mb * args.tables
    traced_mb = (stats.traced_end - stats.traced_start) / 2**20
    out = {
        "tables": args.tables, "phones": args.phones, "work_actions": args.actions, "work_games": args.games,
        "game_actions": args.game_actions, "minutes_cap": args.minutes, "store": where,
        "wall_s": round(wall, 1), "games_checked": stats.games, "actions": stats.actions,
        "actions_per_s": round(stats.actions / wall, 1), "refused_stale": stats.refused,
        "errors": len(stats.errors), "capped": stats.capped,
        "tables_loaded_max": stats.loaded_max, "tables_loaded_end": stats.loaded_end, "unloads": stats.unloads,
        "rss_start_mb": round(rss[0] / 1024, 1), "rss_warm_mb": round(warm / 1024, 1),
        "rss_max_mb": round(max(rss) / 1024, 1), "rss_end_mb": round(rss[-1] / 1024, 1),
        "rss_growth_after_warmup_mb": round(growth_mb, 1), "rss_bound_mb": round(bound_mb, 1),
        "rss_growth_per_table_mb": round(growth_mb / args.tables, 2),
        "traced_start_mb": round(stats.traced_start / 2**20, 2), "traced_end_mb": round(stats.traced_end / 2**20, 2),
        "traced_growth_mb": round(traced_mb, 2), "tracemalloc_peak_mb": round(stats.traced_peak / 2**20, 1),
    }
    print(json.dumps(out, indent=1))
    for e in stats.errors[:20]:
        print("ERROR", e, file=sys.stderr)
    store.close()
    if tmp is not None:
        tmp.cleanup()
    ok = (not stats.errors and not stats.capped and stats.games > 0 and growth_mb <= bound_mb
          and stats.loaded_end == 0 and (args.no_trace or traced_mb <= args.end_traced_mb))
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
