"""The history of finished games in SQLiteStore's file (companion/history.py, docs/HISTORY.md).
`HistoryTables` is a part of SQLiteStore (companion/table/store.py): it uses the store's `_locked`
and `_transaction`."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

from companion.table.store_damage import row_sum

HISTORY_SCHEMA = """
CREATE TABLE IF NOT EXISTS history (
    id     TEXT    PRIMARY KEY,
    code   TEXT    NOT NULL,
    ended  REAL    NOT NULL,
    live   INTEGER NOT NULL DEFAULT 0,
    record TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS history_live ON history(code) WHERE live = 1;
CREATE TABLE IF NOT EXISTS history_aliases (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT    NOT NULL,
    src  TEXT    NOT NULL,
    dst  TEXT    NOT NULL,
    at   REAL    NOT NULL
);
"""
# history: one row per finished game (companion/history.py, docs/HISTORY.md); live = 1 for the
# record of a table still in the store (its undo may take it back), 0 once the table is deleted
# and for imported games. Written in the same transaction as the log entry that finished the game.
# Created on first use (a file without finished games keeps the page layout it always had).


def history_row(change: dict[str, Any], old: dict[str, Any] | None, started: float | None,
                now: float) -> dict[str, Any] | None:
    """The table's history record after `change` (ops.history_change): "put" a new one (its
    times and id stamped now), "update" the names of the one there, "drop" it (None)."""
    from companion import history

    op = change.get("op")
    if op == "put":
        return history.stamp(change["record"], started, now)
    if op == "update":
        return history.restamp(old, change["record"]) if old is not None else None
    return None


class HistoryTables:
    """The history part of SQLiteStore: one row per finished game, and the aliases of names."""

    def _history_tables(self) -> None:
        """Create the history tables on first use (lock held; inside a transaction it is part of it)."""
        if not getattr(self, "_history_ready", False):
            for stmt in HISTORY_SCHEMA.split(";"):
                if stmt.strip():
                    self._db.execute(stmt)
            self._history_ready = True

    # fault hook for tests (tests/test_history_store.py): called inside append_history's
    # transaction after the log row and before the history row ("between")
    fault: Any = None

    def append_history(self, code: str, seq: int, entry: dict[str, Any], change: dict[str, Any]) -> None:
        """append() and the change of the table's history record in ONE transaction: the entry
        that finishes a game and its record (or the undo and the record's removal) are stored
        together or not at all."""
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        with self._locked("store.err.write", code), self._transaction() as db:
            now = time.time()
            db.execute("INSERT INTO log(code, seq, at, entry, sum) VALUES (?,?,?,?,?)",
                       (code, seq, now, text, row_sum(code, seq, text)))
            self._history_tables()
            if self.fault is not None:
                self.fault("between")
            start = change.get("start_seq")
            row = db.execute("SELECT at FROM log WHERE code=? AND seq=?",
                             (code, start)).fetchone() if isinstance(start, int) else None
            old = db.execute("SELECT record FROM history WHERE code=? AND live=1", (code,)).fetchone()
            rec = history_row(change, json.loads(old[0]) if old else None, row[0] if row else None, now)
            db.execute("DELETE FROM history WHERE code=? AND live=1", (code,))
            if rec is not None:
                db.execute("INSERT OR REPLACE INTO history(id, code, ended, live, record) VALUES (?,?,?,1,?)",
                           (rec["id"], code, rec["ended"], json.dumps(rec, ensure_ascii=False, separators=(",", ":"))))

    def history(self) -> list[dict[str, Any]]:
        """Every finished game's record (docs/HISTORY.md), oldest first."""
        with self._locked("store.err.corrupt") as db:
            self._history_tables()
            rows = db.execute("SELECT record FROM history ORDER BY ended, id").fetchall()
        out = []
        for (text,) in rows:
            try:
                out.append(json.loads(text))
            except ValueError:
                continue  # (a damaged record costs only itself)
        return out

    def history_of(self, code: str) -> dict[str, Any] | None:
        """The record of a table's finished game (None: not finished, or undone)."""
        with self._locked("store.err.corrupt") as db:
            self._history_tables()
            row = db.execute("SELECT record FROM history WHERE code=? AND live=1", (code,)).fetchone()
        return json.loads(row[0]) if row else None

    def import_history(self, records: list[dict[str, Any]], aliases: list[dict[str, Any]]) -> tuple[int, int]:
        """Add the records whose id is not there yet and the aliases not there yet, in one
        transaction: (games added, games already there)."""
        with self._locked("store.err.write"), self._transaction() as db:
            self._history_tables()
            added = 0
            for r in records:
                added += db.execute("INSERT OR IGNORE INTO history(id, code, ended, live, record) VALUES (?,?,?,0,?)",
                                    (r["id"], r["code"], r["ended"],
                                     json.dumps(r, ensure_ascii=False, separators=(",", ":")))).rowcount
            have = set(db.execute("SELECT kind, src, dst FROM history_aliases").fetchall())
            for a in aliases:
                if (a["kind"], a["src"], a["dst"]) not in have:
                    db.execute("INSERT INTO history_aliases(kind, src, dst, at) VALUES (?,?,?,?)",
                               (a["kind"], a["src"], a["dst"], time.time()))
                    have.add((a["kind"], a["src"], a["dst"]))
        return added, len(records) - added

    def aliases(self) -> list[dict[str, Any]]:
        with self._locked("store.err.corrupt") as db:
            self._history_tables()
            rows = db.execute("SELECT id, kind, src, dst, at FROM history_aliases ORDER BY id").fetchall()
        return [{"id": i, "kind": k, "src": s, "dst": d, "at": a} for i, k, s, d, a in rows]

    def add_alias(self, kind: str, src: str, dst: str) -> int:
        with self._locked("store.err.write") as db:
            self._history_tables()
            cur = db.execute("INSERT INTO history_aliases(kind, src, dst, at) VALUES (?,?,?,?)",
                             (kind, src, dst, time.time()))
        return int(cur.lastrowid or 0)

    def drop_alias(self, alias_id: int) -> bool:
        with self._locked("store.err.write") as db:
            self._history_tables()
            n = db.execute("DELETE FROM history_aliases WHERE id=?", (alias_id,)).rowcount
        return n > 0

    def _copy_history(self, src: sqlite3.Connection, copied: set[str]) -> None:
        """The history records and aliases of a file set aside, if they can be read whole; a record
        stays "live" (its table's undo may take it back) only if its table was copied too."""
        try:
            rows = src.execute("SELECT id, code, ended, live, record FROM history").fetchall()
            aliases = src.execute("SELECT kind, src, dst, at FROM history_aliases ORDER BY id").fetchall()
        except sqlite3.DatabaseError:
            return  # (no history tables in that file, or they are damaged: the file stays aside as found)
        good = []
        for rid, code, ended, live, text in rows:
            try:
                json.loads(text)
            except (TypeError, ValueError):
                continue
            good.append((rid, code, ended, 1 if live and code in copied else 0, text))
        with self._lock, self._transaction("BEGIN") as db:
            self._history_tables()
            db.executemany("INSERT OR IGNORE INTO history(id, code, ended, live, record) VALUES (?,?,?,?,?)", good)
            db.executemany("INSERT INTO history_aliases(kind, src, dst, at) VALUES (?,?,?,?)", aliases)
