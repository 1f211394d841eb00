"""Your turn, felt (issue 18.6): real Flet sessions in-process (benchmarks/harness.py).

When a seat gets something to do – its turn in Quo Vadis, a round that opens for it in the sealed
vote – its phone (and only its phone) shows the banner, and the page's title takes the turn mark
that the page's script vibrates the phone on (companion/page.py TURN_JS). Decided from the seat's
own legal actions only, less a game's "any time" actions (Quo Vadis' gifts and promises)."""

from __future__ import annotations

import asyncio
from typing import Any

import benchmarks.harness as H
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui.screens import Server
from companion.ui.views import phone as P
from tests.ui_harness import text


async def _settle() -> None:
    for _ in range(6):
        await asyncio.sleep(0.02)


def _shows_banner(client: Any) -> bool:
    return "Your turn!" in text(client.screen.phone())


async def _open(game: str, n: int) -> tuple[Any, list[str], list[Any]]:
    hub = Hub(MemoryStore())
    t, tokens = H.make_table(hub, n, game=game, start=False)
    clients = await H.open_table(Server(hub, "http://companion.test"), H.new_pubsub(), t, tokens)
    await _settle()
    return t, tokens, clients


async def test_the_banner_and_the_buzz_follow_the_turn_in_quo_vadis() -> None:
    t, tokens, clients = await _open("quovadis", 3)
    phones = clients[:3]
    assert not any(_shows_banner(c) for c in phones)  # the lobby: nobody's turn
    t.request_sync(t.host_token, {"op": "start"})
    await _settle()
    first = t.state["turn"]
    assert [_shows_banner(c) for c in phones] == [i == first for i in range(3)]
    # every seat may give laurels or promise at any time: that is not a turn
    assert all(any(a["type"] in ("give", "promise") for a in t.legal(i)) for i in range(3))
    titles = [c.session.page.title for c in phones]
    assert titles[first].startswith(P.TURN_MARK) and titles[first].rstrip("\u200b\u200c").endswith("Your turn")  # (the chime mark: ui/sound.py)
    assert all(not x.startswith(P.TURN_MARK) for i, x in enumerate(titles) if i != first)
    assert not _shows_banner(clients[3]) and not clients[3].session.page.title.startswith(P.TURN_MARK)  # the host

    place = next(a for a in t.legal(first) if a["type"] == "place")
    t.request_sync(tokens[first], {"op": "act", "action": {"type": "place", "node": place["node"]}})
    await _settle()
    nxt = t.state["turn"]
    assert nxt != first
    assert [_shows_banner(c) for c in phones] == [i == nxt for i in range(3)]
    assert phones[nxt].session.page.title.startswith(P.TURN_MARK)
    assert phones[first].session.page.title.rstrip("\u200b\u200c") == P.TITLE  # the turn is over: the mark goes
    for c in clients:
        c.close()


async def test_a_round_opens_for_every_seat_and_the_banner_goes_once_a_seat_has_locked() -> None:
    t, tokens, clients = await _open("sealed_vote", 3)
    phones = clients[:3]
    t.request_sync(t.host_token, {"op": "start"})
    await _settle()
    assert all(_shows_banner(c) for c in phones)
    assert all(c.session.page.title.startswith(P.TURN_MARK) for c in phones)
    kinds = {a["type"] for a in t.legal(0)}
    assert "submit" in kinds
    t.request_sync(tokens[0], {"op": "act", "action": {"type": "submit", "value": t.state["question"]["choices"][0]}})
    t.request_sync(tokens[0], {"op": "act", "action": {"type": "lock"}})
    await _settle()
    assert [_shows_banner(c) for c in phones] == [False, True, True]
    assert phones[0].session.page.title.rstrip("\u200b\u200c") == P.TITLE
    assert phones[1].session.page.title.startswith(P.TURN_MARK)
    for c in clients:
        c.close()


async def test_a_phone_that_opens_the_table_on_its_turn_shows_the_banner_without_a_buzz() -> None:
    hub = Hub(MemoryStore())
    t, tokens = H.make_table(hub, 3, game="sealed_vote", start=True)
    clients = await H.open_table(Server(hub, "http://companion.test"), H.new_pubsub(), t, tokens, host=False)
    await _settle()
    assert all(_shows_banner(c) for c in clients)
    assert all(not c.session.page.title.startswith(P.TURN_MARK) for c in clients)  # no buzz on opening
    for c in clients:
        c.close()


async def test_the_last_lock_with_sound_on_ends_the_turn_mark_and_chimes_in_one_title() -> None:
    """The last lock both ends this seat's turn (the turn mark goes) and reveals (the chime flips
    the title's invisible last character): the page gets one title with both – the turn mark gone,
    the new chime mark on – not the turn title back with the chime (both went through one
    retitling, ui/sound.retitle; the chime's copy of the title was read before the turn's change
    had reached the page)."""
    from companion.ui import sound
    t, tokens, clients = await _open("sealed_vote", 3)
    phones = clients[:3]
    t.request_sync(t.host_token, {"op": "start"})
    await _settle()
    last = phones[2].screen
    last.sound.role, last.sound.on = "phone", True  # this player turned sound on
    for i, tok in enumerate(tokens):
        t.request_sync(tok, {"op": "act", "action": {"type": "submit", "value": t.state["question"]["choices"][i % 2]}})
    await _settle()
    assert phones[2].session.page.title.startswith(P.TURN_MARK)
    before = sound.mark(last)
    for tok in tokens:
        t.request_sync(tok, {"op": "act", "action": {"type": "lock"}})
    await _settle()
    assert t.state["round"]["revealed"]
    title = phones[2].session.page.title
    assert sound.mark(last) != before and title == P.TITLE + sound.mark(last), repr(title)
    assert phones[0].session.page.title.rstrip("\u200b\u200c") == P.TITLE  # (sound off: no chime, turn over)
    for c in clients:
        c.close()
