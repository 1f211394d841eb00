"""Issue 21.3: every finished game's history record is written in the SAME transaction as the entry
that finishes it, removed by the undo that reopens it, kept over restarts (SQLite and memory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.soak import new_table
from companion import history
from companion.table.hub import Hub
from companion.table.store import MemoryStore, SQLiteStore, StoreError
from companion.table.table import Table
from tests.historyplay import finished_table

ROOT = Path(__file__).resolve().parents[1]
SUBMIT = {"op": "act", "action": {"type": "submit", "value": "sv.yes"}}


def stores(tmp_path: Path) -> list[Any]:
    return [MemoryStore(), SQLiteStore(tmp_path / "data")]


def vote_table(store: Any, code: str = "HIST") -> Any:
    """A sealed vote with one revealed round, not ended yet (a sealed vote ends only by the host)."""
    p = new_table(store, code, "sealed_vote", 3, seed=1)
    t = p.table
    for tok in p.tokens:
        t.request_sync(tok, SUBMIT)
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "reveal"}})
    return p


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_end_writes_the_record_and_undo_takes_it_back(tmp_path: Path, kind: str) -> None:
    store = MemoryStore() if kind == "memory" else SQLiteStore(tmp_path / "data")
    p = vote_table(store)
    t = p.table
    assert store.history() == [] and store.history_of("HIST") is None and not t.finished()
    t.request_sync(t.host_token, {"op": "end"})
    assert t.finished()
    [rec] = store.history()
    assert rec == store.history_of("HIST")
    assert rec["game"] == "sealed_vote" and rec["code"] == "HIST" and rec["rounds"] == 1
    assert [pl["name"] for pl in rec["players"]] == ["P1", "P2", "P3"]
    assert [pl["colour"] for pl in rec["players"]] == [s["colour"] for s in t.seats]
    assert rec["options"] == t.options and rec["duration"] >= 0 and rec["ended"] >= rec["started"]
    assert rec["id"].startswith("HIST-") and rec["winners"] == []  # (a sealed vote has no winner)
    t.request_sync(t.host_token, {"op": "undo"})  # reopens: the game is not finished any more
    assert store.history() == [] and store.history_of("HIST") is None
    t.request_sync(t.host_token, {"op": "end"})
    assert len(store.history()) == 1


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_game_over_by_its_rules_is_recorded_by_the_last_action(tmp_path: Path, kind: str) -> None:
    store = MemoryStore() if kind == "memory" else SQLiteStore(tmp_path / "data")
    p = finished_table(store, "QUOV", "quovadis", seed=3, phones=3, end=False)
    t = p.table
    assert t.phase == "playing" and t.finished()
    [rec] = store.history()
    o = t.game.outcome(t.state)
    assert [pl["score"] for pl in rec["players"]] == list(o.scores)
    assert [pl["rank"] for pl in rec["players"]] == list(o.ranks)
    assert rec["winners"] == [t.seats[i]["name"] for i in o.winners] and rec["tie_break"] == o.tie_break
    assert rec["rounds"] == t.state["round_no"]
    t.request_sync(t.host_token, {"op": "end"})  # the host ends it too: still the one record
    assert store.history() == [rec]
    t.request_sync(t.host_token, {"op": "undo"})  # reopened, but still over by its rules
    assert store.history() == [rec]
    t.request_sync(t.host_token, {"op": "undo"})  # the last action taken back: not over any more
    assert store.history() == [] and not t.finished()


def test_a_rename_after_the_game_is_over_renames_the_record_not_its_id(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    p = finished_table(store, "LUTE", "lutece", seed=5, phones=3, end=False)
    t = p.table
    assert t.finished() and t.phase == "playing"
    [before] = store.history()
    t.request_sync(t.host_token, {"op": "host_rename", "seat": 1, "name": "Bea"})
    [after] = store.history()
    assert after["players"][1]["name"] == "Bea" and after["id"] == before["id"]
    assert after["ended"] == before["ended"]
    t.request_sync(t.host_token, {"op": "swap", "a": 0, "b": 1})
    [swapped] = store.history()
    assert [pl["name"] for pl in swapped["players"]][:2] == ["Bea", "P1"]


def test_the_history_survives_a_restart_and_a_deleted_table(tmp_path: Path) -> None:
    d = tmp_path / "data"
    store = SQLiteStore(d)
    p = vote_table(store)
    p.table.request_sync(p.table.host_token, {"op": "end"})
    recs = store.history()
    store.close()
    again = SQLiteStore(d)
    assert again.history() == recs
    hub = Hub(again)
    hub.load_all()
    t = hub.get("HIST")
    assert t is not None and t.finished()
    hub.delete("HIST")  # the table goes; the game it played stays in the history
    assert again.history() == recs and again.history_of("HIST") is None
    again.close()
    assert SQLiteStore(d).history() == recs


class Crash(Exception):
    pass


def test_a_failure_between_the_log_row_and_the_record_stores_neither(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    p = vote_table(store)
    t = p.table
    n = len(store.entries("HIST"))

    def fault(where: str) -> None:
        raise Crash(where)

    store.fault = fault
    with pytest.raises(Crash):
        t.request_sync(t.host_token, {"op": "end"})
    assert len(store.entries("HIST")) == n and store.history() == [] and t.phase == "playing"
    assert store.meta("HIST").phase == "playing"
    store.fault = None
    t.request_sync(t.host_token, {"op": "end"})
    assert len(store.history()) == 1
    store.fault = fault  # the undo: its entry and the record's removal together too
    with pytest.raises(Crash):
        t.request_sync(t.host_token, {"op": "undo"})
    assert len(store.history()) == 1 and t.phase == "ended" and len(store.entries("HIST")) == n + 1


def test_a_full_disk_when_the_game_ends_changes_nothing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    p = vote_table(store)
    t = p.table
    store.history()  # (the history tables exist)
    db = store._db
    db.execute("PRAGMA query_only=ON")
    with pytest.raises(StoreError):
        t.request_sync(t.host_token, {"op": "end"})
    db.execute("PRAGMA query_only=OFF")
    assert t.phase == "playing" and store.history() == []
    t.request_sync(t.host_token, {"op": "end"})
    assert len(store.history()) == 1


KILLER = """
import os, sys
from companion.table.store import SQLiteStore
from tests.test_history_store import vote_table
store = SQLiteStore(sys.argv[1])
p = vote_table(store)
t = p.table
print(len(store.entries("HIST")), flush=True)
store.fault = lambda where: os.kill(os.getpid(), 9)
t.request_sync(t.host_token, {"op": "end"})
"""


def test_kill_9_between_the_log_row_and_the_record_leaves_neither(tmp_path: Path) -> None:
    d = tmp_path / "data"
    r = subprocess.run([sys.executable, "-c", KILLER, str(d)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == -9, r.stderr
    n = int(r.stdout.split()[0])
    store = SQLiteStore(d)
    assert len(store.entries("HIST")) == n and store.history() == []
    t = Table.load(store, "HIST")
    assert t.phase == "playing"
    t.request_sync(t.host_token, {"op": "end"})  # the host taps "End" again after the restart
    assert len(store.history()) == 1


async def test_the_async_path_writes_the_record_too() -> None:
    store = MemoryStore()
    p = vote_table(store)
    await p.table.request(p.table.host_token, {"op": "end"})
    assert len(store.history()) == 1
    await p.table.request(p.table.host_token, {"op": "undo"})
    assert store.history() == []


def test_the_id_is_stable_and_differs_between_games() -> None:
    rec = {"code": "ABCD", "game": "g", "options": {}, "players": [{"name": "A", "score": 1, "rank": 1}]}
    a = history.stamp(rec, 100.0, 200.5)
    assert a["id"] == history.stamp(rec, 150.0, 200.5)["id"] == "ABCD-200500-" + a["id"][-8:]
    assert a["duration"] == 100.5
    assert history.stamp(rec, 100.0, 201.0)["id"] != a["id"]
    other = {**rec, "players": [{"name": "A", "score": 2, "rank": 1}]}
    assert history.stamp(other, 100.0, 200.5)["id"] != a["id"]


def test_a_file_set_aside_keeps_its_readable_history(tmp_path: Path) -> None:
    """A file SQLite cannot open (cut short) is set aside and its readable tables copied into a
    fresh one (docs/RELIABILITY.md): the history's records and aliases go along; a record stays
    undoable ("live") only where its table was copied."""
    from companion.app import open_hub

    d = tmp_path / "data"
    store = SQLiteStore(d)
    for i in range(8):
        p = vote_table(store, f"CUT{i}")
        for _ in range(30):  # (longer logs: the file's last pages hold the last tables' rows)
            p.table.request_sync(p.table.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "choice",
                                                                                   "question": "x" * 190,
                                                                                   "choices": ["a", "b"]}})
        p.table.request_sync(p.table.host_token, {"op": "end"})
    history.rename(store, "P1", "Ann")
    recs = {r["code"]: r for r in store.history()}
    store.close()
    import shutil

    size = 4096
    n_pages = (d / SQLiteStore.FILE).stat().st_size // size
    for keep in range(n_pages - 1, n_pages // 2, -1):  # cut the file shorter until SQLite refuses it
        cut = tmp_path / f"cut{keep}"
        shutil.copytree(d, cut)
        with open(cut / SQLiteStore.FILE, "r+b") as f:
            f.truncate(keep * size + 123)
        hub, msg = open_hub(cut)
        if hub.problems:
            break
        hub.store.close()
    assert msg is None and hub.problems and hub.problems[0]["key"] == "store.err.set_aside", hub.problems
    saved = set(hub.store.tables())
    kept = {r["code"]: r for r in hub.store.history()}
    assert kept and set(kept) <= set(recs) and all(kept[c] == recs[c] for c in kept)
    for code in saved & set(kept):
        assert hub.store.history_of(code) == recs[code]  # live: its undo takes it back
    for code in set(kept) - saved:
        assert hub.store.history_of(code) is None  # its table is lost: the record stays, not live
    assert [a["dst"] for a in hub.store.aliases()] == ["Ann"]
