"""(c) Capacity: how many phone sessions one process holds with p95 action latency ≤ 100 ms.

    python -m benchmarks.capacity [--levels 12,30,60,120,300,600] [--interval 15] [--seconds 20]

Real Flet sessions running our screens over a fake connection (benchmarks/harness.py), 6
phones per sealed_vote table, logs in SQLite. Every phone acts (a secret submit, which
changes what its whole table sees) on average every --interval seconds (Poisson). Latency =
the tap's request until the acting phone has been sent its new screen. Memory per session =
growth of the process RSS while the sessions are opened (idle), divided by their number.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import harness as H
from benchmarks.common import header, load, pct, save, table
from companion.app import tune_gc
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.ui.screens import Server


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def level(n_phones: int, interval: float, seconds: float) -> dict[str, Any]:
    store = SQLiteStore(Path(tempfile.mkdtemp(prefix="bench-cap-")))
    hub = Hub(store)
    server = Server(hub, "http://bench")
    pubsub = H.new_pubsub()
    gc.collect()
    before = rss()
    phones: list[tuple[Any, str, H.Client]] = []
    for _ in range(max(1, n_phones // 6)):
        t, tokens = H.make_table(hub, 6)
        clients = await H.open_table(server, pubsub, t, tokens, host=False)
        phones += [(t, tok, c) for tok, c in zip(tokens, clients, strict=True)]
    await H.quiet([c for _, _, c in phones], timeout=120)
    gc.collect()
    per_session = (rss() - before) / len(phones)
    latencies: list[float] = []
    errors = 0
    stop = time.perf_counter() + seconds

    async def phone(t: Any, tok: str, c: H.Client, i: int) -> None:
        nonlocal errors
        await asyncio.sleep(min(random.uniform(0, interval), max(0.0, stop - time.perf_counter())))
        k = 0
        while time.perf_counter() < stop:
            assert c.conn is not None
            c.conn.watch()
            t0 = time.perf_counter()
            try:
                await t.request(tok, {"op": "act", "action": {"type": "submit", "value": "sv.yes" if k % 2 else "sv.no"}})
            except Exception:
                errors += 1
            if await c.conn.until_sent(30.0) and c.conn.first_after is not None:
                latencies.append(c.conn.first_after - t0)
            k += 1
            # the next tap; none after the end (a phone's last pause does not stretch the level)
            await asyncio.sleep(min(random.expovariate(1 / interval), max(0.0, stop - time.perf_counter())))
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    await asyncio.gather(*(phone(t, tok, c, i) for i, (t, tok, c) in enumerate(phones)))
    cpu_s = time.process_time() - cpu0
    cpu = cpu_s / (time.perf_counter() - wall0)
    for _, _, c in phones:
        c.close()
    store.close()
    return {"phones": len(phones), "tables": len(phones) // 6, "actions": len(latencies),
            "actions/s": len(latencies) / seconds if seconds else 0.0, "p50 ms": pct(latencies, 50) * 1000,
            "p95 ms": pct(latencies, 95) * 1000, "max ms": max(latencies, default=0) * 1000,
            "cpu busy": cpu, "cpu ms/action": cpu_s * 1000 / max(1, len(latencies)), "MB/session": per_session / 1e6, "errors": errors, "load": load()}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    cols = ["phones", "tables", "actions", "actions/s", "p50 ms", "p95 ms", "max ms", "cpu busy", "cpu ms/action",
            "MB/session",
            "errors", "load"]
    for n in args.levels:
        r = await level(n, args.interval, args.seconds)
        rows.append(r)
        print(table([r], cols), flush=True)
        if r["p95 ms"] > args.give_up_ms:
            print(f"   p95 above {args.give_up_ms} ms: stopping the latency ladder here")
            break
    mem_only = await memory_only(args.memory_sessions)
    print(f"   memory with {mem_only['phones']} idle phone sessions: {mem_only['MB/session']:.2f} MB/session")
    return {"rows": rows, "cols": cols, "memory": mem_only}


async def memory_only(n_phones: int) -> dict[str, Any]:
    r = await level(n_phones, 1e9, 0.0)
    return {"phones": r["phones"], "MB/session": r["MB/session"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", type=lambda s: [int(x) for x in s.split(",")], default=[12, 30, 60, 120, 300, 600])
    ap.add_argument("--interval", type=float, default=15.0, help="mean seconds between one phone's actions")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--memory-sessions", type=int, default=600, help="idle phone sessions opened to measure memory")
    ap.add_argument("--give-up-ms", type=float, default=2000.0)
    args = ap.parse_args()
    tune_gc()  # as the server does (companion/app.py)
    header(f"(c) capacity, one action per phone every {args.interval:g} s on average")
    res = asyncio.run(run(args))
    print(table(res["rows"], res["cols"]))
    print("target: ≥ 600 phone sessions at p95 ≤ 100 ms; ≤ 2 MB per session")
    save("capacity", {"args": vars(args), **res})


if __name__ == "__main__":
    main()
