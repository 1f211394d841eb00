"""The real server process is SIGKILLed at random moments of a game and restarted.

Three phones (headless Chromium contexts) and the host screen play sealed-vote rounds against
`python -m companion`. At random moments – racing a tap, right after a tap, while a tap is in
flight, or just after its effect appeared – the server gets SIGKILL and is started again on the
same port and data directory. After every kill the test checks, from the outside:

* every action whose effect a screen had shown before the kill ("acknowledged") is in the SQLite
  log (opened read-only), in order;
* the log holds nothing the phones did not send, nothing twice, and at most the one tap that was
  in flight at the kill (which may or may not have been written – both are allowed);
* the state restored from the log (replayed with `Table.load`) is the expected state, and every
  screen shows it again once it is back: each phone its own seat ("Ana (you)") with its own choice
  or lock, the host the same count, round and tally;
* no entry appears while the screens reconnect (no tap is replayed by a reconnecting client).

The server stays down 0-12 s (KILL_DOWNTIMES). Screens first get the chance to reconnect on their
own (what an open phone does). One that comes back without its seat (or not at all within
RECONNECT_WAIT seconds) is reopened in a new tab – a reload does not help: it reuses the broken
session – and counted in the report line (known bug, Flet #6412: in a session Flet re-creates
after a server restart, SharedPreferences calls time out, so the seat token is not found; see
docs/RELIABILITY.md). STRICT_RECONNECT=1 fails the test instead.

SERVER_KILLS (default 3; 20 for the full run) sets the number of kills; KILL_SEED fixes the random
schedule (printed in the report line).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.table.store import MemoryStore, SQLiteStore
from companion.table.table import Table
from tests.browser.helpers import (
    HOST,
    PHONE,
    ServerProcess,
    enable_semantics,
    open_screen,
    page_text,
    see,
    tap,
    type_into,
)

pytestmark = pytest.mark.browser

KILLS = int(os.environ.get("SERVER_KILLS", "3"))
SEED = int(os.environ.get("KILL_SEED", str(random.randrange(1_000_000))))
RECONNECT_WAIT = float(os.environ.get("RECONNECT_WAIT", "75"))
CODE = "KQTW"
NAMES = ["Ana", "Ben", "Cleo"]
CHOICES = ["Yes", "No", "Abstain"]
STRICT = os.environ.get("STRICT_RECONNECT") == "1"  # a screen must come back on its own, with its seat
DOWNTIMES = [float(x) for x in os.environ.get("KILL_DOWNTIMES", "0,1,5,12").split(",")]  # s between kill and restart
DISCONNECTED = "Working..."  # Flet's overlay while the socket is down


def log(msg: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {msg}", flush=True)


def norm(value: Any) -> Any:
    """Round 1 stores the catalog keys (sv.yes), later rounds the host's typed labels (Yes)."""
    if isinstance(value, str):
        return value.removeprefix("sv.").lower()
    return value


def squash(s: str) -> str:
    return " ".join(s.split())


# ---------- the model: what the screens have shown ----------
class Model:
    def __init__(self) -> None:
        self.round_no = 1
        self.choice: list[str | None] = [None] * 3
        self.locked = [False] * 3
        self.revealed = False

    def apply(self, act: dict[str, Any]) -> None:
        kind, seat = act["type"], act["seat"]
        if kind == "submit":
            self.choice[seat] = act["value"]
        elif kind == "lock":
            self.locked[seat] = True
            if all(self.locked):
                self.revealed = True
        elif kind == "reveal":  # an early reveal: a choice not locked does not count (the table's default)
            self.choice = [c if lk else None for c, lk in zip(self.choice, self.locked, strict=True)]
            self.revealed = True
        elif kind == "ask":
            self.round_no += 1
            self.choice = [None] * 3
            self.locked = [False] * 3
            self.revealed = False

    def tally(self) -> str:
        counts = Counter(c for c in self.choice if c is not None)
        return squash("Tally: " + "  ·  ".join(f"{c}: {counts[c]}" for c in CHOICES))

    def moves(self) -> list[dict[str, Any]]:
        if self.revealed:
            return [{"type": "ask", "seat": None}]
        out: list[dict[str, Any]] = []
        for i in range(3):
            if self.locked[i]:
                continue
            out += [{"type": "submit", "seat": i, "value": c} for c in CHOICES if c != self.choice[i]]
            if self.choice[i] is not None:
                out += [{"type": "lock", "seat": i}] * 3
        if any(c is not None for c in self.choice):
            out.append({"type": "reveal", "seat": None})
        return out


