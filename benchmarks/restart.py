"""(d) Restart: load a table by replaying its action log from SQLite.

    python -m benchmarks.restart [--lengths 100,300,1000,2000]

sealed_vote tables of 6 seats: rounds of 6 secret submits, 6 locks (the last reveals) and the
host's next question. Timed: `Table.load(store, code)` (read the log, parse, replay every
entry through the game rules) and `Hub.load_all()` for a data dir holding all of them.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import header, load, save, table
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.table.table import Table


class Batch(SQLiteStore):
    """Building the logs fast: one transaction for everything (the timed part reads as usual)."""

    def begin(self) -> None:
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("BEGIN")

    def commit(self) -> None:
        self._db.execute("COMMIT")


def build_log(hub: Hub, actions: int) -> str:
    t = hub.create("sealed_vote", None, [{"name": f"P{i + 1}"} for i in range(6)])
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(6)]
    t.request_sync(t.host_token, {"op": "start"})
    n = 0
    rnd = 0
    while n < actions:
        for i, tok in enumerate(tokens):
            if n < actions:
                t.request_sync(tok, {"op": "act", "action": {"type": "submit", "value": "sv.yes" if i % 2 else "sv.no"}})
                n += 1
        for tok in tokens:
            if n < actions:
                t.request_sync(tok, {"op": "act", "action": {"type": "lock"}})
                n += 1
        if n < actions:
            rnd += 1
            t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "ask", "question": f"Q{rnd}"}})
            n += 1
    return t.code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lengths", type=lambda s: [int(x) for x in s.split(",")], default=[100, 300, 1000, 2000])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    header("(d) restart: replay a table's log")
    d = Path(tempfile.mkdtemp(prefix="bench-restart-"))
    store = Batch(d)
    hub = Hub(store)
    store.begin()
    codes = {n: build_log(hub, n) for n in args.lengths}
    store.commit()
    rows: list[dict[str, Any]] = []
    for n, code in codes.items():
        times = []
        cpus = []
        for _ in range(args.repeat):
            c0 = time.process_time()
            t0 = time.perf_counter()
            t = Table.load(store, code)
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        t0 = time.perf_counter()
        entries = store.entries(code)
        read = time.perf_counter() - t0
        rows.append({"actions": n, "log entries": len(entries), "load ms (median)": statistics.median(times) * 1000,
                     "min ms": min(times) * 1000,
                     "cpu ms (median)": statistics.median(cpus) * 1000, "of which SQLite read+parse ms": read * 1000,
                     "rounds revealed": len(t.state["history"]) if t.state else 0, "load": load()})
        print(table(rows[-1:]), flush=True)
    store.close()
    fresh = SQLiteStore(d)
    t0 = time.perf_counter()
    hub2 = Hub(fresh)
    hub2.load_all()
    all_ms = (time.perf_counter() - t0) * 1000
    print(table(rows))
    print(f"Hub.load_all() of all {len(hub2.tables)} tables ({sum(args.lengths)} actions): {all_ms:.0f} ms")
    print("target: ≤ 150 ms for a 1,000-action log")
    save("restart", {"args": vars(args), "rows": rows, "load_all_ms": all_ms})


if __name__ == "__main__":
    main()
