"""Faults at the table and store level: simultaneous taps, cancelled requests, a full disk and a
read-only data directory. Nothing acknowledged is lost, nothing half-written, no crash."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.app import open_hub
from companion.games.base import RuleError
from companion.soak import new_table
from companion.table.store import MemoryStore, SQLiteStore, StoreError
from companion.table.table import Table

ROOT = Path(__file__).resolve().parents[2]
SUBMIT = {"op": "act", "action": {"type": "submit", "value": "sv.yes"}}


def snapshot(t: Table) -> str:
    return json.dumps([t.entries, t.state, t.phase, t.version, t.actions, t.seats], sort_keys=True)


def in_all_languages(key: str) -> None:
    for lang in i18n.LANGS:
        assert i18n.has(key, lang), f"{key} missing in {lang}"


# ---------------------------------------------------------------- six phones, one instant


class SlowStore(MemoryStore):
    """A store whose write takes a moment (in the worker thread), so concurrent taps really overlap."""

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        time.sleep(0.0005)
        super().append(code, seq, entry)


async def test_six_phones_lock_in_the_same_instant_100_times() -> None:
    """100 rounds (10 tables x 10 rounds: a sealed vote's apply copies its whole history, so one
    table with 100 rounds only measures that copy)."""
    store = SlowStore()
    host_in_race = 0
    for rnd in range(100):
        if rnd % 10 == 0:
            p = new_table(store, f"LOCK{rnd}", "sealed_vote", 6, seed=rnd,
                          options={"mode": "number", "min": 0, "max": 1000})
            t = p.table
        else:
            await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "number",
                                                                         "min": 0, "max": 1000}})
        values = [7 * i + rnd for i in range(6)]
        await asyncio.gather(*[t.request(tok, {"op": "act", "action": {"type": "submit", "value": v}})
                               for tok, v in zip(p.tokens, values, strict=True)])
        n_hist = len(t.state["history"])
        locks = [t.request(tok, {"op": "act", "action": {"type": "lock"}}) for tok in p.tokens]
        if rnd % 4 == 0:  # the host taps "Reveal now" in the same instant too
            locks.insert(3, t.request(t.host_token, {"op": "host_act", "action": {"type": "reveal"}}))
            host_in_race += 1
        out = await asyncio.gather(*locks, return_exceptions=True)
        refused = [x for x in out if isinstance(x, BaseException)]
        assert all(isinstance(x, RuleError) and x.key == "err.already_revealed" for x in refused), refused
        assert len(t.state["history"]) == n_hist + 1, "exactly one reveal per round"
        views = [t.view(s) for s in range(6)] + [t.view(None)]
        assert all(v["phase"] == "revealed" for v in views)
        assert all(v["result"] == views[0]["result"] for v in views), "every screen shows the same reveal"
        assert sorted(r["value"] for r in views[0]["result"]["rows"]) == values  # every value revealed once
        assert Table.load(store, t.code).state == t.state
    assert host_in_race == 25


# ---------------------------------------------------------------- a request cancelled mid-write


class GatedStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.hold = False

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        if self.hold:
            self.entered.set()
            self.gate.wait(10)
        super().append(code, seq, entry)


async def test_a_request_cancelled_during_the_write_still_commits_and_the_table_goes_on() -> None:
    """Regression: the entry was stored but not applied, and every later action failed."""
    store = GatedStore()
    p = new_table(store, "CANC", "sealed_vote", 3, seed=1)
    t = p.table
    store.hold = True
    task = asyncio.create_task(t.request(p.tokens[0], SUBMIT))
    await asyncio.to_thread(store.entered.wait, 5)
    task.cancel()  # the phone's session closes mid-tap
    await asyncio.sleep(0.01)
    store.hold = False
    store.gate.set()
    for _ in range(100):
        if len(t.entries) == len(store.entries("CANC")):
            break
        await asyncio.sleep(0.01)
    assert t.entries == store.entries("CANC")
    await t.request(p.tokens[1], {"op": "act", "action": {"type": "submit", "value": "sv.no"}})
    assert Table.load(store, "CANC").state == t.state


# ---------------------------------------------------------------- the disk fails


class BrokenStore(MemoryStore):
    """Appends fail the way a full or read-only disk fails (raw exceptions or StoreError)."""

    def __init__(self) -> None:
        super().__init__()
        self.error: BaseException | None = None

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        if self.error is not None:
            raise self.error
        super().append(code, seq, entry)


@pytest.mark.parametrize("error", [
    StoreError("store.err.write", "/data/companion.sqlite3", "database or disk is full"),
    StoreError("store.err.write", "/data/companion.sqlite3", "attempt to write a readonly database"),
])
async def test_a_failing_store_changes_nothing_and_the_table_recovers(error: BaseException) -> None:
    store = BrokenStore()
    p = new_table(store, "FULL", "sealed_vote", 4, seed=2)
    t = p.table
    await t.request(p.tokens[1], SUBMIT)
    before = snapshot(t)
    store.error = error
    for tok, op in [(p.tokens[0], SUBMIT), (t.host_token, {"op": "end"}), (t.host_token, {"op": "undo"}),
                    (t.host_token, {"op": "host_act", "action": {"type": "reveal"}})]:
        with pytest.raises(StoreError) as ei:
            await t.request(tok, op)
        in_all_languages(ei.value.key)
        assert snapshot(t) == before, "nothing half-applied"
        assert store.entries("FULL") == t.entries
    store.error = None  # space freed: the same tap works now
    await t.request(p.tokens[0], SUBMIT)
    assert Table.load(store, "FULL").state == t.state


def test_real_sqlite_full_disk_and_read_only_mid_game(tmp_path: Path) -> None:
    """SQLite's own errors: SQLITE_FULL (page limit reached) and SQLITE_READONLY (query_only)."""
    store = SQLiteStore(tmp_path)
    p = new_table(store, "DISK", "sealed_vote", 4, seed=2)
    t = p.table
    db = store._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count={pages}")  # the disk is full now
    before = snapshot(t)
    big = {"op": "host_act", "action": {"type": "ask", "mode": "choice", "question": "x" * 200,
                                        "choices": ["a" * 40, "b" * 40]}}
    failures = 0
    for _ in range(50):  # fill the last page, then fail
        try:
            t.request_sync(t.host_token, big)
            before = snapshot(t)
        except StoreError as e:
            failures += 1
            assert e.key == "store.err.write" and "full" in e.reason
            assert snapshot(t) == before
            break
    assert failures == 1
    db.execute("PRAGMA max_page_count=1073741823")
    db.execute("PRAGMA query_only=ON")  # read-only now
    vote = {"op": "act", "action": {"type": "submit", "value": "a" * 40}}
    with pytest.raises(StoreError) as ei:
        t.request_sync(p.tokens[0], vote)
    assert "readonly" in ei.value.reason and snapshot(t) == before
    db.execute("PRAGMA query_only=OFF")
    t.request_sync(p.tokens[0], vote)
    store.close()
    again = Table.load(SQLiteStore(tmp_path), "DISK")
    assert again.entries == t.entries and again.state == t.state
    in_all_languages("ui.err.store")


