"""The table's operations, one table of them: `OPS` maps a log entry's kind to its `Op`.

An `Op` holds the entry's check (does it fit the table now? it returns the effect to make once
the entry is stored) and the requests that make such an entry (`asks`: the request's op name →
who may ask → the entry to submit and the reply), and what it may do to a finished game's history
record (`history_change`). Adding an operation is one entry in `OPS`.

Entries (key "k"):
    create  {game, options, seed, host, seats:[{name, colour, shared?}]}
    join    {seat, token, name}          a phone takes a free seat (before the start)
    spectate{token, name}                a phone watches (after the start, or a full table)
    seat    {token, seat}                host seats a spectator in a free seat
    rename  {seat, name}
    free    {seat}                       host frees a seat (its device loses it)
    leave   {seat}                       a phone gives its seat back before the start ("not me")
    swap    {a, b}                       host swaps two seats' devices and names (and shared marks)
    share   {seat, shared}               host marks a seat as played on the table's shared device
                                         (true: a phone on it loses it) or gives it back (false: free)
    device  {token}                      host opens the shared device: its token (a new one replaces
                                         the last: the device that held it loses the shared seats)
    pin     {seat, pin}                  a shared seat's PIN, hashed ("salt$sha256-pbkdf2" hex), set by
                                         its player on the shared device; pin None: the host reset it
    start   {}
    act     {seat, action}               a game action (seat None = host)
    undo    {reveal?}                    drops the last effective game action; with reveal "clear"
                                         (every undo the host makes now) an action that revealed a
                                         sealed round goes with every choice of that round, so the
                                         round reopens empty (an older log's {} replays as it did)
    end     {}
    next    {code}                       the table that followed this one (a rematch: Hub.rematch)

Who may ask (`authorise`): HOST (the host token; anyone else is refused with err.host_only), ANYONE
(no token needed), DEVICE (the shared device's token, for a shared seat named in the request only)
and SEAT (a phone's seat token: the entry is for its own seat).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.games import get as get_game
from companion.games import spec as game_spec
from companion.games.base import RuleError

if TYPE_CHECKING:
    from companion.table.table import Table

PIN_ROUNDS = 20_000  # PBKDF2 rounds of a shared seat's PIN (a 4-digit PIN: hashed at rest, not strong)
COLOURS = ["#d32f2f", "#1976d2", "#388e3c", "#f9a825", "#7b1fa2", "#f57c00", "#00838f", "#5d4037"]
MAX_NAME = 24
JOINERS = "\u200c\u200d"  # zero-width non-joiner / joiner: no bidi effect, needed for emoji and scripts


def hash_pin(pin: str, salt: str | None = None) -> str:
    salt = salt or secrets.token_hex(8)
    return salt + "$" + hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), PIN_ROUNDS).hex()


def new_token() -> str:
    """A seat or host token: 128 bits of randomness, URL-safe."""
    return secrets.token_urlsafe(16)


def clean_name(name: Any) -> str:
    """A display name: printable, at most MAX_NAME characters; emoji and RTL text are kept.

    Control and format characters (including bidi overrides) are dropped so a name cannot
    garble the screen around it – except the zero-width (non-)joiners, which join emoji
    sequences (👨‍👩‍👧) and are part of the spelling of Persian or Indic names. Empty after
    cleaning → RuleError.
    """
    if not isinstance(name, str):
        raise RuleError("tbl.err.name")
    out = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C" or ch in JOINERS).strip()
    out = " ".join(out.split()).strip(JOINERS)
    if not out.strip(JOINERS + " "):
        raise RuleError("tbl.err.name")
    if len(out) > MAX_NAME:
        raise RuleError("tbl.err.name_long", max=MAX_NAME)
    return out


Entry = dict[str, Any]
Effect = Callable[[], None]
Ask = Callable[["Table", dict[str, Any], "int | None"], tuple[Entry, dict[str, Any]]]
HOST, ANYONE, DEVICE, SEAT = "host", "anyone", "device", "seat"


@dataclass(frozen=True)
class Op:
    check: Callable[[Table, Entry], Effect]  # raises RuleError, or returns the effect to make once stored
    asks: dict[str, dict[str, Ask]] = field(default_factory=dict)  # request op -> who may ask -> entry, reply
    after_end: bool = False  # may follow the end of the game
    history: bool = False  # may make, change or drop the finished game's history record (history_change)
    names: Callable[[list[str], Entry], None] | None = None  # what it does to the seats' names (the record's)


def _seat_index(t: Table, seat: Any) -> bool:
    return isinstance(seat, int) and 0 <= seat < len(t.seats)


def _in_lobby(t: Table) -> None:
    if t.phase != "lobby":
        raise RuleError("tbl.err.started")


def _open_to_phone(t: Table, seat: Any) -> None:
    """A seat a phone may take: no phone on it, not played on the shared device."""
    if not _seat_index(t, seat):
        raise RuleError("tbl.err.no_seat")
    if t.seats[seat]["token"]:
        raise RuleError("tbl.err.seat_taken")
    if t.seats[seat]["shared"]:
        raise RuleError("tbl.err.seat_shared", name=t.seats[seat]["name"])


def _fields(k: str, *names: str) -> Ask:
    """A request whose entry copies these fields of the request as they are (checked with the entry)."""
    return lambda t, op, seat: ({"k": k, **{n: op.get(n) for n in names}}, {})


# ---------- the checks: each returns the change to make once the entry is stored ----------
def _create(t: Table, e: Entry) -> Effect:
    if t.entries:
        raise RuleError("err.not_now")

    def commit() -> None:
        t.game = get_game(e["game"])
        t.game_id = e["game"]
        t.options = e["options"]
        t.seed = e["seed"]
        t._host = e["host"]
        t.seats = [{"name": s["name"], "colour": s["colour"], "token": None,
                    "shared": s.get("shared") is True, "pin": None} for s in e["seats"]]
        t._given_names = [s["name"] for s in e["seats"]]
    return commit


def _next(t: Table, e: Entry) -> Effect:
    code = e.get("code")
    if not isinstance(code, str) or not code:
        raise RuleError("err.unknown_action")
    return lambda: setattr(t, "next_code", code)


def _join(t: Table, e: Entry) -> Effect:
    seat = e.get("seat")
    _in_lobby(t)
    _open_to_phone(t, seat)
    name = clean_name(e["name"]) if e.get("name") else t.seats[seat]["name"]

    def commit() -> None:
        t.seats[seat]["token"] = e["token"]
        t.seats[seat]["name"] = name
    return commit


def _ask_join(t: Table, op: dict[str, Any], seat: int | None) -> tuple[Entry, dict[str, Any]]:
    if t.phase != "lobby" or not t.free_seats():
        if t.phase == "lobby":
            raise RuleError("tbl.err.full")
        raise RuleError("tbl.err.started")
    tok = new_token()
    return {"k": "join", "seat": op.get("seat"), "token": tok, "name": op.get("name")}, {"token": tok}


def _spectate(t: Table, e: Entry) -> Effect:
    name = clean_name(e.get("name") or "?")
    return lambda: t.spectators.__setitem__(e["token"], name)


def _ask_spectate(t: Table, op: dict[str, Any], seat: int | None) -> tuple[Entry, dict[str, Any]]:
    tok = new_token()
    return {"k": "spectate", "token": tok, "name": op.get("name") or "?"}, {"token": tok}


def _seat(t: Table, e: Entry) -> Effect:
    seat = e.get("seat")
    token = e.get("token")
    if not isinstance(token, str) or token not in t.spectators:
        raise RuleError("tbl.err.no_spectator")
    _open_to_phone(t, seat)

    def commit() -> None:
        t.seats[seat]["token"] = token
        if t.phase == "lobby":
            t.seats[seat]["name"] = t.spectators[token]
        del t.spectators[token]
    return commit


def _rename(t: Table, e: Entry) -> Effect:
    seat = e.get("seat")
    if not _seat_index(t, seat):
        raise RuleError("tbl.err.no_seat")
    name = clean_name(e.get("name"))
    return lambda: t.seats[seat].__setitem__("name", name)


def _ask_rename(t: Table, op: dict[str, Any], seat: int | None) -> tuple[Entry, dict[str, Any]]:
    _in_lobby(t)
    return {"k": "rename", "seat": seat, "name": op.get("name")}, {}


def _rename_names(names: list[str], e: Entry) -> None:
    names[e["seat"]] = clean_name(e.get("name"))


def _free(t: Table, e: Entry) -> Effect:
    seat = e.get("seat")
    if not _seat_index(t, seat):
        raise RuleError("tbl.err.no_seat")
    if not t.seats[seat]["token"]:
        raise RuleError("tbl.err.seat_free")

    def commit() -> None:
        if t.phase == "playing":
            t.host_moves.append({"op": "free", "name": t.seats[seat]["name"]})
        t.seats[seat]["token"] = None
    return commit


def _leave(t: Table, e: Entry) -> Effect:
    seat = e.get("seat")
    _in_lobby(t)
    if not _seat_index(t, seat) or not t.seats[seat]["token"]:
        raise RuleError("tbl.err.no_seat")

    def leave() -> None:  # the seat as the host set it up: its name back, free again
        t.seats[seat]["token"] = None
        t.seats[seat]["name"] = t._given_names[seat]
    return leave


def _ask_leave(t: Table, op: dict[str, Any], seat: int | None) -> tuple[Entry, dict[str, Any]]:
    _in_lobby(t)
    return {"k": "leave", "seat": seat}, {}


def _swap(t: Table, e: Entry) -> Effect:
    a, b = e.get("a"), e.get("b")
    if not (_seat_index(t, a) and _seat_index(t, b) and a != b):
        raise RuleError("tbl.err.no_seat")

    def commit() -> None:
        sa, sb = t.seats[a], t.seats[b]
        if t.phase == "playing":
            t.host_moves.append({"op": "swap", "a": sa["name"], "b": sb["name"]})
        for key in ("token", "name", "shared", "pin"):
            sa[key], sb[key] = sb[key], sa[key]
    return commit


def _swap_names(names: list[str], e: Entry) -> None:
    a, b = e["a"], e["b"]
    names[a], names[b] = names[b], names[a]


def _share(t: Table, e: Entry) -> Effect:
    seat, shared = e.get("seat"), e.get("shared")
    if not _seat_index(t, seat):
        raise RuleError("tbl.err.no_seat")
    if not isinstance(shared, bool):
        raise RuleError("err.unknown_action")
    if t.seats[seat]["shared"] == shared:
        raise RuleError("tbl.err.shared_already" if shared else "tbl.err.not_shared", name=t.seats[seat]["name"])

    def share() -> None:
        s = t.seats[seat]
        if t.phase == "playing":
            t.host_moves.append({"op": "share" if shared else "unshare", "name": s["name"]})
        s["shared"] = shared
        s["pin"] = None  # (a PIN is a shared seat's only)
        s["token"] = None  # a phone on it loses it; given back, it is free for a phone
    return share


def _pin(t: Table, e: Entry) -> Effect:
    seat, pin = e.get("seat"), e.get("pin")
    if not _seat_index(t, seat) or not t.seats[seat]["shared"]:
        raise RuleError("tbl.err.not_shared_seat")
    if pin is None:
        if not t.seats[seat]["pin"]:
            raise RuleError("tbl.err.no_pin", name=t.seats[seat]["name"])
    elif not (isinstance(pin, str) and re.fullmatch(r"[0-9a-f]{16}\$[0-9a-f]{64}", pin)):
        raise RuleError("err.unknown_action")
    elif t.seats[seat]["pin"]:
        raise RuleError("tbl.err.pin_set", name=t.seats[seat]["name"])

    def set_pin() -> None:
        if pin is None and t.phase == "playing":
            t.host_moves.append({"op": "pin_reset", "name": t.seats[seat]["name"]})
        t.seats[seat]["pin"] = pin
        t._pin_fails.pop(seat, None)
    return set_pin


def _ask_set_pin(t: Table, op: dict[str, Any], seat: int | None) -> tuple[Entry, dict[str, Any]]:
    """The shared device: its player's PIN, the first time behind the cover."""
    assert seat is not None
    pin = op.get("pin")
    if not isinstance(pin, str) or re.fullmatch(r"\d{4}", pin) is None:
        raise RuleError("tbl.err.pin_digits")
    if t.seats[seat]["pin"]:
        raise RuleError("tbl.err.pin_set", name=t.seats[seat]["name"])
    return {"k": "pin", "seat": seat, "pin": hash_pin(pin)}, {}


