"""Where table logs live. `Store` is the interface; SQLite (stdlib) is the embedded default.

Every entry is appended (and committed) before the table acknowledges the action, so a crash
or a kill never loses an acknowledged action. A PostgreSQL adapter for a hosted deployment is
one more class with these methods (see docs/SCALING.md); the table list (`metas`), archiving
and deleting read no log.
"""

from __future__ import annotations

import filecmp
import hashlib
import json
import os
import shutil
import sqlite3
import stat
import struct
import sys
import threading
import time
from collections.abc import Iterable
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
    def mentions(self, code: str, text: str) -> bool: ...
    # the history of finished games (companion/history.py; docs/HISTORY.md)
    def append_history(self, code: str, seq: int, entry: dict[str, Any], change: dict[str, Any]) -> None: ...
    def history(self) -> list[dict[str, Any]]: ...
    def history_of(self, code: str) -> dict[str, Any] | None: ...
    def import_history(self, records: list[dict[str, Any]], aliases: list[dict[str, Any]]) -> tuple[int, int]: ...
    def aliases(self) -> list[dict[str, Any]]: ...
    def add_alias(self, kind: str, src: str, dst: str) -> int: ...
    def drop_alias(self, alias_id: int) -> bool: ...


def history_row(change: dict[str, Any], old: dict[str, Any] | None, started: float | None,
                now: float) -> dict[str, Any] | None:
    """The table's history record after `change` (Table._history_change): "put" a new one (its
    times and id stamped now), "update" the names of the one there, "drop" it (None)."""
    from companion import history

    op = change.get("op")
    if op == "put":
        return history.stamp(change["record"], started, now)
    if op == "update":
        return history.restamp(old, change["record"]) if old is not None else None
    return None


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
# last never goes back (a clock set back). tables_meta is written by the triggers in the same statement (so the same transaction) as the
# log entry: a table list never reads a log, and never disagrees with one. A data file from before
# tables_meta gets its rows derived from the logs once, on the first metadata read (_backfill).


def row_sum(code: Any, seq: Any, entry: Any) -> str:
    """The checksum of one log row (issue 33: a bit flipped in the stopped file turned a locked
    bid 973964 into 933964 without a word – SQLite checks its pages' structure, not the values in
    them). BLAKE2b over the row's own code, sequence number and entry text: any change to one of
    them, and a row the (code, seq) index finds under another code, fails it. (Not its time `at`:
    it only dates the entry – the table list, archiving – and is never replayed.)"""
    h = hashlib.blake2b(digest_size=8)
    h.update(f"{code}\x00{seq}\x00".encode("utf-8", "surrogatepass"))
    h.update(str(entry).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _has_sums(db: sqlite3.Connection) -> bool:
    return any(r[1] == "sum" for r in db.execute("PRAGMA table_info(log)"))


def add_row_sums(db: sqlite3.Connection) -> None:
    """A data file from before issue 33 gets the log's `sum` column, and a checksum for each of
    its rows, at its first open (one transaction). A file damaged so that not every row can be
    read keeps the rows it could not sum without one (read as before: unchecked) – the damage
    itself is found per table when the logs are read."""
    if not _has_sums(db):
        db.execute("ALTER TABLE log ADD COLUMN sum TEXT")
    db.create_function("row_sum", 3, row_sum, deterministic=True)
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("UPDATE log SET sum = row_sum(code, seq, entry) WHERE sum IS NULL")
        except sqlite3.DatabaseError:
            db.execute("ROLLBACK")
            return
        db.execute("COMMIT")
    except sqlite3.OperationalError:
        return  # (read-only: the rows stay unchecked until a writable open)


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


# ---------------------------------------------------------------- a damaged write-ahead log

WAL_MAGIC = (0x377F0682, 0x377F0683)  # checksums little- or big-endian (https://sqlite.org/fileformat.html)


def _wal_sum(data: bytes, s1: int, s2: int, big: bool) -> tuple[int, int]:
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s1 = (s1 + words[i] + s2) & 0xFFFFFFFF
        s2 = (s2 + words[i + 1] + s1) & 0xFFFFFFFF
    return s1, s2


def _shm_frames(shm: Path) -> tuple[int, bytes] | None:
    """(mxFrame, salts) from the wal-index a stopped process left behind: the number of WAL frames
    that were committed (https://sqlite.org/walformat.html), or None if it cannot be trusted."""
    try:
        with open(shm, "rb") as f:
            head = f.read(96)
    except OSError:
        return None
    if len(head) < 96 or head[:48] != head[48:96]:
        return None
    end = "<" if sys.byteorder == "little" else ">"
    version, _, _, is_init = struct.unpack(end + "IIIB", head[:13])
    if version != 3007000 or not is_init:
        return None
    return struct.unpack(end + "I", head[16:20])[0], head[32:40]


def wal_damage(db_path: Path) -> str | None:
    """What is wrong with the write-ahead log next to db_path, read before SQLite opens it (SQLite
    silently drops every frame from the first bad one, then resets the log), or None if it is whole.

    Damaged: a bad header in a log that holds frames; a frame of this log generation after a bad one
    (garbled in the middle); fewer committed frames than the wal-index left by the last process says
    were committed (cut short). A torn last frame alone is a write the crash interrupted – normal."""
    wal = Path(f"{db_path}-wal")
    shm = _shm_frames(Path(f"{db_path}-shm"))  # (read first: it is updated after the frames)
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return None
    committed = shm[0] if shm else 0
    if len(data) < 32:
        return f"the log is {len(data)} bytes long but {committed} frames were saved" if committed else None
    magic, version, page, _, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:32])
    big = magic == WAL_MAGIC[1]
    size = page + 24
    if magic not in WAL_MAGIC or version != 3007000 or page < 512 or page & (page - 1) \
            or _wal_sum(data[:24], 0, 0, big) != (c1, c2):
        return "the log's header is damaged" if len(data) > 32 or committed else None
    s = (c1, c2)
    n = good = last_commit = 0
    for off in range(32, len(data) - size + 1, size):
        n += 1
        pgno, commit, f1, f2, k1, k2 = struct.unpack(">6I", data[off:off + 24])
        if (f1, f2) != (salt1, salt2):
            break
        s = _wal_sum(data[off:off + 8] + data[off + 24:off + size], *s, big)
        if s != (k1, k2) or pgno == 0:
            break
        good = n
        if commit:
            last_commit = n
    if good < n:  # a bad frame: is there a frame of this same log after it?
        for off in range(32 + n * size, len(data) - size + 1, size):
            if data[off + 8:off + 16] == data[16:24]:
                return f"frame {n} of the log is damaged, frames after it were saved"
    if shm and shm[1] == data[16:24] and last_commit < committed:
        return f"only {last_commit} of the {committed} saved log frames can be read"
    return None


