"""(f) Dropped tabs: does a table stay fast, and memory come back, after 1,000 tabs opened and dropped?

    python -m benchmarks.dropped_sessions [--drop 1000] [--actions 60] [--grace 5] [--root DIR]

Issue 17, item 5. The real server (`python -m companion`, a subprocess) with one sealed-vote table
in its lobby: the host screen and 4 seated phones, raw Flet clients over real WebSockets
(benchmarks/ws_client.py). An action is a phone renaming itself (typed into its name field, then
its Rename button: a stored entry, then every screen of the table redrawn); its latency is from the
tap leaving the phone to the new name arriving on the host's socket. Phases:

1. fresh: `--actions` actions (after 10 to warm up), RSS of the server process (VmRSS);
2. `--drop` WebSocket sessions opened on /t/CODE and dropped (TCP reset, no close handshake),
   40 at a time, each from its own loopback address 127.0.0.2…127.0.0.41 (Linux accepts any 127/8
   source; the server's cap of 32 open sockets per client would refuse more from one): half of
   them vanish right after registering (their first screen goes out to a dead socket), half after
   their join screen has arrived;
3. right after: the same actions, RSS, the server's session counts (/health);
4. once the never-seated sessions have expired (COMPANION_UNSEATED_GRACE=`--grace` s for this run;
   45 s in production, plus Flet's 10 s sweep) and `--settle` s more (the server's last garbage
   collection of the burst): RSS, the actions again.

Targets: the action p95 after the drops within 1.5× of the fresh one; RSS back within 20 MB of the
fresh figure once the dropped sessions have expired. `--root DIR` runs the server from another
checkout (e.g. `git archive <commit> | tar -x -C DIR`) for a before/after comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, header, load, pct, save, speed, table
from benchmarks.ws_client import RawPhone
from companion.table.hub import Hub
from companion.table.store import SQLiteStore

SOURCES = [f"127.0.0.{i}" for i in range(2, 42)]
NAMES = ["Ana", "Ben", "Cem", "Dora"]


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    def __init__(self, root: Path, data: Path, grace: float) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        env = {**os.environ, "FLET_FORCE_WEB_SERVER": "true", "PYTHONUNBUFFERED": "1",
               "COMPANION_STATIC_ENCODINGS": "gzip", "COMPANION_STATIC_WARM": "0",
               "COMPANION_UNSEATED_GRACE": str(grace)}
        env.pop("DISPLAY", None)
        env.pop("COMPANION_WS_PER_CLIENT", None)
        self.log = data.parent / "server.log"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir",
             str(data), "--public-url", self.base, "--no-browser"],
            cwd=root, env=env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log.read_text()[-2000:])
            try:
                self.health()
                return
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.base + "/health", timeout=10) as r:
            return json.loads(r.read())

    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


async def actions(host: RawPhone, phones: list[RawPhone], n: int, tag: str) -> list[float]:
    """n renames, round-robin over the phones: ms from the tap to the name on the host's socket."""
    out: list[float] = []
    for k in range(n):
        p = phones[k % len(phones)]
        field, button = p.find("TextField", "Your name"), p.find("OutlinedButton", "Rename")
        name = f"{NAMES[k % len(phones)]}-{tag}{k}"
        await p.type_into(field, name)
        t0 = time.perf_counter()
        await p.tap(button)
        at = await host.wait_text(name, timeout=60, since=t0)
        out.append((at - t0) * 1000)
        await asyncio.sleep(0.05)
    return out


async def open_and_drop(tab: RawPhone, wait_for: str | None) -> None:
    await tab.open(wait_for=wait_for, timeout=120)
    tab.drop()


async def drop_many(ws: str, code: str, n: int) -> float:
    """n sessions on /t/CODE, 40 at a time (one per source address), dropped: half at once, half
    after their join screen has come."""
    t0 = time.perf_counter()
    done = 0
    while done < n:
        batch = [RawPhone(ws, f"/t/{code}", source=SOURCES[j]) for j in range(min(len(SOURCES), n - done))]
        waits = ["Welcome to the table" if (done + j) % 2 else None for j in range(len(batch))]
        await asyncio.gather(*(open_and_drop(b, w) for b, w in zip(batch, waits, strict=True)))
        done += len(batch)
    return time.perf_counter() - t0