def test_a_payload_that_cannot_be_logged_is_a_rule_error() -> None:
    p = new_table(MemoryStore(), "JSON", "sealed_vote", 3, seed=1)
    before = snapshot(p.table)
    with pytest.raises(RuleError):
        p.table.request_sync(p.tokens[0], {"op": "act", "action": {"type": "submit", "value": "sv.yes",
                                                                    "x": {1, 2}}})
    assert snapshot(p.table) == before


# ---------------------------------------------------------------- a read-only data directory


def _as_nobody(code: str) -> str:
    """Run stdlib-only Python as user nobody (we are root in CI, and root ignores file modes)."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to drop to an unprivileged user")
    r = subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                        code], env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_a_read_only_data_directory_gives_a_clear_message() -> None:
    if not Path("/usr/bin/python3").exists():
        pytest.skip("no system python3 for the unprivileged run")
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:  # (pytest's tmp_path is private to root)
        _read_only_dirs(Path(tmp))


def _read_only_dirs(tmp_path: Path) -> None:
    base = tmp_path / "ro"
    (base / "empty").mkdir(parents=True)
    (base / "withdb").mkdir()
    s = SQLiteStore(base / "withdb")
    new_table(s, "OLD", "sealed_vote", 3, seed=1)
    s.close()
    for d in [tmp_path, base, base / "empty", base / "withdb"]:
        d.chmod(0o755)  # readable, not writable, for nobody
    for f in (base / "withdb").iterdir():
        f.chmod(0o644)
    probe = """
import json, sys
from companion.table.store import SQLiteStore, StoreError
out = []
for d in DIRS:
    try:
        SQLiteStore(d); out.append(["opened", d])
    except StoreError as e:
        out.append([e.key, e.reason])
print(json.dumps(out))
""".replace("DIRS", repr([str(base / "missing" / "x"), str(base / "empty"), str(base / "withdb")]))
    got = json.loads(_as_nobody(probe))
    assert [k for k, _ in got] == ["store.err.unusable"] * 3, got  # never "corrupt": the data is fine
    assert "ermission" in got[0][1]
    assert "unable to open" in got[1][1] or "ermission" in got[1][1]  # (the file is now created 0600 first)
    assert "readonly" in got[2][1] or "unable to open" in got[2][1]
    # what the server does with it: the message for the host screen, and a working in-memory table list
    key, reason = got[1]
    msg = i18n.t("en", key, path=str(base / "empty"), reason=reason)
    assert str(base / "empty") in msg and "another --data-dir" in msg
    in_all_languages(key)


def test_open_hub_survives_an_unusable_data_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    hub, msg = open_hub(blocker / "data")
    assert msg and "cannot be used" in msg
    t = hub.create("sealed_vote", None, [{"name": "A"}, {"name": "B"}])
    assert hub.get(t.code) is t
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / SQLiteStore.FILE).write_bytes(b"this is not sqlite" * 100)
    hub, msg = open_hub(corrupt)
    assert msg is None and hub.problems[0]["key"] == "store.err.set_aside"
    assert Path(hub.problems[0]["file"]).read_bytes() == b"this is not sqlite" * 100  # moved aside, untouched
    _ = sqlite3  # (the real SQLite errors are exercised above)
