"""Where table logs live. `Store` is the interface; SQLite (stdlib) is the embedded default.

Every entry is appended (and committed) before the table acknowledges the action, so a crash
or a kill never loses an acknowledged action. A PostgreSQL adapter for a hosted deployment is
one more class with these methods (see docs/SCALING.md); the table list (`metas`), archiving
and deleting read no log.

SQLiteStore's history tables are in store_history.py, its checksums and damaged-file handling in
store_damage.py; every name is importable from here.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.table.store_damage import (
    WAL_MAGIC,
    DamagedFile,
    Salvage,
    add_row_sums,
    has_sums,
    row_sum,
    wal_damage,
)
from companion.table.store_history import HISTORY_SCHEMA, HistoryTables, history_row

__all__ = [
    "HISTORY_SCHEMA", "SCHEMA", "WAL_MAGIC", "MemoryStore", "RefusingStore", "SQLiteStore", "Salvage", "Store",
    "StoreError", "TableMeta", "add_row_sums", "data_dir_path", "derive_meta", "foreign_dir", "history_row",
    "next_phase", "private_dir", "row_sum", "wal_damage",
]


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
    def mentions(self, code: str, text: str) -> bool: ...
    # the history of finished games (companion/history.py; docs/HISTORY.md)
    def append_history(self, code: str, seq: int, entry: dict[str, Any], change: dict[str, Any]) -> None: ...
    def history(self) -> list[dict[str, Any]]: ...
    def history_of(self, code: str) -> dict[str, Any] | None: ...
    def import_history(self, records: list[dict[str, Any]], aliases: list[dict[str, Any]]) -> tuple[int, int]: ...
    def aliases(self) -> list[dict[str, Any]]: ...
    def add_alias(self, kind: str, src: str, dst: str) -> int: ...
    def drop_alias(self, alias_id: int) -> bool: ...


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

    def __init__(self, clock: Any = time.time) -> None:
        self._logs: dict[str, list[dict[str, Any]]] = {}
        self._meta: dict[str, TableMeta] = {}
        self._at: dict[str, list[float]] = {}  # code -> time of each entry
        self.clock = clock
        self._history: dict[str, dict[str, Any]] = {}  # id -> record
        self._live: dict[str, str] = {}  # table code -> id of its record (a table still in the store)
        self._aliases: list[dict[str, Any]] = []
        self._alias_n = 0

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        log = self._logs.setdefault(code, [])
        if seq != len(log):
            raise StoreError("store.err.sequence", code, f"expected {len(log)}, got {seq}")
        log.append(json.loads(json.dumps(entry)))
        self._at.setdefault(code, []).append(self.clock())
        self._note(code, entry)

    def append_history(self, code: str, seq: int, entry: dict[str, Any], change: dict[str, Any]) -> None:
        """append() and the history change together: the entry through append() (so a store
        built on this one fails the same way), the record only once it is stored."""
        self.append(code, seq, entry)
        at = self._at[code]
        start = change.get("start_seq")
        started = at[start] if isinstance(start, int) and 0 <= start < len(at) else None
        old_id = self._live.pop(code, None)
        old = self._history.pop(old_id, None) if old_id else None
        rec = history_row(change, old, started, at[-1])
        if rec is not None:
            self._history[rec["id"]] = json.loads(json.dumps(rec))
            self._live[code] = rec["id"]

    def history(self) -> list[dict[str, Any]]:
        return [json.loads(json.dumps(r)) for r in sorted(self._history.values(), key=lambda r: (r["ended"], r["id"]))]

    def history_of(self, code: str) -> dict[str, Any] | None:
        rid = self._live.get(code)
        return json.loads(json.dumps(self._history[rid])) if rid in self._history else None

    def import_history(self, records: list[dict[str, Any]], aliases: list[dict[str, Any]]) -> tuple[int, int]:
        new = [r for r in records if r["id"] not in self._history]
        for r in new:
            self._history[r["id"]] = json.loads(json.dumps(r))
        have = {(a["kind"], a["src"], a["dst"]) for a in self._aliases}
        for a in aliases:
            if (a["kind"], a["src"], a["dst"]) not in have:
                self.add_alias(a["kind"], a["src"], a["dst"])
                have.add((a["kind"], a["src"], a["dst"]))
        return len({r["id"] for r in new}), len(records) - len({r["id"] for r in new})

    def aliases(self) -> list[dict[str, Any]]:
        return [dict(a) for a in self._aliases]

    def add_alias(self, kind: str, src: str, dst: str) -> int:
        self._alias_n += 1
        self._aliases.append({"id": self._alias_n, "kind": kind, "src": src, "dst": dst, "at": self.clock()})
        return self._alias_n

    def drop_alias(self, alias_id: int) -> bool:
        n = len(self._aliases)
        self._aliases = [a for a in self._aliases if a["id"] != alias_id]
        return len(self._aliases) < n

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
        self._at.pop(code, None)
        self._live.pop(code, None)  # (its history record stays: the game was played)
        return self._logs.pop(code, None) is not None

    def mentions(self, code: str, text: str) -> bool:
        """Whether some entry of the table's log holds `text` (a token: before loading it for one)."""
        return any(text in json.dumps(e, ensure_ascii=False) for e in self._logs.get(code, []))

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
    """Create the data directory readable by this user only (0700). A directory that exists already
    keeps its mode: the app never changes a directory it did not create (see `foreign_dir`)."""
    if path.is_dir():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        return path
    os.chmod(path, 0o700)  # (mkdir's mode is cut by the umask; this is exactly 0700)
    return path


