"""The shared device and its cover (pass-and-play, issue 29), in-process (real Flet sessions over
benchmarks/harness.py). The raw frames of the real server: tests/reliability/test_shared_device.py."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import flet as ft
import pytest

import benchmarks.harness as H
from benchmarks.soak import pick_action
from companion.games import games, spec
from companion.games.base import RuleError
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui import boot
from companion.ui.assemble import for_shared as S
from companion.ui.screens import Server
from tests import ui_harness as U

SEATS = [{"name": "Ann", "shared": True}, {"name": "Bob", "shared": True}, {"name": "Cy"}, {"name": "Di"}]
OPTS = {"mode": "number", "min": 0, "max": 999999}


def _table(hub: Hub, start: bool = True) -> tuple[Any, str, list[str]]:
    t = hub.create("sealed_vote", OPTS, SEATS, seed=1)
    dev = t.request_sync(t.host_token, {"op": "device"})["token"]
    phones = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in (2, 3)]
    if start:
        t.request_sync(t.host_token, {"op": "start"})
    return t, dev, phones


async def _device(server: Server, t: Any, dev: str | None, lang: str = "en", route: str | None = None) -> H.Client:
    prefs = {"lang": lang} | ({f"shared:{t.code}": dev} if dev else {})
    return await H.Client(server, route or f"/shared/{t.code}", prefs).open(H.new_pubsub())


def _shown(c: H.Client) -> list[str]:
    return U.texts(c.screen.build())


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0.02)


async def test_the_cover_names_public_facts_only_and_opens_one_seat_at_a_time() -> None:
    hub = Hub(MemoryStore())
    t, dev, phones = _table(hub)
    t.request_sync(phones[0], {"op": "act", "action": {"type": "submit", "value": 381727}})
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    assert scr.role == "shared"
    shown = _shown(c)
    assert "Pass to Ann" in shown and "Tap when only Ann is looking" in shown and "Then: Bob" in shown
    assert not any("381727" in x or "Your bid" in x for x in shown)
    st = S.state(scr)
    assert not S.uncover(scr, 0, st.gen - 1)  # a tap on an older cover opens nothing
    assert S.uncover(scr, 0, st.gen)
    shown = _shown(c)
    assert "Ann's screen" in shown and "Done – cover" in shown and "Your bid (0–999999)" in shown
    assert not S.uncover(scr, 1, st.gen)  # Ann's screen is open: Bob's opens only from the cover
    assert not S.uncover(scr, 2, st.gen)  # (a phone's seat never)
    c.close()


async def test_a_seat_that_has_locked_is_covered_and_the_next_is_asked_for() -> None:
    hub = Hub(MemoryStore())
    t, dev, phones = _table(hub)
    c = await _device(Server(hub, "http://x"), t, dev, lang="de")
    scr = c.screen
    S.uncover(scr, 0, S.state(scr).gen)
    ctx = S.DeviceContext(scr, 0)
    assert await ctx.act({"type": "submit", "value": 734519})
    await _settle()
    assert S.state(scr).seat == 0  # submitted, not locked: still open
    assert await ctx.act({"type": "lock"})
    await _settle()
    assert S.state(scr).seat is None  # locked: covered by itself
    shown = _shown(c)
    assert "Ann ist fertig." in shown and "Gib es Bob" in shown and not any("734519" in x for x in shown)
    assert not await ctx.act({"type": "submit", "value": 1})  # Ann's screen, replayed after the cover
    S.uncover(scr, 1, S.state(scr).gen)
    bob = S.DeviceContext(scr, 1)
    assert await bob.act({"type": "submit", "value": 615243}) and await bob.act({"type": "lock"})
    await _settle()
    assert "Alle Plätze dieses Geräts sind fertig: Leg das Gerät hin." in _shown(c)
    assert t.view(None)["round"]["locked"] == [0, 1]
    c.close()


async def test_done_idle_and_a_seat_given_back_cover_the_device(monkeypatch: Any) -> None:
    monkeypatch.setattr(S, "IDLE_SECONDS", 0.05)
    hub = Hub(MemoryStore())
    t, dev, _ = _table(hub)
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    S.uncover(scr, 1, S.state(scr).gen)
    done = [b for b in U.controls_of(scr.build()) if isinstance(b, ft.FilledButton) and b.key == "cover"]
    await done[0].on_click(None)
    assert S.state(scr).seat is None
    S.uncover(scr, 1, S.state(scr).gen)
    for _ in range(100):  # no tap for IDLE_SECONDS
        await asyncio.sleep(0.05)
        if S.state(scr).seat is None:
            break
    assert S.state(scr).seat is None and "Pass to Ann" in _shown(c)
    monkeypatch.setattr(S, "IDLE_SECONDS", 60.0)
    S.uncover(scr, 1, S.state(scr).gen)
    t.request_sync(t.host_token, {"op": "share", "seat": 1, "shared": False})  # Bob's phone is back
    await _settle()
    assert S.state(scr).seat is None and "Bob" not in " ".join(_shown(c))
    c.close()


async def test_only_the_tables_device_token_opens_the_shared_device() -> None:
    hub = Hub(MemoryStore())
    t, dev, phones = _table(hub)
    server = Server(hub, "http://x")
    for tok in (None, phones[0], t.host_token, "forged-token-forged-token"):
        c = await _device(server, t, tok)
        assert c.screen.role == "shared_denied" and c.screen.table is None
        assert "not this table's shared device" in " ".join(_shown(c))
        c.close()
    c = await _device(server, t, dev, route=f"/shared/{t.code}?d={dev}")  # (the token is never read from the address)
    assert c.screen.role == "shared"
    c.close()
    bare = await _device(server, t, None, route=f"/shared/{t.code}?d={dev}")
    assert bare.screen.role == "shared_denied"
    bare.close()


async def test_the_hosts_one_time_ticket_makes_a_new_device_and_the_old_one_loses_it() -> None:
    hub = Hub(MemoryStore())
    t, dev, _ = _table(hub)
    server = Server(hub, "http://x")
    old = await _device(server, t, dev)
    assert old.screen.role == "shared"
    host_ticket = server.host_ticket(t.code)
    c = await _device(server, t, None, route=f"/shared/{t.code}?d={host_ticket}")  # a host ticket is not one
    assert c.screen.role == "shared_denied"
    c.close()
    ticket = server.device_ticket(t.code)
    assert not server.redeem_ticket(t.code, ticket)  # nor makes a device ticket anyone host
    ticket = server.device_ticket(t.code)
    c = await _device(server, t, None, route=f"/shared/{t.code}?d={ticket}")
    new = c.prefs[f"shared:{t.code}"]
    assert t.is_device(new) and not t.is_device(dev) and new != dev
    again = await _device(server, t, None, route=f"/shared/{t.code}?d={ticket}")  # used up
    assert again.screen.role == "shared_denied"
    S.uncover(old.screen, 0, S.state(old.screen).gen)  # the old device cannot open a seat any more
    assert S.state(old.screen).seat is None
    for x in (c, again, old):
        x.close()


async def test_the_host_screen_offers_the_shared_device_when_a_seat_is_shared() -> None:
    hub = Hub(MemoryStore())
    t, _, _ = _table(hub, start=False)
    reset = boot.CONN.set(boot.Conn("127.0.0.1", {}))
    try:
        host = await H.Client(Server(hub, "http://x"), f"/host/{t.code}",
                              {f"host:{t.code}": t.host_token, "lang": "fr"}).open(H.new_pubsub())
    finally:
        boot.CONN.reset(reset)
    scr = host.screen
    await U.buttons(scr.host_controls())["Ouvrir l’appareil partagé"].on_click(None)
    dlg = host.session.page._dialogs.controls[-1]
    assert "Il sert une fois, pendant 10 minutes" in U.text(dlg.content)
    link = [b for b in U.controls_of(dlg.content) if isinstance(b, ft.OutlinedButton)][0].url
    assert link.url.startswith(f"http://x/shared/{t.code}?d=") and link.target == ft.UrlTarget.BLANK
    t.request_sync(t.host_token, {"op": "share", "seat": 0, "shared": False})
    t.request_sync(t.host_token, {"op": "share", "seat": 1, "shared": False})
    assert "Ouvrir l’appareil partagé" not in U.buttons(scr.host_controls())
    host.close()


async def test_the_shared_device_follows_a_rematch_with_its_token() -> None:
    hub = Hub(MemoryStore())
    t, dev, _ = _table(hub)
    c = await _device(Server(hub, "http://x"), t, dev)
    t.request_sync(t.host_token, {"op": "end"})
    await _settle()
    assert "The game is over: put the device down." in _shown(c)
    new = await hub.rematch_async(t.code)
    for _ in range(50):
        await asyncio.sleep(0.02)
        if c.screen.table is new:
            break
    scr = c.screen
    assert scr.table is new and scr.role == "shared" and new.is_device(scr.token)
    assert c.prefs[f"shared:{new.code}"] == dev and "Pass to Ann" in _shown(c)
    c.close()


async def test_a_pin_is_asked_for_on_the_cover_and_a_wrong_one_opens_nothing() -> None:
    hub = Hub(MemoryStore())
    t, dev, _ = _table(hub)
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    S.uncover(scr, 1, S.state(scr).gen)  # Bob: no PIN yet, he sets one behind the cover
    drawn = scr.build()
    fields = U.fields(drawn)
    assert "New PIN (4 digits)" in fields
    fields["New PIN (4 digits)"].value = "2468"
    await U.buttons(drawn)["Set PIN"].on_click(None)
    assert t.has_pin(1) and "New PIN (4 digits)" not in U.fields(scr.build())
    S.cover(scr)
    S.uncover(scr, 1, S.state(scr).gen)  # a tap on Bob: the cover asks for his PIN
    assert S.state(scr).seat is None
    shown = _shown(c)
    assert "Bob's PIN" in U.fields(scr.build()) and "Bob's screen" not in shown
    gen = S.state(scr).gen
    assert not await S.try_pin(scr, 1, gen, "1111")
    shown = _shown(c)
    assert "Wrong PIN: nothing opened." in shown and "Bob's screen" not in shown and S.state(scr).seat is None
    assert not await S.try_pin(scr, 0, gen, "2468")  # the PIN is asked for Bob, not for Ann
    assert await S.try_pin(scr, 1, gen, "2468")
    assert S.state(scr).seat == 1 and "Bob's screen" in _shown(c)
    c.close()


async def test_the_host_resets_a_pin_from_the_seat_list_with_a_confirmation() -> None:
    hub = Hub(MemoryStore())
    t, dev, _ = _table(hub)
    t.request_sync(dev, {"op": "set_pin", "seat": 0, "pin": "1234"})
    reset = boot.CONN.set(boot.Conn("127.0.0.1", {}))
    try:
        host = await H.Client(Server(hub, "http://x"), f"/host/{t.code}",
                              {f"host:{t.code}": t.host_token, "lang": "en"}).open(H.new_pubsub())
    finally:
        boot.CONN.reset(reset)
    scr = host.screen
    rows = [fn() for _, fn in scr.seat_section(True).rows]
    tips = [b.tooltip for b in U.controls_of(rows) if isinstance(b, ft.IconButton)]
    assert "Reset Ann's PIN" in tips and "Reset Bob's PIN" not in tips
    button = [b for b in U.controls_of(rows) if isinstance(b, ft.IconButton) and b.tooltip == "Reset Ann's PIN"][0]
    await button.on_click(None)
    dlg = host.session.page._dialogs.controls[-1]
    assert "Every screen will show that you reset it." in U.text(dlg.content) and t.has_pin(0)
    await U.buttons(dlg.actions)["Reset the PIN"].on_click(None)
    assert not t.has_pin(0)
    assert "The host reset Ann's PIN." in U.texts(scr.host_moves_card())
    host.close()


@pytest.mark.parametrize("game_id", sorted(games()))
async def test_every_game_is_played_behind_the_cover(game_id: str) -> None:
    """Two shared seats and two phones (a game for two: one and one): whenever a shared seat has something to do, the cover asks
    for it (and only then), its own game screen opens and draws, its action goes through the
    device, and the cover comes back; random legal play (the games' sample) for 40 steps."""
    game = games()[game_id]
    n = max(game.MIN_SEATS, min(4, game.MAX_SEATS))
    shared = [0, 1] if n >= 3 else [0]  # (a game for two: one shared seat, one phone)
    hub = Hub(MemoryStore())
    t = hub.create(game_id, None, [{"name": name, "shared": i in shared}
                                   for i, name in enumerate(["Ann", "Bob", "Cy", "Di"][:n])], seed=3)
    dev = t.request_sync(t.host_token, {"op": "device"})["token"]
    phones = {i: t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(len(shared), n)}
    t.request_sync(t.host_token, {"op": "start"})
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    r = random.Random(5)
    anytime = getattr(t.game, "ANYTIME", frozenset())
    opened = 0
    for _ in range(40):
        if t.phase != "playing" or spec(game_id).done(t.state):
            break
        must = [s for s in shared if any(a["type"] not in anytime for a in t.legal(s))
                and not (game_id == "lutece" and t.state["phase"] == "scoring" and str(s) in t.state["scores"])]
        assert S.to_do(t) == must
        shown = " ".join(_shown(c))
        for s in shared:
            name = t.seats[s]["name"]
            assert (f"Pass to {name}" in shown) == (must[:1] == [s]), shown
        if must:
            seat = must[0]
            assert S.uncover(scr, seat, S.state(scr).gen)
            opened += 1
            drawn = " ".join(_shown(c))
            assert f"{t.seats[seat]['name']}'s screen" in drawn and "Something went wrong" not in drawn
            action = pick_action(game_id, t.state, seat, t.legal(seat), r)
            if action is not None:
                await S.DeviceContext(scr, seat).act(action)
            await _settle()
            S.cover(scr)
            continue
        actors = [s for s in (None, *phones) if t.legal(s)]
        if not actors:
            break
        who = r.choice(actors)
        action = pick_action(game_id, t.state, who, t.legal(who), r)
        if action is None:
            continue
        op = {"op": "host_act", "action": action} if who is None else {"op": "act", "action": action}
        try:
            t.request_sync(t.host_token if who is None else phones[who], op)
        except RuleError:
            continue
        await _settle()
    assert opened >= 1
    c.close()


async def test_a_pin_half_typed_is_kept_while_the_table_changes_and_dropped_by_the_cover() -> None:
    hub = Hub(MemoryStore())
    t, dev, phones = _table(hub)
    t.request_sync(dev, {"op": "set_pin", "seat": 0, "pin": "1234"})
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    S.uncover(scr, 0, S.state(scr).gen)  # asks for Ann's PIN
    field = U.fields(scr.build())["Ann's PIN"]
    field.value = "12"
    field.on_change(None)
    t.request_sync(phones[0], {"op": "act", "action": {"type": "submit", "value": 5}})  # Cy bids meanwhile
    await _settle()
    assert U.fields(scr.build())["Ann's PIN"].value == "12"
    S.cover(scr)
    assert scr.local == {}
    S.uncover(scr, 0, S.state(scr).gen)
    assert U.fields(scr.build())["Ann's PIN"].value == ""
    c.close()


async def test_the_cover_plays_the_public_reveal_moment_and_no_seats_own_line() -> None:
    """Issue 29.5: a reveal on the shared device shows on the cover as public facts only – the
    display's moment (the cards, then the table's outcome), never a seat's own line ("Your …")."""
    import sys
    from pathlib import Path

    from companion.ui.views import display as D
    from companion.ui.views import moment as M
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_display import screen_text

    hub = Hub(MemoryStore())
    t, dev, phones = _table(hub)
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    for seat, value in ((0, 381727), (1, 615243)):
        S.uncover(scr, seat, S.state(scr).gen)
        ctx = S.DeviceContext(scr, seat)
        assert await ctx.act({"type": "submit", "value": value}) and await ctx.act({"type": "lock"})
        await _settle()
    assert "Your" not in screen_text(c)
    for i, p in enumerate(phones):
        t.request_sync(p, {"op": "act", "action": {"type": "submit", "value": 10 + i}})
        t.request_sync(p, {"op": "act", "action": {"type": "lock"}})
    await asyncio.sleep(M.BACKS_S + D.FLIP_S + 0.4)
    m = D.public_moment(scr.ctx(host_view=True), D.game_display(scr.ctx(host_view=True)))
    assert m is not None and m.outcome
    # the outcome is drawn after the flip's timers: on a loaded machine (CI ran 2 workers at load 20+)
    # later than the sleep above – wait for it (15 s) rather than read the screen once
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while True:
        await H.quiet([c], idle=0.01)
        text = screen_text(c)
        if (m.title in text and all(x in text for x in m.outcome)) or loop.time() > deadline:
            break
        await asyncio.sleep(0.1)
    assert S.state(scr).seat is None  # still the cover
    assert m.title in text and all(x in text for x in m.outcome), text
    assert "381727" in text  # the cards' faces: the revealed bids are public now
    assert not any(line.startswith("Your") for line in text.split("\n")), text
    c.close()


async def test_a_refused_or_unwritten_action_on_the_device_is_a_message_as_on_a_phone(monkeypatch: Any) -> None:
    """The device's actions go through the one sender of every screen (kit.UiContext.send): a
    refused action and a store that cannot write are each a toast in the screen's language, and
    the seat stays open."""
    hub = Hub(MemoryStore())
    t, dev, _ = _table(hub)
    c = await _device(Server(hub, "http://x"), t, dev, lang="de")
    scr = c.screen
    said: list[tuple[str, bool]] = []
    monkeypatch.setattr(scr, "toast", lambda text, error=False: said.append((text, error)))
    S.uncover(scr, 0, S.state(scr).gen)
    ctx = S.DeviceContext(scr, 0)
    with pytest.raises(RuleError) as refused:
        t.request_sync(dev, {"op": "act", "seat": 0, "action": {"type": "lock"}})
    assert not await ctx.act({"type": "lock"})  # nothing submitted yet: refused by the game
    assert said[-1] == (scr.t(refused.value.key, **refused.value.params), True) and " " in said[-1][0]
    monkeypatch.setattr(type(t), "request", _fails)
    assert not await ctx.act({"type": "submit", "value": 5})
    assert said[-1] == (scr.t("ui.err.store"), True) and "ui.err" not in said[-1][0]
    assert S.state(scr).seat == 0 and not ctx.busy
    c.close()


async def _fails(self: Any, token: Any, op: dict[str, Any]) -> dict[str, Any]:
    from companion.table.store import StoreError
    raise StoreError("store.err.write", "/x", "disk full")


async def test_the_done_note_goes_once_the_table_asks_for_someone_again() -> None:
    """"Bob is done." is about the hand-over just made: when the next round asks the shared seats
    again, the cover says "Pass to Ann" without a stale "Bob is done." (never over "Pass to Bob")."""
    hub = Hub(MemoryStore())
    t, dev, phones = _table(hub)
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    for seat, value in ((0, 11), (1, 12)):
        S.uncover(scr, seat, S.state(scr).gen)
        ctx = S.DeviceContext(scr, seat)
        assert await ctx.act({"type": "submit", "value": value}) and await ctx.act({"type": "lock"})
        await _settle()
    shown = _shown(c)
    assert "Bob is done." in shown and "All shared seats are done: put the device down." in shown
    for i, p in enumerate(phones):  # the phones lock: the round reveals, the cover stays as it was
        t.request_sync(p, {"op": "act", "action": {"type": "submit", "value": 20 + i}})
        t.request_sync(p, {"op": "act", "action": {"type": "lock"}})
    await _settle()
    assert "Bob is done." in _shown(c)
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "number", "question": "Again",
                                                                "min": 0, "max": 99}})
    await _settle()
    shown = _shown(c)
    assert "Pass to Ann" in shown and not any("is done" in x for x in shown), shown
    # Ann locks in the new round: her note stands while Bob is asked
    S.uncover(scr, 0, S.state(scr).gen)
    ann = S.DeviceContext(scr, 0)
    assert await ann.act({"type": "submit", "value": 3}) and await ann.act({"type": "lock"})
    await _settle()
    shown = _shown(c)
    assert "Ann is done." in shown and "Pass to Bob" in shown
    c.close()