async def until_expired(server: Server, baseline: int, timeout: float) -> tuple[float, dict[str, Any]]:
    t0 = time.perf_counter()
    while True:
        h = await asyncio.to_thread(server.health)
        if "sessions" not in h or h["sessions"] <= baseline or time.perf_counter() - t0 > timeout:
            return time.perf_counter() - t0, h
        await asyncio.sleep(1)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-dropped-"))
    data = tmp / "data"
    hub = Hub(SQLiteStore(data))
    t = hub.create("sealed_vote", None, [{"name": n} for n in NAMES])
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(len(NAMES))]
    hub.store.close()
    server = Server(Path(args.root).resolve(), data, args.grace)
    rows: list[dict[str, Any]] = []
    out: dict[str, Any] = {"drop": args.drop, "actions": args.actions, "grace_s": args.grace, "root": args.root}
    try:
        host = await RawPhone(server.ws, f"/host/{t.code}?k={t.host_token}").open(wait_for="Dora")
        phones = [await RawPhone(server.ws, f"/t/{t.code}?s={tok}").open(wait_for="Rename") for tok in tokens]
        await actions(host, phones, 10, "w")
        await asyncio.sleep(1)

        async def timed(tag: str) -> tuple[list[float], float]:
            c0 = cpu_s(server.proc.pid)
            lat = await actions(host, phones, args.actions, tag)
            return lat, (cpu_s(server.proc.pid) - c0) * 1000 / args.actions

        def phase(name: str, run: tuple[list[float], float], extra: dict[str, Any]) -> dict[str, Any]:
            lat, cpu = run
            h = server.health()
            row = {"phase": name, "p50 ms": pct(lat, 50), "p95 ms": pct(lat, 95), "max ms": max(lat),
                   "server cpu ms/action": cpu,
                   "RSS MB": server.rss(), "sessions": h.get("sessions", "?"), "connected": h.get("connected", "?"),
                   **extra}
            rows.append(row)
            print(table([row]), flush=True)
            return row

        fresh = phase("fresh", await timed("f"), {})
        baseline = fresh["sessions"] if isinstance(fresh["sessions"], int) else 0
        took = await drop_many(server.ws, t.code, args.drop)
        print(f"   {args.drop} sessions opened and dropped in {took:.1f} s", flush=True)
        await asyncio.sleep(2)
        after = phase("after the drops", await timed("a"), {"took s": took})
        waited, _ = await until_expired(server, baseline, args.grace + 90)
        await asyncio.sleep(args.settle)  # the server's last collection of a burst (companion/ui/sessions.py)
        expired = phase("after expiry", await timed("e"), {"took s": waited})
        for wave in range(2, args.waves + 1):  # the same again: growth per attack, or a one-time high-water mark?
            took = await drop_many(server.ws, t.code, args.drop)
            await asyncio.sleep(2)
            waited, _ = await until_expired(server, baseline, args.grace + 90)
            await asyncio.sleep(args.settle)
            phase(f"after wave {wave} expired", await timed(f"w{wave}"), {"took s": waited})
        out.update(rows=rows, p95_ratio=after["p95 ms"] / fresh["p95 ms"],
                   rss_delta_after_drops=after["RSS MB"] - fresh["RSS MB"],
                   rss_delta_after_expiry=expired["RSS MB"] - fresh["RSS MB"])
        for p in [host, *phones]:
            await p.close()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--drop", type=int, default=1000)
    ap.add_argument("--waves", type=int, default=1, help="drop --drop sessions this many times (RSS after each)")
    ap.add_argument("--actions", type=int, default=60)
    ap.add_argument("--grace", type=float, default=5.0, help="COMPANION_UNSEATED_GRACE for this run (s)")
    ap.add_argument("--settle", type=float, default=25.0, help="s to wait once the sessions have expired")
    ap.add_argument("--root", default=str(ROOT), help="the checkout to run the server from")
    ap.add_argument("--name", default="dropped_sessions")
    args = ap.parse_args()
    header(f"(f) dropped sessions: {args.drop} tabs on /t/CODE dropped, {args.actions} actions per phase")
    print(f"   server from {Path(args.root).resolve()}; load average {load()}", flush=True)
    res = asyncio.run(run(args))
    print(table(res["rows"], ["phase", "p50 ms", "p95 ms", "max ms", "server cpu ms/action", "RSS MB", "sessions",
                             "connected", "took s"]))
    ratio = res["p95_ratio"]
    print(f"   action p95 after the drops / fresh: {ratio:.2f}x (target <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'})")
    d = res["rss_delta_after_expiry"]
    print(f"   RSS after the drops: {res['rss_delta_after_drops']:+.1f} MB; once expired: {d:+.1f} MB "
          f"(target <= +20 MB: {'met' if d <= 20 else 'NOT met'})")
    print(f"   speed check at the end: {speed():.0f} CPU-ms")
    print(f"   raw: {save(args.name, res)}")


if __name__ == "__main__":
    main()
