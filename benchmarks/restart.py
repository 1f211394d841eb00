"""(d) Restart: load a table by replaying its action log from SQLite.

    python -m benchmarks.restart [--lengths 100,300,1000,2000] [--games ID,ID,...]   (default: every game)

One table per log (no chaining of games). Timed: `Table.load(store, code)` (read the log, parse,
replay every entry through the game rules) and `Hub.load_all()` for a data dir holding them all.

A game whose folder scripts a long log (`long_script` in its testing.py: the sealed vote's rounds
of 6 secret submits, 6 locks – the last reveals – and the host's next question) plays that.

Every other game: random legal play through `Table.request_sync` with the players of
benchmarks/soak.py (`new_table`, `pick_action`: a random seat or the host that can act draws with
the game's `sample()` from its own `legal()`), at the largest seat count, with a "long game"
policy so a table gets long enough:
- the actions a game's testing.py calls rare (`long_rare`: hand-overs, promises, forced reveals,
  cost corrections) only 5% of the time, so they do not swamp the log;
- an action that would end the game (phase "over" or "scoring", a result, or what the game's
  `long_ends` says – Quo Vadis: a move into the Senate's last free seat) is replaced by another
  legal one while there is one (one-step lookahead through the pure `apply`);
- the game's `long_adjust` may change a drawn action (LUTETIA: the proposer always proposes the
  smallest step, a cautious table);
- Lutèce: unknown deck sizes (the default), so the host decides every round whether to go on.
A game that still ends before N actions is NOT extended or chained: its row reports the length
reached ("actions" < "target", "game over" = yes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.common import header, load, save, table
from benchmarks.soak import Phones, new_table, pick_action
from companion.games import games, spec
from companion.games.base import RuleError
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.table.table import Table

GAMES = list(games())
ENDING_PHASES = {"over", "scoring"}
SIDE_RATE = 0.05


class Batch(SQLiteStore):
    """Building the logs fast: one transaction for everything (the timed part reads as usual)."""

    def begin(self) -> None:
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("BEGIN")

    def commit(self) -> None:
        self._db.execute("COMMIT")


def _hook(game_id: str, name: str) -> Any:
    return spec(game_id).testing_hook(name)


def build_script(hub: Hub, game_id: str, actions: int) -> Table | None:
    """The game's scripted long log (`long_script` in its testing.py), or None if it has none."""
    script = _hook(game_id, "long_script")
    if script is None:
        return None
    steps = list(script(actions))
    seats = 1 + max((s for s, _ in steps if s is not None), default=0)
    t = hub.create(game_id, None, [{"name": f"P{i + 1}"} for i in range(seats)])
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(seats)]
    t.request_sync(t.host_token, {"op": "start"})
    for seat, action in steps:
        if seat is None:
            t.request_sync(t.host_token, {"op": "host_act", "action": action})
        else:
            t.request_sync(tokens[seat], {"op": "act", "action": action})
    return t


def side_action(game_id: str, state: dict[str, Any], a: dict[str, Any]) -> bool:
    """Actions a real table takes now and then, not as the main flow (the game's `long_rare`).
    Uniform random actors would make them most of the log."""
    rare = _hook(game_id, "long_rare")
    return bool(rare(state, a)) if rare is not None else False


def _ends(t: Table, action: dict[str, Any], new: dict[str, Any]) -> bool:
    if new.get("phase") in ENDING_PHASES or t.game.result(new) is not None:
        return True
    ends = _hook(t.game_id, "long_ends")  # an action that ends the game a step later
    return bool(ends(t.state, action)) if ends is not None else False