async def test_a_seat_whose_score_card_is_in_is_not_asked_again() -> None:
    """Lutèce's scoring: every seat may correct its card until the host confirms, but a seat whose
    card is in has nothing to do – the device covers Ann by itself once she has sent hers and asks
    Bob (before: 'Pass to Ann' until the host confirmed, and her screen stayed open)."""
    from companion.games.lutece.rules import RESOURCES, REVENUS

    hub = Hub(MemoryStore())
    t = hub.create("lutece", None, [dict(s) for s in SEATS], seed=2)
    dev = t.request_sync(t.host_token, {"op": "device"})["token"]
    phones = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in (2, 3)]
    t.request_sync(t.host_token, {"op": "start"})
    for seat in range(4):  # everyone takes Revenus twice and locks: the round reveals
        tok = dev if seat < 2 else phones[seat - 2]
        for action in ({"type": "pick", "cards": [REVENUS, REVENUS]}, {"type": "lock"}):
            t.request_sync(tok, {"op": "act", "seat": seat, "action": action})
    t.request_sync(t.host_token, {"op": "host_act", "action": {"type": "end_game"}})
    assert t.state["phase"] == "scoring" and S.to_do(t) == [0, 1]
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen
    assert S.uncover(scr, 0, S.state(scr).gen)
    card = {"type": "score", **{r: 1 for r in RESOURCES}, "places": 2}
    assert await S.DeviceContext(scr, 0).act(card)
    await _settle()
    assert S.state(scr).seat is None and S.to_do(t) == [1]
    shown = _shown(c)
    assert "Ann is done." in shown and "Pass to Bob" in shown and "Pass to Ann" not in shown, shown
    from companion.games.base import to_act  # (phones ask the same: no turn mark for a card that is in)
    assert not to_act(t.game, t.state, 0, t.legal(0)) and any(a["type"] == "score" for a in t.legal(0))
    assert to_act(t.game, t.state, 2, t.legal(2))  # (Cy's card is not in: his phone's turn)
    c.close()


