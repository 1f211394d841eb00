"""LUTETIA screens without a browser: every phase renders on phone, host and result; the phone
shows its own plans and mod cards and nobody else's; buttons send exactly the legal actions."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import flet as ft

from companion.games.lutetia import rules as L
from companion.games.lutetia import screens as screen
from companion.table.table import Table
from tests import ui_harness as ui
from tests.gameplay import random_step


def _table(options: dict[str, Any] | None = None, seed: int = 5, n: int = 3) -> Table:
    return ui.started_table("lutetia", ["Ann", "Bob", "Cy", "Dee"][:n], options, seed, "LTLT")


def _pick(t: Table, r: random.Random) -> tuple[int | None, dict[str, Any]]:
    """A random legal action of any seat or the host (a seat that has chosen a card only locks)."""
    a = random_step("lutetia", t.state, t.state["n"], r)  # the game's own sample()
    assert a is not None, "somebody can always act"
    return a.pop("seat"), a


def test_every_phase_renders_everywhere_and_buttons_match_legal() -> None:
    for opts in ({}, {"declare": "sealed", "deal": "physical", "areas": "orange-green-blue-red-grey"}):
        t = _table(opts)
        r = random.Random(2)
        seen: set[str] = set()
        for _step in range(3000):
            ph = t.state["phase"]
            key = f"{ph}:{_pick(t, random.Random(0))[0] if ph != 'over' else ''}"
            if key not in seen:
                seen.add(key)
                for seat in (None, 0, 1, 2):
                    sent: list[Any] = []
                    ctx = ui.ctx(t, seat, sent, host=seat is None)
                    body = screen.host(ctx) if seat is None else screen.phone(ctx)
                    assert body and all(isinstance(x, str) for x in ui.texts(body))
                    # every action button sends a legal action of this seat
                    for label, b in ui.buttons(body).items():
                        if b.on_click is None or label in ("Clear",) or label.startswith("+ card"):
                            continue
                        asyncio.run(b.on_click(None))
                        if sent and sent[-1].get("type") != "enter_hand":
                            assert sent[-1] in t.game.legal(t.state, seat), (label, sent[-1])
            if ph == "over":
                break
            ui.act(t, *_pick(t, r))
        assert t.state["phase"] == "over"
        assert {k.split(":")[0] for k in seen} >= {"propose", "vote", "after", "over"}
        for seat in (None, 0, 1, 2):
            texts = " ".join(ui.texts(screen.result(ui.ctx(t, seat))))
            assert "Winner" in texts or "Shared win" in texts


def test_phone_shows_own_plans_and_mods_only() -> None:
    t = _table()
    st = t.state
    st["players"][1]["mods"] = [3, 3, 3, 3, 3, 3, 3]
    mine = " ".join(ui.texts(screen.phone(ui.ctx(t, 1))))
    assert "Your modification cards (secret): 3, 3, 3, 3, 3, 3, 3" in mine
    for pid in st["players"][1]["plans"]:
        assert any(x == L_label(pid) or x.endswith(L_label(pid)) for x in ui.texts(screen.phone(ui.ctx(t, 1))))
    for seat in (None, 0, 2):
        ctx = ui.ctx(t, seat)
        texts = " ".join(ui.texts(screen.host(ctx) if seat is None else screen.phone(ctx)))
        assert "3, 3, 3, 3, 3, 3, 3" not in texts


def L_label(pid: str) -> str:  # noqa: N802
    return L.plan_label(pid)


def test_one_tap_flow_propose_vote_declare_fulfil() -> None:
    t = _table()
    st = t.state
    # Miraculix 18, seed example: Ann holds 21, Bob 20 with a 1-card
    st["miraculix"], st["proposals"] = 18, 3
    for s in range(3):
        st["out"] += st["players"][s]["plans"]
        st["players"][s]["plans"] = []
        st["mod"]["pile"] += st["players"][s]["mods"]
        st["players"][s]["mods"] = []
    for pid, s in (("21", 0), ("20", 1)):
        st["out"].remove(pid)
        st["players"][s]["plans"].append(pid)
    st["mod"]["pile"].remove(1)
    st["players"][1]["mods"] = [1]
    sent: list[Any] = []
    b = ui.buttons(screen.phone(ui.ctx(t, 0, sent)))
    assert {"Space 19", "Space 23"} <= set(b)
    asyncio.run(b["Space 21"].on_click(None))
    assert sent[-1] == {"type": "propose", "to": 21}
    ui.act(t, 0, sent[-1])
    for s, card in enumerate(["10", "20", "30"]):
        b = ui.buttons(screen.phone(ui.ctx(t, s, sent)))
        asyncio.run(b[card].on_click(None))
        assert sent[-1] == {"type": "choose", "card": card}
        ui.act(t, s, sent[-1])
        b = ui.buttons(screen.phone(ui.ctx(t, s, sent)))
        asyncio.run(b["Lock my card"].on_click(None))
        ui.act(t, s, sent[-1])
    host = " ".join(ui.texts(screen.host(ui.ctx(t, None, host=True))))
    assert "Waiting for Ann to declare." in host
    for s in range(3):
        b = ui.buttons(screen.phone(ui.ctx(t, s, sent)))
        asyncio.run(b["For"].on_click(None))
        assert sent[-1] == {"type": "declare", "side": "for"}
        ui.act(t, s, sent[-1])
    host = " ".join(ui.texts(screen.host(ui.ctx(t, None, host=True))))
    assert "Approved" in host and "60 for, 0 against: approved." in host
    b = ui.buttons(screen.phone(ui.ctx(t, 1, sent)))
    asyncio.run(b["Plan 20 with card 1"].on_click(None))
    assert sent[-1] == {"type": "fulfil", "plan": "20", "value": 1}
    hb = ui.buttons(screen.host(ui.ctx(t, None, sent, host=True)))
    asyncio.run(hb["Move on"].on_click(None))
    assert sent[-1] == {"type": "skip"}


def test_every_seat_answers_the_after_vote_step_and_the_screens_say_who_is_left() -> None:
    """Issue 17/7: a phone whose cards fit nothing still answers (and is told why); the host
    names who is still answering, with one/many in every language."""
    t = _table()
    st = t.state
    st["miraculix"], st["proposals"] = 18, 3
    for s in range(3):
        st["out"] += st["players"][s]["plans"]
        st["players"][s]["plans"] = []
        st["mod"]["pile"] += st["players"][s]["mods"]
        st["players"][s]["mods"] = []
    st["out"].remove("20")
    st["players"][1]["plans"] = ["20"]
    st["mod"]["pile"].remove(1)
    st["players"][1]["mods"] = [1]
    ui.act(t, 0, {"type": "propose", "to": 21})
    for s in range(3):
        ui.act(t, s, {"type": "choose", "card": "10"})
        ui.act(t, s, {"type": "lock"})
    for s in range(3):
        ui.act(t, s, {"type": "declare", "side": "for"})
    assert t.state["phase"] == "after"
    sent: list[Any] = []
    body = screen.phone(ui.ctx(t, 2, sent))  # Cy holds nothing
    assert "None of your plans can be fulfilled from space 21 with your cards." in ui.texts(body)
    b = ui.buttons(body)
    assert "Plan 20 with card 1" not in b
    asyncio.run(b["Understood – no plan"].on_click(None))
    assert sent[-1] == {"type": "pass", "task": "modify"}
    assert "Plan 20 with card 1" in ui.buttons(screen.phone(ui.ctx(t, 1, sent)))  # Bob's fit
    host = " ".join(ui.texts(screen.host(ui.ctx(t, None, host=True))))
    assert "Waiting for 3 players to decide: Ann, Bob, Cy." in host
    ui.act(t, 2, sent[-1])
    ui.act(t, 1, {"type": "fulfil", "plan": "20", "value": 1})
    expect = {"en": "Waiting for 1 player to decide: Ann.",
              "de": "Warte auf die Entscheidung von 1 Spieler: Ann.",
              "fr": "En attente de la décision d’un joueur\u00a0: Ann."}
    for lang, text in expect.items():
        assert text in ui.texts(screen.host(ui.ctx(t, None, host=True, lang=lang)))
        assert text in ui.texts(screen.phone(ui.ctx(t, 1, lang=lang)))
    ui.act(t, 0, {"type": "pass", "task": "modify"})
    assert t.state["phase"] == "propose"


def test_physical_enter_form_sends_the_picked_cards() -> None:
    t = _table({"deal": "physical"}, n=2)
    sent: list[Any] = []
    local: dict[str, Any] = {}
    body = screen.phone(ui.ctx(t, 0, sent, local=local))
    toggles = [lab for lab in ui.buttons(body) if lab.isdigit() or lab.startswith("R ")]
    assert len(toggles) == 55  # 50 numbers + one label per area for its two Roman plans
    asyncio.run(ui.buttons(body)["7"].on_click(None))
    assert local["enter_plans"] == ["7"]
    assert isinstance(ui.buttons(screen.phone(ui.ctx(t, 0, sent, local=local)))["7"], ft.FilledButton)
    plans = ["1", "2", "11", "12", "21", "R3a", "31", "32", "41", "42"]
    local["enter_plans"] = list(plans)
    local["enter_mods"] = [1, 2]
    b = ui.buttons(screen.phone(ui.ctx(t, 0, sent, local=local)))
    asyncio.run(b["Send my cards"].on_click(None))
    assert sent[-1] == {"type": "enter_hand", "plans": plans, "mods": [1, 2]}
    ui.act(t, 0, sent[-1])
    assert t.state["players"][0]["entered"]
    assert "Your cards are entered. Waiting for the others." in ui.texts(screen.phone(ui.ctx(t, 0)))


def test_scorer_marks_own_place_names_tie_partners_and_opens_the_log() -> None:
    t = _table({"declare": "sealed"})
    r = random.Random(7)
    while t.state["phase"] != "over":
        ui.act(t, *_pick(t, r))
    res = t.game.result(t.state)
    assert res is not None
    for seat in (0, 1, 2):
        local: dict[str, Any] = {}
        body = screen.result(ui.ctx(t, seat, local=local))
        texts = " ".join(ui.texts(body))
        mine = next(x for x in res["seats"] if x["seat"] == seat)
        assert f"Your place: {mine['rank']} of 3" in texts
        assert f"{mine['name']} (you)" in texts
        assert "Miraculix finished on space" in texts
        log_btn = next(b for label, b in ui.buttons(body).items() if label.startswith("Show the game log"))
        asyncio.run(log_btn.on_click(None))
        assert local["lutetia_log"] is True
        opened = " ".join(ui.texts(screen.result(ui.ctx(t, seat, local=local))))
        assert "1. " in opened and "Hide the game log" in opened
        assert "game is over" in opened  # the last log entry
    host = " ".join(ui.texts(screen.result(ui.ctx(t, None, host=True))))
    assert "Your place" not in host and "(you)" not in host
    for row in res["seats"]:
        if row["tiebreak"]:
            assert row["tiebreak"]["params"]["others"] and row["tiebreak"]["params"]["others"] not in ("", row["name"])


def test_the_public_count_says_fulfilled_not_held() -> None:
    """Each player holds 10 secret plans: the public line counts the fulfilled ones and says so
    (it read "Plans: 0" while everyone held 10)."""
    from companion import i18n
    for lang, word in [("en", "Plans fulfilled: 0"), ("de", "Erfüllte Pläne: 0"), ("fr", "Plans réalisés\u00a0: 0")]:
        assert i18n.t(lang, "lutetia.ui.player_line", plans=0, mods=2).startswith(word)
        assert i18n.t(lang, "lutetia.ui.result_line", plans=0, mods=2).startswith(word)