def _device(t: Table, e: Entry) -> Effect:
    token = e.get("token")
    if not isinstance(token, str) or len(token) < 16:
        raise RuleError("err.unknown_action")
    return lambda: setattr(t, "_device", token)


def _ask_device(t: Table, op: dict[str, Any], seat: int | None) -> tuple[Entry, dict[str, Any]]:
    tok = new_token()
    return {"k": "device", "token": tok}, {"token": tok}


def _start(t: Table, e: Entry) -> Effect:
    _in_lobby(t)
    seats = [{"name": s["name"], "colour": s["colour"]} for s in t.seats]
    state = t.game.setup(t.options, seats, t.seed)

    def commit() -> None:
        t.phase = "playing"
        t.start_seq = len(t.entries) - 1  # (the entry is in t.entries by now)
        t.setup_seats = seats
        t.state = state
        t.actions = []
    return commit


def _act(t: Table, e: Entry) -> Effect:
    if t.phase != "playing" or t.state is None:
        raise RuleError("tbl.err.not_started")
    action = e.get("action")
    if not isinstance(action, dict):
        raise RuleError("err.unknown_action")
    action = {**action, "seat": e.get("seat")}
    try:  # the log is JSON: a payload that cannot be stored is refused before the rules see it
        json.dumps(action)
    except (TypeError, ValueError):
        raise RuleError("err.unknown_action") from None
    new_state = t._apply(t.state, action)
    t._after = (new_state, t.phase)

    def commit() -> None:
        t.actions.append(action)
        t.state = new_state
        t.last_undo = None
    return commit


