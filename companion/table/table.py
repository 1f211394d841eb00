"""A table: join code, seats, host token, options, seed and the action log.

The log *is* the table: every change (a seat joined, the start, a game action, an undo) is
an entry appended to the store before it takes effect in memory, and loading a table replays
its entries. The game state is the replay of `setup` + the effective game actions; undo drops
the last one and replays.

The entries, their checks and effects and the requests that make them are one table:
companion/table/ops.py (`OPS`).

A shared seat (pass-and-play, issue 29) has no phone: its player plays on the table's shared
device, behind a cover. It counts as seated for starting and playing; no phone can join or be
seated on it until the host gives it back (share false), and a rematch keeps it shared. The
shared device holds a device token (entry `device`); with it, it acts for a shared seat only
(op "act" with "seat"), never for a phone's seat, never as host.

A finished game (its rules say it is over, or the host ended it with a result) has a history
record (companion/history.py): the entry that finishes it writes the record in the same
transaction (Store.append_history), the undo that reopens it removes it again.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from companion.games import get as get_game
from companion.games import spec as game_spec
from companion.games.base import RuleError, resolve_options
from companion.table import ops
from companion.table.ops import COLOURS, MAX_NAME, clean_name, hash_pin, new_token
from companion.table.store import Store

PIN_TRIES = 5  # wrong PINs in a row for one seat ...
PIN_WAIT = 30.0  # ... then this many seconds before the next try
__all__ = ["COLOURS", "MAX_NAME", "PIN_TRIES", "PIN_WAIT", "Table", "clean_name", "hash_pin", "new_token"]


class Table:
    def __init__(self, code: str, store: Store) -> None:
        self.code = code
        self.store = store
        self.entries: list[dict[str, Any]] = []
        self.game: Any = None
        self.game_id = ""
        self.options: dict[str, Any] = {}
        self.seed = 0
        self._host = ""
        self._device = ""  # the shared device's token (pass-and-play), "" until the host opens one
        self._pin_fails: dict[int, list[float]] = {}  # seat -> times of its wrong PINs in a row (not logged)
        self.seats: list[dict[str, Any]] = []  # {name, colour, token|None, shared: bool}
        self._given_names: list[str] = []  # the seats' names as the host set them up (a seat given back gets its own)
        self.spectators: dict[str, str] = {}  # token -> name
        self.phase = "lobby"  # lobby | playing | ended
        self.actions: list[dict[str, Any]] = []  # effective game actions
        self.state: dict[str, Any] | None = None
        self._cache_state: dict[str, Any] | None = None
        self._cache: dict[tuple[str, int | None], Any] = {}
        self.setup_seats: list[dict[str, Any]] = []  # names/colours as given to setup
        self.version = 0
        # Live screens per device token (not logged): a seat is "here" while a screen holding its
        # token is connected. Kept by token, not by seat, so it follows the token wherever the seat
        # goes – a phone freed and seated again (issue 30.5), a swap – without any bookkeeping.
        self._live: dict[str, int] = {}
        # Seats the host freed or swapped while the game ran, in order: shown to everyone (a swap
        # hands one phone another seat's private screen), derived from the log like all else.
        self.host_moves: list[dict[str, Any]] = []
        # What the host's last undo took back, in public words (undo_preview), until the next game
        # action: every screen says it. Derived from the log like all else.
        self.last_undo: dict[str, Any] | None = None
        # the screens to redraw after a change: connected ones only (a screen leaves while its
        # socket is gone and comes back with it – companion/ui/screens.py); a dict keeps the order
        # and makes subscribing twice harmless
        self._listeners: dict[Callable[[Table], None], None] = {}
        self.start_seq: int | None = None  # the index of the start entry (the history's start time)
        self.next_code: str | None = None  # the table that followed this one (a rematch), from the log
        self._after: tuple[dict[str, Any] | None, str] | None = None  # (state, phase) after the entry being prepared
        self._lock = asyncio.Lock()

    # ---------- creation and loading ----------
    @classmethod
    def create(cls, store: Store, code: str, game_id: str, options: dict[str, Any] | None,
               seats: list[dict[str, Any]], seed: int | None = None, host: str | None = None) -> Table:
        """host: the host token (a rematch keeps the host's); default a new one."""
        game = get_game(game_id)
        if not (game.MIN_SEATS <= len(seats) <= game.MAX_SEATS):
            raise RuleError("tbl.err.seat_count", lo=game.MIN_SEATS, hi=game.MAX_SEATS)
        opts = resolve_options(game.OPTIONS, options)
        clean = []
        for i, s in enumerate(seats):
            name = clean_name(s.get("name") or f"{i + 1}")
            colour = s.get("colour") or COLOURS[i % len(COLOURS)]
            if not (isinstance(colour, str) and colour.startswith("#") and len(colour) in (7, 9)):
                raise RuleError("tbl.err.colour")
            seat = {"name": name, "colour": colour}
            if s.get("shared") is True:
                seat["shared"] = True
            clean.append(seat)
        t = cls(code, store)
        t._do({"k": "create", "game": game_id, "options": opts,
               "seed": seed if seed is not None else secrets.randbits(48),
               "host": host if isinstance(host, str) and host else new_token(), "seats": clean}, persist=True)
        return t

    @classmethod
    def load(cls, store: Store, code: str) -> Table:
        t = cls(code, store)
        for e in store.entries(code):
            t._do(e, persist=False)
        return t

    # ---------- identity ----------
    def is_host(self, token: Any) -> bool:
        return isinstance(token, str) and bool(token) and hmac.compare_digest(token, self._host)

    @property
    def host_token(self) -> str:
        return self._host

    def is_device(self, token: Any) -> bool:
        """Whether `token` is the table's shared device's (pass-and-play)."""
        return isinstance(token, str) and bool(token) and bool(self._device) \
            and hmac.compare_digest(token, self._device)

    @property
    def device_token(self) -> str:
        return self._device

    def has_pin(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and bool(self.seats[seat].get("pin"))

    def check_pin(self, seat: int, pin: Any, now: float | None = None) -> bool:
        """Whether `pin` opens shared seat `seat` (True for a seat without a PIN). Raises RuleError
        tbl.err.pin_wait after PIN_TRIES wrong PINs in a row, for PIN_WAIT seconds. Slow on purpose
        (PBKDF2): call it off the event loop."""
        if not isinstance(seat, int) or seat not in self.shared_seats():
            raise RuleError("tbl.err.not_shared_seat")
        stored = self.seats[seat].get("pin")
        if not stored:
            return True
        now = time.monotonic() if now is None else now
        fails = [f for f in self._pin_fails.get(seat, []) if now - f < PIN_WAIT]
        if len(fails) >= PIN_TRIES:
            raise RuleError("tbl.err.pin_wait", seconds=max(1, int(PIN_WAIT - (now - fails[0]) + 0.999)))
        ok = isinstance(pin, str) and re.fullmatch(r"\d{4}", pin) is not None \
            and hmac.compare_digest(hash_pin(pin, stored.split("$")[0]), stored)
        if ok:
            self._pin_fails.pop(seat, None)
        else:
            self._pin_fails[seat] = [*fails, now]
        return ok

    def seat_of(self, token: Any) -> int | None:
        if not isinstance(token, str) or not token:
            return None
        for i, s in enumerate(self.seats):
            if s["token"] and hmac.compare_digest(s["token"], token):
                return i
        return None

    def is_spectator(self, token: Any) -> bool:
        return isinstance(token, str) and token in self.spectators

    def free_seats(self) -> list[int]:
        """Seats a phone may take: no phone on them and not played on the shared device."""
        return [i for i, s in enumerate(self.seats) if not s["token"] and not s["shared"]]

    def shared_seats(self) -> list[int]:
        """Seats played on the table's shared device (pass-and-play), in seat order."""
        return [i for i, s in enumerate(self.seats) if s["shared"]]

    # ---------- listeners ----------
    def subscribe(self, cb: Callable[[Table], None], first: bool = False) -> None:
        """`cb` is called after every change. `first`: before the listeners already there – the
        shared device, whose change is its whole screen (the cover): told first, it is drawn in the
        first step of a change instead of behind every other screen's second step (a reveal
        reaches the table's last screen sooner: benchmarks/shared_seats.py)."""
        if first:
            self._listeners = {cb: None, **{k: None for k in self._listeners if k != cb}}
        else:
            self._listeners[cb] = None

    def unsubscribe(self, cb: Callable[[Table], None]) -> None:
        self._listeners.pop(cb, None)

    def listening(self, cb: Callable[[Table], None]) -> bool:
        return cb in self._listeners

    def notify(self) -> None:
        for cb in list(self._listeners):
            cb(self)

    @property
    def presence(self) -> dict[int, int]:
        """Seat -> live screens of the device on it (a free or shared seat: none)."""
        return {i: self._live.get(s["token"], 0) for i, s in enumerate(self.seats) if s["token"]}

    def _live_key(self, who: int | str | None) -> str | None:
        if isinstance(who, int) and not isinstance(who, bool):
            return self.seats[who]["token"] if 0 <= who < len(self.seats) else None
        return who if isinstance(who, str) and who else None

    def connect(self, who: int | str | None) -> None:
        """A screen of a device (its token, or the token now on seat `who`) is connected."""
        key = self._live_key(who)
        if key is not None:
            self._live[key] = self._live.get(key, 0) + 1
            self.notify()

    def disconnect(self, who: int | str | None) -> None:
        key = self._live_key(who)
        if key is not None and self._live.get(key):
            self._live[key] -= 1
            if not self._live[key]:
                del self._live[key]
            self.notify()

    # ---------- the one way in ----------
    async def submit(self, entry: dict[str, Any]) -> None:
        """Validate, persist (off the event loop), then apply and notify. Raises RuleError/StoreError.

        Shielded: a caller cancelled while the entry is being written (a browser tab closing
        mid-tap) must not leave it stored but not applied – the table would refuse every later
        entry (sequence error) and the action would reappear after a restart. The write and its
        commit finish together; the cancelled caller just gets no answer.
        """
        task = asyncio.ensure_future(self._submit(entry))
        task.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved if nobody waits
        await asyncio.shield(task)

    async def _submit(self, entry: dict[str, Any]) -> None:
        async with self._lock:
            write, apply = self._plan(entry)
            await asyncio.to_thread(write)
            apply()
        self.notify()

    def submit_sync(self, entry: dict[str, Any]) -> None:
        """Same as submit() for code without an event loop (tests, tools)."""
        self._do(entry, persist=True)
        self.notify()

    def _do(self, entry: dict[str, Any], persist: bool) -> None:
        write, apply = self._plan(entry, persist)
        write()
        apply()

    def _plan(self, entry: dict[str, Any], persist: bool = True) -> tuple[Callable[[], None], Callable[[], None]]:
        """Check the entry (RuleError) and plan it: (its write to the store, with the history record
        it makes or drops – nothing when not `persist`: a log being loaded; what it changes here once
        written). The one step of submit, submit_sync and load: only where the write runs differs."""
        commit = self._prepare(entry)
        seq = len(self.entries)
        change = ops.history_change(self, entry) if persist else None

        def write() -> None:
            if not persist:
                return
            if change is None:
                self.store.append(self.code, seq, entry)
            else:
                self.store.append_history(self.code, seq, entry, change)

        def apply() -> None:
            self.entries.append(entry)
            commit()
            self.version += 1
        return write, apply

    # ---------- the history record (companion/history.py) ----------
    def finished(self, state: dict[str, Any] | None = None, phase: str | None = None) -> bool:
        """The game is finished (it has a history record): it has a result and either its rules
        say it is over or the host ended it. (Default: the table now.)"""
        state = self.state if state is None else state
        phase = self.phase if phase is None else phase
        if state is None or self.game is None or phase == "lobby":
            return False
        sp = game_spec(self.game_id)
        if phase != "ended" and not sp.over(state):
            return False
        return sp.outcome(state) is not None

    # ---------- validation: returns the change to make once the entry is stored ----------
    def _prepare(self, e: dict[str, Any]) -> Callable[[], None]:
        """The entry's check and effect: companion/table/ops.py."""
        self._after = None
        return ops.check(self, e)

    def undo_preview(self) -> dict[str, Any] | None:
        """What "Undo" would take back now, in public words only: {"reopen": True} for an ended
        game, else {"seat": who acted (None: the host), "msgs": the public log lines that action
        added, "cleared": True when it takes back a reveal (every choice of that round is cleared)}
        or {"refuse": message key} when it cannot be taken back. No lines means the action showed
        nothing to the table (a sealed choice, a private hand-over): the screens then say "a private
        action of Bob", never what it was. None: nothing to undo."""
        if self.phase == "ended":
            return {"reopen": True}
        if self.phase != "playing" or not self.actions or self.state is None:
            return None
        try:
            return self._undo(clear=True)[2]
        except RuleError as ex:
            return {"refuse": ex.key}

    def _undo(self, clear: bool) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        """(the effective actions after an undo, their state, its note). The last action is dropped;
        if it revealed a sealed round and `clear` (every undo since the reveal rule; an older log's
        undo entries replay as they did), the round reopens with every choice of it cleared – a
        reveal cannot be un-seen, so everyone chooses again (GameSpec.undo_reveal; the note says
        "cleared"). Raises RuleError where that round cannot be reopened cleanly."""
        before = self.replay(self.actions[:-1])
        note = self._undo_note(before)
        if clear and self.state is not None:
            plan = game_spec(self.game_id).undo_reveal(self.replay, self.actions, before, self.state)
            if plan is not None:
                return plan[0], plan[1], {**note, "cleared": True}
        return self.actions[:-1], before, note

    def _undo_note(self, before: dict[str, Any]) -> dict[str, Any]:
        """The last action described by what it added to the public (host's) view's log."""
        last = self.actions[-1]
        now, then = self.view(None), self.game.view(before, None)
        msgs: list[dict[str, Any]] = []
        if isinstance(now, dict) and isinstance(then, dict):
            a, b = now.get("log"), then.get("log")
            if isinstance(a, list) and isinstance(b, list) and len(a) > len(b) and a[:len(b)] == b:
                msgs = [dict(m) for m in a[len(b):] if isinstance(m, dict) and isinstance(m.get("key"), str)]
        return {"seat": last.get("seat"), "msgs": msgs}

    def _apply(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        try:
            return self.game.apply(state, action)
        except RuleError:
            raise
        except Exception as ex:  # a bad payload must never crash the table
            raise RuleError("err.unknown_action") from ex

    def replay(self, actions: list[dict[str, Any]]) -> dict[str, Any]:
        state = self.game.setup(self.options, self.setup_seats, self.seed)
        for a in actions:
            state = self.game.apply(state, a)
        return state

    # ---------- what screens may see ----------
    def _cached(self, kind: str, seat: int | None, make: Any) -> Any:
        """view()/legal() of the current state, computed once per state and seat: a change at
        the table redraws every screen of the table, and each asks more than once. States are
        never mutated (apply returns a new one), so identity tells when to forget. Callers
        must treat what they get as read-only."""
        state = self.state
        if self._cache_state is not state:
            self._cache_state = state
            self._cache = {}
        key = (kind, seat)
        if key not in self._cache:
            self._cache[key] = make(state, seat)
        return self._cache[key]

    def memo(self, kind: str, make: Callable[[], Any]) -> Any:
        """Anything worked out from the current state alone (the same for every seat), once per
        state: e.g. a screen's signature of data that every seat's view holds alike."""
        return self._cached(kind, None, lambda state, seat: make())

    def view(self, seat: int | None) -> dict[str, Any] | None:
        if self.state is None:
            return None
        return self._cached("view", seat, self.game.view)

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        if self.state is None or self.phase != "playing":
            return []
        return self._cached("legal", seat, self.game.legal)

    def result(self) -> dict[str, Any] | None:
        if self.state is None:
            return None
        return self.game.result(self.state)

    def seat_status(self, seat: int) -> str:
        """free / shared / joined / connected (+ submitted, from the game's public view)."""
        s = self.seats[seat]
        if s["shared"]:
            return "shared"
        if not s["token"]:
            return "free"
        return "connected" if self._live.get(s["token"]) else "joined"

    def public_seats(self) -> list[dict[str, Any]]:
        return [{"name": s["name"], "colour": s["colour"], "status": self.seat_status(i),
                 **({"pin": True} if s.get("pin") else {})} for i, s in enumerate(self.seats)]

    # ---------- authorised requests: the only entry point for screens ----------
    HOST_OPS = ops.HOST_OPS

    async def request(self, token: Any, op: dict[str, Any]) -> dict[str, Any]:
        """Check who asks (host token, seat token or nobody) and submit the matching entry.

        Returns {"token": ...} for join/spectate (the new device token). Raises RuleError with a
        message key for everything refused; nothing is stored then.
        """
        entry, reply = self.authorise(token, op)
        await self.submit(entry)
        return reply

    def request_sync(self, token: Any, op: dict[str, Any]) -> dict[str, Any]:
        entry, reply = self.authorise(token, op)
        self.submit_sync(entry)
        return reply

    def authorise(self, token: Any, op: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The entry that request `op` of `token` makes, and the reply (companion/table/ops.py)."""
        return ops.authorise(self, token, op)