async def test_the_device_is_drawn_first_at_a_change_not_behind_every_other_screen() -> None:
    """The device's change is its whole screen (its seat's screen → the cover and the reveal's moment):
    told first of a change (Table.subscribe first=True), it is sent in the change's first step, not
    after every phone's and the host's second step – the reveal reaches the table's last screen
    sooner (benchmarks/shared_seats.py, "device locks last"). Opened last, as at a real table."""
    from benchmarks.shared_seats import make_mixed, open_mixed, tap
    hub = Hub(MemoryStore())
    t, dev, phones = make_mixed(hub, "sealed_vote")
    every, device = await open_mixed(Server(hub, "http://x"), H.new_pubsub(), t, dev, phones)
    await H.quiet(every)
    for s in range(6):
        tok, seat = (phones[s], None) if s in phones else (dev, s)
        t.request_sync(tok, {"op": "act", "action": {"type": "submit", "value": "sv.yes"}}
                       | ({"seat": seat} if seat is not None else {}))
        if s != 5:
            t.request_sync(tok, {"op": "act", "action": {"type": "lock"}} | ({"seat": seat} if seat is not None else {}))
    await H.quiet(every)
    await tap(device, "uncover:5")
    await H.quiet(every)
    for c in every:
        c.conn.watch()  # type: ignore[union-attr]
    await t.request(dev, {"op": "act", "seat": 5, "action": {"type": "lock"}})  # the last lock: the reveal
    await H.quiet(every)
    assert t.state["round"]["revealed"] and S.state(device.screen).seat is None
    first = {c.route + ("#host" if c is every[-2] else ""): c.conn.first_after for c in every}  # type: ignore[union-attr]
    assert all(v is not None for v in first.values()), first
    assert device.conn.first_after <= min(c.conn.first_after for c in every), first  # type: ignore[union-attr,type-var]
    for c in every:
        c.close()