def _ask_act(t: Table, op: dict[str, Any], seat: int | None) -> tuple[Entry, dict[str, Any]]:
    """A game action for `seat` (None: the host's own)."""
    return {"k": "act", "seat": seat, "action": op.get("action")}, {}


def _undo(t: Table, e: Entry) -> Effect:
    if t.phase == "lobby":
        raise RuleError("tbl.err.not_started")
    if not t.actions and t.phase != "ended":
        raise RuleError("tbl.err.nothing_to_undo")
    if t.phase == "ended":
        t._after = (t.state, "playing")

        def reopen() -> None:
            t.phase = "playing"
            t.last_undo = {"reopen": True}
        return reopen
    actions, state, note = t._undo(clear=e.get("reveal") == "clear")
    t._after = (state, "playing")

    def commit() -> None:
        t.actions = actions
        t.state = state
        t.last_undo = note
    return commit


def _end(t: Table, e: Entry) -> Effect:
    if t.phase != "playing":
        raise RuleError("tbl.err.not_started")
    t._after = (t.state, "ended")
    return lambda: setattr(t, "phase", "ended")


OPS: dict[str, Op] = {
    "create": Op(_create, after_end=True),
    "next": Op(_next, after_end=True),
    "join": Op(_join, {"join": {ANYONE: _ask_join}}),
    "spectate": Op(_spectate, {"spectate": {ANYONE: _ask_spectate}}),
    "seat": Op(_seat, {"seat": {HOST: _fields("seat", "token", "seat")}}),
    "rename": Op(_rename, {"rename": {SEAT: _ask_rename}, "host_rename": {HOST: _fields("rename", "seat", "name")}},
                 history=True, names=_rename_names),
    "free": Op(_free, {"free": {HOST: _fields("free", "seat")}}),
    "leave": Op(_leave, {"leave": {SEAT: _ask_leave}}),
    "swap": Op(_swap, {"swap": {HOST: _fields("swap", "a", "b")}}, history=True, names=_swap_names),
    "share": Op(_share, {"share": {HOST: _fields("share", "seat", "shared")}}),
    "pin": Op(_pin, {"reset_pin": {HOST: lambda t, op, seat: ({"k": "pin", "seat": op.get("seat"), "pin": None}, {})},
                     "set_pin": {DEVICE: _ask_set_pin}}),
    "device": Op(_device, {"device": {HOST: _ask_device}}),
    "start": Op(_start, {"start": {HOST: _fields("start")}}),
    "act": Op(_act, {"act": {SEAT: _ask_act, DEVICE: _ask_act}, "host_act": {HOST: _ask_act}}, history=True),
    # an undo the host asks for clears a revealed round's choices (Table._undo)
    "undo": Op(_undo, {"undo": {HOST: lambda t, op, seat: ({"k": "undo", "reveal": "clear"}, {})}}, after_end=True,
               history=True),
    "end": Op(_end, {"end": {HOST: _fields("end")}}, history=True),
}

