"""All tables of one server process: create, find by join code (O(1)), load at start-up.

Join codes are 4 letters without look-alikes (no B/8, I/1, O/0, S/5, Z/2), so a code read
aloud or typed from a screen is hard to get wrong. Guessing codes is slowed per client.

Memory is bounded by the tables in play, not by history: a table lives in `Hub.tables` only
while it is loaded. At start only the tables in play (lobby or playing, not archived) are
loaded; any other is loaded from the store when it is asked for (`get`, `lookup`). A sweep (on
access, at most every SWEEP_EVERY seconds) unloads an ended table nobody watches after
ENDED_GRACE seconds and any table nobody watches nor changed for `idle_unload` seconds. A
table with a subscriber (a screen) or a write in flight is never unloaded. An unloaded table
that something still holds (a screen between lookup and subscribe) is found again, not loaded
a second time: there is never more than one Table object per code.
Tables without an entry for `archive_days` are archived (not loaded at start, not listed as
open, opened by code as before). The host may delete an ended table, or one abandoned (no
entry for ABANDONED_DAYS): its log goes from the store in one transaction.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
import weakref
from collections import defaultdict, deque
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from companion import history as _history  # noqa: F401  (registers the rematch/history messages)
from companion import i18n
from companion.games.base import RuleError
from companion.table.store import Store, StoreError, TableMeta
from companion.table.table import Table

T = TypeVar("T")

CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY"
CODE_LEN = 4
GUESS_LIMIT = 10  # wrong codes per client per window
GUESS_WINDOW = 60.0
PAGE_TRY = 20.0  # s: a wrong code counted for a table's page is not counted again for its socket (Hub.page_table)
DAY = 86400.0
ARCHIVE_DAYS = 30.0  # no entry for this long: archived (not loaded at start, not listed as open)
ABANDONED_DAYS = 7.0  # no entry for this long: a table in play may be deleted
ENDED_GRACE = 60.0  # an ended table nobody watches leaves memory after this (s)
IDLE_UNLOAD = 1800.0  # any table nobody watches nor changed leaves memory after this (s)
SWEEP_EVERY = 10.0  # the sweep runs on access, at most this often (s)
LOAD_ERRORS = (RuleError, StoreError, KeyError, ValueError, TypeError)


def normalise_code(raw: Any) -> str:
    if not isinstance(raw, str):
        return ""
    return "".join(raw.split()).upper()[:12]


class _Deleted:
    """The store of a deleted table still shown on a screen: every write is refused, politely."""

    def append(self, code: str, seq: int, entry: dict[str, Any]) -> None:
        raise RuleError("tbl.err.deleted")

    def append_history(self, code: str, seq: int, entry: dict[str, Any], change: dict[str, Any]) -> None:
        raise RuleError("tbl.err.deleted")


def follow_up(table: Table) -> str | None:
    """The code of the table that followed this one (a rematch, Hub.rematch), or None: a screen of
    the finished table sends its phones on (their seat tokens work there unchanged)."""
    return table.next_code


def problem_text(lang: str, problem: dict[str, str]) -> str:
    """The host's message for one entry of `Hub.problems` (a table or the data file)."""
    params = {k: v for k, v in problem.items() if k != "key"}
    return i18n.t(lang, problem.get("key") or "ui.err.table_restore", **params)


class InHand:
    """The credentials a screen shows without being asked (its address, its cookies, what its
    page read from storage at load), of one kind: "seat" (a seat or watcher's token), "host" (the
    host key) or "device" (the shared device's token)."""

    def __init__(self, kind: str, tokens: list[Any]) -> None:
        self.kind = kind
        self.tokens = tuple(t for t in tokens if isinstance(t, str) and t)

    def __bool__(self) -> bool:
        return bool(self.tokens)

    def prove(self, t: Table) -> bool:
        """Whether one of them holds a place at table `t`."""
        if self.kind == "host":
            return any(t.is_host(tok) for tok in self.tokens)
        if self.kind == "device":
            return any(t.is_device(tok) for tok in self.tokens)
        return any(t.seat_of(tok) is not None or t.is_spectator(tok) for tok in self.tokens)


