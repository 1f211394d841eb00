"""SIGKILL the table process at random moments, 20 times: every acknowledged action survives,
nothing is applied twice, the phones' tokens still hold their seats, state = replay of the log."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from companion.table.hub import Hub
from companion.table.store import SQLiteStore
from tests.reliability.driver import sha

ROOT = Path(__file__).resolve().parents[2]
KILLS = 20


def run_until_killed(data: Path, seed: int, delay: float) -> list[str]:
    proc = subprocess.Popen([sys.executable, "-m", "tests.reliability.driver", str(data), str(seed)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # wait for the first acknowledgement after the (re)start, then a random moment of play
    deadline = time.time() + 60
    while not any(x.startswith("ACK") for x in lines) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    time.sleep(delay)
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    reader.join(10)
    return lines


def test_sigkill_twenty_times_loses_nothing_acknowledged(tmp_path: Path) -> None:
    data = tmp_path / "data"
    acked: dict[tuple[str, int], str] = {}
    last_state: dict[str, tuple[int, str]] = {}
    tokens: dict[str, dict[int, str]] = {}
    r = random.Random(8)
    in_flight_written = 0
    total_acks = 0
    for k in range(KILLS):
        lines = run_until_killed(data, 1000 + k, r.uniform(0.05, 0.8))
        for line in lines:
            parts = line.split()
            if parts[0] == "JOIN":
                tokens.setdefault(parts[1], {})[int(parts[2])] = parts[3]
            elif parts[0] == "ACK":
                code, seq, e_sha, s_sha = parts[1], int(parts[2]), parts[3], parts[4]
                acked[(code, seq)] = e_sha
                total_acks += 1
                if s_sha != "-":
                    last_state[code] = (seq, s_sha)
        # restart (as the next run will): load everything and compare with what was acknowledged
        store = SQLiteStore(data)
        hub = Hub(store)
        hub.load_all()
        assert not hub.problems, hub.problems
        logs = {code: store.entries(code) for code in store.tables()}
        for (code, seq), e_sha in acked.items():
            entries = logs.get(code, [])
            assert seq < len(entries), f"kill {k}: acknowledged {code}#{seq} lost"
            assert sha(entries[seq]) == e_sha, f"kill {k}: {code}#{seq} differs"
        for code in store.tables():  # ended tables too: each loaded (on demand) from its log
            t = hub.get(code)
            assert t is not None, f"kill {k}: {code} cannot be loaded"
            n_acked = 1 + max((s for (c, s) in acked if c == code), default=-1)
            extra = len(t.entries) - n_acked
            assert extra in (0, 1), f"kill {k}: {code} has {extra} unacknowledged entries"  # at most the one in flight
            in_flight_written += extra
            seq, s_sha = last_state.get(code, (-1, ""))
            if extra == 0 and seq == len(t.entries) - 1:
                assert sha(t.state) == s_sha, f"kill {k}: {code} state differs from the acknowledged one"
            if t.state is not None:
                assert t.replay(t.actions) == t.state  # nothing applied twice: state = replay of the log
            for seat, tok in tokens.get(code, {}).items():
                assert t.seat_of(tok) == seat, f"kill {k}: {code} seat {seat} lost its phone"
        store.close()
        for code, entries in logs.items():  # an entry written just before the kill: acknowledged from now on
            for seq, e in enumerate(entries):
                acked.setdefault((code, seq), sha(e))
    assert total_acks > KILLS * 20, total_acks
    report = {"kills": KILLS, "acknowledged": total_acks, "written_not_yet_acknowledged": in_flight_written,
              "tables": len({c for c, _ in acked})}
    (tmp_path / "kill-report.json").write_text(json.dumps(report))
    print("KILL-REPORT", json.dumps(report))
