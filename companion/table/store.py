"""Where table logs live. `Store` is the interface; SQLite (stdlib) is the embedded default.

Every entry is appended (and committed) before the table acknowledges the action, so a crash
or a kill never loses an acknowledged action. A PostgreSQL adapter for a hosted deployment is
one more class with these methods (see docs/SCALING.md); the table list (`metas`), archiving
and deleting read no log.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


class StoreError(Exception):
    """The data directory cannot be used (full disk, read-only, corrupt). `reason` is English detail."""

    def __init__(self, key: str, path: str, reason: str) -> None:
        super().__init__(f"{key}: {path}: {reason}")
        self.key = key
        self.path = path
        self.reason = reason


class Store(Protocol):
    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None: ...
    def tables(self) -> list[str]: ...
    def entries(self, code: str) -> list[dict[str, Any]]: ...
    def close(self) -> None: ...
    # table metadata, without reading the logs (see TableMeta)
    def meta(self, code: str) -> TableMeta | None: ...
    def metas(self) -> list[TableMeta]: ...
    def archive_idle(self, before: float) -> list[str]: ...
    def delete(self, code: str) -> bool: ...


@dataclass(frozen=True)
class TableMeta:
    """What a table list needs, kept next to the log (same write) so no log has to be read.

    phase: lobby | playing | ended (as Table.phase); created/last: time.time() of the first and
    the latest entry; archived: untouched for long (Hub.archive_days) – not loaded at start, not
    listed as open, still opened by its code; the next entry un-archives it.
    """

    code: str
    game: str
    phase: str
    created: float
    last: float
    entries: int
    archived: bool = False


def next_phase(phase: str, kind: Any) -> str:
    """The table's phase after an entry of kind `kind` (the rules of Table._prepare)."""
    if kind == "create":
        return "lobby"
    if kind == "start":
        return "playing"
    if kind == "end":
        return "ended"
    if kind == "undo" and phase == "ended":
        return "playing"
    return phase


def derive_meta(code: str, rows: Iterable[tuple[Any, Any, float]], archived: bool = False) -> TableMeta | None:
    """TableMeta from a log's (kind, game, at) rows in order; None for a log without its create entry."""
    meta: TableMeta | None = None
    for kind, game, at in rows:
        if meta is None:
            if kind != "create":
                return None
            meta = TableMeta(code, str(game or ""), "lobby", at, at, 1, archived)
        else:
            meta = TableMeta(code, meta.game, next_phase(meta.phase, kind), meta.created, max(meta.last, at),
                             meta.entries + 1, meta.archived)
    return meta


class MemoryStore:
    """For tests and for a server whose data directory could not be opened."""

    def __init__(self) -> None:
        self._logs: dict[str, list[dict[str, Any]]] = {}
        self._meta: dict[str, TableMeta] = {}

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        log = self._logs.setdefault(code, [])
        if seq != len(log):
            raise StoreError("store.err.sequence", code, f"expected {len(log)}, got {seq}")
        log.append(json.loads(json.dumps(entry)))
        self._note(code, entry)

    def _note(self, code: str, entry: dict[str, Any]) -> None:
        now, m = time.time(), self._meta.get(code)
        if entry.get("k") == "create":
            self._meta[code] = TableMeta(code, str(entry.get("game") or ""), "lobby", now, now, 1)
        elif m is not None:
            self._meta[code] = TableMeta(code, m.game, next_phase(m.phase, entry.get("k")), m.created,
                                         max(m.last, now),
                                         m.entries + 1)

    def meta(self, code: str) -> TableMeta | None:
        return self._meta.get(code)

    def metas(self) -> list[TableMeta]:
        return sorted(self._meta.values(), key=lambda m: m.code)

    def archive_idle(self, before: float) -> list[str]:
        codes = [m.code for m in self._meta.values() if not m.archived and m.last < before]
        for c in codes:
            m = self._meta[c]
            self._meta[c] = TableMeta(m.code, m.game, m.phase, m.created, m.last, m.entries, True)
        return sorted(codes)

    def delete(self, code: str) -> bool:
        self._meta.pop(code, None)
        return self._logs.pop(code, None) is not None

    def tables(self) -> list[str]:
        return list(self._logs)

    def entries(self, code: str) -> list[dict[str, Any]]:
        return [dict(e) for e in self._logs.get(code, [])]

    def close(self) -> None:
        pass


SCHEMA = """
CREATE TABLE IF NOT EXISTS log (
    code  TEXT    NOT NULL,
    seq   INTEGER NOT NULL,
    at    REAL    NOT NULL,
    entry TEXT    NOT NULL,
    PRIMARY KEY (code, seq)
);
CREATE TABLE IF NOT EXISTS tables_meta (
    code     TEXT    PRIMARY KEY,
    game     TEXT    NOT NULL,
    phase    TEXT    NOT NULL,
    created  REAL    NOT NULL,
    last     REAL    NOT NULL,
    entries  INTEGER NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0
);
CREATE TRIGGER IF NOT EXISTS log_meta_create AFTER INSERT ON log
WHEN json_valid(NEW.entry) AND json_extract(NEW.entry, '$.k') = 'create' BEGIN
    INSERT OR REPLACE INTO tables_meta(code, game, phase, created, last, entries, archived)
    VALUES (NEW.code, coalesce(json_extract(NEW.entry, '$.game'), ''), 'lobby', NEW.at, NEW.at, 1, 0);
END;
CREATE TRIGGER IF NOT EXISTS log_meta_next AFTER INSERT ON log
WHEN NOT json_valid(NEW.entry) OR json_extract(NEW.entry, '$.k') IS NOT 'create' BEGIN
    UPDATE tables_meta SET last = max(last, NEW.at), entries = entries + 1, archived = 0,
        phase = CASE CASE WHEN json_valid(NEW.entry) THEN json_extract(NEW.entry, '$.k') END
            WHEN 'start' THEN 'playing' WHEN 'end' THEN 'ended'
            WHEN 'undo' THEN (CASE phase WHEN 'ended' THEN 'playing' ELSE phase END)
            ELSE phase END
    WHERE code = NEW.code;
END;
"""
# last never goes back (a clock set back). tables_meta is written by the triggers in the same statement (so the same transaction) as the
# log entry: a table list never reads a log, and never disagrees with one. A data file from before
# tables_meta gets its rows derived from the logs once, on the first metadata read (_backfill).


