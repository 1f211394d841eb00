"""Lutèce screens without a browser: every phase renders in en/de/fr; the host screen shows no secret."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.lutece import rules as L
from companion.games.lutece import screens as U
from companion.ui.kit import UiContext
from tests import ui_harness as ui
from tests.ui_harness import text as texts


def ctx(state: dict[str, Any], seat: int | None, lang: str = "en", host: bool = False) -> UiContext:
    return ui.ctx(ui.StateTable(L, state, state["names"]), seat, host=host, lang=lang)


def states() -> list[dict[str, Any]]:
    seats = [{"name": n} for n in ("Ann", "Bob", "Cid")]
    st = L.setup({"bank": "46", "characters_deck": 6, "bribes": "sealed"}, seats, 1)
    out = [st]
    st = L.apply(st, {"seat": 0, "type": "pick", "cards": ["C", "III"]})
    st = L.apply(st, {"seat": 0, "type": "bribe", "card": 0, "amount": 4})
    st = L.apply(st, {"seat": 0, "type": "lock"})
    out.append(st)
    st = L.apply(st, {"seat": 1, "type": "pick", "cards": ["C", "R"]})
    st = L.apply(st, {"seat": None, "type": "reveal"})
    out.append(st)
    st = L.apply(st, {"seat": None, "type": "end_game"})
    st = L.apply(st, {"seat": 0, "type": "score", "glaive": 1, "pain": 0, "potion": 2, "cervoise": 0, "places": 3})
    out.append(st)
    for s in (1, 2):
        st = L.apply(st, {"seat": s, "type": "score", "glaive": s, "pain": 1, "potion": 0, "cervoise": 2,
                          "places": 0})
    st = L.apply(st, {"seat": None, "type": "confirm_scores"})
    out.append(st)
    return out


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_every_phase_renders(lang: str) -> None:
    for st in states():
        for seat in (None, 0, 1, 2):
            c = ctx(st, seat, lang, host=seat is None)
            body = U.host(c) if seat is None else U.phone(c)
            assert body and texts(body)
            assert U.result(c)


def test_host_and_other_phones_show_no_secret_before_the_reveal() -> None:
    locked = states()[1]
    mine = texts(U.phone(ctx(locked, 0)))
    assert "C – bribe 4" in mine and "III – bribe 0" in mine
    for seat in (None, 1, 2):
        shown = texts(U.host(ctx(locked, None, host=True)) if seat is None else U.phone(ctx(locked, seat)))
        assert "bribe 4" not in shown and "C – bribe" not in shown
        assert "Ann" in shown and "2 cards face down" in shown


def test_result_shows_breakdown_and_winner() -> None:
    over = states()[-1]
    shown = texts(U.result(ctx(over, None)))
    res = L.result(over)
    assert res is not None
    winner = res["players"][res["winners"][0]]["name"]
    assert f"Winner: {winner}" in shown and "Glaive" in shown and "Points by source" in shown


def test_open_bribes_every_phone_lists_the_coins_on_each_face_down_card() -> None:
    st = L.setup({}, [{"name": n} for n in ("Ann", "Bob", "Cid")], 1)
    st = L.apply(st, {"seat": 0, "type": "pick", "cards": ["C", "III"]})
    st = L.apply(st, {"seat": 0, "type": "bribe", "card": 0, "amount": 3})
    st = L.apply(st, {"seat": 1, "type": "pick", "cards": ["C", "R"]})
    bob = texts(U.phone(ctx(st, 1)))
    assert "Ann: 3 and 0 gold" in bob and "Bob (you): 0 and 0 gold" in bob and "Cid: no cards down yet" in bob
    public = bob.split("Coins on the face-down cards")[1].split("Character")[0]  # up to the board
    assert "C – bribe 0" in bob and "III" not in public and "C" not in public.replace("Cid", "")
    host = texts(U.host(ctx(st, None, host=True)))
    assert "2 cards face down: 3 and 0 gold on them" in host and "– bribe" not in host
    sealed_st = L.setup({"bribes": "sealed"}, [{"name": n} for n in ("Ann", "Bob")], 1)
    sealed_st = L.apply(sealed_st, {"seat": 0, "type": "pick", "cards": ["C", "III"]})
    sealed_st = L.apply(sealed_st, {"seat": 0, "type": "bribe", "card": 0, "amount": 3})
    bob = texts(U.phone(ctx(sealed_st, 1)))
    public = bob.split("Face-down cards")[1].split("Character")[0]
    assert "Ann: 2 cards face down" in public and "3" not in public


def test_a_locked_phone_names_who_the_table_waits_for() -> None:
    """"Waiting for Bob and Cid…" by name, in every language – not "the others"."""
    st = states()[1]  # Ann has locked, Bob and Cid have not
    for lang, line in [("en", "Waiting for Bob and Cid…"), ("de", "Warte auf Bob und Cid…"),
                       ("fr", "En attente de Bob et Cid…")]:
        assert line in texts(U.phone(ctx(st, 0, lang))), lang
