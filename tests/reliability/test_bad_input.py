"""Bad input through the table: generated payloads against every game never raise anything but a
RuleError with a message in en/de/fr, and never change the state or the log. Names too."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.soak import new_table
from companion import i18n
from companion.games import games
from companion.games.base import RuleError
from companion.table.store import MemoryStore
from companion.table.table import MAX_NAME, Table, clean_name
from tests.reliability.common import GAME_IDS, action_shapes, fresh, samples, snapshot

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.data_too_large])

scalars = (st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.integers(-3, 12)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
           | st.sampled_from(["", "R", "M", "C", "III", "sv.yes", "9-13", "0-4", "for", "a" * 5000, "🙂", "\u202e",
                              "\x00", "-1", "1e9", "NaN"]))
junk = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=6), inner, max_size=4), max_leaves=10)


def assert_catalog(e: RuleError) -> None:
    for lang in i18n.LANGS:
        assert i18n.has(e.key, lang), f"{e.key} has no {lang} text"
    i18n.t("en", e.key, **e.params)


@st.composite
def payload(draw: Any, game_id: str) -> Any:
    types, fields = action_shapes(game_id)
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(junk)
    action: dict[str, Any] = {"type": draw(st.sampled_from(types) | st.sampled_from(["", "nope", "SUBMIT"]) | junk)}
    for f in draw(st.lists(st.sampled_from(fields) if fields else st.text(max_size=4), max_size=4)):
        action[f] = draw(junk)
    if draw(st.booleans()):
        action["seat"] = draw(st.sampled_from([99, -1, None, "0", 0, True]))  # the table overrides it
    return action


def who(draw: Any, p: Any) -> tuple[Any, str]:
    """A token: a seat, the host, a spectator, nobody, or a forged one; and the op to send."""
    n = len(p.tokens)
    choice = draw(st.integers(0, n + 4))
    if choice < n:
        return p.tokens[choice], "act"
    if choice == n:
        return p.table.host_token, "host_act"
    return draw(st.sampled_from([None, "", "x" * 22, p.table.host_token[:-1] + "A", *p.watchers])), \
        draw(st.sampled_from(["act", "host_act"]))


def check(p: Any, token: Any, op: Any) -> None:
    t = p.table
    before = snapshot(t)
    entries_before = t.store.entries(t.code)
    legal_before = {s: {a["type"] for a in t.legal(s)} for s in [None, *range(len(p.tokens))]}
    seat = t.seat_of(token)
    try:
        t.request_sync(token, op)
    except RuleError as e:
        assert_catalog(e)
        assert snapshot(t) == before, "a refused request changed the table"
        assert t.store.entries(t.code) == entries_before, "a refused request reached the log"
        return
    # accepted: it must have been a legal action for exactly that seat (or the host)
    actor = None if op.get("op") == "host_act" else seat
    assert isinstance(op.get("action"), dict) and op["action"].get("type") in legal_before[actor], op
    assert t.store.entries(t.code) == t.entries


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_fuzzed_payloads_through_the_table(game_id: str) -> None:
    tables = [p for p, _ in samples(game_id)]

    @FUZZ
    @given(data=st.data())
    def run(data: Any) -> None:
        p = fresh(data.draw(st.sampled_from(tables), label="table"))
        token, kind = who(data.draw, p)
        check(p, token, {"op": kind, "action": data.draw(payload(game_id), label="action")})

    run()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_fuzzed_platform_ops(game_id: str) -> None:
    tables = [p for p, _ in samples(game_id)]
    ops = st.sampled_from(["join", "spectate", "rename", "free", "swap", "seat", "start", "undo", "end",
                           "host_act", "host_rename", "share", "device", "reset_pin", "set_pin", "act", "", "JOIN", "delete", "__class__"]) | junk
    keys = st.sampled_from(["seat", "a", "b", "token", "name", "action", "op", "shared", "pin"])

    @settings(FUZZ, max_examples=80)
    @given(data=st.data())
    def run(data: Any) -> None:
        p = fresh(data.draw(st.sampled_from(tables)))
        token, _ = who(data.draw, p)
        op = {"op": data.draw(ops)}
        for k in data.draw(st.lists(keys, max_size=4)):
            op[k] = data.draw(junk | st.sampled_from([99, -1, 0, 1, True, 2**64]))
        if data.draw(st.integers(0, 9)) == 0:
            op = data.draw(junk)  # not even a dict
        t = p.table
        before = snapshot(t)
        try:
            t.request_sync(token, op)
        except RuleError as e:
            assert_catalog(e)
            assert snapshot(t) == before
        assert t.store.entries(t.code) == t.entries

    run()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seats_that_do_not_exist_are_refused_by_every_game(game_id: str) -> None:
    """The table stamps the seat, but a game must not trust it blindly either."""
    game = games()[game_id]
    types, _ = action_shapes(game_id)
    for p, _ in samples(game_id)[::3]:
        st_ = p.table.state
        for seat in (99, -1, len(p.tokens)):
            for a in types:
                for tmpl in p.table.legal(None) + [{"type": a}]:
                    if tmpl["type"] != a:
                        continue
                    try:
                        game.apply(st_, {**tmpl, "seat": seat})
                    except RuleError as e:
                        assert_catalog(e)
                        continue
                    raise AssertionError(f"{game_id}: {a} accepted from seat {seat}")


# ---------------------------------------------------------------- names


NAMES_OK = {
    "Zoë 🙂": "Zoë 🙂",
    "👨\u200d👩\u200d👧 family": "👨\u200d👩\u200d👧 family",  # ZWJ keeps the emoji one glyph
    "מרים": "מרים",
    "مریم\u200cجان": "مریم\u200cجان",  # Persian ZWNJ is part of the spelling
    "Ann\u202eevil": "Annevil",  # a bidi override would flip the text after it on every screen
    "Bo\x00b\x07\n\tby": "Bobby",
    "  spaced   out  ": "spaced out",
    "🇫🇷🇩🇪": "🇫🇷🇩🇪",
}


@pytest.mark.parametrize("raw", list(NAMES_OK))
def test_names_are_shown_safely(raw: str) -> None:
    assert clean_name(raw) == NAMES_OK[raw]


@pytest.mark.parametrize("raw,key", [("x" * 1000, "tbl.err.name_long"), ("\x00\x01\u202e", "tbl.err.name"),
                                     ("   ", "tbl.err.name"), ("\u200d\u200c", "tbl.err.name"), (None, "tbl.err.name"),
                                     (42, "tbl.err.name"), (["Ann"], "tbl.err.name")])
def test_bad_names_are_refused_with_a_message(raw: Any, key: str) -> None:
    with pytest.raises(RuleError) as ei:
        clean_name(raw)
    assert ei.value.key == key
    assert_catalog(ei.value)
    if key == "tbl.err.name_long":
        assert str(MAX_NAME) in i18n.t("de", key, **ei.value.params)


@settings(max_examples=300, deadline=None)
@given(raw=st.text(max_size=60) | st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zs", "So", "Lo", "Mn"]),
                                            max_size=40))
def test_any_name_is_clean_or_refused(raw: str) -> None:
    try:
        name = clean_name(raw)
    except RuleError as e:
        assert e.key in ("tbl.err.name", "tbl.err.name_long")
        return
    assert 0 < len(name) <= MAX_NAME and name == name.strip()
    bad = [ch for ch in name if unicodedata.category(ch)[0] == "C" and ch not in "\u200c\u200d"]
    assert not bad, bad
    assert name.strip("\u200c\u200d")


def test_names_through_the_table() -> None:
    store = MemoryStore()
    t = Table.create(store, "NAME", "sealed_vote", None, [{"name": "مریم"}, {"name": "🙂"}, {"name": "C"}])
    tok = t.request_sync(None, {"op": "join", "seat": 0, "name": "Ann\u202e 🎲"})["token"]
    assert t.seats[0]["name"] == "Ann 🎲"
    with pytest.raises(RuleError):
        t.request_sync(tok, {"op": "rename", "name": "y" * 1000})
    with pytest.raises(RuleError):
        t.request_sync(None, {"op": "join", "seat": 1, "name": "\x1b\x07\u202e"})  # only control chars → refused
    t.request_sync(t.host_token, {"op": "host_rename", "seat": 2, "name": "ליאור"})
    assert [s["name"] for s in t.public_seats()] == ["Ann 🎲", "🙂", "ליאור"]
    with pytest.raises(RuleError):
        Table.create(MemoryStore(), "N2", "sealed_vote", None, [{"name": "z" * 1000}, {"name": "B"}])
    assert Table.load(store, "NAME").seats == t.seats


def test_new_table_with_every_game_accepts_unicode_names() -> None:
    for gid in GAME_IDS:
        p = new_table(MemoryStore(), "U", gid, 3, 1)
        assert p.table.state is not None


def test_seating_a_spectator_with_a_non_string_token_is_a_rule_error() -> None:
    """Regression (found by the fuzzer): a list as the spectator token raised TypeError."""
    p = new_table(MemoryStore(), "SEAT", "sealed_vote", 3, seed=1)
    t = p.table
    t.request_sync(t.host_token, {"op": "free", "seat": 0})
    before = snapshot(t)
    for tok in ([], {}, ["x"], None, 5):
        with pytest.raises(RuleError) as ei:
            t.request_sync(t.host_token, {"op": "seat", "seat": 0, "token": tok})
        assert ei.value.key == "tbl.err.no_spectator"
        assert snapshot(t) == before
        assert not t.is_spectator(tok)
