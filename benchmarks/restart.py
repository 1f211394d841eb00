"""(d) Restart: load a table by replaying its action log from SQLite.

    python -m benchmarks.restart [--lengths 100,300,1000,2000] [--games sealed_vote,lutetia,lutece,quovadis]

One table per log (no chaining of games). Timed: `Table.load(store, code)` (read the log, parse,
replay every entry through the game rules) and `Hub.load_all()` for a data dir holding them all.

sealed_vote: 6 seats; rounds of 6 secret submits, 6 locks (the last reveals) and the host's next
question.

LUTETIA, Lutèce, Quo Vadis: random legal play through `Table.request_sync` with the players of
benchmarks/soak.py (`new_table`, `pick_action`: a random seat or the host that can act picks from its own
`legal()`; hand-overs, promises, forced reveals and cost corrections only 5% of the time, so
they do not swamp the log), at the largest seat count, with a "long game" policy so a table gets
long enough:
- an action that would end the game (phase "over", or Lutèce's "scoring") is replaced by another
  legal one while there is one (one-step lookahead through the pure `apply`);
- Quo Vadis: also a move into the Senate's last free seat (it ends the game after its vote);
- LUTETIA: the proposer always proposes the smallest step (a cautious table);
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
from companion.games import games
from companion.games.base import RuleError
from companion.games.quovadis import rules as Q
from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from companion.table.table import Table

GAMES = ["sealed_vote", "lutetia", "lutece", "quovadis"]
SEATS = {"lutetia": 6, "lutece": 5, "quovadis": 5}
ENDING_PHASES = {"over", "scoring"}
SIDE_RATE = 0.05


class Batch(SQLiteStore):
    """Building the logs fast: one transaction for everything (the timed part reads as usual)."""

    def begin(self) -> None:
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("BEGIN")

    def commit(self) -> None:
        self._db.execute("COMMIT")


def build_sealed_vote(hub: Hub, actions: int) -> Table:
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
    return t


def side_action(game_id: str, state: dict[str, Any], a: dict[str, Any]) -> bool:
    """Actions a real table takes now and then, not as the main flow: laurel hand-overs and promises
    (any seat, any time), the host forcing a reveal / closing a vote / skipping tasks, a cost
    correction during the choice. Uniform random actors would make them most of the log."""
    kind = a["type"]
    if game_id == "quovadis":
        return kind in ("give", "promise", "close_vote")
    if game_id == "lutece":
        return kind == "reveal" or (kind == "set_cost" and state["phase"] == "choose")
    if game_id == "lutetia":
        return kind in ("reveal", "skip")
    return False


def _ends(t: Table, action: dict[str, Any], new: dict[str, Any]) -> bool:
    if new.get("phase") in ENDING_PHASES or t.game.result(new) is not None:
        return True
    # Quo Vadis: a move into the Senate's last free seat ends the game once its vote is through
    # (a step later, when a one-step lookahead can no longer avoid it)
    return (t.game_id == "quovadis" and action["type"] == "move" and action.get("to") == Q.SENATE
            and Q._free(t.state, Q.SENATE) <= 1)


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
    if t.game_id == "lutetia" and action["type"] == "propose":
        action["to"] = min(a["to"] for a in legal if a["type"] == "propose")
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
    p = new_table(hub.store, code, game_id, SEATS[game_id], seed)
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
            if game_id == "sealed_vote":
                t = build_sealed_vote(hub, n)
            else:
                t = build_random(hub, game_id, n, args.seed)
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
        over = "never ends" if game_id == "sealed_vote" else ("yes" if t.result() is not None else "no")
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
