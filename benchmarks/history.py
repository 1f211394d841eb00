"""History page of 1,000 finished games (issue 21.3): the server time of its data.

    python -m benchmarks.history [--games 1000] [--repeat 20]

Games: real random games of every game (the game's sample(), through real tables, so their
records are written by the table's own entry – Store.append_history), then copies of them under
other table codes, end times and players (a pool of names with case/space variants and a few
merges and renames) up to --games, imported into the same SQLite file. Measured: what the
history page asks the server for – `companion.history.page_data(store)` (the store's read of
every record and alias, players matched across tables, the list of games and the per-player
statistics) – and the exports. Target: ≤ 300 ms for 1,000 games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import header, load, pct, save, table
from companion import history
from companion.games import specs
from companion.table.store import SQLiteStore

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hana", "Ida", "Jo", "Kai", "Lea", "Max", "Noor"]


def build(store: SQLiteStore, games: int, seed: int = 1) -> dict[str, Any]:
    from tests.historyplay import finished_table

    r = random.Random(seed)
    t0 = time.perf_counter()
    real = 0
    for gid, sp in specs().items():
        if sp.test_only:
            continue
        for _ in range(5):
            n = r.randint(sp.rules.MIN_SEATS, min(sp.rules.MAX_SEATS, 5))
            finished_table(store, f"B{real:03d}", gid, seed=r.randrange(10**6), phones=n,
                           names=r.sample(NAMES, n))
            real += 1
    played = time.perf_counter() - t0
    base = store.history()
    out = []
    for k in range(max(0, games - len(base))):
        rec = dict(r.choice(base))
        names = r.sample(NAMES, len(rec["players"]))
        names = [n.upper() if r.random() < 0.05 else (f" {n.lower()} " if r.random() < 0.05 else n) for n in names]
        rec["players"] = [{**p, "name": n} for p, n in zip(rec["players"], names, strict=True)]
        rec["winners"] = [p["name"] for p in rec["players"] if p["winner"]]
        rec["code"] = f"G{k:05d}"
        rec = history.stamp({x: v for x, v in rec.items() if x not in ("id", "started", "ended", "duration")},
                            1.7e9 + k * 3600 - rec["duration"], 1.7e9 + k * 3600)
        out.append(rec)
    t1 = time.perf_counter()
    store.import_history(out, [])
    imported = time.perf_counter() - t1
    for a, b in (("Ann", "Anna"), ("Bob", "Robert")):
        history.rename(store, a, b)
    history.merge(store, "Cy", "Dee")
    return {"real_games": real, "play_s": round(played, 2), "copies": len(out), "import_s": round(imported, 3)}


def timed(fn: Any, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    header(f"history page of {args.games} finished games")
    with tempfile.TemporaryDirectory() as d:
        store = SQLiteStore(Path(d) / "data")
        made = build(store, args.games)
        n = len(store.history())
        print(f"   {n} games in the history ({made['real_games']} played through tables in {made['play_s']} s, "
              f"{made['copies']} copies imported in {made['import_s']} s)")
        cases = {
            "page_data (the page)": lambda: history.page_data(store),
            "store read only": lambda: (store.history(), store.aliases()),
            "page_data, one game": lambda: history.page_data(store, game="lutece"),
            "export CSV": lambda: history.export_csv(store.history(), store.aliases()),
            "export JSON": lambda: history.export_json(store.history(), store.aliases()),
        }
        rows = []
        for name, fn in cases.items():
            fn()  # (warm)
            ms = timed(fn, args.repeat)
            rows.append({"what": name, "games": n, "median ms": statistics.median(ms), "p95 ms": pct(ms, 95),
                         "max ms": max(ms), "load": load()})
        data = history.page_data(store)
        store.close()
    print(table(rows))
    print(f"   page: {len(data['games'])} games, {len(data['stats'])} player×game rows, {len(data['players'])} players")
    print("target (issue 21): the history page of 1,000 finished games in ≤ 300 ms server time")
    save("history", {"args": vars(args), "built": made, "rows": rows})


if __name__ == "__main__":
    main()