# request op -> who may ask -> the entry it makes (each request makes one kind of entry)
REQUESTS: dict[str, dict[str, Ask]] = {name: who for op in OPS.values() for name, who in op.asks.items()}
HOST_OPS = frozenset(name for name, who in REQUESTS.items() if HOST in who)


def check(t: Table, e: Entry) -> Effect:
    """Whether entry `e` fits table `t` now: RuleError, or the effect to make once it is stored."""
    k = e.get("k")
    op = OPS.get(k) if isinstance(k, str) else None
    if t.phase == "ended" and not (op and op.after_end):
        raise RuleError("err.game_over")
    if op is None:
        raise RuleError("err.unknown_action")
    return op.check(t, e)


def authorise(t: Table, token: Any, request: Any) -> tuple[Entry, dict[str, Any]]:
    """Who asks (host token, the shared device's, a seat's or nobody) and may they: the entry to
    submit and the reply ({"token": ...} for join/spectate/device). RuleError for a refusal."""
    if not isinstance(request, dict) or not isinstance(request.get("op"), str):
        raise RuleError("err.unknown_action")
    who = REQUESTS.get(request["op"], {})
    if HOST in who:
        if not t.is_host(token):
            raise RuleError("err.host_only")
        return who[HOST](t, request, None)
    if ANYONE in who:
        return who[ANYONE](t, request, None)
    if t.is_device(token):  # the shared device: acts for a shared seat, nothing else
        seat = request.get("seat")
        if DEVICE not in who or not isinstance(seat, int) or seat not in t.shared_seats():
            raise RuleError("tbl.err.not_shared_seat")
        return who[DEVICE](t, request, seat)
    seat = t.seat_of(token)
    if seat is None:
        raise RuleError("tbl.err.bad_token" if token else "err.seat_only")
    if SEAT not in who:
        raise RuleError("err.unknown_action")
    return who[SEAT](t, request, seat)


