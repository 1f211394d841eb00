"""(b) Reveal fan-out: from the last lock to every session of the table having been sent the reveal.

    python -m benchmarks.fanout [--rounds 20] [--tables 100] [--memory]

In one process, with real Flet sessions running our screens over a fake connection that
timestamps each message as it is serialised for the websocket (benchmarks/harness.py). The
game is sealed_vote: everyone submits, all but one lock, then the last lock (which reveals)
is timed until every phone (and the host) of that table has been sent the reveal. A screen
redraws its game part (which shows the reveal) first and the rest (seat list, buttons) once
every screen of the table has had its turn (companion/ui/screens.py, render): "p95 ms" runs
until every session has been sent its game part, "whole p95 ms" until every session has been
sent everything that changed. Logs go to SQLite (as in production) unless --memory. "cpu ms"
is the process CPU time spent per fan-out: what the wall time would be on an idle core.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import harness as H
from benchmarks.common import header, load, pct, save, table
from companion.app import tune_gc
from companion.table.hub import Hub
from companion.table.store import MemoryStore, SQLiteStore
from companion.ui.screens import Server


async def prepare_round(t: Any, host: str, tokens: list[str], rnd: int) -> None:
    if rnd > 0:
        await t.request(host, {"op": "host_act", "action": {"type": "ask", "mode": "choice",
                                                           "question": f"Round {rnd + 1}?"}})
    for i, tok in enumerate(tokens):
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": "sv.yes" if i % 2 else "sv.no"}})
    for tok in tokens[:-1]:
        await t.request(tok, {"op": "act", "action": {"type": "lock"}})


async def wait_sent(clients: list[H.Client], timeout: float = 60.0) -> None:
    """Until every session has been sent something since watch() (events: no polling that
    would take the event loop from the sessions being measured)."""
    done = await asyncio.gather(*(c.conn.until_sent(timeout) for c in clients if c.conn is not None))
    if not all(done):
        raise TimeoutError("not every session was sent the reveal")


async def fanout(tables: int, phones: int, host: bool, rounds: int, memory: bool, stagger: float = 0.0,
                 ) -> dict[str, Any]:
    store: Any = MemoryStore() if memory else SQLiteStore(Path(tempfile.mkdtemp(prefix="bench-fanout-")))
    hub = Hub(store)
    server = Server(hub, "http://bench")
    pubsub = H.new_pubsub()
    groups = []
    for _ in range(tables):
        t, tokens = H.make_table(hub, phones)
        clients = await H.open_table(server, pubsub, t, tokens, host=host)
        groups.append((t, tokens, clients))
    every = [c for g in groups for c in g[2]]
    await H.quiet(every)
    per_table: list[float] = []
    per_session: list[float] = []
    whole: list[float] = []  # until every session has been sent everything that changed
    cpu: list[float] = []
    cpu_all: list[float] = []
    for rnd in range(rounds):
        H.mute(every, True)  # the set-up of a round is not what is measured
        await asyncio.gather(*(prepare_round(t, t.host_token, tokens, rnd) for t, tokens, _ in groups))
        H.mute(every, False)
        await H.quiet(every, timeout=600)
        for c in every:
            assert c.conn is not None
            c.conn.watch()
        starts: dict[str, float] = {}

        async def last_lock(t: Any, tokens: list[str], delay: float, starts: dict[str, float] = starts) -> None:
            if delay:
                await asyncio.sleep(delay)
            starts[t.code] = time.perf_counter()
            await t.request(tokens[-1], {"op": "act", "action": {"type": "lock"}})
        cpu0 = time.process_time()
        await asyncio.gather(*(last_lock(t, tokens, random.uniform(0, stagger) if stagger else 0.0)
                               for t, tokens, _ in groups))
        await wait_sent(every)
        cpu.append((time.process_time() - cpu0) * 1000)
        await H.quiet(every)
        cpu_all.append((time.process_time() - cpu0) * 1000)
        for t, _, clients in groups:
            times = [(c.conn.first_after or 0) - starts[t.code] for c in clients if c.conn]  # type: ignore[union-attr]
            per_session += times
            per_table.append(max(times))
            whole.append(max((c.conn.last_send or 0) - starts[t.code] for c in clients if c.conn))  # type: ignore[union-attr]
        assert all(t.state and t.state["round"]["revealed"] for t, _, _ in groups)
    for c in every:
        c.close()
    store.close()
    return {"tables": tables, "phones": phones, "host": host, "sessions": len(every), "rounds": rounds,
            "stagger s": stagger,
            "p50 ms": pct(per_table, 50) * 1000, "p95 ms": pct(per_table, 95) * 1000,
            "max ms": max(per_table) * 1000, "session p50 ms": pct(per_session, 50) * 1000,
            "cpu ms/fan-out": pct(cpu, 50), "whole p95 ms": pct(whole, 95) * 1000,
            "cpu ms/whole": pct(cpu_all, 50), "load": load()}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    cols = ["tables", "phones", "host", "sessions", "stagger s", "p50 ms", "p95 ms", "max ms", "session p50 ms",
            "cpu ms/fan-out", "whole p95 ms", "cpu ms/whole", "load"]
    print("-- one table, phones per table (+ host)")
    growth_phones = []
    for n in args.phones:
        r = await fanout(1, n, True, args.rounds, args.memory)
        growth_phones.append(r)
        print(table([r], cols), flush=True)
    print(f"-- {args.tables} tables × 6 phones, every table's last lock at once (burst) and spread over "
          f"{args.stagger:g} s")
    growth_tables = []
    for n in sorted({1, 10, args.tables // 3, args.tables}):
        r = await fanout(n, 6, False, args.big_rounds, args.memory)
        growth_tables.append(r)
        print(table([r], cols), flush=True)
    spread = await fanout(args.tables, 6, False, args.big_rounds, args.memory, stagger=args.stagger)
    print(table([spread], cols), flush=True)
    rows = growth_phones + growth_tables + [spread]
    return {"rows": rows, "cols": cols}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--big-rounds", type=int, default=2, help="rounds for the many-table cases")
    ap.add_argument("--phones", type=lambda s: [int(x) for x in s.split(",")], default=[2, 4, 6, 8])
    ap.add_argument("--stagger", type=float, default=2.0)
    ap.add_argument("--memory", action="store_true", help="MemoryStore instead of SQLite")
    args = ap.parse_args()
    tune_gc()  # as the server does (companion/app.py)
    header("(b) reveal fan-out")
    res = asyncio.run(run(args))
    print(table(res["rows"], res["cols"]))
    print("targets: p95 ≤ 20 ms (1 table, 6 phones + host); p95 ≤ 250 ms (100 tables × 6 phones)")
    save("fanout", {"args": vars(args), **res})


if __name__ == "__main__":
    main()
