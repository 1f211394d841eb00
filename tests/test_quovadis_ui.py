"""Quo Vadis screens without a browser: every phase renders on phone, host and result, the
phone shows its own laurels and no other seat's, and buttons send the matching actions."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import flet as ft

from companion.games import games
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui.games import quovadis as screen
from companion.ui.kit import UiContext

games()  # registers the catalogs


def _table(options: dict[str, Any] | None = None, seed: int = 5) -> Table:
    t = Table.create(MemoryStore(), "QVQV", "quovadis", options or {},
                     [{"name": n} for n in ("Ann", "Bob", "Cy")], seed)
    t.request_sync(t.host_token, {"op": "start"})
    return t


def _ctx(t: Table, seat: int | None, sent: list[Any] | None = None, host: bool = False,
         lang: str = "en") -> UiContext:
    c = UiContext(t, seat, None, lang, host, lambda m, e: None, {}, _noop)
    if sent is not None:
        async def act(action: dict[str, Any]) -> bool:
            sent.append(action)
            return True
        c.act = act  # type: ignore[method-assign]
    return c


async def _noop() -> None:
    return None


def _walk(controls: list[ft.Control]) -> list[ft.Control]:
    out: list[ft.Control] = []
    stack = list(controls)
    while stack:
        c = stack.pop()
        out.append(c)
        for attr in ("controls", "content"):
            v = getattr(c, attr, None)
            if isinstance(v, list):
                stack.extend(x for x in v if isinstance(x, ft.Control))
            elif isinstance(v, ft.Control):
                stack.append(v)
    return out


def _texts(controls: list[ft.Control]) -> list[str]:
    out = []
    for c in _walk(controls):
        for attr in ("value", "content", "label"):
            v = getattr(c, attr, None)
            if isinstance(v, str):
                out.append(v)
    return out


def _buttons(controls: list[ft.Control]) -> dict[str, Any]:
    return {c.content: c for c in _walk(controls)
            if isinstance(c, (ft.FilledButton, ft.OutlinedButton)) and isinstance(c.content, str)}


def _act(t: Table, seat: int | None, action: dict[str, Any]) -> None:
    t.state = t.game.apply(t.state, {**action, "seat": seat})


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
                _act(t, *_pick(t, r))
                continue
            seen.add(key)
            for seat in (None, 0, 1, 2):
                ctx = _ctx(t, seat, host=seat is None, lang=("en", "de", "fr")[step % 3])
                body = screen.host(ctx) if seat is None else screen.phone(ctx)
                texts = _texts(body)
                assert body and not [x for x in texts if "{" in x or "quovadis." in x]
            if t.state["phase"] == "over":
                break
            _act(t, *_pick(t, r))
        assert t.state["phase"] == "over"
        for seat in (None, 0, 1, 2):
            texts = " ".join(_texts(screen.result(_ctx(t, seat))))
            assert "wins!" in texts
            for lang in ("de", "fr"):
                texts = " ".join(_texts(screen.result(_ctx(t, seat, lang=lang))))
                assert "{" not in texts and "quovadis." not in texts


def test_phone_shows_own_total_only():
    t = _table()
    t.state["players"][1]["received"] = 4321
    mine = " ".join(_texts(screen.phone(_ctx(t, 1))))
    assert "Your laurels: 4321" in mine
    for seat in (None, 0, 2):
        ctx = _ctx(t, seat)
        texts = " ".join(_texts(screen.host(ctx) if seat is None else screen.phone(ctx)))
        assert "4321" not in texts


def test_buttons_send_actions():
    t = _table()
    sent: list[Any] = []
    body = screen.phone(_ctx(t, 0, sent))
    b = _buttons(body)
    asyncio.run(b["Place in 1"].on_click(None))
    assert sent[-1] == {"type": "place", "node": 1}
    # a vote: Ann asks committee 1 (Ann, Bob, Cy) to move to 8
    t.state["board"]["1"] = [0, 1, 2]
    _act(t, 0, {"type": "move", "from": 1, "to": 8})
    host_texts = " ".join(_texts(screen.host(_ctx(t, None, host=True))))
    assert "Ann wants to move from 1 to 8" in host_texts and "Yes so far: 1 of 3" in host_texts
    b = _buttons(screen.phone(_ctx(t, 1, sent)))
    asyncio.run(b["Yes"].on_click(None))
    assert sent[-1] == {"type": "vote", "yes": True}
    hb = _buttons(screen.host(_ctx(t, None, sent, host=True)))
    asyncio.run(hb["Close the vote (missing answers = no)"].on_click(None))
    assert sent[-1] == {"type": "close_vote"}
    # a hand-over: pick Bob, type 2, give
    t.state["players"][2]["received"] = 5
    ctx = _ctx(t, 2, sent)
    body = screen.phone(ctx)
    b = _buttons(body)
    assert any(isinstance(c, ft.TextField) and c.label == "Laurels (1–5)" for c in _walk(body))
    ctx.local["qv_amount"] = "2"  # what the field's on_change keeps
    asyncio.run(b["Give to Bob"].on_click(None))
    assert sent[-1] == {"type": "give", "to": 1, "amount": 2}
    ctx.local["qv_promise"] = "I vote yes"
    asyncio.run(b["Promise to Ann"].on_click(None))
    assert sent[-1] == {"type": "promise", "to": 0, "text": "I vote yes"}
    # Caesar buttons on Bob's turn
    t.state = t.game.apply(t.state, {"type": "close_vote", "seat": None})
    b = _buttons(screen.phone(_ctx(t, 1, sent)))
    label = next(k for k in b if k.startswith("1 » 5 ("))
    asyncio.run(b[label].on_click(None))
    assert sent[-1] == {"type": "caesar", "path": "1-5"}
