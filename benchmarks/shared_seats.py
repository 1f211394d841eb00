"""Pass-and-play speed (issue 29): uncovering a seat on the shared device, and a reveal at a table
with shared seats against an all-phone table.

    python -m benchmarks.shared_seats [--uncovers 60] [--rounds 20] [--games sealed_vote,lutetia] [--memory]

In one process, with real Flet sessions running our screens over the fake connection of
benchmarks/harness.py (every message serialised as for the websocket and timestamped).

(1) **Uncover.** A table of 6: seats 2, 4 and 6 played on the shared device, seats 1, 3 and 5 on
phones, and the host. The game is played by random legal actions (benchmarks/soak.pick_action);
whenever a shared seat has something to do, the device's cover is tapped – a real click event on
the cover's button for that seat, dispatched into the device's Flet session – and timed from the
tap until the device's session has been sent the seat's screen: "first ms" until its first
message, "drawn ms" until its last one (the whole private screen; the target's figure). "cpu ms"
is the process CPU time from the tap until the device has sent everything (what the wall time
would be on an idle core). Then the seat plays on the device (the device's token, as its screen's
buttons send), is covered (by itself once it has locked or its turn is over, else by "Done –
cover"), and the game goes on.

(2) **Reveal.** Sealed vote, two tables of 6 in the same process, their rounds alternated: an
all-phone table (6 phones + host, 7 sessions) and a table with 3 shared seats (3 phones + the
shared device + host, 5 sessions). As in benchmarks/fanout.py, everyone submits and all but one
lock (not timed), then the last lock is timed until every session of that table has been sent the
reveal ("p95 ms"), and until every session has been sent everything that changed ("whole p95
ms"). At the mixed table the last lock comes either from a phone ("mixed, phone locks last") or
from the shared device, whose seat is open for it and is covered by that lock ("mixed, device
locks last": the device draws its cover and the reveal's public moment). The ratio is the mixed
table's p95 over the all-phone table's in the same run; "device p50 ms" is when the shared device
was sent its part of the reveal.
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
from benchmarks.common import header, load, pct, save, speed, table
from benchmarks.soak import pick_action
from companion.app import tune_gc
from companion.games import games, spec
from companion.games.base import RuleError
from companion.table.hub import Hub
from companion.table.store import MemoryStore, SQLiteStore
from companion.ui.assemble import for_shared as S
from companion.ui.screens import Server

SHARED = (1, 3, 5)  # seats 2, 4 and 6 of 6 play on the shared device


def make_mixed(hub: Hub, game: str, n: int = 6, shared: tuple[int, ...] = SHARED,
               options: dict[str, Any] | None = None, seed: int = 1) -> tuple[Any, str, dict[int, str]]:
    """A started table of `n` seats, `shared` of them on the shared device: (table, the device's
    token, seat -> phone token)."""
    t = hub.create(game, options, [{"name": f"P{i + 1}", "shared": i in shared} for i in range(n)], seed=seed)
    dev = t.request_sync(t.host_token, {"op": "device"})["token"]
    phones = {i: t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(n) if i not in shared}
    t.request_sync(t.host_token, {"op": "start"})
    return t, dev, phones


async def open_mixed(server: Server, pubsub: Any, t: Any, dev: str, phones: dict[int, str]) -> tuple[
        list[H.Client], H.Client]:
    """Every session of a mixed table: its phones, the host (admin panel open, as fanout) and the
    shared device. Returns (every session, the device)."""
    clients = await H.open_table(server, pubsub, t, list(phones.values()), host=True)
    device = await H.Client(server, f"/shared/{t.code}", {f"shared:{t.code}": dev, "lang": "en"}).open(pubsub)
    assert device.screen.role == "shared", device.screen.role
    return [*clients, device], device


def control(c: H.Client, key: str) -> Any:
    """The control with this key on the session's screen now (what a browser would tap; the
    session's index may still hold controls of earlier frames, not yet collected)."""
    assert c.session is not None
    found = None
    for ctl in list(c.session.index.values()):
        if getattr(ctl, "key", None) == key and mounted(ctl) and (found is None or ctl._i > found._i):
            found = ctl
    if found is None:
        raise LookupError(f"no control {key!r} on the screen")
    return found


