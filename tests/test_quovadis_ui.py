"""Quo Vadis screens without a browser: every phase renders on phone, host and result, the
phone shows its own laurels and no other seat's, and buttons send the matching actions."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import flet as ft

from companion.games.quovadis import screens as screen
from companion.table.table import Table
from tests import ui_harness as ui


def _table(options: dict[str, Any] | None = None, seed: int = 5) -> Table:
    return ui.started_table("quovadis", ["Ann", "Bob", "Cy"], options, seed, "QVQV")


def _pick(t: Table, r: random.Random) -> tuple[int | None, dict[str, Any]]:
    cands = [(s, a) for s in (None, 0, 1, 2) for a in t.game.legal(t.state, s)
             if a["type"] not in ("give", "promise", "close_vote")]
    return r.choice(cands)


def test_every_phase_renders_everywhere():
    for opts in ({}, {"ballot": "secret", "caesar_chip": "end_of_round", "binding": True}):
        t = _table(opts)
        r = random.Random(1)
        seen: set[str] = set()
        for step in range(400):
            key = f"{t.state['phase']}:{t.state['turn']}"
            if key in seen and step % 25:
                ui.act(t, *_pick(t, r))
                continue
            seen.add(key)
            for seat in (None, 0, 1, 2):
                ctx = ui.ctx(t, seat, host=seat is None, lang=("en", "de", "fr")[step % 3])
                body = screen.host(ctx) if seat is None else screen.phone(ctx)
                texts = ui.texts(body)
                assert body and not [x for x in texts if "{" in x or "quovadis." in x]
            if t.state["phase"] == "over":
                break
            ui.act(t, *_pick(t, r))
        assert t.state["phase"] == "over"
        for seat in (None, 0, 1, 2):
            texts = " ".join(ui.texts(screen.result(ui.ctx(t, seat))))
            assert "wins!" in texts
            for lang in ("de", "fr"):
                texts = " ".join(ui.texts(screen.result(ui.ctx(t, seat, lang=lang))))
                assert "{" not in texts and "quovadis." not in texts


def test_phone_shows_own_total_only():
    t = _table()
    t.state["players"][1]["received"] = 4321
    mine = " ".join(ui.texts(screen.phone(ui.ctx(t, 1))))
    assert "Your laurels: 4321" in mine
    for seat in (None, 0, 2):
        ctx = ui.ctx(t, seat)
        texts = " ".join(ui.texts(screen.host(ctx) if seat is None else screen.phone(ctx)))
        assert "4321" not in texts


def test_buttons_send_actions():
    t = _table()
    sent: list[Any] = []
    body = screen.phone(ui.ctx(t, 0, sent))
    b = ui.buttons(body)
    asyncio.run(b["Place in 1"].on_click(None))
    assert sent[-1] == {"type": "place", "node": 1}
    # a vote: Ann asks committee 1 (Ann, Bob, Cy) to move to 8
    t.state["board"]["1"] = [0, 1, 2]
    ui.act(t, 0, {"type": "move", "from": 1, "to": 8})
    host_texts = " ".join(ui.texts(screen.host(ui.ctx(t, None, host=True))))
    assert "Ann wants to move from 1 to 8" in host_texts and "Yes so far: 1 of 3" in host_texts
    b = ui.buttons(screen.phone(ui.ctx(t, 1, sent)))
    asyncio.run(b["Yes"].on_click(None))
    assert sent[-1] == {"type": "vote", "yes": True}
    hb = ui.buttons(screen.host(ui.ctx(t, None, sent, host=True)))
    asyncio.run(hb["Close the vote (missing answers = no)"].on_click(None))
    assert sent[-1] == {"type": "close_vote"}
    # a hand-over: pick Bob, type 2, give
    t.state["players"][2]["received"] = 5
    ctx = ui.ctx(t, 2, sent)
    body = screen.phone(ctx)
    b = ui.buttons(body)
    assert isinstance(ui.fields(body).get("Laurels (1–5)"), ft.TextField)
    ctx.local["qv_amount"] = "2"  # what the field's on_change keeps
    asyncio.run(b["Give to Bob"].on_click(None))
    assert sent[-1] == {"type": "give", "to": 1, "amount": 2}
    ctx.local["qv_promise"] = "I vote yes"
    asyncio.run(b["Promise to Ann"].on_click(None))
    assert sent[-1] == {"type": "promise", "to": 0, "text": "I vote yes"}
    # Caesar buttons on Bob's turn
    t.state = t.game.apply(t.state, {"type": "close_vote", "seat": None})
    b = ui.buttons(screen.phone(ui.ctx(t, 1, sent)))
    label = next(k for k in b if k.startswith("1 » 5 ("))
    asyncio.run(b[label].on_click(None))
    assert sent[-1] == {"type": "caesar", "path": "1-5"}