def test_a_listener_told_first_is_called_before_the_others() -> None:
    hub = Hub(MemoryStore())
    t, _, _ = _table(hub)
    calls: list[str] = []
    a, b, d = (lambda _t: calls.append("a")), (lambda _t: calls.append("b")), (lambda _t: calls.append("d"))
    t.subscribe(a)
    t.subscribe(b)
    t.subscribe(d, first=True)
    t.subscribe(a)  # (again: keeps its place)
    t.notify()
    assert calls == ["d", "a", "b"]
    t.unsubscribe(d)
    calls.clear()
    t.notify()
    assert calls == ["a", "b"]


async def test_a_turn_that_comes_while_a_seat_is_open_to_look_is_followed_by_the_cover() -> None:
    """Quo Vadis, Ann and Bob shared: Bob opens his screen only to look (Cy's turn); when Di's move
    makes it Ann's turn the device covers and asks for Ann. Ann opens hers to look during Cy's
    turn, her own turn comes while it is open, she places a senator: the cover comes back by
    itself ("Ann is done.", "Pass to Bob") – as when she was asked."""
    hub = Hub(MemoryStore())
    t = hub.create("quovadis", None, [dict(s) for s in SEATS], seed=4)
    dev = t.request_sync(t.host_token, {"op": "device"})["token"]
    phones = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in (2, 3)]
    t.request_sync(t.host_token, {"op": "start"})
    c = await _device(Server(hub, "http://x"), t, dev)
    scr = c.screen

    def place(seat: int) -> dict[str, Any]:  # a senator into the first committee with room
        return next({"type": "place", "node": a["node"]} for a in t.legal(seat) if a["type"] == "place")

    async def phones_play() -> None:
        for seat, p in zip((2, 3), phones, strict=True):
            t.request_sync(p, {"op": "act", "action": place(seat)})
            await _settle()
    for seat in (0, 1):  # Ann and Bob place when asked
        assert S.to_do(t) == [seat] and S.uncover(scr, seat, S.state(scr).gen)
        assert await S.DeviceContext(scr, seat).act(place(seat))
        await _settle()
        assert S.state(scr).seat is None
    assert S.to_do(t) == [] and S.uncover(scr, 1, S.state(scr).gen)  # Bob only looks
    await phones_play()
    assert S.state(scr).seat is None and "Pass to Ann" in _shown(c)  # Ann's turn: Bob's screen covered
    assert await S.DeviceContext(scr, 0).act(place(0)) is False  # (nothing acts for a covered seat)
    assert S.uncover(scr, 0, S.state(scr).gen) and await S.DeviceContext(scr, 0).act(place(0))
    await _settle()
    assert S.uncover(scr, 1, S.state(scr).gen) and await S.DeviceContext(scr, 1).act(place(1))
    await _settle()
    assert S.to_do(t) == [] and S.uncover(scr, 0, S.state(scr).gen)  # Ann only looks, Cy's turn
    await phones_play()
    assert S.state(scr).seat == 0 and S.to_do(t) == [0]  # her turn came: her screen stays open
    assert await S.DeviceContext(scr, 0).act(place(0))
    await _settle()
    shown = _shown(c)
    assert S.state(scr).seat is None and "Ann is done." in shown and "Pass to Bob" in shown, shown
    c.close()
