"""A damaged data file, for SQLiteStore (companion/table/store.py; docs/RELIABILITY.md): the
checksum of each log row, the write-ahead log checked before SQLite opens it, reading the log's rows
past damaged pages, and keeping the file as found next to it. `DamagedFile` is a part of SQLiteStore
(its `_db`, `path`, `dir`, `problems`, `_scan`, `_damage_kept`); its methods run while opening or with the lock held.
"""

from __future__ import annotations

import filecmp
import hashlib
import os
import shutil
import sqlite3
import struct
import sys
import time
from pathlib import Path
from typing import Any


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


def has_sums(db: sqlite3.Connection) -> bool:
    return any(r[1] == "sum" for r in db.execute("PRAGMA table_info(log)"))


def add_row_sums(db: sqlite3.Connection) -> None:
    """A data file from before issue 33 gets the log's `sum` column, and a checksum for each of
    its rows, at its first open (one transaction). A file damaged so that not every row can be
    read keeps the rows it could not sum without one (read as before: unchecked) – the damage
    itself is found per table when the logs are read."""
    if not has_sums(db):
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


class DamagedFile:
    """The damaged-file part of SQLiteStore: copies set aside, and the rows read past damage."""

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
                        f"SELECT rowid, code, seq, at, entry, {'sum' if has_sums(self._db) else 'NULL'} "
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
