"""An early reveal ("Reveal anyway" before every seat has locked) and choices never locked.

Issue 30, item 2: a choice submitted but not locked is half made. The table option "unlocked"
(sealed.UNLOCKED_OPTION, on the create screen of every game whose host can reveal early) says
what it is worth: "drop" (default) – not counted, the seat counts as one that never chose – or
"count" – counted, and marked "not locked" wherever it shows (the tally, the moment card, the
history line, host, display and phones, en/de/fr). LUTETIA's rules have no vote without a card:
its early reveal (only once every seat has chosen) counts them, marked. Quo Vadis' secret ballot
locks each vote as it is cast: no choice is ever half made there, so it has no option. Before the reveal, a
seat with a choice not locked reads "chosen, not locked" on every screen.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import sealed
from companion.games.base import resolve_options
from companion.games.lutece import display as lc_display
from companion.games.lutece import rules as lutece
from companion.games.lutetia import display as lt_display
from companion.games.lutetia import rules as lutetia
from companion.games.sealed_vote import display as sv_display
from companion.games.sealed_vote import rules as sv
from companion.games.sealed_vote import screens as sv_screens
from companion.i18n import t as tr
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui.views import display as D
from tests.ui_harness import ctx, started_table, text

NAMES = ["Ann", "Bob", "Cy"]
NOT_LOCKED = {"en": "not locked", "de": "nicht festgelegt", "fr": "pas verrouillé"}


def _act(t: Table, seat: int | None, **action: Any) -> None:
    if seat is None:
        t.request_sync(t.host_token, {"op": "host_act", "action": action})
    else:
        t.submit_sync({"k": "act", "seat": seat, "action": action})


def _sv(options: dict[str, Any] | None = None) -> Table:
    """Ann and Bob lock Yes / No, Cy chooses Yes without locking, the host reveals anyway."""
    t = started_table("sealed_vote", NAMES, options)
    for s, v in enumerate(("sv.yes", "sv.no", "sv.yes")):
        _act(t, s, type="submit", value=v)
    _act(t, 0, type="lock")
    _act(t, 1, type="lock")
    return t


def test_the_option_defaults_to_not_counted_where_the_host_can_reveal_early() -> None:
    for rules in (sv, lutece):
        assert sealed.UNLOCKED_OPTION in rules.OPTIONS
        assert resolve_options(rules.OPTIONS, {})["unlocked"] == "drop"
    t = started_table("sealed_vote", NAMES)
    assert t.options["unlocked"] == "drop"
    # LUTETIA reveals early only once every seat has a card: no option, the cards count (marked)
    assert all(o.name != "unlocked" for o in lutetia.OPTIONS)
    for lang, words in (("en", ("Not counted", "Counted, marked “not locked”")),
                        ("de", ("Zählen nicht", "Zählen, markiert „nicht festgelegt“")),
                        ("fr", ("Ne comptent pas", "Comptent, marqués «\u00a0pas verrouillé\u00a0»"))):
        assert tuple(tr(lang, k) for k in sealed.UNLOCKED_OPTION.choice_labels) == words
        assert tr(lang, sealed.UNLOCKED_OPTION.label) != sealed.UNLOCKED_OPTION.label


def test_sealed_vote_not_counted_by_default() -> None:
    t = _sv()
    _act(t, None, type="reveal")
    v = t.view(None)
    assert v["round"]["choices"] == {"0": "sv.yes", "1": "sv.no", "2": None}
    res = v["result"]
    assert res["summary"]["counts"] == {"sv.yes": 1, "sv.no": 1, "sv.abstain": 0}
    assert {r["seat"]: r["value"] for r in res["rows"]} == {0: "sv.yes", 1: "sv.no", 2: None}
    assert not any(r.get("unlocked") for r in res["rows"])
    assert t.view(2)["round"]["mine"] is None  # Cy's own phone: as one who never chose
    for lang in ("en", "de", "fr"):
        words = text(sv_screens.host(ctx(t, None, host=True, lang=lang)))
        assert NOT_LOCKED[lang] not in words
    assert sv.outcome(t.state).breakdown[2] == {"rounds": 0}


def test_sealed_vote_counted_and_marked_everywhere() -> None:
    t = _sv({"unlocked": "count"})
    _act(t, None, type="reveal")
    v = t.view(None)
    res = v["result"]
    assert res["summary"]["counts"] == {"sv.yes": 2, "sv.no": 1, "sv.abstain": 0}
    assert res["summary"]["unlocked"] == {"sv.yes": 1}
    assert [r["seat"] for r in res["rows"] if r.get("unlocked")] == [2]
    assert v["round"]["unlocked"] == [2]
    for lang in ("en", "de", "fr"):
        for screen in (sv_screens.host(ctx(t, None, host=True, lang=lang)),
                       sv_screens.phone(ctx(t, 0, lang=lang)), sv_screens.phone(ctx(t, 2, lang=lang))):
            words = text(screen)
            assert NOT_LOCKED[lang] in words, (lang, words)
        # the tally: "Yes: 2 (1 not locked)"
        assert f"({tr(lang, 'sv.n_not_locked', n=1)})" in sv_screens.tally_text(ctx(t, None, lang=lang), res)
        # the moment card on the display: Cy's card says it, the others do not
        m = sv_display.moment(ctx(t, None, host=True, lang=lang))
        assert m is not None
        assert {c.seat: c.note for c in m.cards} == {0: "", 2: NOT_LOCKED[lang], 1: ""}
        assert any(NOT_LOCKED[lang] in line for line in m.outcome)
    # the history line of the round, after the next question
    _act(t, None, type="ask", mode="choice", question="Next?")
    assert "not locked" in text(sv_screens.host(ctx(t, None, host=True)))


def test_sealed_vote_number_bid_counted_marks_the_highest() -> None:
    t = started_table("sealed_vote", NAMES, {"mode": "number", "unlocked": "count"})
    _act(t, 0, type="submit", value=7)
    _act(t, 0, type="lock")
    _act(t, 1, type="submit", value=19)  # Bob's 19: highest, never locked
    _act(t, None, type="reveal")
    res = t.view(None)["result"]
    assert res["summary"]["top"] == [1]
    assert sv_screens.top_text(ctx(t, None), res) == "Highest: Bob (not locked)"


def test_an_older_table_without_the_option_replays_as_it_did() -> None:
    """A log written before the option (its create entry names none) counts them, as it did."""
    store = MemoryStore()
    t = Table.create(store, "OLDT", "sealed_vote", {}, [{"name": n} for n in NAMES], seed=3)
    create = dict(store.entries("OLDT")[0])
    create["options"] = {k: v for k, v in create["options"].items() if k != "unlocked"}
    old = MemoryStore()
    old.append("OLDT", 0, create)
    t = Table.load(old, "OLDT")
    t.submit_sync({"k": "start"})
    t.submit_sync({"k": "act", "seat": 0, "action": {"type": "submit", "value": "sv.no"}})
    t.submit_sync({"k": "act", "seat": None, "action": {"type": "reveal"}})
    assert t.view(None)["round"]["choices"]["0"] == "sv.no"
    assert Table.load(old, "OLDT").state == t.state


def _lutece(options: dict[str, Any]) -> Table:
    """Ann picks and bribes and locks, Bob picks and bribes 2 without locking, Cy picks nothing."""
    t = started_table("lutece", NAMES, {"bribes": "sealed", **options})
    hand = lutece._hand(t.state)
    _act(t, 0, type="pick", cards=[hand[0], hand[1]])
    _act(t, 0, type="lock")
    _act(t, 1, type="pick", cards=[hand[0], hand[2]])
    _act(t, 1, type="bribe", card=0, amount=2)
    return t


def test_lutece_not_counted_by_default_bribes_back() -> None:
    t = _lutece({})
    gold_before = list(t.state["gold"])
    total = lutece.gold_total(t.state)
    _act(t, None, type="reveal")
    st = t.state
    assert st["revealed"]["1"]["cards"] == [] and "unlocked" not in st["revealed"]["1"]
    keys = [e["key"] for e in st["resolution"] if e["params"].get("seat") == 1]
    assert "lutece.ev.not_counted" in keys and "lutece.ev.played" not in keys
    assert lutece.gold_total(st) == total
    assert st["gold"][1] >= gold_before[1] + 2  # Bob's 2 reserved coins are back (Revenus may add)
    assert all(st["takers"].get(slot) != 1 for slot in st["takers"])


def test_lutece_counted_and_marked() -> None:
    t = _lutece({"unlocked": "count"})
    _act(t, None, type="reveal")
    st = t.state
    assert st["revealed"]["1"].get("unlocked") is True and "unlocked" not in st["revealed"]["0"]
    keys = [e["key"] for e in st["resolution"] if e["params"].get("seat") == 1]
    assert "lutece.ev.played_unlocked" in keys
    for lang in ("en", "de", "fr"):
        m = lc_display.moment(ctx(t, None, host=True, lang=lang))
        assert m is not None
        notes = {c.seat: c.note for c in m.cards}
        assert NOT_LOCKED[lang] in notes[1] and NOT_LOCKED[lang] not in notes[0]
        line = next(e for e in st["resolution"] if e["key"] == "lutece.ev.played_unlocked")
        assert NOT_LOCKED[lang] in ctx(t, None, lang=lang).msg(line)


def test_lutetia_early_reveal_counts_the_card_marked() -> None:
    t = started_table("lutetia", NAMES, {"deal": "digital", "declare": "sealed"})
    _act(t, 0, type="propose", to=2)
    for s in range(3):
        _act(t, s, type="choose", card="10", side="for")
    _act(t, 0, type="lock")
    _act(t, 1, type="lock")
    _act(t, None, type="reveal")
    log = t.view(None)["log"]
    assert [e["key"] for e in log if e["params"].get("name") == "Cy"][-1] == "lutetia.log.reveal_for_unlocked"
    for lang in ("en", "de", "fr"):
        m = lt_display.moment(ctx(t, None, host=True, lang=lang))
        assert m is not None
        notes = {c.seat: c.note for c in m.cards}
        assert NOT_LOCKED[lang] in notes[2] and NOT_LOCKED[lang] not in notes[0], notes
        cy = next(e for e in log if e["key"].endswith("_unlocked"))
        assert NOT_LOCKED[lang] in ctx(t, None, lang=lang).msg(cy)


def test_quo_vadis_secret_votes_are_locked_as_cast() -> None:
    from companion.games.quovadis import rules as qv

    assert all(o.name != "unlocked" for o in qv.OPTIONS)
    st = qv.setup({"ballot": "secret"}, [{"name": n} for n in NAMES], 1)
    st["vote"] = {"mover": 0, "from": 1, "to": 2, "needed": 3, "own": 0, "voters": [1, 2],
                  "weights": {"1": 1, "2": 1}, "secret": True, "answers": {}, "round": sealed.new_round([1, 2])}
    st["phase"] = "vote"
    st = qv.apply(st, {"type": "vote", "seat": 1, "yes": True})
    assert st["vote"]["round"]["locked"] == [1] and sealed.unlocked(st["vote"]["round"]) == []


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_chosen_not_locked_reads_the_same_on_every_screen(lang: str) -> None:
    """Before the reveal: the seat list (host and phones) and the display's chips say one word."""
    t = started_table("sealed_vote", NAMES)
    _act(t, 0, type="submit", value="sv.yes")
    _act(t, 0, type="lock")
    _act(t, 1, type="submit", value="sv.no")
    word = tr(lang, "ui.status.submitted")
    assert word == {"en": "chosen, not locked", "de": "gewählt, nicht festgelegt",
                    "fr": "choisi, pas verrouillé"}[lang]
    c = ctx(t, None, host=True, lang=lang)
    status = sv_display.status(c)
    assert status.chosen == (1,) and status.locked == (0,)
    chips = text(D.seat_chips(c, status, 1200))
    assert word in chips and tr(lang, "display.not_yet") in chips and tr(lang, "display.locked") in chips
    assert tr(lang, "lutece.ui.choosing") == word  # Lutèce's own pill says the same
