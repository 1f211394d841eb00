"""Issue 21.3: statistics on a hand-made history, names matched across tables, rename and merge
(and their undo), export as CSV and JSON, import without duplicates, broken or foreign files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion import history
from companion.history import HistoryError
from companion.table.store import MemoryStore, SQLiteStore


def game(code: str, ended: float, g: str, players: list[tuple[str, Any, int]], rounds: int | None = 3,
         tie_break: str | None = None) -> dict[str, Any]:
    ps = [{"seat": i, "name": n, "colour": f"#00000{i}", "score": s, "rank": r, "winner": r == 1, "breakdown": {}}
          for i, (n, s, r) in enumerate(players)]
    rec = {"code": code, "game": g, "options": {"x": 1}, "rounds": rounds, "tie_break": tie_break,
           "players": ps, "winners": [p["name"] for p in ps if p["winner"]]}
    return history.stamp(rec, ended - 600, ended)


SET = [
    game("AAAA", 1000.0, "lutece", [("Ann", 30, 1), ("Bob", 20, 2), ("Cy", 10, 3)]),
    game("CCCC", 2000.0, "lutece", [("ann ", 15, 2), ("BOB", 25, 1)]),  # the same Ann and Bob
    game("DDDD", 3000.0, "lutece", [("Annie", 40, 1), ("Bob", 40, 1), ("Cy", 5, 3)], tie_break="lutece.tie.shared"),
    game("EEEE", 4000.0, "quovadis", [("Ann", 7, 1), ("Cy", 3, 2)]),
    game("FFFF", 5000.0, "sealed_vote", [("Ann", None, 1), ("Bob", None, 1)], rounds=4),
]


@pytest.fixture(params=["memory", "sqlite"])
def store(request: Any, tmp_path: Path) -> Any:
    s = MemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "data")
    assert s.import_history(SET, []) == (5, 0)
    return s


def row(stats: list[dict[str, Any]], g: str, player: str) -> dict[str, Any]:
    [r] = [r for r in stats if r["game"] == g and r["player"] == player]
    return r


def test_stats_per_player_and_game(store: Any) -> None:
    data = history.page_data(store)
    st = data["stats"]
    ann = row(st, "lutece", "Ann")  # (named as in her latest game, FFFF)
    assert (ann["played"], ann["wins"], ann["average"], ann["best"]) == (2, 1, 22.5, 30)
    assert ann["names"] == ["Ann", "ann "]
    bob = row(st, "lutece", "Bob")
    assert (bob["played"], bob["wins"], bob["average"], bob["best"]) == (3, 2, 28.33, 40)
    annie = row(st, "lutece", "Annie")
    assert (annie["played"], annie["wins"]) == (1, 1)
    cy = row(st, "lutece", "Cy")
    assert (cy["played"], cy["wins"], cy["average"], cy["best"]) == (2, 0, 7.5, 10)
    sv = row(st, "sealed_vote", "Ann")
    assert (sv["played"], sv["wins"], sv["average"], sv["best"]) == (1, 1, None, None)
    games = data["games"]
    assert [g["id"] for g in games] == [r["id"] for r in reversed(SET)]  # newest first
    assert games[2]["winners"] == ["Annie", "Bob"] and games[2]["tie_break"] == "lutece.tie.shared"
    assert games[2]["duration"] == 600 and games[2]["rounds"] == 3
    assert [p["name"] for p in games[3]["players"]] == ["Bob", "Ann"]  # by rank (shown by person)
    only = history.page_data(store, game="quovadis")
    assert len(only["games"]) == 1 and {r["player"] for r in only["stats"]} == {"Ann", "Cy"}


def test_merge_and_its_undo(store: Any) -> None:
    alias = history.merge(store, "Annie", "Ann")
    st = history.page_data(store)["stats"]
    ann = row(st, "lutece", "Ann")
    assert (ann["played"], ann["wins"], ann["best"]) == (3, 2, 40) and ann["names"] == ["Ann", "Annie", "ann "]
    assert not [r for r in st if r["player"] == "Annie"]
    assert store.history() == SET  # the games were never rewritten
    history.undo_alias(store, alias)
    st = history.page_data(store)["stats"]
    assert row(st, "lutece", "Annie")["played"] == 1 and row(st, "lutece", "Ann")["played"] == 2
    with pytest.raises(HistoryError) as e:
        history.undo_alias(store, alias)
    assert e.value.key == "hist.err.no_alias"


def test_rename_and_merge_refusals(store: Any) -> None:
    a = history.rename(store, "ANN", "Anna")
    st = history.page_data(store)["stats"]
    assert row(st, "lutece", "Anna")["played"] == 2 and row(st, "quovadis", "Anna")["played"] == 1
    b = history.merge(store, "annie", "anna")  # merged into the renamed one: shown as Anna
    assert row(history.page_data(store)["stats"], "lutece", "Anna")["played"] == 3
    history.rename(store, "Anna", "Ann")  # and back: a cycle Ann -> Anna -> Ann is one person
    people = {p["player"]: p for p in history.page_data(store)["players"]}
    assert people["Ann"]["played"] == 5 and "Anna" not in people and "Annie" not in people
    for bad in [lambda: history.merge(store, "Zed", "Ann"), lambda: history.rename(store, "Zed", "X"),
                lambda: history.rename(store, "Ann", "   "), lambda: history.rename(store, "Ann", "x" * 65),
                lambda: history.merge(store, "Ann", "annie")]:
        with pytest.raises(HistoryError) as e:
            bad()
        for lang in ("en", "de", "fr"):
            assert "{" not in e.value.text(lang)
    history.undo_alias(store, b)
    history.undo_alias(store, a)
    assert len(store.aliases()) == 1  # (the rename back stays until it is undone too)


def test_csv_has_the_documented_columns_and_one_row_per_player(store: Any) -> None:
    history.merge(store, "Annie", "Ann")
    text = history.export_csv(store.history(), store.aliases())
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == history.CSV_COLUMNS
    assert len(rows) == sum(len(r["players"]) for r in SET)
    annie = [r for r in rows if r["played_as"] == "Annie"][0]
    assert annie["player"] == "Ann" and annie["winner"] == "1" and annie["score"] == "40"
    assert annie["date"] == "1970-01-01T00:50:00Z" and annie["duration_s"] == "600" and annie["rounds"] == "3"
    assert annie["tie_break"] == "lutece.tie.shared" and json.loads(annie["options"]) == {"x": 1}
    sv = [r for r in rows if r["game"] == "sealed_vote"][0]
    assert sv["score"] == "" and sv["seat"] == "1"
    doc = Path(__file__).resolve().parents[1] / "docs" / "HISTORY.md"
    for col in history.CSV_COLUMNS:  # every column documented
        assert f"`{col}`" in doc.read_text()


def test_json_round_trip_and_import_without_duplicates(store: Any, tmp_path: Path) -> None:
    history.merge(store, "Annie", "Ann")
    text = history.export_json(store.history(), store.aliases(), now=0)
    doc = json.loads(text)
    assert doc["format"] == history.FORMAT and doc["version"] == history.VERSION and len(doc["games"]) == 5
    other = SQLiteStore(tmp_path / "other")  # a new laptop
    assert history.import_file(other, text) == (5, 0)
    assert other.history() == store.history()
    assert history.page_data(other)["stats"] == history.page_data(store)["stats"]
    assert history.import_file(other, text.encode()) == (0, 5)  # again: nothing twice
    assert len(other.history()) == 5 and len(other.aliases()) == 1
    assert history.import_file(store, text) == (0, 5)  # back on the old one: nothing twice either
    more = json.loads(text)
    more["games"].append(game("GGGG", 6000.0, "lutece", [("Dee", 1, 1)]))
    assert history.import_file(other, json.dumps(more)) == (1, 5)
    assert history.export_json(other.history(), other.aliases(), now=0) != text


BROKEN = {
    "not json": (b"{\"format\": ", "hist.err.not_json"),
    "binary": (b"\xff\xfe\x00garbage", "hist.err.not_json"),
    "csv": (b"game_id,date\nx,y\n", "hist.err.not_json"),
    "foreign json": (b'{"players": []}', "hist.err.foreign"),
    "a list": (b"[1, 2]", "hist.err.foreign"),
    "newer": (json.dumps({"format": history.FORMAT, "version": 99, "games": []}).encode(), "hist.err.version"),
    "bad game": (json.dumps({"format": history.FORMAT, "version": 1, "games": [SET[0], {"id": "x"}]}).encode(),
                 "hist.err.bad_game"),
    "bad score": (json.dumps({"format": history.FORMAT, "version": 1, "games": [
        {**SET[0], "players": [{"name": "A", "score": "many"}]}]}).encode(), "hist.err.bad_game"),
    "bad alias": (json.dumps({"format": history.FORMAT, "version": 1, "games": [SET[0]],
                              "aliases": [{"kind": "rm", "src": "a", "dst": "b"}]}).encode(), "hist.err.foreign"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_or_foreign_file_is_refused_and_changes_nothing(tmp_path: Path, name: str) -> None:
    data, key = BROKEN[name]
    s = SQLiteStore(tmp_path / "data")
    s.import_history(SET[1:2], [])
    before = (s.history(), s.aliases())
    with pytest.raises(HistoryError) as e:
        history.import_file(s, data)
    assert e.value.key == key
    assert (s.history(), s.aliases()) == before
    texts = {lang: e.value.text(lang) for lang in ("en", "de", "fr")}
    assert len(set(texts.values())) == 3 and all("{" not in v for v in texts.values())


def test_catalog_is_complete_with_plurals() -> None:
    from companion import i18n

    en = {k for k in i18n.CORE["en"] if k.startswith(("hist.", "rematch."))}
    assert len(en) >= 14
    for lang in ("de", "fr"):
        assert {k for k in i18n.CORE[lang] if k.startswith(("hist.", "rematch."))} == en
        for k in en:
            assert sorted(_fields(i18n.CORE[lang][k])) == sorted(_fields(i18n.CORE["en"][k])), k
    assert history.t("en", "hist.games", n=1) == "1 game" and history.t("en", "hist.games", n=0) == "0 games"
    assert history.t("fr", "hist.games", n=0) == "0 partie" and history.t("fr", "hist.games", n=2) == "2 parties"
    assert history.t("de", "hist.wins", n=1) == "1 Sieg" and history.t("de", "hist.wins", n=3) == "3 Siege"


def _fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def test_two_spellings_at_one_table_are_one_person_who_won_if_either_seat_won() -> None:
    """ "Bob" and " BOB " at the same table are one person: played once, a win if either seat won,
    the better score (the first spelling's seat alone lost the win when the second one won)."""
    s = MemoryStore()
    s.import_history([game("GGGG", 1000.0, "lutece", [("Bob", 10, 2), (" BOB ", 30, 1), ("Cy", 5, 3)])], [])
    data = history.page_data(s)
    [bob] = [r for r in data["stats"] if r["key"] == history.name_key("Bob")]
    assert (bob["played"], bob["wins"], bob["best"]) == (1, 1, 30)
    [p] = [p for p in data["players"] if p["key"] == history.name_key("Bob")]
    assert (p["played"], p["wins"]) == (1, 1)