def mounted(ctl: Any) -> bool:
    try:
        return ctl.page is not None
    except RuntimeError:
        return False


async def tap(c: H.Client, key: str) -> None:
    assert c.session is not None
    ctl = control(c, key)
    await c.session.dispatch_event(ctl._i, "click", None)


# ---------------------------------------------------------------- (1) uncover

async def play_until_shared_turn(t: Any, dev: str, phones: dict[int, str], r: random.Random,
                                 limit: int = 400) -> bool:
    """Random legal actions of the phones and the host until a shared seat has something to do;
    False if the game is over (or stuck) first."""
    for _ in range(limit):
        if t.phase != "playing" or t.state is None or spec(t.game_id).done(t.state):
            return False
        if S.to_do(t):
            return True
        actors = [s for s in [None, *phones] if t.legal(s)]
        if not actors:
            return False
        actor = r.choice(actors)
        action = pick_action(t.game_id, t.state, actor, t.legal(actor), r)
        if action is None:
            continue
        try:
            if actor is None:
                await t.request(t.host_token, {"op": "host_act", "action": action})
            else:
                await t.request(phones[actor], {"op": "act", "action": action})
        except RuleError:
            pass
    return False


async def seat_plays(t: Any, dev: str, seat: int, r: random.Random, limit: int = 30) -> None:
    """The uncovered seat plays random legal actions on the device until it has nothing to do."""
    for _ in range(limit):
        if t.phase != "playing" or t.state is None or seat not in S.to_do(t):
            return
        action = pick_action(t.game_id, t.state, seat, t.legal(seat), r)
        if action is None:
            return
        try:
            await t.request(dev, {"op": "act", "seat": seat, "action": action})
        except RuleError:
            pass


async def uncovers(game: str, count: int, memory: bool, seed: int) -> dict[str, Any]:
    store: Any = MemoryStore() if memory else SQLiteStore(Path(tempfile.mkdtemp(prefix="bench-shared-")))
    hub = Hub(store)
    server = Server(hub, "http://bench")
    pubsub = H.new_pubsub()
    r = random.Random(seed)
    first: list[float] = []
    drawn: list[float] = []
    cpu: list[float] = []
    sent: list[int] = []
    n = min(6, games()[game].MAX_SEATS)
    shared = tuple(s for s in SHARED if s < n)
    tables = 0
    while len(drawn) < count:
        t, dev, phones = make_mixed(hub, game, n, shared, seed=seed + tables)
        tables += 1
        every, device = await open_mixed(server, pubsub, t, dev, phones)
        await H.quiet(every)
        conn = device.conn
        assert conn is not None
        while len(drawn) < count and await play_until_shared_turn(t, dev, phones, r):
            await H.quiet(every)
            seat = S.to_do(t)[0]
            assert S.state(device.screen).seat is None
            conn.watch()
            before = conn.sent
            t0 = time.perf_counter()
            c0 = time.process_time()
            await tap(device, f"uncover:{seat}")
            await conn.until_sent(30)
            await H.quiet([device], idle=0.02)
            cpu.append((time.process_time() - c0) * 1000)
            assert S.state(device.screen).seat == seat, "the tap did not open the seat"
            first.append(((conn.first_after or t0) - t0) * 1000)
            drawn.append((conn.last_send - t0) * 1000)
            sent.append(conn.sent - before)
            await seat_plays(t, dev, seat, r)
            await H.quiet(every)
            if S.state(device.screen).seat is not None:  # (it still may act: "Done – cover")
                await tap(device, "cover")
                await H.quiet(every)
        for c in every:
            c.close()
    # (the store is left open: closed sessions may still read it)
    return {"game": game, "seats": f"{n} ({len(shared)} shared)", "uncovers": len(drawn), "tables": tables,
            "first p50 ms": pct(first, 50), "drawn p50 ms": pct(drawn, 50), "drawn p95 ms": pct(drawn, 95),
            "drawn max ms": max(drawn), "cpu p50 ms": pct(cpu, 50), "cpu p95 ms": pct(cpu, 95),
            "messages": pct([float(x) for x in sent], 50), "load": load()}


