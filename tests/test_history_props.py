"""Issue 21.3, property test: random finished games of every registered game (the game's own
sample(), through real tables) – the record matches the game's Result, undo removes it, the
statistics add up, and the JSON export imports elsewhere to the same history, without duplicates."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion import history
from companion.games import spec as game_spec
from companion.games import specs
from companion.table.store import MemoryStore, SQLiteStore
from companion.table.table import Table
from tests.historyplay import finished_table

NAMES = ["Ann", "ann", "Bob", " BOB ", "Cy", "Dee", "Eve", "Zoë"]


@pytest.mark.parametrize("game_id", sorted(specs()))
def test_random_finished_games(game_id: str, tmp_path: Path) -> None:
    sp = game_spec(game_id)
    store = SQLiteStore(tmp_path / "data")
    r = random.Random(game_id)
    tables = []
    for i in range(6):
        n = r.randint(sp.rules.MIN_SEATS, min(sp.rules.MAX_SEATS, 5))
        p = finished_table(store, f"T{i:03d}", game_id, seed=r.randrange(10**6), phones=n, end=r.random() < 0.8,
                           names=r.sample(NAMES, n))
        t = p.table
        tables.append(t)
        rec = store.history_of(t.code)
        assert (rec is not None) == t.finished()
        if rec is None:
            continue
        o = sp.outcome(t.state)
        assert [q["rank"] for q in rec["players"]] == list(o.ranks)
        assert [q["score"] for q in rec["players"]] == list(o.scores)
        assert [q["winner"] for q in rec["players"]] == [s in o.winners for s in range(len(t.seats))]
        assert [q["name"] for q in rec["players"]] == [s["name"] for s in t.seats]
        assert rec["rounds"] == sp.rounds(t.state) and rec["tie_break"] == o.tie_break
        assert rec["game"] == game_id and rec["options"] == t.options
    finished = [t for t in tables if t.finished()]
    assert finished, "at least one random game finished"
    recs = store.history()
    assert sorted(x["code"] for x in recs) == sorted(t.code for t in finished)
    # restart: the same history, every table loads as it was
    store.close()
    store = SQLiteStore(tmp_path / "data")
    assert store.history() == recs
    for t in tables:
        assert Table.load(store, t.code).finished() == t.finished()
    # statistics add up
    data = history.page_data(store)
    assert len(data["games"]) == len(recs)
    assert sum(s["played"] for s in data["stats"]) == sum(len({history.name_key(q["name"]) for q in x["players"]})
                                                          for x in recs)
    assert sum(s["wins"] for s in data["stats"]) == sum(len({history.name_key(q["name"]) for q in x["players"]
                                                             if q["winner"]}) for x in recs)
    keys = {history.name_key(q["name"]) for x in recs for q in x["players"]}
    assert {p["key"] for p in data["players"]} == keys  # "Ann" and "ann", "Bob" and " BOB " are one each
    assert all(s["best"] is None or s["average"] <= s["best"] for s in data["stats"])
    # export -> import on a new computer -> the same; twice -> nothing twice
    text = history.export_json(store.history(), store.aliases())
    other = MemoryStore()
    assert history.import_file(other, text) == (len(recs), 0)
    assert history.import_file(other, text) == (0, len(recs))
    assert other.history() == store.history()
    # undo everything that finished a game: the history empties again
    for t in finished:
        t2 = Table.load(store, t.code)
        while t2.finished():
            t2.request_sync(t2.host_token, {"op": "undo"})
        assert store.history_of(t.code) is None
    assert store.history() == []
