"""A table process for the kill test: plays random legal actions on four tables (one per game)
through `Table.request_sync` on a real SQLiteStore and prints every acknowledged entry.

    python -m tests.reliability.driver DATA_DIR SEED

Output lines (flushed one by one, printed only after request_sync returned):
    JOIN code seat token
    ACK code seq entry_sha state_sha
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from benchmarks.soak import Phones, game_over, random_request
from companion.games import games
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.table.table import Table


def sha(obj: object) -> str:
    return hashlib.sha1(json.dumps(obj, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def ack(t: Table) -> None:
    print(f"ACK {t.code} {len(t.entries) - 1} {sha(t.entries[-1])} {sha(t.state)}", flush=True)


def main() -> None:
    data_dir, seed = sys.argv[1], int(sys.argv[2])
    r = random.Random(seed)
    store = SQLiteStore(data_dir)
    hub = Hub(store)
    hub.load_all()
    assert not hub.problems, hub.problems
    live: dict[str, Phones] = {}
    for m in hub.open_tables():  # restarted: the phones keep their tokens (from the log here)
        t = hub.get(m.code)
        if t is not None and t.phase == "playing":
            live[m.code] = Phones(t, [s["token"] for s in t.seats])
    n_made = len(hub.metas())
    while True:
        for gid in sorted(games()):
            if not any(p.table.game_id == gid for p in live.values()):
                code = f"{gid[:2].upper()}{n_made:03d}"
                n_made += 1
                game = games()[gid]
                n = max(game.MIN_SEATS, min(6, game.MAX_SEATS))
                t = Table.create(store, code, gid, None, [{"name": f"P{i + 1}"} for i in range(n)],
                                 r.randrange(2**31))
                hub.add(t)
                ack(t)
                tokens = []
                for i in range(n):
                    tokens.append(t.request_sync(None, {"op": "join", "seat": i})["token"])
                    print(f"JOIN {code} {i} {tokens[-1]}", flush=True)
                    ack(t)
                t.request_sync(t.host_token, {"op": "start"})
                ack(t)
                live[code] = Phones(t, tokens)
        p = live[r.choice(sorted(live))]
        t = p.table
        if game_over(t):
            t.request_sync(t.host_token, {"op": "end"})
            ack(t)
            del live[t.code]
            continue
        req = random_request(p, r)
        if req is None:
            continue
        token, op = req
        t.request_sync(token, op)  # a RuleError here would be a bug: the action was legal
        ack(t)


if __name__ == "__main__":
    main()