# ---------------------------------------------------------------- (2) reveal

def unmute(clients: list[H.Client]) -> None:
    """As H.mute(clients, False), but each screen re-renders in its own session's task (as after
    any change at the table): the shared device's frame must reach its own session, whose
    controls the next tap finds."""
    for c in clients:
        scr = c.screen
        scr._pending = False
        if scr.table is not None:
            scr._changed(scr.table)


async def reveal_round(t: Any, clients: list[H.Client], locks: list[tuple[str, int | None]], last: tuple[str, int | None],
                       rnd: int, device: H.Client | None = None, open_last: bool = False,
                       ) -> tuple[float, float, float, float]:
    """One sealed-vote round: every seat submits, all but `last` lock (not timed), then `last`
    locks, timed until every session has been sent the reveal (and until all is sent). A lock is
    (token, seat): seat given = the shared device acting for that seat."""
    def op(tok: str, seat: int | None, action: dict[str, Any]) -> dict[str, Any]:
        return {"op": "act", "action": action} | ({"seat": seat} if seat is not None else {})
    H.mute(clients, True)
    if rnd > 0:
        await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "choice",
                                                                   "question": f"Round {rnd + 1}?"}})
    for i, (tok, seat) in enumerate([*locks, last]):
        await t.request(tok, op(tok, seat, {"type": "submit", "value": "sv.yes" if i % 2 else "sv.no"}))
    for tok, seat in locks:
        await t.request(tok, op(tok, seat, {"type": "lock"}))
    unmute(clients)
    await H.quiet(clients, timeout=120)
    if open_last and device is not None:  # the device's seat is open for its lock
        assert last[1] is not None
        await tap(device, f"uncover:{last[1]}")
        await H.quiet(clients)
        assert S.state(device.screen).seat == last[1]
    for c in clients:
        assert c.conn is not None
        c.conn.watch()
    t0 = time.perf_counter()
    c0 = time.process_time()
    await t.request(last[0], op(last[0], last[1], {"type": "lock"}))
    done = await asyncio.gather(*(c.conn.until_sent(60) for c in clients if c.conn is not None))
    if not all(done):
        raise TimeoutError("not every session was sent the reveal")
    first = max((c.conn.first_after or t0) - t0 for c in clients if c.conn)  # type: ignore[union-attr]
    dev_first = ((device.conn.first_after or t0) - t0) if device is not None and device.conn else float("nan")
    await H.quiet(clients)
    cpu = (time.process_time() - c0) * 1000
    whole = max(c.conn.last_send - t0 for c in clients if c.conn)  # type: ignore[union-attr]
    assert t.state and t.state["round"]["revealed"]
    if device is not None:
        assert S.state(device.screen).seat is None  # (every shared seat locked: covered)
    return first * 1000, whole * 1000, cpu, dev_first * 1000