def table_request(p: Phones, r: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A random legal request from a seat or the host that can act (soak's `pick_action` on its own
    `legal()`); side actions only SIDE_RATE of the time."""
    t = p.table
    assert t.state is not None
    side_ok = r.random() < SIDE_RATE
    actors = []
    for seat in [None, *range(len(p.tokens))]:
        legal = [a for a in t.legal(seat) if side_ok or not side_action(t.game_id, t.state, a)]
        if legal:
            actors.append((seat, legal))
    if not actors:
        return None
    seat, legal = r.choice(actors)
    action = pick_action(t.game_id, t.state, seat, legal, r)
    if action is None:
        return None
    adjust = _hook(t.game_id, "long_adjust")
    if adjust is not None:
        action = adjust(t.state, action, legal)
    if seat is None:
        return t.host_token, {"op": "host_act", "action": action}
    return p.tokens[seat], {"op": "act", "action": action}


def long_request(p: Phones, r: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A `table_request` that does not end the game, if there is one (else one that does)."""
    t = p.table
    assert t.state is not None
    ending = None
    for _ in range(40):
        req = table_request(p, r)
        if req is None:
            continue
        token, op = req
        seat = None if op["op"] == "host_act" else p.tokens.index(token)
        try:
            new = t.game.apply(t.state, {**op["action"], "seat": seat})
        except RuleError:
            continue
        if not _ends(t, op["action"], new):
            return req
        ending = req
    return ending


def build_random(hub: Hub, game_id: str, actions: int, seed: int) -> Table:
    code = hub.new_code()
    p = new_table(hub.store, code, game_id, games()[game_id].MAX_SEATS, seed)  # the largest seat count
    hub.add(p.table)
    r = random.Random(f"restart:{game_id}:{actions}:{seed}")
    misses = 0
    while len(p.table.actions) < actions and p.table.result() is None and misses < 200:
        req = long_request(p, r)
        if req is None:
            misses += 1
            continue
        try:
            p.table.request_sync(*req)
        except RuleError:
            misses += 1
    return p.table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lengths", type=lambda s: [int(x) for x in s.split(",")], default=[100, 300, 1000, 2000])
    ap.add_argument("--games", type=lambda s: s.split(","), default=GAMES)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    header("(d) restart: replay a table's log")
    d = Path(tempfile.mkdtemp(prefix="bench-restart-"))
    store = Batch(d)
    hub = Hub(store)
    store.begin()
    built: list[tuple[str, int, Table, float]] = []
    for game_id in args.games:
        for n in args.lengths:
            t0 = time.perf_counter()
            t = build_script(hub, game_id, n) or build_random(hub, game_id, n, args.seed)
            built.append((game_id, n, t, time.perf_counter() - t0))
    store.commit()
    rows: list[dict[str, Any]] = []
    for game_id, n, live, build_s in built:
        code = live.code
        times = []
        cpus = []
        for _ in range(args.repeat):
            c0 = time.process_time()
            t0 = time.perf_counter()
            t = Table.load(store, code)
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        assert t.state == live.state, f"{game_id} {n}: reloaded state differs"
        t0 = time.perf_counter()
        entries = store.entries(code)
        read = time.perf_counter() - t0
        never = getattr(t.game, "sample_done", None) is not None  # a game that never ends by itself
        over = "never ends" if never else ("yes" if t.result() is not None else "no")
        kinds = Counter(a.get("type") for a in t.actions)
        mix = ", ".join(f"{k} {v * 100 // max(1, len(t.actions))}%" for k, v in kinds.most_common(3))
        med = statistics.median(times) * 1000
        cpu = statistics.median(cpus) * 1000
        rows.append({"game": game_id, "seats": len(t.seats), "target": n, "actions": len(t.actions),
                     "game over": over,
                     "log entries": len(entries), "load ms (median)": med, "min ms": min(times) * 1000,
                     "cpu ms (median)": cpu, "cpu µs/action": cpu * 1000 / max(1, len(t.actions)),
                     "of which SQLite read+parse ms": read * 1000, "build s": build_s, "load": load(),
                     "most frequent actions": mix})
        print(table(rows[-1:]), flush=True)
    store.close()
    fresh = SQLiteStore(d)
    t0 = time.perf_counter()
    hub2 = Hub(fresh)
    hub2.load_all()
    all_ms = (time.perf_counter() - t0) * 1000
    total = sum(r["actions"] for r in rows)
    print()
    cols = ["actions", "game over", "load ms (median)", "min ms", "cpu ms (median)", "cpu µs/action",
            "of which SQLite read+parse ms", "load", "most frequent actions"]
    for game_id in args.games:
        mine = [r for r in rows if r["game"] == game_id]
        print(f"-- {games()[game_id].ID}: {mine[0]['seats']} seats, growth (actions → load ms, cpu ms)")
        print(table(mine, cols))
        short = [r for r in mine if r["actions"] < r["target"]]
        for r in short:
            print(f"   note: the game ended after {r['actions']} actions (target {r['target']}); "
                  "the row is that whole game")
        print()
    print(f"Hub.load_all() of the {len(hub2.loaded())} tables in play ({total} actions in all tables): {all_ms:.0f} ms")
    print("target: ≤ 150 ms for a 1,000-action log")
    save("restart", {"args": vars(args), "rows": rows, "load_all_ms": all_ms})


if __name__ == "__main__":
    main()
