"""(f) Memory over a season: RSS after hosting many finished games vs. the same tables in play alone,
memory per table in play, and the time to reopen an ended table from SQLite.

    python -m benchmarks.memory [--games 1000] [--tables 20] [--game-actions 125] [--reopen-actions 1000] [--kept]

Two fresh processes, the same code path as the server (`Hub.create`, `Table.request_sync`, the
hub's sweep with its real rules – an ended table nobody watches leaves memory after its grace
period – on a clock turned forward 31 s per game hosted):
- baseline: `--tables` tables in play (round robin over the four games, each played to
  `--game-actions` random legal actions, not ended) and no history. Memory per table in play =
  the RSS growth while they are made / their number.
- traced: the baseline again, under tracemalloc: the live Python objects per table in play.
- history: first `--games` games hosted one after the other (random legal play with the soak's
  players until the game is over or has `--game-actions` actions, then the host ends it), then the
  same tables in play as the baseline. Target: its RSS ≤ 1.5 × the baseline's.
Both processes use SQLite with synchronous=OFF (no fsync: 100,000 writes would otherwise take
the benchmark ten minutes; the figures are memory, not write latency – see (e) restart and the soak).
With --kept, the history once more with nothing unloaded (as the hub was before issue 22).
Reopen: ended tables with a `--reopen-actions`-action log (benchmarks/restart.py's players),
unloaded, then `Hub.get(code)` timed (read the log from SQLite, replay it). Target ≤ 150 ms.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks.common import header, load, save, table
from benchmarks.soak import Phones, game_over, random_request
from companion.games import games
from companion.games.base import RuleError
from companion.table.hub import Hub
from companion.table.store import SQLiteStore

GAMES = sorted(games())


def rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


class NoSync(SQLiteStore):
    def __init__(self, data_dir: str | Path) -> None:
        super().__init__(data_dir)
        self._db.execute("PRAGMA synchronous=OFF")


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def play(hub: Hub, game_id: str, seed: int, actions: int, end: bool) -> tuple[str, int]:
    """A table played by random legal taps (`actions` at most, or until the game is over)."""
    game = games()[game_id]
    n = max(game.MIN_SEATS, min(6, game.MAX_SEATS))
    t = hub.create(game_id, None, [{"name": f"P{i + 1}"} for i in range(n)], seed)
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(n)]
    t.request_sync(t.host_token, {"op": "start"})
    p = Phones(t, tokens)
    r = random.Random(f"mem:{game_id}:{seed}")
    done = misses = 0
    while done < actions and not game_over(t) and misses < 200:
        req = random_request(p, r)
        if req is None:
            misses += 1
            continue
        try:
            t.request_sync(*req)
            done += 1
        except RuleError:
            misses += 1
    if end and t.phase == "playing":
        t.request_sync(t.host_token, {"op": "end"})
    return t.code, done


def in_play(hub: Hub, tables: int, actions: int) -> int:
    total = 0
    for i in range(tables):
        total += play(hub, GAMES[i % len(GAMES)], 10_000 + i, actions, end=False)[1]
    return total


def role(args: argparse.Namespace) -> dict[str, Any]:
    d = Path(tempfile.mkdtemp(prefix="bench-mem-"))
    clock = Clock()
    keep = args.role == "kept"  # the hub before issue 22: every table ever hosted stays in memory
    hub = Hub(NoSync(d), clock=clock, **({"idle_unload": float("inf"), "ended_grace": float("inf")} if keep else {}))
    gc.collect()
    out: dict[str, Any] = {"role": args.role, "rss_start_kb": rss_kb()}
    t0 = time.perf_counter()
    if args.role in ("history", "kept"):
        actions = 0
        for g in range(args.games):
            actions += play(hub, GAMES[g % len(GAMES)], g, args.game_actions, end=True)[1]
            clock.now += 31  # the server's clock: a game takes longer than that
            hub.sweep()
        clock.now += 3600
        hub.sweep()
        gc.collect()
        out.update(history_games=args.games, history_actions=actions, loaded_after_history=len(hub.loaded()),
                   unloads=hub.unloads, stored_tables=len(hub.metas()), rss_after_history_kb=rss_kb(),
                   history_s=round(time.perf_counter() - t0, 1))
    gc.collect()
    before = rss_kb()
    if args.role == "traced":
        tracemalloc.start()
        traced0 = tracemalloc.get_traced_memory()[0]
    out["in_play_actions"] = in_play(hub, args.tables, args.game_actions)
    gc.collect()
    if args.role == "traced":
        out["in_play_traced_kb"] = (tracemalloc.get_traced_memory()[0] - traced0) // 1024
        tracemalloc.stop()
    out.update(rss_end_kb=rss_kb(), in_play_growth_kb=rss_kb() - before, loaded_end=len(hub.loaded()),
               db_mb=round(sum(f.stat().st_size for f in d.iterdir()) / 2**20, 1))
    return out


def reopen(args: argparse.Namespace) -> list[dict[str, Any]]:
    from benchmarks.restart import Batch, build_random, build_script

    d = Path(tempfile.mkdtemp(prefix="bench-reopen-"))
    store = Batch(d)
    clock = Clock()
    hub = Hub(store, clock=clock)
    store.begin()
    built = []
    for game_id in GAMES:
        t = build_script(hub, game_id, args.reopen_actions) or build_random(hub, game_id, args.reopen_actions, 1)
        if t.phase == "playing":
            t.request_sync(t.host_token, {"op": "end"})
        built.append((game_id, t.code, len(t.actions), len(t.entries), t.state))
        del t
    store.commit()
    store.close()
    hub = Hub(SQLiteStore(d), clock=clock)  # a restarted server: ended tables are not loaded at start
    hub.load_all()
    rows = []
    for game_id, code, n_actions, n_entries, state in built:
        assert code not in hub.tables
        times, cpus = [], []
        for _ in range(args.repeat):
            c0 = time.process_time()
            t0 = time.perf_counter()
            t = hub.get(code)
            times.append((time.perf_counter() - t0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
            assert t is not None and t.state == state and t.phase == "ended"
            del t
            assert hub.unload(code)
        rows.append({"game": game_id, "actions": n_actions, "log entries": n_entries,
                     "reopen ms (median)": statistics.median(times), "min ms": min(times),
                     "max ms": max(times), "cpu ms (median)": statistics.median(cpus), "load": load()})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--game-actions", type=int, default=125)
    ap.add_argument("--reopen-actions", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--kept", action="store_true",
                    help="also run the history with nothing unloaded (the hub before issue 22), for comparison")
    ap.add_argument("--reopen-only", action="store_true", help="only the reopen timing")
    ap.add_argument("--role", choices=["baseline", "history", "traced", "kept"], default=None)
    args = ap.parse_args()
    if args.role:
        print(json.dumps(role(args)))
        return
    header("(f) memory over a season: history leaves memory; reopening an ended table")
    if args.reopen_only:
        rows = reopen(args)
        print(table(rows))
        save("memory.reopen", {"args": vars(args), "reopen": rows})
        return
    res = {}
    for r in ("baseline", "history", "traced", *(["kept"] if args.kept else [])):
        cmd = [sys.executable, "-m", "benchmarks.memory", "--role", r, "--games", str(args.games),
               "--tables", str(args.tables), "--game-actions", str(args.game_actions)]
        p = subprocess.run(cmd, capture_output=True, text=True, check=True)
        res[r] = json.loads(p.stdout.strip().splitlines()[-1])
        print(r, json.dumps(res[r]), flush=True)
    b, h = res["baseline"], res["history"]
    ratio = h["rss_end_kb"] / b["rss_end_kb"]
    per_table = b["in_play_growth_kb"] / args.tables
    per_table_traced = res["traced"]["in_play_traced_kb"] / args.tables
    print()
    print(table([
        {"process": "baseline: tables in play only", "games hosted": 0, "actions hosted": b["in_play_actions"],
         "tables loaded": b["loaded_end"], "RSS MB": b["rss_end_kb"] / 1024},
        {"process": "history, then the same tables in play", "games hosted": h["history_games"],
         "actions hosted": h["history_actions"] + h["in_play_actions"], "tables loaded": h["loaded_end"],
         "RSS MB": h["rss_end_kb"] / 1024},
    ]))
    if "kept" in res:
        k = res["kept"]
        print(f"the same history with nothing unloaded (the hub before issue 22): RSS {k['rss_end_kb'] / 1024:.1f} MB, "
              f"{k['rss_end_kb'] / b['rss_end_kb']:.2f}× the baseline, "
              f"{(k['rss_end_kb'] - b['rss_end_kb']) * 1024 / max(1, k['history_actions']):.0f} B per hosted action")
    print(f"RSS with history / without: {ratio:.2f} (target ≤ 1.5); history left {h['loaded_after_history']} "
          f"tables in memory of {h['stored_tables']} hosted; "
          f"SQLite file {h['db_mb']} MB")
    print(f"memory per table in play (≈ {b['in_play_actions'] // args.tables} actions each): {per_table:.0f} kB RSS, "
          f"{per_table_traced:.0f} kB of live Python objects (tracemalloc)")
    print(f"RSS growth per hosted action of history: "
          f"{(h['rss_end_kb'] - b['rss_end_kb']) * 1024 / max(1, h['history_actions']):.0f} B")
    print()
    rows = reopen(args)
    print(table(rows))
    worst = max(r["reopen ms (median)"] for r in rows)
    print(f"reopen an ended {args.reopen_actions}-action table from SQLite: worst median {worst:.0f} ms "
          "(target ≤ 150 ms)")
    save("memory", {"args": vars(args), "baseline": b, "history": h, "kept": res.get("kept"), "ratio": ratio,
                    "per_table_in_play_kb": per_table, "per_table_in_play_traced_kb": per_table_traced,
                    "reopen": rows})


if __name__ == "__main__":
    main()