# ---------- the log, read from outside ----------
def read_log(db: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT seq, entry FROM log WHERE code=? ORDER BY seq", (CODE,)).fetchall()
    finally:
        con.close()
    assert [r[0] for r in rows] == list(range(len(rows))), "sequence numbers not contiguous"
    return [json.loads(r[1]) for r in rows]


def key(act: dict[str, Any]) -> tuple[Any, ...]:
    return (act["type"], act.get("seat"), norm(act.get("value")))


def check_log(entries: list[dict[str, Any]], attempts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game actions in the log are the attempted taps in order; only uncertain ones may be missing.

    Returns the attempts that are in the log (each log entry matched to exactly one tap: nothing
    stored twice, nothing stored that was not sent, nothing acknowledged missing).
    """
    kinds = Counter(e["k"] for e in entries)
    assert kinds["create"] == 1 and kinds["join"] == 3 and kinds["start"] == 1, kinds
    assert set(kinds) <= {"create", "join", "start", "act"}, kinds
    acts = [e for e in entries if e["k"] == "act"]
    stored: list[dict[str, Any]] = []
    j = 0
    for a in attempts:
        if j < len(acts) and key({**acts[j]["action"], "seat": acts[j]["seat"]}) == key(a):
            stored.append(a)
            j += 1
        else:
            assert not a["acked"], f"acknowledged action lost: {a}"
    assert j == len(acts), f"log holds actions no phone sent (or twice): {acts[j:]}"
    return stored


def restored(entries: list[dict[str, Any]]) -> Table:
    mem = MemoryStore()
    for i, e in enumerate(entries):
        mem.append(CODE, i, e)
    return Table.load(mem, CODE)


def check_restored(table: Table, model: Model) -> None:
    host_view = table.view(None)
    assert host_view is not None
    assert host_view["round_no"] == model.round_no
    assert host_view["round"]["revealed"] == model.revealed
    for i in range(3):
        v = table.view(i)
        assert v is not None
        if not model.revealed:
            assert norm(v["round"].get("mine")) == norm(model.choice[i]), (i, v["round"], model.choice)
            assert bool(v["round"].get("my_locked")) == model.locked[i]
    assert sorted(host_view["round"]["locked"]) == [i for i in range(3) if model.locked[i]]


# ---------- screens ----------
def lines(text: str) -> list[str]:
    return [squash(x) for x in text.splitlines() if x.strip()]


def first_tally(ls: list[str]) -> str | None:
    return next((x for x in ls if x.startswith("Tally:")), None)


async def phone_ok(page: Any, seat: int, model: Model) -> bool:
    ls = lines(await page_text(page))
    if DISCONNECTED in ls or f"{NAMES[seat]} (you)" not in ls or f"Round {model.round_no}" not in ls:
        return False
    if model.revealed:
        return first_tally(ls) == model.tally() and "The host will ask the next question." in ls
    if model.locked[seat]:
        return "Locked in:" in ls and "Lock my choice" not in ls
    mine = model.choice[seat]
    if mine is None:
        return "Lock my choice" in ls and not any(x.startswith("Your choice:") for x in ls)
    return f"Your choice: {mine}" in ls


async def host_ok(page: Any, model: Model) -> bool:
    ls = lines(await page_text(page))
    if DISCONNECTED in ls or "Ask" not in ls or f"Round {model.round_no}" not in ls:
        return False
    if model.revealed:
        return first_tally(ls) == model.tally()
    return i18n.t("en", "ui.locked_count", n=sum(model.locked), total=3) in ls  # "1 of 3 has locked"


async def seat_lost(page: Any) -> bool:
    ls = lines(await page_text(page))
    return "Welcome to the table" in ls or any(x.startswith("This browser does not hold the host key") for x in ls)


async def wait_until(check: Any, timeout: float, *args: Any) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if await check(*args):
                return True
        except Exception:  # the page is being replaced or reloaded
            pass
        await asyncio.sleep(0.5)
    return False


class Screen:
    def __init__(self, ctx: Any, page: Any, url: str, seat: int | None) -> None:
        self.ctx, self.page, self.url, self.seat = ctx, page, url, seat

    async def ok(self, model: Model) -> bool:
        return await (host_ok(self.page, model) if self.seat is None else phone_ok(self.page, self.seat, model))

    async def new_tab(self) -> None:
        await self.page.close()
        self.page = await self.ctx.new_page()
        await self.page.goto(self.url)
        await enable_semantics(self.page)


# ---------- the test ----------
@pytest.fixture
def table_server(tmp_path: Path) -> Any:
    """A 3-seat sealed vote created in the data directory, then the real server on it."""
    data = tmp_path / "data"
    store = SQLiteStore(data)
    t = Table.create(store, CODE, "sealed_vote", {}, [{"name": f"Player {i + 1}"} for i in range(3)], seed=SEED)
    host_token = t.host_token
    store.close()
    server = ServerProcess(data)
    server.start()
    try:
        yield server, host_token, data / SQLiteStore.FILE
    finally:
        server.stop()


async def test_server_sigkilled_at_random_moments(browser: Any, table_server: Any) -> None:
    server, host_token, db = table_server
    rng = random.Random(SEED)
    t0 = time.time()
    log(f"seed {SEED}, {KILLS} kills")
    # The host's tab as after creating a table: the key in its address (/host/CODE?k=KEY; it is
    # also in the browser's storage), which a session Flet re-creates after a restart still sends.
    host_url = f"{server.base}/host/{CODE}?k={host_token}"
    host_ctx, host_page = await open_screen(browser, host_url, HOST)
    await see(host_page, "Start")
    host = Screen(host_ctx, host_page, host_url, None)
    phones: list[Screen] = []
    for i, name in enumerate(NAMES):
        ctx, page = await open_screen(browser, f"{server.base}/t/{CODE}", PHONE)
        await type_into(page, "Your name", name)
        await tap(page, f"Sit as Player {i + 1}")
        await see(page, "Waiting for the host to start")
        phones.append(Screen(ctx, page, f"{server.base}/t/{CODE}", i))
    # Ana's phone comes back once through a new tab before the game (its seat token is then read
    # from the browser's storage, not from the address the join left behind).
    await phones[0].new_tab()
    await see(phones[0].page, "Waiting for the host to start")
    await tap(host.page, "Start")
    await asyncio.gather(*[see(p.page, "Lock my choice") for p in phones])
    screens = [host, *phones]

    model = Model()
    attempts: list[dict[str, Any]] = []
    stats: Counter[str] = Counter()
    kills = 0
    next_kill = rng.randint(1, 5)
    moves = 0
    while kills < KILLS:
        move = rng.choice(model.moves())
        attempt = {**move, "acked": False}
        attempts.append(attempt)
        moves += 1
        actor = host if move["seat"] is None else phones[move["seat"]]
        kill_now = moves >= next_kill
        mode = rng.choice(["during_tap", "right_after_tap", "in_flight", "after_ack"]) if kill_now else ""
        label = {"submit": move.get("value"), "lock": "Lock my choice", "reveal": "Reveal now", "ask": "Ask"}[move["type"]]
        if mode == "during_tap":  # the kill races the tap: it may reach the server or not
            button = actor.page.get_by_role("button", name=label, exact=True).first
            await button.wait_for(timeout=60_000)
            click = asyncio.ensure_future(button.click())
            await asyncio.sleep(rng.uniform(0, 0.03))
            server.kill()
            await click
        else:
            await tap(actor.page, label, exact=True)
            if move["type"] == "reveal" and not all(model.locked):  # it asks first, naming who is open
                await tap(actor.page, "Reveal anyway", exact=True)
        if mode in ("during_tap", "right_after_tap"):
            server.kill()
        elif mode == "in_flight":
            await asyncio.sleep(rng.uniform(0.02, 0.6))
            server.kill()
        else:
            after = Model()
            after.__dict__ = json.loads(json.dumps(model.__dict__))
            after.apply(move)
            ok = await wait_until(actor.ok, 90, after)
            assert ok, f"the effect of {move} never showed on its screen:\n{await page_text(actor.page)}"
            attempt["acked"] = True
            model = after
            if model.revealed:  # the reveal shows the same tally on every screen
                for s in screens:
                    assert await wait_until(s.ok, 90, model), f"reveal not on screen {s.seat} " \
                        f"after {move}:\n{await page_text(s.page)}"
            if mode == "after_ack":
                await asyncio.sleep(rng.uniform(0, 1.0))
                server.kill()
        if not kill_now:
            continue
        # ---- killed: check the log from outside, then restart and let every screen come back ----
        kills += 1
        stats[mode] += 1
        entries = read_log(db)
        stored = check_log(entries, attempts)
        if not attempt["acked"]:
            if any(a is attempt for a in stored):  # written before the kill: it must stay from now on
                stats["in_flight_tap_written"] += 1
                attempt["acked"] = True
                model.apply(move)
            else:  # not written: gone, as if never tapped
                stats["in_flight_tap_not_written"] += 1
                assert attempts.pop() is attempt
        check_restored(restored(entries), model)
        log(f"kill {kills} ({mode}, move {moves}, {len(entries)} entries): log and restored state ok")
        stats_before = dict(stats)
        if not await wait_until(_all_disconnected, 30, screens):
            stats["disconnect_not_shown"] += 1
        down = rng.choice(DOWNTIMES)  # a restart right away, or the laptop takes a while
        await asyncio.sleep(down)
        server.start()
        t_restart = time.time()

        await asyncio.gather(*[come_back(s, model, stats) for s in screens])
        stats["back_seconds"] = max(stats["back_seconds"], round(time.time() - t_restart))
        log(f"  down {down:.0f} s, back after {time.time() - t_restart:.0f} s: "
            f"{ {k: v - stats_before.get(k, 0) for k, v in stats.items() if v != stats_before.get(k, 0)} }")
        # Still right a little later (longer than the screens' 5 s wait for the browser's storage):
        # a screen drawn by a session that then loses track of its seat would show it now.
        await asyncio.sleep(6)
        for sc in screens:
            assert await wait_until(sc.ok, 30, model), f"screen {sc.seat} lost its state after coming back:\n" \
                + await page_text(sc.page)
        assert read_log(db) == entries, "the log changed while the screens reconnected"
        next_kill = moves + rng.randint(2, 5)

    # The game goes on after the last restart: one more round to a reveal on every screen.
    while not model.revealed:
        move = rng.choice([m for m in model.moves() if m["type"] != "reveal"])
        actor = host if move["seat"] is None else phones[move["seat"]]
        label = {"submit": move.get("value"), "lock": "Lock my choice", "ask": "Ask"}[move["type"]]
        await tap(actor.page, label, exact=True)
        model.apply(move)
        assert await wait_until(actor.ok, 90, model)
        attempts.append({**move, "acked": True})
    for s in screens:
        assert await wait_until(s.ok, 90, model), f"final reveal not on screen {s.seat}"
    entries = read_log(db)
    stored = check_log(entries, attempts)
    check_restored(restored(entries), model)
    acked = sum(a["acked"] for a in attempts)
    print(f"SERVER-KILL-REPORT seed={SEED} kills={kills} moves={moves} entries={len(entries)} "
          f"acknowledged_actions={acked} lost=0 duplicated=0 rounds={model.round_no} "
          f"{' '.join(f'{k}={v}' for k, v in sorted(stats.items()))} seconds={time.time() - t0:.0f}")


async def come_back(s: Screen, model: Model, stats: Counter[str]) -> None:
    """The screen reconnects on its own; if it comes back without its seat (or not at all), a new tab."""
    who = "host" if s.seat is None else "phone"
    if await wait_until(_ok_or_lost, RECONNECT_WAIT, s, model) and await s.ok(model):
        stats[f"{who}_back_by_itself"] += 1
        return
    lost = await seat_lost(s.page)
    if STRICT:
        raise AssertionError(f"screen {s.seat} came back {'without its seat' if lost else 'not at all'}")
    stats[f"{who}_{'lost_seat' if lost else 'not_back'}_new_tab"] += 1
    await s.new_tab()
    assert await wait_until(s.ok, 120, model), f"screen {s.seat} not back after a new tab:\n{await page_text(s.page)}"


async def _all_disconnected(screens: list[Screen]) -> bool:
    for s in screens:
        if DISCONNECTED not in lines(await page_text(s.page)):
            return False
    return True


async def _ok_or_lost(s: Screen, model: Model) -> bool:
    return await s.ok(model) or await seat_lost(s.page)
