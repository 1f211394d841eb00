"""Issue 21.2: "Play again" – Hub.rematch starts the same game with the same players, seats,
colours, device tokens and options (changeable); the finished table stays readable and names
the table that followed it (follow_up)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games import specs
from companion.games.base import RuleError
from companion.table.hub import Hub, follow_up
from companion.table.store import MemoryStore, SQLiteStore
from companion.table.table import Table
from tests.historyplay import finish, finished_table


def test_rematch_keeps_seats_tokens_colours_and_options(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data")
    hub = Hub(store)
    p = finished_table(store, "OLDT", "lutece", seed=4, phones=5, options={"all_equal": 10, "bribes": "sealed"})
    old = p.table
    hub.add(old)
    assert old.phase == "ended" and follow_up(old) is None
    before = (list(old.entries), old.state, store.history_of("OLDT"))
    new = hub.rematch("oldt")
    assert new.code != old.code and new.game_id == old.game_id and new.phase == "playing"
    assert [(s["name"], s["colour"], s["token"]) for s in new.seats] == \
        [(s["name"], s["colour"], s["token"]) for s in old.seats]
    assert new.options == old.options and new.options["all_equal"] == 10
    assert new.host_token == old.host_token and new.seed != old.seed
    for i, tok in enumerate(p.tokens):  # every phone's stored seat token works at the new table
        assert new.seat_of(tok) == i
    assert follow_up(old) == new.code
    assert old.entries[:-1] == before[0] and old.entries[-1] == {"k": "next", "code": new.code}
    assert old.state == before[1] and old.phase == "ended" and store.history_of("OLDT") == before[2]
    assert hub.rematch("OLDT") is new  # a second tap: the same rematch
    store.close()
    again = SQLiteStore(tmp_path / "data")  # after a restart: both tables as they were
    t_old, t_new = Table.load(again, "OLDT"), Table.load(again, new.code)
    assert follow_up(t_old) == new.code and t_old.phase == "ended"
    assert [s["token"] for s in t_new.seats] == p.tokens and t_new.phase == "playing"
    assert t_new.is_host(old.host_token)


def test_rematch_with_changed_options_and_spectators() -> None:
    store = MemoryStore()
    hub = Hub(store)
    p = finished_table(store, "VOTE", "sealed_vote", seed=2, phones=4)
    hub.add(p.table)
    new = hub.rematch("VOTE", options={"mode": "number", "min": 1, "max": 6}, start=False)
    assert new.phase == "lobby" and new.options["mode"] == "number" and new.options["max"] == 6
    assert new.seat_of(p.tokens[2]) == 2
    with pytest.raises(RuleError) as e:
        hub.rematch(new.code)  # not over yet
    assert e.value.key == "rematch.err.not_over"
    with pytest.raises(RuleError) as e:
        Hub(MemoryStore()).rematch("NOPE")
    assert e.value.key == "tbl.err.no_table"
    other = finished_table(store, "OPTS", "sealed_vote", seed=3, phones=3)
    hub.add(other.table)
    with pytest.raises(RuleError) as e:
        hub.rematch("OPTS", options={"nonsense": 1})
    assert e.value.key == "err.option" and follow_up(other.table) is None


def test_spectators_follow_too() -> None:
    from benchmarks.soak import new_table

    store = MemoryStore()
    hub = Hub(store)
    p6 = new_table(store, "WTC6", "sealed_vote", 3, seed=1)
    tok = p6.table.request_sync(None, {"op": "spectate", "name": "Gran"})["token"]
    p6.table.request_sync(p6.table.host_token, {"op": "end"})
    hub.add(p6.table)
    new = hub.rematch("WTC6")
    assert new.is_spectator(tok) and new.spectators[tok] == "Gran"


@pytest.mark.parametrize("game_id", sorted(specs()))
def test_every_game_can_be_played_again(game_id: str) -> None:
    store = MemoryStore()
    hub = Hub(store)
    p = finished_table(store, "GAME", game_id, seed=7, phones=3)
    hub.add(p.table)
    new = hub.rematch("GAME")
    assert new.game_id == game_id and new.options == p.table.options
    from benchmarks.soak import Phones

    again = Phones(new, p.tokens)
    finish(again, random.Random(1))
    assert new.finished() or new.phase == "ended"


async def test_rematch_async_two_taps_in_the_same_instant_make_one_table() -> None:
    import asyncio

    store = MemoryStore()
    hub = Hub(store)
    p = finished_table(store, "TAPS", "sealed_vote", seed=5, phones=3)
    seen: list[str | None] = []
    p.table.subscribe(lambda t: seen.append(follow_up(t)))  # a screen of the old table
    hub.add(p.table)
    a, b = await asyncio.gather(hub.rematch_async("TAPS"), hub.rematch_async("taps"))
    assert a is b and follow_up(p.table) == a.code and seen[-1] == a.code
    assert [e for e in p.table.entries if e["k"] == "next"] == [{"k": "next", "code": a.code}]
    assert a.phase == "playing" and [s["token"] for s in a.seats] == p.tokens
    assert await hub.rematch_async("TAPS") is a
    assert len([m for m in store.metas() if m.code != "TAPS"]) == 1
    with pytest.raises(RuleError) as e:
        await hub.rematch_async(a.code)
    assert e.value.key == "rematch.err.not_over"