def _inline(coro: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never waits (Hub._play_again not off the loop), run here
    without an event loop: the sync path is the async one, step for step."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a coroutine run inline waited")


class Hub:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 archive_days: float = ARCHIVE_DAYS, idle_unload: float = IDLE_UNLOAD,
                 ended_grace: float = ENDED_GRACE) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}  # the loaded tables only: use get()/loaded()/open_tables()
        self.problems: list[dict[str, str]] = []  # tables that could not be restored
        # the last GUESS_LIMIT wrong codes (and refused tries) of each client: a lock-out lasts
        # until its oldest leaves the window, so a client that keeps guessing stays locked out
        self._guesses: dict[str, deque[float]] = defaultdict(lambda: deque(maxlen=GUESS_LIMIT))
        self.clock = clock  # time.time() by default; tests turn it forward
        self.archive_days = archive_days
        self.idle_unload = idle_unload
        self.ended_grace = ended_grace
        self.loads = 0  # tables loaded from the store on demand (after start)
        self.unloads = 0
        self._seen: dict[str, tuple[int, float]] = {}  # code -> (version, when it last changed or was asked for)
        self._gone: weakref.WeakValueDictionary[str, Table] = weakref.WeakValueDictionary()
        self._swept = 0.0
        self._rematching: dict[str, asyncio.Future[Table]] = {}  # old code -> the rematch being made
        self._page_tries: dict[tuple[str, str], float] = {}  # (client, code) -> when its page counted it

    def load_all(self) -> None:
        """Load every table in play that can be read; one that cannot (a damaged page of the data
        file, a log the rules refuse) is listed in `problems` for the host and set aside, never
        rewritten. Ended and archived tables are loaded on demand (get)."""
        try:
            codes = self._codes_at_start()
        except Exception:  # (the table list itself is damaged: every table the store can name)
            try:
                codes = self.store.tables()
            except StoreError as e:
                self.problems.append({"key": "ui.err.tables_unreadable", "code": "", "reason": e.reason})
                codes = []
        for code in codes:
            try:
                self.tables[code] = Table.load(self.store, code)
            except StoreError as e:
                self.problems.append({"code": code, "reason": e.reason})
            except Exception as e:  # a log the rules refuse: whatever it raises, the other tables load
                self.problems.append({"code": code, "reason": f"{type(e).__name__}: {e}"})
        for code in self.tables:
            self._touch(code)
        # the store's own findings (a file set aside, a damaged log) come first
        self.problems[:0] = [p for p in getattr(self.store, "problems", []) if p not in self.problems]

    def _codes_at_start(self) -> list[str]:
        """The tables in play: not ended, not archived (tables idle for archive_days are archived now)."""
        self.store.archive_idle(self.clock() - self.archive_days * DAY)
        return [m.code for m in self.store.metas() if m.phase != "ended" and not m.archived]

    def new_code(self) -> str:
        """A fresh code: not loaded, not held by a screen, not in the store (ended, archived, unloaded)."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
            if code not in self.tables and code not in self._gone and self.store.meta(code) is None \
                    and not self.store.entries(code) and all(p["code"] != code for p in self.problems):
                return code  # (a table that could not be restored keeps its code)

    def create(self, game_id: str, options: dict[str, Any] | None, seats: list[dict[str, Any]],
               seed: int | None = None) -> Table:
        code = self.new_code()
        t = Table.create(self.store, code, game_id, options, seats, seed)
        self.add(t)
        return t

    def rematch(self, code: Any, options: dict[str, Any] | None = None, start: bool = True) -> Table:
        """"Play again": the same game at a new table with the same players, seats, colours, device
        tokens (the seats played on the shared device stay shared; every phone's stored seat token, the host's key and the spectators' tokens work there
        unchanged: phones follow without scanning again) and options – `options` changes some of
        them (validated like a new table's). A new seed. Started at once unless start=False. The
        finished table stays as it is, readable, with a `next` entry naming the new one
        (`follow_up`). Asked again, it gives the same new table (two taps make one rematch).

        Raises RuleError: tbl.err.no_table, rematch.err.not_over (the game is neither over nor
        ended), tbl.err.busy, and what Table.create refuses (err.option …). Synchronous (tests,
        tools); a screen calls `rematch_async` (the writes off the event loop)."""
        old, done = self._rematch_check(code)
        return done if done is not None else _inline(self._play_again(old, options, start, off_loop=False))

    async def rematch_async(self, code: Any, options: dict[str, Any] | None = None, start: bool = True) -> Table:
        """rematch() for the screens: the new table's entries are written in a worker thread (it has
        no screen yet), the old table's `next` entry through its own lock (Table.submit); taps in
        the same instant make one rematch. Call on the event loop."""
        old, done = self._rematch_check(code)
        if done is not None:
            return done
        pending = self._rematching.get(old.code)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
        self._rematching[old.code] = fut
        try:
            new = await self._play_again(old, options, start, off_loop=True)
            fut.set_result(new)
            return new
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # (retrieved: nobody else may be waiting)
            raise
        finally:
            self._rematching.pop(old.code, None)

    async def _play_again(self, old: Table, options: dict[str, Any] | None, start: bool, off_loop: bool) -> Table:
        """The one way a rematch is made, for rematch() and rematch_async(): the new table written –
        in a worker thread when `off_loop` (it has no screen yet), else here –, registered, and the old
        table's `next` entry (its screens redraw and follow) through its lock when `off_loop`
        (Table.submit), else at once (Table.submit_sync). Not `off_loop`, it never waits: _inline runs it."""
        code = self.new_code()
        if off_loop:
            new = await asyncio.to_thread(self._rematch_table, old, code, options, start)
        else:
            new = self._rematch_table(old, code, options, start)
        self.add(new)
        follows = {"k": "next", "code": new.code}
        if off_loop:
            await old.submit(follows)
        else:
            old.submit_sync(follows)
        self._touch(old.code)
        return new

    def _rematch_check(self, code: Any) -> tuple[Table, Table | None]:
        old = self.get(code)
        if old is None:
            raise RuleError("tbl.err.no_table", code=normalise_code(code)[:8])
        if old.next_code:
            nxt = self.get(old.next_code)
            if nxt is not None:
                return old, nxt
        if not (old.phase == "ended" or old.finished()):
            raise RuleError("rematch.err.not_over")
        if old._lock.locked() and old.code not in self._rematching:
            raise RuleError("tbl.err.busy")
        return old, None

    def _rematch_table(self, old: Table, code: str, options: dict[str, Any] | None, start: bool) -> Table:
        """The new table of a rematch, written (it has no screen yet: safe off the event loop)."""
        merged = {**old.options, **(options or {})}
        seats = [{"name": s["name"], "colour": s["colour"], "shared": s["shared"]} for s in old.seats]
        new = Table.create(self.store, code, old.game_id, merged, seats, host=old.host_token)
        for i, s in enumerate(old.seats):
            if s["token"]:
                new.submit_sync({"k": "join", "seat": i, "token": s["token"], "name": s["name"]})
        if old.device_token:  # the shared device (pass-and-play) follows with its token
            new.submit_sync({"k": "device", "token": old.device_token})
        for i, s in enumerate(old.seats):  # the shared seats' PINs too (the same players)
            if s["shared"] and s["pin"]:
                new.submit_sync({"k": "pin", "seat": i, "pin": s["pin"]})
        for token, name in old.spectators.items():
            new.submit_sync({"k": "spectate", "token": token, "name": name})
        if start:
            new.submit_sync({"k": "start"})
        return new

    def add(self, t: Table) -> None:
        """Register a table made elsewhere (Table.create on this hub's store: tests, tools)."""
        self.tables[t.code] = t
        self._touch(t.code)

    def get(self, code: Any) -> Table | None:
        """The table with this code, loaded from the store if it is not in memory; None if unknown
        (or deleted, or its log cannot be restored: then it is in `problems`)."""
        code = normalise_code(code)
        self._maybe_sweep()
        t = self.tables.get(code)
        if t is None and code:
            t = self._gone.pop(code, None)  # unloaded, but a screen still holds it: the same object
            if t is None:
                t = self._load(code)
            if t is not None:
                self.tables[code] = t
        if t is not None:
            self._touch(code)
        return t

    def _load(self, code: str) -> Table | None:
        try:
            if self.store.meta(code) is None:
                return None
            t = Table.load(self.store, code)
        except LOAD_ERRORS as e:
            if not any(p["code"] == code for p in self.problems):
                self.problems.append({"code": code, "reason": f"{type(e).__name__}: {e}"})
            return None
        self.loads += 1
        return t

    # ---------- what is there, without loading logs ----------
    def loaded(self) -> list[Table]:
        """The tables in memory now."""
        return list(self.tables.values())

    def metas(self) -> list[TableMeta]:
        """Every stored table (ended and archived ones too), by code; no log is read."""
        broken = {p["code"] for p in self.problems}  # (could not be restored: listed apart)
        return [m for m in self.store.metas() if m.code not in broken]

    def open_tables(self) -> list[TableMeta]:
        """The tables in play (lobby or playing, not archived), by code; no log is read."""
        self._maybe_sweep()
        return [m for m in self.metas() if m.phase != "ended" and not m.archived]

    # ---------- leaving memory ----------
    def _touch(self, code: str) -> None:
        t = self.tables.get(code)
        if t is not None:
            self._seen[code] = (t.version, self.clock())

    @staticmethod
    def _busy(t: Table) -> bool:
        """Watched by a screen, or a write in flight: must stay."""
        return bool(t._listeners) or t._lock.locked()

    def _maybe_sweep(self) -> None:
        now = self.clock()
        if now - self._swept >= SWEEP_EVERY:
            self.sweep(now)

    def sweep(self, now: float | None = None) -> list[str]:
        """Unload ended tables nobody watches (after ended_grace) and idle ones (after idle_unload).
        Call on the event loop (tables are checked for subscribers and writes in flight)."""
        now = self.clock() if now is None else now
        self._swept = now
        out = []
        for code, t in list(self.tables.items()):
            version, since = self._seen.get(code, (-1, now))
            if self._busy(t) or t.version != version:
                self._seen[code] = (t.version, now)
                continue
            quiet = now - since
            if quiet >= self.idle_unload or (t.phase == "ended" and quiet >= self.ended_grace):
                self.unload(code)
                out.append(code)
        return out

    def unload(self, code: str) -> bool:
        """Let a table leave memory (its log stays in the store); refused while it is busy."""
        t = self.tables.get(code)
        if t is None or self._busy(t):
            return False
        del self.tables[code]
        self._seen.pop(code, None)
        self._gone[code] = t  # still found if someone holds it; freed when nobody does
        self.unloads += 1
        return True

    # ---------- deleting ----------
    def deletable(self, m: TableMeta) -> bool:
        """Ended, or abandoned: no entry for ABANDONED_DAYS."""
        return m.phase == "ended" or self.clock() - m.last >= ABANDONED_DAYS * DAY

    def delete(self, code: Any) -> None:
        """Delete an ended or abandoned table: its log leaves the store (one transaction) and memory.
        A screen still showing it keeps its last picture; any tap there is refused (tbl.err.deleted).
        Raises RuleError: tbl.err.no_table, tbl.err.delete_in_play, tbl.err.busy. Call on the event loop."""
        code = normalise_code(code)
        m = self.store.meta(code)
        if m is None:
            raise RuleError("tbl.err.no_table", code=code[:8])
        if not self.deletable(m):
            raise RuleError("tbl.err.delete_in_play", days=int(ABANDONED_DAYS))
        t = self.tables.get(code) or self._gone.get(code)
        if t is not None and t._lock.locked():
            raise RuleError("tbl.err.busy")
        self.store.delete(code)
        if t is not None:
            t.store = _Deleted()  # type: ignore[assignment]
        self.tables.pop(code, None)
        self._gone.pop(code, None)
        self._seen.pop(code, None)

    def locked_out(self, client: str) -> bool:
        """Whether `client` (a connection's own address) has used up its wrong codes for now."""
        q = self._guesses.get(client)
        if not q:
            return False
        now = time.monotonic()
        while q and now - q[0] > GUESS_WINDOW:
            q.popleft()
        return len(q) >= GUESS_LIMIT

    def _refuse(self, client: str) -> RuleError:
        """A try while locked out: counted like a wrong code (the lock-out lasts while the guessing
        goes on – before issue 33 these were not counted), and the error to answer it with."""
        q = self._guesses[client]
        now = time.monotonic()
        q.append(now)
        return RuleError("tbl.err.too_many_guesses", seconds=max(1, math.ceil(GUESS_WINDOW - (now - q[0]))))

    def lookup(self, code: Any, client: str = "") -> Table:
        """Find a table for a phone; wrong codes are counted per client and slowed down."""
        return self.admit(code, client, None)

    def admit(self, code: Any, client: str, held: InHand | None) -> Table:
        """The table a screen at `client` (its connection's own address) may open for `code`, or
        RuleError. `held`: the credentials the screen holds *in hand* (nothing asked of the
        browser); None or empty when it shows none.

        Issue 33 (2): a locked-out client gets the same answer, in the same time, for every code –
        decided before any work that depends on the code: no table loaded, no storage asked, the
        try counted. Only credentials in hand let it in, and only to a table in memory. An ended
        table opens only with credentials in hand that hold a place there (its players, watchers,
        host); without, its code counts as a wrong one and is answered as an unknown one, and it is
        not loaded – nor for a token that its log does not hold (before: 71 ms and +5 MB for
        anyone who guessed it)."""
        if self.locked_out(client):
            err = self._refuse(client)
            t = self.tables.get(normalise_code(code)) if held else None
            if t is not None and held is not None and held.prove(t):
                self._touch(t.code)
                return t
            raise err
        code = normalise_code(code)
        t = self.tables.get(code) or self._gone.get(code)
        if t is None and code:
            try:
                m = self.store.meta(code)
                if m is not None and m.phase == "ended" and not (
                        held and any(self.store.mentions(code, tok) for tok in held.tokens)):
                    m = None  # (not loaded for a guess: no credential of this table in hand)
            except StoreError:
                m = None
            if m is not None:
                t = self.get(code)
        elif t is not None:
            t = self.get(code)  # (the same table: marked as asked for)
        if t is not None and t.phase == "ended" and not (held is not None and held.prove(t)):
            t = None  # (an ended table shows its result to its own players and host only)
        if t is None:
            now = time.monotonic()
            if now - self._page_tries.pop((client, code), -PAGE_TRY) >= PAGE_TRY:
                self._guesses[client].append(now)
            raise RuleError("tbl.err.no_table", code=code[:8])
        return t

    def page_table(self, code: Any, client: str, any_phase: bool = False) -> Table | None:
        """The table in its lobby that the page of /t/CODE may show a join screen for
        (companion/join_page.py), else None – without asking the browser anything. The page is a
        try like the socket's: a wrong code counts against `client` (the connection's own
        address), and while it is locked out every code gets None. The page and its own socket are
        one try: a wrong code its page counted is not counted again when the page's socket asks
        for it within PAGE_TRY seconds (once). A known table in another phase: None, not counted
        (its players' pages; the socket decides what they see) – unless `any_phase` (a page asked
        with a seat token: its seat's screen, companion/join_page.py seated_html; the page's socket
        loads the table moments later anyway)."""
        if self.locked_out(client):
            return None
        code = normalise_code(code)
        t = self.tables.get(code) or self._gone.get(code)
        if t is None and code:
            try:
                m = self.store.meta(code)
            except StoreError:
                return None
            if m is not None:
                t = self.get(code) if m.phase == "lobby" or any_phase else None
                return t if t is not None and (t.phase == "lobby" or any_phase) else None
        if t is None:
            now = time.monotonic()
            self._guesses[client].append(now)
            if len(self._page_tries) > 4096:
                self._page_tries = {k: v for k, v in self._page_tries.items() if now - v < PAGE_TRY}
            self._page_tries[(client, code)] = now
            return None
        if t.phase != "lobby" and not any_phase:
            return None
        return self.get(code)