async def reveals(rounds: int, memory: bool) -> list[dict[str, Any]]:
    store: Any = MemoryStore() if memory else SQLiteStore(Path(tempfile.mkdtemp(prefix="bench-shared-")))
    hub = Hub(store)
    server = Server(hub, "http://bench")
    pubsub = H.new_pubsub()
    phone_t, tokens = H.make_table(hub, 6)
    phone_c = await H.open_table(server, pubsub, phone_t, tokens, host=True)
    mixed_t, dev, phones = make_mixed(hub, "sealed_vote")
    mixed_c, device = await open_mixed(server, pubsub, mixed_t, dev, phones)
    dev_t, dev2, phones2 = make_mixed(hub, "sealed_vote", seed=2)
    dev_c, device2 = await open_mixed(server, pubsub, dev_t, dev2, phones2)
    await H.quiet([*phone_c, *mixed_c, *dev_c])
    res: dict[str, list[tuple[float, float, float, float]]] = {"all phones": [], "mixed, phone locks last": [],
                                                        "mixed, device locks last": []}
    seats = [(tok, None) for tok in tokens]
    mixed = [(phones[i], None) if i in phones else (dev, i) for i in range(6)]
    mixed_phone_last = [x for x in mixed if x != (phones[4], None)]  # seat 5 (a phone) locks last
    mixed2 = [(phones2[i], None) if i in phones2 else (dev2, i) for i in range(6)]
    for rnd in range(rounds):
        order = list(res)
        random.Random(rnd).shuffle(order)  # (no case always runs first in a round)
        for case in order:
            if case == "all phones":
                r = await reveal_round(phone_t, phone_c, seats[:-1], seats[-1], rnd)
            elif case == "mixed, phone locks last":
                r = await reveal_round(mixed_t, mixed_c, mixed_phone_last, (phones[4], None), rnd, device)
            else:
                r = await reveal_round(dev_t, dev_c, mixed2[:-1], mixed2[-1], rnd, device2, open_last=True)
            res[case].append(r)
    for c in [*phone_c, *mixed_c, *dev_c]:
        c.close()
    base = pct([x[0] for x in res["all phones"]], 95)
    base_cpu = pct([x[2] for x in res["all phones"]], 50)
    rows = []
    for case, xs in res.items():
        p95 = pct([x[0] for x in xs], 95)
        cpu = pct([x[2] for x in xs], 50)
        rows.append({"table": case, "sessions": 7 if case == "all phones" else 5, "rounds": len(xs),
                     "p50 ms": pct([x[0] for x in xs], 50), "p95 ms": p95, "ratio p95": p95 / base,
                     "whole p95 ms": pct([x[1] for x in xs], 95), "cpu ms p50": cpu, "ratio cpu": cpu / base_cpu,
                     "device p50 ms": pct([x[3] for x in xs], 50) if case != "all phones" else "",
                     "load": load()})
    return rows


async def run(args: argparse.Namespace) -> dict[str, Any]:
    cols_u = ["game", "seats", "uncovers", "tables", "first p50 ms", "drawn p50 ms", "drawn p95 ms", "drawn max ms",
              "cpu p50 ms", "cpu p95 ms", "messages", "load"]
    print("-- (1) uncover: a tap on the cover until the seat's screen has been sent (table of 6, 3 shared)")
    rows_u = []
    for g in args.games:
        r = await uncovers(g, args.uncovers, args.memory, args.seed)
        rows_u.append(r)
        print(table([r], cols_u), flush=True)
    print("-- (2) reveal: last lock until every session has been sent the reveal (sealed vote, table of 6)")
    rows_r = await reveals(args.rounds, args.memory)
    cols_r = ["table", "sessions", "rounds", "p50 ms", "p95 ms", "ratio p95", "whole p95 ms", "cpu ms p50",
              "ratio cpu", "device p50 ms", "load"]
    print(table(rows_r, cols_r), flush=True)
    return {"uncover": rows_u, "reveal": rows_r, "cols_uncover": cols_u, "cols_reveal": cols_r}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--uncovers", type=int, default=60, help="uncovers timed per game")
    ap.add_argument("--rounds", type=int, default=20, help="reveals timed per table (as fanout)")
    ap.add_argument("--games", type=lambda s: s.split(","), default=["sealed_vote", "lutetia"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--memory", action="store_true", help="MemoryStore instead of SQLite")
    args = ap.parse_args()
    tune_gc()  # as the server does (companion/app.py)
    header("pass-and-play: uncover and reveal with shared seats")
    res = asyncio.run(run(args))
    print(table(res["uncover"], res["cols_uncover"]))
    print(table(res["reveal"], res["cols_reveal"]))
    print("targets: uncover drawn p95 ≤ 150 ms (table of 6, 3 shared); a reveal with shared seats ≤ 1.2× "
          "the all-phone table's (p95)")
    print(f"speed check at the end: {speed():.0f} CPU-ms")
    save("shared_seats", {"args": vars(args), **res})


if __name__ == "__main__":
    main()