class Salvage:
    """The rows of a damaged file that could be read, walking the table b-tree past damaged pages."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[int, tuple[float, str, str | None]]] = {}  # code -> seq -> (at, entry, sum)
        self.first: dict[str, int] = {}  # code -> rowid of its first entry
        self.skipped: list[int] = []  # for each stretch of rows that could not be read: its last rowid

    def whole(self, code: str) -> bool:
        """Every row of this table was read: none can be in a skipped stretch, as rows get ever
        larger rowids and its first entry came after every skipped stretch. (Gaps are checked too.)"""
        first = self.first.get(code)
        return first is not None and all(end < first for end in self.skipped)


class SQLiteStore:
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

    def _aside_name(self, tag: str) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for n in range(1, 1000):
            dest = self.path.with_name(f"{self.path.name}.{tag}-{stamp}" + (f"-{n}" if n > 1 else ""))
            if not dest.exists():
                return dest
        raise OSError(f"too many copies of {self.path.name} in {self.dir}")

    def _keep_copy(self, tag: str) -> str:
        """Copy the file (and its -wal) as found next to it; the newest such copy is reused if equal."""
        def wal_of(db: Path) -> Path | None:
            w = Path(f"{db}-wal")
            return w if w.exists() and w.stat().st_size else None

        wal = wal_of(self.path)
        older = sorted(self.dir.glob(f"{self.path.name}.{tag}-*[0-9]"), key=lambda q: q.stat().st_mtime)
        if older and filecmp.cmp(older[-1], self.path, shallow=False):
            prev = wal_of(older[-1])
            if (wal, prev) == (None, None) or (wal and prev and filecmp.cmp(prev, wal, shallow=False)):
                return str(older[-1])
        dest = self._aside_name(tag)
        shutil.copyfile(self.path, dest)
        os.chmod(dest, 0o600)
        if wal is not None:
            shutil.copyfile(wal, f"{dest}-wal")
            os.chmod(f"{dest}-wal", 0o600)
        return str(dest)

    def _move_aside(self) -> str:
        """Rename the unreadable file and its side files (bytes untouched) so a fresh one can start."""
        dest = self._aside_name("unreadable")
        os.rename(self.path, dest)
        for side in ("-wal", "-shm"):
            if Path(f"{self.path}{side}").exists():
                os.rename(f"{self.path}{side}", f"{dest}{side}")
        return str(dest)

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
                    with self._lock:
                        self._db.execute("BEGIN")
                        self._db.executemany("INSERT INTO log(code, seq, at, entry, sum) VALUES (?,?,?,?,?)",
                                             [(code, seq, at, text, row_sum(code, seq, text)) for seq, at, text in rows])
                        self._db.execute("COMMIT")
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
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._history_tables()
                self._db.executemany("INSERT OR IGNORE INTO history(id, code, ended, live, record) VALUES (?,?,?,?,?)",
                                     good)
                self._db.executemany("INSERT INTO history_aliases(kind, src, dst, at) VALUES (?,?,?,?)", aliases)
            except BaseException:
                self._db.execute("ROLLBACK")
                self._history_ready = False
                raise
            self._db.execute("COMMIT")

    def _damaged(self, e: sqlite3.DatabaseError) -> None:
        """Damage found while reading (lock held): keep the file as found, once, and tell the host."""
        if self._damage_kept:
            return
        self._damage_kept = True
        try:
            kept = self._keep_copy("damaged")
        except OSError as err:
            kept = f"(no copy: {err.strerror or err})"
        self.problems.append({"key": "store.err.damaged_copy", "code": "", "path": str(self.path),
                              "reason": str(e), "file": kept})

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            try:
                at = time.time()
                self._db.execute("INSERT INTO log(code, seq, at, entry, sum) VALUES (?,?,?,?,?)",
                                 (code, seq, at, text, row_sum(code, seq, text)))
            except sqlite3.IntegrityError as e:
                raise StoreError("store.err.sequence", code, str(e)) from e
            except sqlite3.DatabaseError as e:  # disk full, read-only, locked, I/O error
                raise StoreError("store.err.write", str(self.path), str(e)) from e
            except (OSError, ValueError) as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e

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
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    now = time.time()
                    self._db.execute("INSERT INTO log(code, seq, at, entry, sum) VALUES (?,?,?,?,?)",
                                     (code, seq, now, text, row_sum(code, seq, text)))
                    self._history_tables()
                    if self.fault is not None:
                        self.fault("between")
                    start = change.get("start_seq")
                    row = self._db.execute("SELECT at FROM log WHERE code=? AND seq=?",
                                           (code, start)).fetchone() if isinstance(start, int) else None
                    old = self._db.execute("SELECT record FROM history WHERE code=? AND live=1", (code,)).fetchone()
                    rec = history_row(change, json.loads(old[0]) if old else None, row[0] if row else None, now)
                    self._db.execute("DELETE FROM history WHERE code=? AND live=1", (code,))
                    if rec is not None:
                        self._db.execute("INSERT OR REPLACE INTO history(id, code, ended, live, record) VALUES (?,?,?,1,?)",
                                         (rec["id"], code, rec["ended"],
                                          json.dumps(rec, ensure_ascii=False, separators=(",", ":"))))
                except BaseException:
                    self._db.execute("ROLLBACK")
                    self._history_ready = False  # (tables created in this transaction are gone again)
                    raise
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError as e:
                raise StoreError("store.err.sequence", code, str(e)) from e
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e
            except (OSError, ValueError) as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e

    def history(self) -> list[dict[str, Any]]:
        """Every finished game's record (docs/HISTORY.md), oldest first."""
        with self._lock:
            try:
                self._history_tables()
                rows = self._db.execute("SELECT record FROM history ORDER BY ended, id").fetchall()
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.corrupt", str(self.path), str(e)) from e
        out = []
        for (text,) in rows:
            try:
                out.append(json.loads(text))
            except ValueError:
                continue  # (a damaged record costs only itself)
        return out

    def history_of(self, code: str) -> dict[str, Any] | None:
        """The record of a table's finished game (None: not finished, or undone)."""
        with self._lock:
            try:
                self._history_tables()
                row = self._db.execute("SELECT record FROM history WHERE code=? AND live=1", (code,)).fetchone()
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.corrupt", str(self.path), str(e)) from e
        return json.loads(row[0]) if row else None

    def import_history(self, records: list[dict[str, Any]], aliases: list[dict[str, Any]]) -> tuple[int, int]:
        """Add the records whose id is not there yet and the aliases not there yet, in one
        transaction: (games added, games already there)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._history_tables()
                    added = 0
                    for r in records:
                        added += self._db.execute(
                            "INSERT OR IGNORE INTO history(id, code, ended, live, record) VALUES (?,?,?,0,?)",
                            (r["id"], r["code"], r["ended"],
                             json.dumps(r, ensure_ascii=False, separators=(",", ":")))).rowcount
                    have = set(self._db.execute("SELECT kind, src, dst FROM history_aliases").fetchall())
                    for a in aliases:
                        if (a["kind"], a["src"], a["dst"]) not in have:
                            self._db.execute("INSERT INTO history_aliases(kind, src, dst, at) VALUES (?,?,?,?)",
                                             (a["kind"], a["src"], a["dst"], time.time()))
                            have.add((a["kind"], a["src"], a["dst"]))
                except BaseException:
                    self._db.execute("ROLLBACK")
                    self._history_ready = False  # (tables created in this transaction are gone again)
                    raise
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e
        return added, len(records) - added

    def aliases(self) -> list[dict[str, Any]]:
        with self._lock:
            try:
                self._history_tables()
                rows = self._db.execute("SELECT id, kind, src, dst, at FROM history_aliases ORDER BY id").fetchall()
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.corrupt", str(self.path), str(e)) from e
        return [{"id": i, "kind": k, "src": s, "dst": d, "at": a} for i, k, s, d, a in rows]

    def add_alias(self, kind: str, src: str, dst: str) -> int:
        with self._lock:
            try:
                self._history_tables()
                cur = self._db.execute("INSERT INTO history_aliases(kind, src, dst, at) VALUES (?,?,?,?)",
                                       (kind, src, dst, time.time()))
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e
        return int(cur.lastrowid or 0)

    def drop_alias(self, alias_id: int) -> bool:
        with self._lock:
            try:
                self._history_tables()
                n = self._db.execute("DELETE FROM history_aliases WHERE id=?", (alias_id,)).rowcount
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e
        return n > 0

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
                sums = self._sums = _has_sums(self._db)
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

    # -------- reading past damaged pages (lock held)

    def _seek(self, rowid: int) -> tuple[bool, int | None]:
        """Can the table's b-tree be walked to the first row at or after rowid (its id, or None)?"""
        try:
            row = self._db.execute("SELECT rowid FROM log NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1",
                                   (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            return False, None
        return True, None if row is None else row[0]

    def _resume_after(self, last: int) -> int | None:
        """The row id to go on reading after, once reading past `last` failed (None: nothing left)."""
        ok, nxt = self._seek(last + 1)
        if ok:  # the b-tree reaches the next row but its record cannot be read: skip that row
            return nxt
        lo, step = last + 1, 1  # lo: a seek that failed; widen until one succeeds, then narrow down
        while True:
            hi = lo + step
            if hi >= 2**63:
                return None
            ok, _ = self._seek(hi)
            if ok:
                break
            lo, step = hi, step * 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._seek(mid)[0]:
                hi = mid
            else:
                lo = mid
        return hi - 1

    def _salvage(self) -> Salvage:
        """Every row of the table b-tree that can be read, by code and seq, skipping damaged pages."""
        if self._scan is not None:
            return self._scan
        scan = Salvage()
        last: int | None = -(2**63)
        while last is not None:
            try:
                for rowid, code, seq, at, text, total in self._db.execute(
                        f"SELECT rowid, code, seq, at, entry, {'sum' if _has_sums(self._db) else 'NULL'} "
                        "FROM log NOT INDEXED WHERE rowid > ? ORDER BY rowid", (last,)):
                    if rowid <= last:  # a damaged page that still parses: the keys are out of order
                        raise sqlite3.DatabaseError("rows out of order")
                    if seq == 0:
                        scan.first[code] = rowid
                    scan.rows.setdefault(code, {})[seq] = (at, text, total)
                    last = rowid
                break
            except sqlite3.DatabaseError:
                nxt = self._resume_after(last)
                if nxt is not None:
                    nxt = max(nxt, last + 1)  # always onwards, whatever a damaged page says
                    if nxt >= 2**63 - 1 or len(scan.skipped) > 100_000:
                        nxt = None
                scan.skipped.append(2**63 if nxt is None else nxt)
                last = nxt
        self._scan = scan
        return scan

    def _index_codes(self) -> set[str]:
        """Codes the (code, seq) index can still name, walking it up from the start and down from
        the end until a damaged page: a table whose rows are all lost is still named."""
        codes: set[str] = set()
        for sql, last in (("SELECT code FROM log WHERE code > ? ORDER BY code LIMIT 1", ""),
                          ("SELECT code FROM log WHERE code < ? ORDER BY code DESC LIMIT 1", "\U0010ffff")):
            while True:
                try:
                    row = self._db.execute(sql, (last,)).fetchone()
                except sqlite3.DatabaseError:
                    break
                if row is None or (last != "" and row[0] in codes and "DESC" in sql):
                    break  # (walking down met what walking up found: the rest is known)
                codes.add(row[0])
                last = row[0]
        return codes

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
                    self._history_tables()
                    self._db.execute("UPDATE history SET live=0 WHERE code=?", (code,))  # (the game stays)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    self._history_ready = False  # (tables created in this transaction are gone again)
                    raise
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as e:
                raise StoreError("store.err.write", str(self.path), str(e)) from e
        return n > 0

    def close(self) -> None:
        with self._lock:
            self._db.close()
