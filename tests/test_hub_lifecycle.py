"""Tables leave memory and come back (issue 22), archive and delete (issue 17 item 6), at the hub/store level.

A table unloaded and reloaded must behave exactly as if it had stayed: the replay test plays random
games on two tables with the same seed – one that is unloaded (by hand and by the sweep) and
reloaded from SQLite at random points, one that stays in memory – and compares every seat's view.
"""

from __future__ import annotations

import asyncio
import gc
import random
import sqlite3
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from benchmarks.soak import pick_action
from companion import i18n
from companion.games import games
from companion.games.base import RuleError
from companion.table import hub as hub_mod
from companion.table.hub import DAY, Hub
from companion.table.store import MemoryStore, SQLiteStore
from companion.table.table import Table

SEATS = [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cy"}]


class Clock:
    def __init__(self) -> None:
        import time

        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def played(hub: Hub, end: bool = False) -> tuple[str, list[str]]:
    t = hub.create("sealed_vote", {}, SEATS, seed=3)
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(3)]
    t.request_sync(t.host_token, {"op": "start"})
    t.request_sync(tokens[0], {"op": "act", "action": {"type": "submit", "value": "sv.yes"}})
    if end:
        t.request_sync(t.host_token, {"op": "end"})
    return t.code, tokens


def gone(hub: Hub, code: str) -> bool:
    """Unloaded and freed (not only out of hub.tables)."""
    gc.collect()
    return code not in hub.tables and hub._gone.get(code) is None


