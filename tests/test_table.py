"""The table: seats and tokens, host-only operations, the log, undo, replay and restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.games.base import RuleError
from companion.table.hub import CODE_ALPHABET, Hub, normalise_code
from companion.table.store import MemoryStore, SQLiteStore
from companion.table.table import Table, clean_name

SEATS = [{"name": "A"}, {"name": "B"}, {"name": "C"}]


def new_table(store=None, options=None) -> Table:
    hub = Hub(store or MemoryStore())
    return hub.create("sealed_vote", options or {"mode": "number", "min": 0, "max": 20}, SEATS, seed=7)


def seat_all(t: Table) -> list[str]:
    return [t.request_sync(None, {"op": "join", "seat": i, "name": n})["token"]
            for i, n in enumerate(["Anna", "Bert", "Chloé"])]


def test_code_has_no_look_alikes():
    assert not set("BIOSZ018250") & set(CODE_ALPHABET)
    t = new_table()
    assert len(t.code) == 4 and set(t.code) <= set(CODE_ALPHABET)
    assert normalise_code(" ab cd ") == "ABCD"


def test_join_take_seat_and_name():
    t = new_table()
    tok = t.request_sync(None, {"op": "join", "seat": 1, "name": "Bert"})["token"]
    assert t.seat_of(tok) == 1 and t.seats[1]["name"] == "Bert"
    assert len(tok) >= 22  # 128 bits, URL-safe base64


def test_taken_seat_cannot_be_grabbed():
    t = new_table()
    t.request_sync(None, {"op": "join", "seat": 0})
    with pytest.raises(RuleError) as e:
        t.request_sync(None, {"op": "join", "seat": 0})
    assert e.value.key == "tbl.err.seat_taken"


def test_full_table_refuses_politely_and_offers_watching():
    t = new_table()
    seat_all(t)
    with pytest.raises(RuleError) as e:
        t.request_sync(None, {"op": "join", "seat": 0})
    assert e.value.key == "tbl.err.full"
    tok = t.request_sync(None, {"op": "spectate", "name": "Dora"})["token"]
    assert t.is_spectator(tok) and t.seat_of(tok) is None


def test_after_start_newcomers_watch_until_seated():
    t = new_table()
    toks = seat_all(t)
    t.request_sync(t.host_token, {"op": "free", "seat": 2})
    t.request_sync(t.host_token, {"op": "start"})
    with pytest.raises(RuleError) as e:
        t.request_sync(None, {"op": "join", "seat": 2})
    assert e.value.key == "tbl.err.started"
    spec = t.request_sync(None, {"op": "spectate", "name": "Dora"})["token"]
    assert t.seat_of(toks[2]) is None  # the freed phone lost its seat
    t.request_sync(t.host_token, {"op": "seat", "seat": 2, "token": spec})
    assert t.seat_of(spec) == 2


def test_presence_follows_the_device_not_the_seat():
    """Issue 30.5: a screen counts its device's token present; a phone freed and seated again (or
    moved by a swap) is "here" at once on its new seat, and a freed seat is free, not here."""
    t = new_table()
    toks = seat_all(t)
    t.request_sync(t.host_token, {"op": "start"})
    for tok in toks:
        t.connect(tok)
    t.request_sync(t.host_token, {"op": "free", "seat": 2})
    assert t.seat_status(2) == "free"
    watcher = t.request_sync(None, {"op": "spectate", "name": "Cy"})["token"]
    t.connect(watcher)  # the freed phone, watching now (its screen is connected)
    t.request_sync(t.host_token, {"op": "seat", "seat": 2, "token": watcher})
    assert t.seat_status(2) == "connected" and t.presence[2] == 1
    t.disconnect(toks[0])
    t.request_sync(t.host_token, {"op": "swap", "a": 0, "b": 1})
    assert (t.seat_status(0), t.seat_status(1)) == ("connected", "joined")
    t.connect(1)  # (by seat: the token now on it)
    assert t.presence[1] == 1


@pytest.mark.parametrize("op", [
    {"op": "start"}, {"op": "undo"}, {"op": "end"}, {"op": "free", "seat": 0}, {"op": "swap", "a": 0, "b": 1},
    {"op": "seat", "seat": 0, "token": "x"}, {"op": "host_act", "action": {"type": "reveal"}},
    {"op": "host_rename", "seat": 0, "name": "X"},
])
def test_host_ops_need_the_host_token(op):
    t = new_table()
    toks = seat_all(t)
    before = len(t.entries)
    for token in (None, "", toks[0], "forged-token", t.host_token + "x"):
        with pytest.raises(RuleError) as e:
            t.request_sync(token, op)
        assert e.value.key == "err.host_only"
    assert len(t.entries) == before


def test_forged_or_foreign_seat_token_is_refused():
    hub = Hub(MemoryStore())
    a = hub.create("sealed_vote", {}, SEATS, seed=1)
    b = hub.create("sealed_vote", {}, SEATS, seed=2)
    tok_a = a.request_sync(None, {"op": "join", "seat": 0})["token"]
    b.request_sync(None, {"op": "join", "seat": 0})
    b.request_sync(b.host_token, {"op": "start"})
    for token in (tok_a, "AAAAAAAAAAAAAAAAAAAAAA", a.host_token):
        with pytest.raises(RuleError) as e:
            b.request_sync(token, {"op": "act", "action": {"type": "submit", "value": "sv.yes"}})
        assert e.value.key == "tbl.err.bad_token"


def test_sealed_round_secret_until_reveal_then_same_for_everyone():
    t = new_table()
    toks = seat_all(t)
    t.request_sync(t.host_token, {"op": "start"})
    for tok, v in zip(toks, [5, 12, 12], strict=True):
        t.request_sync(tok, {"op": "act", "action": {"type": "submit", "value": v}})
    t.request_sync(toks[0], {"op": "act", "action": {"type": "lock"}})
    pub = t.view(None)
    assert "choices" not in pub["round"] and pub["round"]["submitted"] == [0, 1, 2]
    assert t.view(1)["round"]["mine"] == 12 and "choices" not in t.view(1)["round"]
    t.request_sync(toks[1], {"op": "act", "action": {"type": "lock"}})
    t.request_sync(toks[2], {"op": "act", "action": {"type": "lock"}})
    views = [t.view(s)["result"] for s in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    assert [r["value"] for r in views[0]["rows"]] == [12, 12, 5]
    assert views[0]["summary"]["top"] == [1, 2]


def test_bad_input_changes_nothing():
    t = new_table()
    toks = seat_all(t)
    t.request_sync(t.host_token, {"op": "start"})
    before = (len(t.entries), t.state)
    for action in ({"type": "submit", "value": 21}, {"type": "submit", "value": -1},
                   {"type": "submit", "value": "7"}, {"type": "submit", "value": 3.5},
                   {"type": "submit", "value": True}, {"type": "submit"}, {"type": "nope"}, {"type": "lock"},
                   "garbage", None, {"type": "reveal"}):
        with pytest.raises(RuleError):
            t.request_sync(toks[0], {"op": "act", "action": action})
    assert (len(t.entries), t.state) == before
    t.request_sync(toks[0], {"op": "act", "action": {"type": "submit", "value": 3}})
    t.request_sync(toks[0], {"op": "act", "action": {"type": "lock"}})
    with pytest.raises(RuleError) as e:  # a double tap, or a change after the lock
        t.request_sync(toks[0], {"op": "act", "action": {"type": "lock"}})
    assert e.value.key == "err.already_locked"
    with pytest.raises(RuleError):
        t.request_sync(toks[0], {"op": "act", "action": {"type": "submit", "value": 4}})


def test_undo_replays_without_the_last_action():
    t = new_table()
    toks = seat_all(t)
    t.request_sync(t.host_token, {"op": "start"})
    with pytest.raises(RuleError) as e:
        t.request_sync(t.host_token, {"op": "undo"})
    assert e.value.key == "tbl.err.nothing_to_undo"
    t.request_sync(toks[0], {"op": "act", "action": {"type": "submit", "value": 3}})
    s1 = t.state
    t.request_sync(toks[0], {"op": "act", "action": {"type": "lock"}})
    t.request_sync(t.host_token, {"op": "undo"})
    assert t.state == s1
    assert t.entries[-1]["k"] == "undo"  # the log is append-only


def test_restart_from_sqlite_restores_everything(tmp_path):
    store = SQLiteStore(tmp_path / "data")
    t = new_table(store)
    toks = seat_all(t)
    t.request_sync(t.host_token, {"op": "start"})
    t.request_sync(toks[1], {"op": "act", "action": {"type": "submit", "value": 9}})
    t.request_sync(toks[0], {"op": "act", "action": {"type": "submit", "value": 4}})
    t.request_sync(toks[0], {"op": "act", "action": {"type": "lock"}})
    t.request_sync(t.host_token, {"op": "undo"})
    store.close()
    hub = Hub(SQLiteStore(tmp_path / "data"))
    hub.load_all()
    r = hub.get(t.code)
    assert r is not None and r.state == t.state and r.phase == "playing"
    assert r.seat_of(toks[1]) == 1 and r.view(1)["round"]["mine"] == 9
    assert r.is_host(t.host_token)
    # and it goes on where it stopped
    r.request_sync(toks[0], {"op": "act", "action": {"type": "lock"}})
    assert r.view(None)["round"]["locked"] == [0]


def test_data_dir_is_private(tmp_path):
    SQLiteStore(tmp_path / "d")
    assert (tmp_path / "d").stat().st_mode & 0o777 == 0o700


def test_corrupt_database_gives_a_message_and_keeps_the_file(tmp_path):
    from companion.app import open_hub

    d = tmp_path / "data"
    d.mkdir()
    bad = d / SQLiteStore.FILE
    bad.write_bytes(b"this is not a database" * 100)
    hub, problem = open_hub(d)
    assert problem is None
    [p] = hub.problems  # moved aside unchanged, a fresh file in its place, and the host is told
    assert p["key"] == "store.err.set_aside" and p["saved"] == "0"
    assert Path(p["file"]).read_bytes() == b"this is not a database" * 100
    t = hub.create("sealed_vote", {}, SEATS)  # the server still works, and keeps new tables
    assert hub.get(t.code) is t and SQLiteStore(d).tables() == [t.code]


def test_a_broken_table_log_is_reported_not_fatal(tmp_path):
    store = SQLiteStore(tmp_path / "data")
    t = new_table(store)
    good = new_table(store)
    db = sqlite3.connect(store.path)
    db.execute("INSERT INTO log(code, seq, at, entry) VALUES (?, 1, 0, '{\"k\": \"join\", \"seat\": 99}')", (t.code,))
    db.commit()
    hub = Hub(SQLiteStore(tmp_path / "data"))
    hub.load_all()
    assert [p["code"] for p in hub.problems] == [t.code]
    assert hub.get(good.code) is not None


def test_wrong_codes_are_slowed_down():
    hub = Hub(MemoryStore())
    t = hub.create("sealed_vote", {}, SEATS)
    for _ in range(10):
        with pytest.raises(RuleError) as e:
            hub.lookup("QQQQ", "10.0.0.9")
        assert e.value.key == "tbl.err.no_table"
    with pytest.raises(RuleError) as e:
        hub.lookup(t.code, "10.0.0.9")
    assert e.value.key == "tbl.err.too_many_guesses"
    assert hub.lookup(t.code, "10.0.0.10") is t  # other phones are not affected


@pytest.mark.parametrize("raw,ok", [
    ("Anna", "Anna"), ("  Zoë  ", "Zoë"), ("🎲 Max", "🎲 Max"), ("سارة", "سارة"),
    ("a\u202eevil", "aevil"), ("tab\there", "tabhere"), ("x" * 24, "x" * 24),
])
def test_names_are_cleaned(raw, ok):
    assert clean_name(raw) == ok


@pytest.mark.parametrize("raw", ["", "   ", "\x00\x01", "x" * 1000, 42, None])
def test_bad_names_are_refused_with_a_message(raw):
    with pytest.raises(RuleError) as e:
        clean_name(raw)
    assert e.value.key in ("tbl.err.name", "tbl.err.name_long")


def test_a_phone_gives_its_seat_back_before_the_start() -> None:
    """"Not me": before the start a phone frees its own seat – the host's name for it comes back,
    the log keeps it (a reload gives the same), and after the start it is refused."""
    from companion.games.base import RuleError
    from companion.table.store import MemoryStore
    from companion.table.table import Table
    store = MemoryStore()
    t = Table.create(store, "LEAV", "sealed_vote", {}, [{"name": "Player 1"}, {"name": "Player 2"}], seed=1)
    tok = t.request_sync(None, {"op": "join", "seat": 1, "name": "Bob"})["token"]
    assert t.seats[1]["name"] == "Bob"
    t.request_sync(tok, {"op": "leave"})
    assert t.seats[1]["token"] is None and t.seats[1]["name"] == "Player 2"
    assert Table.load(store, "LEAV").seats[1]["name"] == "Player 2"
    with pytest.raises(RuleError):
        t.request_sync(tok, {"op": "leave"})  # the token no longer holds a seat
    tok = t.request_sync(None, {"op": "join", "seat": 1, "name": "Bob"})["token"]
    t.request_sync(t.host_token, {"op": "start"})
    with pytest.raises(RuleError):
        t.request_sync(tok, {"op": "leave"})
    assert t.seats[1]["token"] == tok