# ---------- the history record (companion/history.py) ----------
def _names_after(t: Table, e: Entry) -> list[str]:
    names = [s["name"] for s in t.seats]
    rename = OPS[e["k"]].names
    if rename is not None:
        rename(names, e)
    return names


def history_change(t: Table, e: Entry) -> dict[str, Any] | None:
    """What the entry (validated by _prepare) does to the history record: {"op": "put" |
    "update" | "drop", "record", "start_seq"} or None (nothing). Never raises for a game
    whose outcome cannot be worked out (the entry goes through without a record)."""
    k = e.get("k")
    op = OPS.get(k) if isinstance(k, str) else None
    if t.game is None or op is None or not op.history:
        return None
    try:
        state, phase = t._after if t._after is not None else (t.state, t.phase)
        was, now = t.finished(), t.finished(state, phase)
        if not now:
            return {"op": "drop"} if was else None
        if was and op.names is None:  # (a finished game's record changes with its names only)
            return None
        if was and _names_after(t, e) == [s["name"] for s in t.seats]:
            return None
        from companion import history

        sp = game_spec(t.game_id)
        record = history.record_for(t.code, t.game_id, t.options, sp.outcome(state),
                                    _names_after(t, e), [s["colour"] for s in t.seats], sp.rounds(state))
    except Exception:  # a game's outcome() or rounds() that fails must not block the table
        return None
    return {"op": "update" if was else "put", "record": record, "start_seq": t.start_seq}
