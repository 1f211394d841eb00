"""Where table logs live. `Store` is the interface; SQLite (stdlib) is the embedded default.

Every entry is appended (and committed) before the table acknowledges the action, so a crash
or a kill never loses an acknowledged action. A PostgreSQL adapter for a hosted deployment is
one more class with these four methods (see docs/SCALING.md).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
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


class MemoryStore:
    """For tests and for a server whose data directory could not be opened."""

    def __init__(self) -> None:
        self._logs: dict[str, list[dict[str, Any]]] = {}

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        log = self._logs.setdefault(code, [])
        if seq != len(log):
            raise StoreError("store.err.sequence", code, f"expected {len(log)}, got {seq}")
        log.append(json.loads(json.dumps(entry)))

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
"""


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

    def close(self) -> None:
        with self._lock:
            self._db.close()