@pytest.fixture(params=["sqlite", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    s = SQLiteStore(tmp_path / "data") if request.param == "sqlite" else MemoryStore()
    yield s
    s.close()


def test_ended_table_nobody_watches_leaves_memory_and_comes_back(store: Any) -> None:
    clock = Clock()
    hub = Hub(store, clock=clock)
    code, tokens = played(hub, end=True)
    before = hub.get(code)
    assert before is not None
    state, view1 = before.state, before.view(1)
    del before
    clock.now += 30
    assert hub.sweep() == [] and code in hub.tables  # within the grace period
    clock.now += 31
    assert hub.sweep() == [code] and gone(hub, code)
    assert [m.code for m in hub.metas()] == [code] and hub.metas()[0].phase == "ended"
    again = hub.get(code)
    assert again is not None and hub.loads == 1
    assert again.state == state and again.view(1) == view1 and again.phase == "ended"
    assert again.seat_of(tokens[2]) == 2
    again.request_sync(again.host_token, {"op": "undo"})  # the host reopens it: it goes on
    assert again.phase == "playing" and store.meta(code).phase == "playing"


def test_a_watched_table_is_never_unloaded(store: Any) -> None:
    clock = Clock()
    hub = Hub(store, clock=clock)
    code, _ = played(hub, end=True)
    t = hub.get(code)
    assert t is not None

    def screen(table: Table) -> None:
        pass

    t.subscribe(screen)
    clock.now += 10 * DAY
    assert hub.sweep() == [] and not hub.unload(code) and hub.tables[code] is t
    t.unsubscribe(screen)
    clock.now += hub.ended_grace - 1
    assert hub.sweep() == []  # the grace period starts when the last screen leaves
    clock.now += 2
    assert hub.sweep() == [code]


def test_an_idle_table_in_play_leaves_memory_after_the_timeout(store: Any) -> None:
    clock = Clock()
    hub = Hub(store, clock=clock)
    code, tokens = played(hub)
    t = hub.get(code)
    assert t is not None
    clock.now += hub.idle_unload - 5
    t.request_sync(tokens[1], {"op": "act", "action": {"type": "submit", "value": "sv.no"}})  # a change: not idle
    hub.sweep()
    clock.now += 10
    assert hub.sweep() == []
    del t
    clock.now += hub.idle_unload
    assert hub.sweep() == [code] and gone(hub, code)
    assert [m.code for m in hub.open_tables()] == [code]  # still listed as open
    t = hub.get(code)
    assert t is not None and t.view(1)["round"]["mine"] == "sv.no"


def test_the_sweep_runs_on_access(store: Any) -> None:
    clock = Clock()
    hub = Hub(store, clock=clock)
    code, _ = played(hub, end=True)
    hub.open_tables()  # the home screen's list: the sweep sees the change (it counts from now)
    clock.now += hub.ended_grace + hub_mod.SWEEP_EVERY
    hub.open_tables()
    assert gone(hub, code)


def test_a_write_in_flight_keeps_the_table(store: Any) -> None:
    async def run() -> None:
        clock = Clock()
        hub = Hub(store, clock=clock)
        code, _ = played(hub, end=True)
        t = hub.get(code)
        assert t is not None
        async with t._lock:  # as Table._submit holds it while the entry is written
            clock.now += 10 * DAY
            assert hub.sweep() == [] and not hub.unload(code)
        clock.now += hub.ended_grace
        assert hub.sweep() == [code]
    asyncio.run(run())


def test_an_unloaded_table_still_held_is_found_again_not_loaded_twice(store: Any) -> None:
    clock = Clock()
    hub = Hub(store, clock=clock)
    code, tokens = played(hub, end=True)
    held = hub.get(code)  # a screen between lookup() and subscribe()
    clock.now += hub.ended_grace + 1
    assert hub.sweep() == [code] and code not in hub.tables
    assert hub.get(code) is held and hub.loads == 0
    held.request_sync(held.host_token, {"op": "undo"})
    assert hub.get(code).phase == "playing"  # one object, one log


def test_new_code_never_reuses_a_code_only_in_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    code, _ = played(hub, end=True)
    store.close()
    hub = Hub(SQLiteStore(tmp_path / "data"))
    hub.load_all()
    assert code not in hub.tables  # ended: not loaded at start
    letters = iter(list(code) + list("ACDE"))
    monkeypatch.setattr(hub_mod.secrets, "choice", lambda alphabet: next(letters))
    assert code != "ACDE" and hub.new_code() == "ACDE"  # the stored code was drawn first, and skipped


def test_start_loads_only_tables_in_play_and_archives_old_ones(tmp_path: Path) -> None:
    clock = Clock()
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store, clock=clock)
    ended, _ = played(hub, end=True)
    old, _ = played(hub)
    lobby = hub.create("sealed_vote", {}, SEATS).code
    store._db.execute("UPDATE log SET at = at - ? WHERE code = ?", (40 * DAY, old))  # untouched for 40 days
    store._db.execute("UPDATE tables_meta SET last = last - ?, created = created - ? WHERE code = ?",
                      (40 * DAY, 40 * DAY, old))
    store.close()
    hub = Hub(SQLiteStore(tmp_path / "data"), clock=clock, archive_days=30)
    hub.load_all()
    assert sorted(hub.tables) == [lobby]
    assert [m.code for m in hub.open_tables()] == [lobby]
    metas = {m.code: m for m in hub.metas()}
    assert metas[old].archived and not metas[ended].archived and metas[ended].phase == "ended"
    assert metas[old].game == "sealed_vote" and metas[old].phase == "playing" and metas[old].entries == 6
    t = hub.lookup(old, "10.0.0.1")  # archived, still opened by its code
    assert t.phase == "playing" and hub.loads == 1
    t.request_sync(t.seats[1]["token"], {"op": "act", "action": {"type": "submit", "value": "sv.no"}})
    assert old in [m.code for m in hub.open_tables()]  # played again: no longer archived


def test_metadata_of_an_older_data_file_is_derived_from_its_logs(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    ended, _ = played(hub, end=True)
    playing, _ = played(hub)
    want = {m.code: m for m in store.metas()}
    store._db.executescript("DROP TRIGGER log_meta_create; DROP TRIGGER log_meta_next; DROP TABLE tables_meta;")
    store.close()
    again = SQLiteStore(tmp_path / "data")
    assert {m.code: m for m in again.metas()} == want
    again.close()


def test_delete_refuses_a_table_in_play_and_removes_an_ended_or_abandoned_one(store: Any) -> None:
    clock = Clock()
    hub = Hub(store, clock=clock)
    ended, _ = played(hub, end=True)
    playing, _ = played(hub)
    with pytest.raises(RuleError) as e:
        hub.delete(playing)
    assert e.value.key == "tbl.err.delete_in_play" and e.value.params == {"days": 7}
    for lang in i18n.LANGS:
        for key in ("tbl.err.delete_in_play", "tbl.err.deleted", "tbl.err.busy"):
            assert i18n.has(key, lang), f"{key} missing in {lang}"
    assert "7" in i18n.t("de", e.value.key, **e.value.params)
    assert hub.get(playing) is not None and store.entries(playing)
    held = hub.get(ended)  # a phone still shows the result
    assert held is not None
    hub.delete(ended.lower())
    assert store.entries(ended) == [] and store.meta(ended) is None and hub.get(ended) is None
    with pytest.raises(RuleError) as e:
        held.request_sync(held.host_token, {"op": "undo"})
    assert e.value.key == "tbl.err.deleted"
    assert store.entries(ended) == [] and held.phase == "ended"  # nothing written, nothing changed
    with pytest.raises(RuleError) as e:
        hub.delete(ended)
    assert e.value.key == "tbl.err.no_table"
    clock.now += 7 * DAY + 1  # abandoned
    hub.delete(playing)
    assert hub.metas() == [] and hub.loaded() == []


def test_wrong_deleted_and_unknown_codes_all_count_as_guesses(store: Any) -> None:
    hub = Hub(store)
    ended, _ = played(hub, end=True)
    hub.delete(ended)
    for i in range(hub_mod.GUESS_LIMIT):
        with pytest.raises(RuleError) as e:
            hub.lookup(ended if i % 2 else "QQQQ", "10.0.0.9")
        assert e.value.key == "tbl.err.no_table"
    with pytest.raises(RuleError) as e:
        hub.lookup(ended, "10.0.0.9")
    assert e.value.key == "tbl.err.too_many_guesses"


def test_a_broken_log_found_on_demand_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    code, _ = played(hub, end=True)
    store.close()
    db = sqlite3.connect(tmp_path / "data" / SQLiteStore.FILE)
    db.execute("UPDATE log SET entry = '{\"k\": \"join\", \"seat\": 99}' WHERE code = ? AND seq = 2", (code,))
    db.commit()
    db.close()
    hub = Hub(SQLiteStore(tmp_path / "data"))
    hub.load_all()
    assert hub.problems == []  # ended: not loaded at start
    assert hub.get(code) is None and [p["code"] for p in hub.problems] == [code]
    with pytest.raises(RuleError):
        hub.lookup(code, "10.0.0.1")
    assert len(hub.problems) == 1


# ---------------------------------------------------------------- unload/reload replay


def _views(t: Table) -> Any:
    return (t.phase, t.version, len(t.entries), t.public_seats(), list(t.spectators.values()),
            [t.view(s) for s in [None, *range(len(t.seats))]],
            [t.legal(s) for s in [None, *range(len(t.seats))]], t.result() if t.state is not None else None)


@pytest.mark.parametrize("game_id", sorted(games()))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_unloaded_and_reloaded_tables_behave_as_if_they_had_stayed(tmp_path: Path, game_id: str, seed: int) -> None:
    r = random.Random(f"reload:{game_id}:{seed}")
    clock = Clock()
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store, clock=clock)
    twin_hub = Hub(MemoryStore())
    game = games()[game_id]
    n = max(game.MIN_SEATS, min(4, game.MAX_SEATS))
    seats = [{"name": f"P{i + 1}"} for i in range(n)]
    code = hub.create(game_id, None, seats, seed=seed).code
    twin = twin_hub.create(game_id, None, seats, seed=seed)
    tokens: list[str] = []
    twin_tokens: list[str] = []

    def both(seat: int | None, op: dict[str, Any], host: bool = False) -> None:
        t = hub.get(code)
        assert t is not None
        a_tok = t.host_token if host else (tokens[seat] if seat is not None else None)
        b_tok = twin.host_token if host else (twin_tokens[seat] if seat is not None else None)
        outcome = []
        for table, tok in ((t, a_tok), (twin, b_tok)):
            try:
                outcome.append(("ok", sorted(table.request_sync(tok, op))))
            except RuleError as e:
                outcome.append(("refused", e.key))
        assert outcome[0] == outcome[1], (op, outcome)

    for i in range(n):
        t = hub.get(code)
        tokens.append(t.request_sync(None, {"op": "join", "seat": i})["token"])
        twin_tokens.append(twin.request_sync(None, {"op": "join", "seat": i})["token"])
        del t
    both(None, {"op": "start"}, host=True)
    reloads = 0
    for step in range(120):
        roll = r.random()
        if roll < 0.08:  # unload by hand, nothing holds it: it is freed and read again from SQLite
            assert hub.unload(code) and gone(hub, code)
            reloads += 1
        elif roll < 0.12:  # the sweep on access, after the idle timeout
            clock.now += hub.idle_unload + hub_mod.SWEEP_EVERY
            hub.get("QQQQ")
            assert gone(hub, code)
            reloads += 1
        elif roll < 0.15:
            both(None, {"op": "undo"}, host=True)
        elif roll < 0.17 and twin.phase == "playing":
            both(None, {"op": "end"}, host=True)
            for wait in (hub_mod.SWEEP_EVERY, hub.ended_grace + hub_mod.SWEEP_EVERY):  # seen ended, then grace
                clock.now += wait
                hub.get("QQQQ")
            assert gone(hub, code)
            reloads += 1
            both(None, {"op": "undo"}, host=True)  # the host takes the end back
        elif twin.phase == "playing" and twin.state is not None:
            actors = [s for s in [None, *range(n)] if twin.legal(s)]
            if actors:
                actor = r.choice(actors)
                action = pick_action(game_id, twin.state, actor, twin.legal(actor), r)
                if action is not None:
                    if actor is None:
                        both(None, {"op": "host_act", "action": action}, host=True)
                    else:
                        both(actor, {"op": "act", "action": action})
        t = hub.get(code)
        assert t is not None
        assert _views(t) == _views(twin), f"step {step}"
        assert [t.seat_of(tok) for tok in tokens] == list(range(n))
        del t
    assert reloads >= 5 and hub.loads == reloads
    store.close()


# ---------------------------------------------------------------- the screens, on real Flet sessions


def _texts(client: Any) -> list[str]:
    from tests.test_parts import walk

    assert client.session is not None
    return [c.value for c in walk(client.session.page.views) if isinstance(c, ft.Text) and isinstance(c.value, str)]


def test_home_lists_tables_in_play_from_the_store_and_a_host_reopens_an_ended_one(tmp_path: Path) -> None:
    from benchmarks import harness as H
    from companion.ui.screens import Server

    store = SQLiteStore(tmp_path / "data")
    first = Hub(store)
    ended, _ = played(first, end=True)
    playing, _ = played(first)
    host_token = first.tables[ended].host_token
    store.close()

    async def run() -> None:
        clock = Clock()
        hub = Hub(SQLiteStore(tmp_path / "data"), clock=clock)  # a restart
        hub.load_all()
        assert sorted(hub.tables) == [playing]
        server = Server(hub, "http://test")
        pubsub = H.new_pubsub()
        from companion.ui import boot

        reset = boot.CONN.set(boot.Conn("127.0.0.1", {}))  # the host's own computer
        try:
            home = await H.Client(server, "/", {"lang": "en"}).open(pubsub)
        finally:
            boot.CONN.reset(reset)
        await H.quiet([home])
        texts = _texts(home)
        finished = texts.index("Finished and abandoned tables")
        listed, old = " ".join(texts[:finished]), " ".join(texts[finished:])
        assert playing in listed and ended not in listed and ended in old  # the ended one: to delete
        assert hub.loads == 0  # both lists from the store's table list: no log read
        host = await H.Client(server, f"/host/{ended}", {f"host:{ended}": host_token, "lang": "en"}).open(pubsub)
        await H.quiet([host])
        assert hub.loads == 1 and ended in hub.tables  # loaded on demand for the host's screen
        clock.now += 10 * DAY
        hub.sweep()
        assert ended in hub.tables  # watched: stays
        home.close()
        host.close()  # the screen leaves: the ended table may go after its grace period
        hub.sweep()
        clock.now += hub.ended_grace + 1
        assert hub.sweep() == [ended] and ended not in hub.tables
        alive = hub._gone.get(ended) is not None  # the closed session's parts may still hold it
        again = await H.Client(server, f"/host/{ended}", {f"host:{ended}": host_token, "lang": "en"}).open(pubsub)
        await H.quiet([again])
        assert hub.loads == (1 if alive else 2)  # held: found again, not loaded a second time
        assert ended in hub.tables and f"{ended}" in " ".join(_texts(again))
        again.close()
    asyncio.run(run())


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_an_ended_table_opens_for_its_own_credentials_only_and_is_not_loaded_for_a_guess(
        tmp_path: Path, kind: str) -> None:
    """Issue 33 (2): an ended table's code, guessed, was loaded into memory (71 ms, +5 MB) and shown.
    Now it is answered like an unknown code and counted – with no credential, or with one its log
    does not hold – and not loaded; its own seat token, watcher's token or host key open it."""
    from companion.table.hub import InHand

    store: Any = MemoryStore() if kind == "memory" else SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    code, tokens = played(hub, end=True)
    host = hub.tables[code].host_token
    hub.unload(code)
    gc.collect()
    loads = hub.loads
    for held in (None, InHand("seat", []), InHand("seat", ["made-up-token"]), InHand("host", ["made-up-key"])):
        with pytest.raises(RuleError) as e:
            hub.admit(code, "10.0.0.5", held)
        assert e.value.key == "tbl.err.no_table"
    assert hub.loads == loads and code not in hub.tables, "an ended table was loaded for a guess"
    assert len(hub._guesses["10.0.0.5"]) == 4  # each counted as a wrong code
    assert hub.admit(code, "10.0.0.6", InHand("seat", [tokens[1]])).code == code
    assert hub.admit(code, "10.0.0.6", InHand("host", [host])).code == code
    with pytest.raises(RuleError):  # in memory now: still not for a stranger
        hub.admit(code, "10.0.0.7", None)