def foreign_dir(path: Path, file_name: str = "companion.sqlite3") -> str | None:
    """Why an existing directory is not this app's own and must not be used as its data directory
    (a shared one like /tmp, another user's, or one holding other files), else None.

    The path is resolved first (`..`, symlinks): `/tmp/x/..` with x missing is /tmp, and refused –
    checked as given it was "missing" and the database went into /tmp (issue 33, 6). Give the
    server the resolved path too (`data_dir_path`)."""
    path = data_dir_path(path)
    try:
        st = path.stat()
    except OSError:
        return None  # missing (it will be created private) or unreachable (opening says why)
    if not stat.S_ISDIR(st.st_mode):
        return None
    if st.st_mode & (stat.S_IWOTH | stat.S_ISVTX):
        return f"{path} is a shared directory (every user can write there)"
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return f"{path} belongs to another user"
    if (path / file_name).exists():
        return None
    try:
        others = sorted(n for n in os.listdir(path) if not (n.startswith(file_name) or n == "cache"))
    except OSError:
        return None
    if others:
        shown = ", ".join(others[:3]) + (", …" if len(others) > 3 else "")
        return f"{path} already holds other files ({shown}) and no {file_name}"
    return None


def data_dir_path(path: str | Path) -> Path:
    """The data directory as the system will find it: `~` expanded, `..` and symlinks resolved."""
    return Path(os.path.realpath(Path(path).expanduser()))


