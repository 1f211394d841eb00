"""The table display (issue 18.1/18.2, companion/ui/views/display.py, companion/games/<id>/display.py):
drawn on real in-process Flet sessions (benchmarks/harness.py) for every game through a random
game, from the public view only; /display/CODE needs the host's key."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from benchmarks import harness as H
from companion.games import specs
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui.screens import Server
from companion.ui.views import display as D

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gameplay import table_step  # noqa: E402

GAMES = list(specs())  # every registered game, the test-only one included: each names its display


def texts(c: Any) -> list[str]:
    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y)
            return
        if not isinstance(x, ft.BaseControl):
            return
        if isinstance(x, ft.Text) and isinstance(x.value, str):
            out.append(x.value)
        if isinstance(getattr(x, "content", None), str):  # a button's label
            out.append(x.content)
        for name in ("_b", "content", "controls", "views"):
            child = getattr(x, name, None)
            if child is not None and not isinstance(child, str):
                walk(child)
    walk(c)
    return out


def screen_text(client: H.Client) -> str:
    assert client.session is not None
    return "\n".join(texts(client.session.page.views))


@pytest.mark.parametrize("game", GAMES)
async def test_display_follows_a_random_game(game: str) -> None:
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    n = min(4, specs()[game].rules.MAX_SEATS)
    t, tokens = H.make_table(hub, n, game)
    pubsub = H.new_pubsub()
    host = H.Client(server, f"/host/{t.code}", {f"host:{t.code}": t.host_token, "lang": "en"})
    shown = H.Client(server, f"/display/{t.code}", {f"host:{t.code}": t.host_token, "lang": "de"})
    stranger = H.Client(server, f"/display/{t.code}", {"lang": "en"})
    for c in (host, shown, stranger):
        await c.open(pubsub)
    await H.quiet([host, shown, stranger])
    assert shown.screen.role == "display" and stranger.screen.role == "display_denied"
    assert "host" in screen_text(stranger).lower() and t.code not in screen_text(stranger)
    sp = specs()[game]
    r = random.Random(5)
    moments = 0
    for _ in range(60):
        if t.state is None or sp.done(t.state):
            break
        took = await table_step(t, tokens, sp, n, r)
        if took is None:
            break
        if not took:
            continue
        await H.quiet([host, shown])
        ctx = shown.screen.ctx(host_view=True)
        mod = D.game_display(ctx)
        assert mod is not None and mod is sp.display_module()  # found through the game's spec
        status = mod.status(ctx)
        if mod.moment(ctx) is not None:
            moments += 1
        body = screen_text(shown)
        assert "Table admin" in screen_text(host)  # the host's panel beside the display
        if status.headline:
            assert status.headline in body
        for s in t.seats:
            assert s["name"] in body
    assert moments or game == "quovadis"
    for c in (host, shown, stranger):
        c.close()


@pytest.mark.parametrize("game", ["lutece", "sealed_vote"])
async def test_an_ended_game_shows_game_over_and_its_winner(game: str) -> None:
    """Issue 30.4: the host ends the table – the display says the game is over, waits for nobody,
    and names the winner (a game with winners) in the screen's language."""
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    t, tokens = H.make_table(hub, 3, game)
    sp = specs()[game]
    r = random.Random(3)
    for _ in range(25):
        if await table_step(t, tokens, sp, 3, r) is None:
            break
    pubsub = H.new_pubsub()
    shown = H.Client(server, f"/display/{t.code}", {f"host:{t.code}": t.host_token, "lang": "de"})
    await shown.open(pubsub)
    await t.request(t.host_token, {"op": "end"})
    await H.quiet([shown])
    body = screen_text(shown)
    assert "Spielende" in body and "Warten auf" not in body, body
    res = sp.outcome(t.state)
    if res is not None and res.winners:
        assert "Gewonnen hat " + " und ".join(t.seats[w]["name"] for w in res.winners) in body, body
    shown.close()


def test_a_short_word_on_a_card_stays_on_one_line() -> None:
    """"Tacos" on a TV's card (60 px type) never breaks as "Taco / s": the card is as wide as its word."""
    m = D.Moment("k", "Round 1", (D.Card(0, "Tacos"), D.Card(1, "Spaghetti"), D.Card(2, "731942")),
                 seats=(("Ann", "#d32f2f"), ("Bob", "#1976d2"), ("Zoë", "#388e3c")))
    for c in m.cards:
        card = D.card_face(m, c, True, 60)
        face = card.content.controls[1]
        assert face.value == c.face
        assert face.max_lines == 1 and face.no_wrap, c.face
        assert card.width >= len(c.face) * face.size * 0.62 + 30, (c.face, card.width)