def private_dir(path: Path) -> Path:
    """Create the data directory readable by this user only (0700)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.chmod(path, 0o700)
    except OSError:
        pass
    return path


class SQLiteStore:
    """Append-only action log in one SQLite file (WAL, synchronous=FULL).

    One connection, guarded by a lock, so calls may come from worker threads
    (the table runs SQLite off the event loop).
    """

    FILE = "companion.sqlite3"

    def __init__(self, data_dir: str | Path, file_name: str | None = None) -> None:
        self.dir = Path(data_dir)
        self.path = self.dir / (file_name or self.FILE)
        self._lock = threading.Lock()
        try:
            private_dir(self.dir)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._db.execute("SELECT count(*) FROM log").fetchone()
            os.chmod(self.path, 0o600)
        except sqlite3.OperationalError as e:  # read-only directory or file, no space, locked: not corrupt
            raise StoreError("store.err.unusable", str(self.dir), str(e)) from e
        except sqlite3.DatabaseError as e:
            raise StoreError("store.err.corrupt", str(self.path), str(e)) from e
        except OSError as e:
            raise StoreError("store.err.unusable", str(self.dir), e.strerror or str(e)) from e

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            try:
                self._db.execute("INSERT INTO log(code, seq, at, entry) VALUES (?,?,?,?)",
                                 (code, seq, time.time(), text))
            except sqlite3.IntegrityError as e:
                raise StoreError("store.err.sequence", code, str(e)) from e
            except sqlite3.DatabaseError as e:  # disk full, read-only, locked, I/O error
                raise StoreError("store.err.write", str(self.path), str(e)) from e
            except (OSError, ValueError) as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e

    def tables(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT code FROM log ORDER BY code").fetchall()
        return [r[0] for r in rows]

    def entries(self, code: str) -> list[dict[str, Any]]:
        return list(self._iter(code))

    def _iter(self, code: str) -> Iterator[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT seq, entry FROM log WHERE code=? ORDER BY seq",
                                    (code,)).fetchall()
        for seq, text in rows:
            try:
                yield json.loads(text)
            except json.JSONDecodeError as e:
                raise StoreError("store.err.corrupt", f"{code}#{seq}", str(e)) from e

    # ---------- table metadata, archive, delete (the logs are not read) ----------
    def _backfill(self) -> None:
        """Rows of tables_meta for logs written before it existed (called with the lock held)."""
        if getattr(self, "_meta_ready", False):
            return
        missing = self._db.execute("SELECT DISTINCT code FROM log WHERE code NOT IN "
                                   "(SELECT code FROM tables_meta)").fetchall()
        for (code,) in missing:
            rows = self._db.execute(
                "SELECT CASE WHEN json_valid(entry) THEN json_extract(entry, '$.k') END, "
                "CASE WHEN json_valid(entry) THEN json_extract(entry, '$.game') END, at "
                "FROM log WHERE code=? ORDER BY seq", (code,)).fetchall()
            m = derive_meta(code, rows)
            if m is not None:
                self._db.execute("INSERT OR REPLACE INTO tables_meta VALUES (?,?,?,?,?,?,0)",
                                 (m.code, m.game, m.phase, m.created, m.last, m.entries))
        self._meta_ready = True

    def _read_meta(self, where: str, args: tuple[Any, ...]) -> list[TableMeta]:
        with self._lock:
            try:
                self._backfill()
                rows = self._db.execute("SELECT code, game, phase, created, last, entries, archived "
                                        f"FROM tables_meta {where} ORDER BY code", args).fetchall()
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.corrupt", str(self.path), str(e)) from e
        return [TableMeta(c, g, p, cr, la, n, bool(a)) for c, g, p, cr, la, n, a in rows]

    def meta(self, code: str) -> TableMeta | None:
        found = self._read_meta("WHERE code=?", (code,))
        return found[0] if found else None

    def metas(self) -> list[TableMeta]:
        return self._read_meta("", ())

    def archive_idle(self, before: float) -> list[str]:
        """Mark the tables without an entry since `before` (time.time()) archived; their codes."""
        with self._lock:
            try:
                self._backfill()
                rows = self._db.execute("UPDATE tables_meta SET archived=1 WHERE archived=0 AND last<? "
                                        "RETURNING code", (before,)).fetchall()
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e
        return sorted(r[0] for r in rows)

    def delete(self, code: str) -> bool:
        """Remove a table's log and metadata in one transaction; False if there was none."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    n = self._db.execute("DELETE FROM log WHERE code=?", (code,)).rowcount
                    self._db.execute("DELETE FROM tables_meta WHERE code=?", (code,))
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e
        return n > 0

    def close(self) -> None:
        with self._lock:
            self._db.close()