class RefusingStore(MemoryStore):
    """The store of a server whose data directory cannot be used (read-only, no space, not a
    directory): it keeps the tables that could be read (none) and refuses every write like a full
    disk (`store.err.write`), so no action is acknowledged that a restart would lose (issue 33)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__()
        self.path, self.reason = path, reason

    def _refuse(self, *_: Any) -> Any:
        raise StoreError("store.err.write", self.path, self.reason)

    append = append_history = import_history = add_alias = drop_alias = _refuse


class SQLiteStore(HistoryTables, DamagedFile):
    """Append-only action log in one SQLite file (WAL, synchronous=FULL).

    One connection, guarded by a lock, so calls may come from worker threads
    (the table runs SQLite off the event loop).

    A damaged file never stops the server and is never overwritten (docs/RELIABILITY.md):
    - a page damaged in the middle (or a file cut short) costs only the tables on it: every table
      is read on its own, a table whose log cannot be read whole raises `StoreError` from
      `entries`, and the file as found is copied aside once (`*.damaged-<time>`);
    - a damaged write-ahead log (`-wal`) is copied aside before SQLite recovers (and resets) it;
    - a file SQLite cannot open at all is moved aside unchanged (`*.unreadable-<time>`) and a fresh
      file takes its place.
    Each of these adds an entry to `problems` for the host (message key, path, reason, file).
    """

    FILE = "companion.sqlite3"

    def __init__(self, data_dir: str | Path, file_name: str | None = None) -> None:
        self.dir = Path(data_dir)
        self.path = self.dir / (file_name or self.FILE)
        self._lock = threading.Lock()
        self.problems: list[dict[str, str]] = []  # what opening and reading found, for the host
        self._scan: Salvage | None = None  # the rows read past damaged pages
        self._damage_kept = False
        try:
            private_dir(self.dir)
            torn = wal_damage(self.path)
            if torn:  # before SQLite drops the frames after the damage for good
                kept = self._keep_copy("damaged")
                self.problems.append({"key": "store.err.wal_damaged", "code": "", "path": str(self.path),
                                      "reason": torn, "file": kept})
            try:
                self._db = self._connect()
            except sqlite3.OperationalError:
                raise
            except sqlite3.DatabaseError as e:  # not a database, or its first pages are damaged
                moved = self._move_aside()
                self._db = self._connect()
                saved, lost = self._copy_readable(Path(moved))
                self.problems.append({"key": "store.err.set_aside", "code": "", "path": str(self.path),
                                      "reason": str(e), "file": moved, "saved": str(saved)})
                self.problems += lost
        except sqlite3.OperationalError as e:  # read-only directory or file, no space, locked: not corrupt
            raise StoreError("store.err.unusable", str(self.dir), str(e)) from e
        except sqlite3.DatabaseError as e:
            raise StoreError("store.err.corrupt", str(self.path), str(e)) from e
        except OSError as e:
            raise StoreError("store.err.unusable", str(self.dir), e.strerror or str(e)) from e

    def _connect(self) -> sqlite3.Connection:
        if self.path.exists():
            if stat.S_IMODE(self.path.stat().st_mode) & 0o077:
                try:
                    os.chmod(self.path, 0o600)  # (the app's own file; its -wal and -shm take this mode)
                except OSError:
                    pass
        else:  # created 0600 before SQLite opens it: its -wal and -shm files take the same mode
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)  # reads the schema page only: damage elsewhere shows per table
            add_row_sums(db)
        except BaseException:
            db.close()
            raise
        return db

    @contextmanager
    def _locked(self, key: str, code: str | None = None) -> Iterator[sqlite3.Connection]:
        """The connection under the lock; a sqlite3.DatabaseError inside becomes StoreError(key, the
        file, reason). With `code` (a write to that table's log): an IntegrityError is
        store.err.sequence for the code, and an OSError or ValueError a StoreError(key) too."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.IntegrityError as e:
                if code is None:
                    raise StoreError(key, str(self.path), str(e)) from e
                raise StoreError("store.err.sequence", code, str(e)) from e
            except (sqlite3.DatabaseError, OSError, ValueError) as e:
                if code is None and not isinstance(e, sqlite3.DatabaseError):
                    raise
                raise StoreError(key, str(self.path), str(e)) from e

    @contextmanager
    def _transaction(self, begin: str = "BEGIN IMMEDIATE") -> Iterator[sqlite3.Connection]:
        """One transaction (lock held): committed when the body ends, rolled back if it raises
        (and then the history tables, if this transaction created them, are gone again)."""
        self._db.execute(begin)
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            self._history_ready = False
            raise
        self._db.execute("COMMIT")

    def _copy_readable(self, moved: Path) -> tuple[int, list[dict[str, str]]]:
        """Copy every table that can be read whole from a file set aside into the fresh one. It is
        read through a temporary copy (so the file set aside stays byte for byte as found), with
        writable_schema on so a file cut short is read as far as it goes."""
        work = self._aside_name("reading")
        lost: list[dict[str, str]] = []
        saved = 0
        copied: set[str] = set()
        try:
            shutil.copyfile(moved, work)
            if Path(f"{moved}-wal").exists():
                shutil.copyfile(f"{moved}-wal", f"{work}-wal")
            src = SQLiteStore.__new__(SQLiteStore)
            src.dir, src.path, src._lock, src.problems = self.dir, work, threading.Lock(), []
            src._scan, src._damage_kept = None, True  # (no copy of the copy)
            src._db = sqlite3.connect(work, check_same_thread=False, isolation_level=None)
            try:
                src._db.execute("PRAGMA writable_schema=ON")
                src._db.execute("PRAGMA query_only=ON")
                for code in src.tables():
                    if not isinstance(code, str):
                        continue
                    try:
                        rows = src._rows(code)
                        for _, _, text in rows:
                            json.loads(text)
                    except (StoreError, ValueError) as err:
                        lost.append({"code": code, "reason": getattr(err, "reason", str(err))})
                        continue
                    with self._lock, self._transaction("BEGIN") as db:  # (a failed insert rolls back)
                        db.executemany("INSERT INTO log(code, seq, at, entry, sum) VALUES (?,?,?,?,?)",
                                       [(code, seq, at, text, row_sum(code, seq, text)) for seq, at, text in rows])
                    saved += 1
                    copied.add(code)
                self._copy_history(src._db, copied)
            finally:
                src._db.close()
        except (sqlite3.DatabaseError, StoreError, OSError):
            pass  # nothing more can be read from it: it stays set aside as found
        finally:
            for side in ("", "-wal", "-shm"):
                Path(f"{work}{side}").unlink(missing_ok=True)
        return saved, lost

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        with self._locked("store.err.write", code) as db:  # disk full, read-only, locked, I/O error
            at = time.time()
            db.execute("INSERT INTO log(code, seq, at, entry, sum) VALUES (?,?,?,?,?)",
                       (code, seq, at, text, row_sum(code, seq, text)))

    def tables(self) -> list[str]:
        with self._lock:
            try:
                rows = self._db.execute("SELECT DISTINCT code FROM log ORDER BY code").fetchall()
            except sqlite3.OperationalError as e:
                raise StoreError("store.err.unusable", str(self.path), str(e)) from e
            except sqlite3.DatabaseError as e:  # the index is damaged: find the codes the long way
                self._damaged(e)
                return sorted(c for c in set(self._salvage().rows) | self._index_codes() if isinstance(c, str))
        return [r[0] for r in rows]

    def mentions(self, code: str, text: str) -> bool:
        """Whether some entry of the table's log holds `text` (a token: before loading it for one).
        True when the log cannot be read: loading it then says what is wrong."""
        with self._lock:
            try:
                return self._db.execute("SELECT 1 FROM log WHERE code=? AND instr(entry, ?) > 0 LIMIT 1",
                                        (code, text)).fetchone() is not None
            except sqlite3.DatabaseError:
                return True

    def entries(self, code: str) -> list[dict[str, Any]]:
        out = []
        for seq, _, text in self._rows(code):
            try:
                out.append(json.loads(text))
            except json.JSONDecodeError as e:
                raise StoreError("store.err.corrupt", f"{code}#{seq}", str(e)) from e
        return out

    def _rows(self, code: str) -> list[tuple[int, float, str]]:
        """(seq, at, entry) of a table, all of them or StoreError: its log read past damage only if
        every row of the file could be read."""
        with self._lock:
            sums = getattr(self, "_sums", None)
            if sums is None:
                sums = self._sums = has_sums(self._db)
            try:
                rows = self._db.execute(f"SELECT seq, at, entry, {'sum' if sums else 'NULL'}, code FROM log "
                                        "WHERE code=? ORDER BY seq", (code,)).fetchall()
            except sqlite3.OperationalError as e:
                raise StoreError("store.err.unusable", str(self.path), str(e)) from e
            except sqlite3.DatabaseError as e:
                self._damaged(e)
                scan = self._salvage()
                if not scan.whole(code):  # rows that could not be read may be this table's
                    raise StoreError("store.err.damaged", code, f"its saved log is damaged: {e}") from e
                rows = [(seq, *row, code) for seq, row in sorted(scan.rows[code].items())]
            for seq, _at, text, total, own in rows:  # every row against its checksum (issue 33)
                if own != code or (total is not None and total != row_sum(own, seq, text)):
                    self._damaged(sqlite3.DatabaseError(f"table {code}, entry {seq}: checksum mismatch"))
                    raise StoreError("store.err.damaged", code,
                                     f"its saved log is damaged: entry {seq} does not match its checksum")
            rows = [r[:3] for r in rows]
        if [r[0] for r in rows] != list(range(len(rows))):
            raise StoreError("store.err.damaged", code, f"its saved log has gaps ({len(rows)} entries)")
        return rows

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
        with self._locked("store.err.corrupt") as db:
            self._backfill()
            rows = db.execute("SELECT code, game, phase, created, last, entries, archived "
                              f"FROM tables_meta {where} ORDER BY code", args).fetchall()
        return [TableMeta(c, g, p, cr, la, n, bool(a)) for c, g, p, cr, la, n, a in rows]

    def meta(self, code: str) -> TableMeta | None:
        found = self._read_meta("WHERE code=?", (code,))
        return found[0] if found else None

    def metas(self) -> list[TableMeta]:
        return self._read_meta("", ())

    def archive_idle(self, before: float) -> list[str]:
        """Mark the tables without an entry since `before` (time.time()) archived; their codes."""
        with self._locked("store.err.write") as db:
            self._backfill()
            rows = db.execute("UPDATE tables_meta SET archived=1 WHERE archived=0 AND last<? "
                              "RETURNING code", (before,)).fetchall()
        return sorted(r[0] for r in rows)

    def delete(self, code: str) -> bool:
        """Remove a table's log and metadata in one transaction; False if there was none."""
        with self._locked("store.err.write"), self._transaction() as db:
            n = db.execute("DELETE FROM log WHERE code=?", (code,)).rowcount
            db.execute("DELETE FROM tables_meta WHERE code=?", (code,))
            self._history_tables()
            db.execute("UPDATE history SET live=0 WHERE code=?", (code,))  # (the game stays)
        return n > 0

    def close(self) -> None:
        with self._lock:
            self._db.close()
