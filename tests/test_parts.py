"""Screens are cut into Flet components of immutable props (companion/ui/kit.py: component,
field; the game modules' parts too): a change at the table redraws only the parts that show it. Proved here on real Flet sessions (benchmarks/harness.py:
the same Session code the web server runs, over a connection that records what would be sent):

* a value being typed is never overwritten by another player's action, even when Flet has put
  the keystroke into the control and the change handler has not run yet;
* another player's lock redraws that player's seat row and the game part on each screen, not
  the past rounds, the join card, the top bar.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import flet as ft
from flet.components.component import Renderer  # pinned flet==1.0.5

from benchmarks import harness as H
from companion import i18n
from companion.games.base import RuleError
from companion.games.sealed_vote import screens as sv_ui
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui import kit
from companion.ui.screens import Screen, Server
from companion.ui.views import display as D
from companion.ui.views import moment as M


def name_of(props: Any) -> str:
    """The name of a slot's props ("name", ...): the game's part ("phone", "public":
    companion/ui/assemble/), the seat list ("seat list"); a seat's row is its props' class
    (seats.SeatRow: companion/ui/views/seats.py)."""
    return str(props[0]) if isinstance(props, tuple) else type(props).__name__


def walk(c: Any) -> Any:
    """Every control of a rendered tree (through components, containers and lists)."""
    if isinstance(c, list):
        for x in c:
            yield from walk(x)
        return
    if not isinstance(c, ft.BaseControl):
        return
    yield c
    for name in ("_b", "content", "controls", "views"):
        child = getattr(c, name, None)
        if child is not None:
            yield from walk(child)


def text_fields(client: H.Client) -> list[ft.TextField]:
    assert client.session is not None
    return [c for c in walk(client.session.page.views) if isinstance(c, ft.TextField)]


async def _table(phones: int = 3) -> tuple[Any, list[str], Server, Any]:
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    t, tokens = H.make_table(hub, phones)
    await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "number",
                                                                "question": "Bid", "min": 0, "max": 100}})
    return t, tokens, server, H.new_pubsub()


async def test_typing_survives_other_players_actions() -> None:
    t, tokens, server, pubsub = await _table()
    phone, = await H.open_table(server, pubsub, t, tokens[:1], host=False)
    await H.quiet([phone])
    (field,) = text_fields(phone)
    assert phone.session is not None  # the client's keystroke, patched into the control as Flet does
    phone.session.apply_patch(field._i, {"value": "42"})  # ... and its on_change has not run yet
    for tok in tokens[1:]:
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": 7}})
        await t.request(tok, {"op": "act", "action": {"type": "lock"}})
    await H.quiet([phone])
    assert phone.screen.seat == 0
    (again,) = text_fields(phone)
    assert again is field and again.value == "42"
    # the limits change (a new question): now the field is drawn afresh, with the new label
    await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "number",
                                                                "question": "Again", "min": 1, "max": 9}})
    await H.quiet([phone])
    (fresh,) = text_fields(phone)
    assert fresh is not field and "9" in str(fresh.label)
    phone.close()


async def test_another_players_lock_redraws_only_what_shows_it(monkeypatch: Any) -> None:
    # The reveals below are drawn at their end at once (views/moment.PLAY): played, each screen's
    # moment goes on by itself on timers (its cards turn after BACKS_S + FLIP_S – the game's part with
    # its past rounds comes under it then –, it closes HOLD_S later), and on a loaded machine those
    # steps of the last reveal fell inside the lock's count below.
    monkeypatch.setattr(M, "PLAY", False)
    t, tokens, server, pubsub = await _table(6)
    clients = await H.open_table(server, pubsub, t, tokens, host=True)
    for rnd in range(3):  # three rounds in the history
        for tok in tokens:
            await t.request(tok, {"op": "act", "action": {"type": "submit", "value": rnd}})
            await t.request(tok, {"op": "act", "action": {"type": "lock"}})
        await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "number",
                                                                    "question": f"R{rnd}", "min": 0, "max": 9}})
    for tok in tokens[1:]:
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": 5}})
    await H.quiet(clients)
    built: list[str] = []
    real = kit._made

    def counting(b: Any) -> Any:
        built.append(b.sig)
        return real(b)
    monkeypatch.setattr(kit, "_made", counting)
    # the views' own components (companion/ui/views/, kit.component): every one Flet renders again
    rendered: list[str] = []
    real_render = Renderer.render
    monkeypatch.setattr(Renderer, "render", lambda self, fn, *a, **k: rendered.append(fn.__name__)
                        or real_render(self, fn, *a, **k))
    past = []
    monkeypatch.setattr(sv_ui, "_past_round", lambda *a, real=sv_ui._past_round: past.append(1) or real(*a))
    frames: list[int] = []
    real_build = Screen.build
    monkeypatch.setattr(Screen, "build", lambda self: frames.append(1) or real_build(self))
    await t.request(tokens[1], {"op": "act", "action": {"type": "lock"}})
    await H.quiet(clients)
    assert frames == []  # no screen's frame is built again: only its game part and seat list
    names = [name_of(s) for s in built]
    seat_rows = [n for n in names if n == "SeatRow"]
    assert past == []  # no past round is drawn again on any of the 7 screens
    assert len(seat_rows) == 7  # on each screen: the one row of the player who locked, not the list
    assert not {"top", "print", "joincard", "controls", "part:round", "seat list"} & set(names), names
    assert not {"TopBar", "PrintCard", "JoinCard", "HostControls", "SeatHeader", "History", "PastRound",
                "AskForm", "_field"} & set(rendered), rendered
    # the game part: the locking phone's own and the host's count; the other phones' are unchanged
    assert names.count("phone") == 1 and names.count("public") == 1, names
    for c in clients:
        c.close()
    await asyncio.sleep(0)


async def test_a_view_component_is_drawn_again_only_when_its_props_change(monkeypatch: Any) -> None:
    """The views' fixed parts are Flet components of immutable props (kit.component): Flet passes
    them over while their props are equal, and draws them again – in the new words – when one
    changes (here the language)."""
    t, tokens, server, pubsub = await _table(2)
    clients = await H.open_table(server, pubsub, t, tokens, host=True)
    host = clients[-1]
    await H.quiet(clients)
    rendered: list[str] = []
    real_render = Renderer.render
    monkeypatch.setattr(Renderer, "render", lambda self, fn, *a, **k: rendered.append(fn.__name__)
                        or real_render(self, fn, *a, **k))
    host.screen.render(force=True)  # the whole screen drawn again, nothing it shows changed
    await H.quiet(clients)
    assert "Root" in rendered and not {"TopBar", "JoinCard", "HostControls", "PrintCard"} & set(rendered)
    rendered.clear()
    await host.screen.set_lang("de")
    await H.quiet(clients)
    assert {"TopBar", "JoinCard", "HostControls", "PrintCard"} <= set(rendered), rendered
    assert host.session is not None
    shown = [c.value for c in walk(host.session.page.views) if isinstance(c, ft.Text)]
    assert i18n.t("de", "ui.print.title") in shown and i18n.t("en", "ui.print.title") not in shown
    for c in clients:
        c.close()
    await asyncio.sleep(0)


def seat_list_texts(client: H.Client, n: int) -> list[str]:
    """The first n texts of the seat list on a screen, its heading first, as the session holds them."""
    assert client.session is not None
    texts = [c.value for c in walk(client.session.page.views) if isinstance(c, ft.Text)]
    start = texts.index(i18n.t("en", "ui.seats"))
    return texts[start:start + n]


def expected_seat_list(t: Any, seat: int | None, host_swap: int | None = None) -> list[str]:
    v = t.view(None)
    rnd = v["round"]
    out = [i18n.t("en", "ui.seats")]
    for i, s in enumerate(t.public_seats()):
        out.append(s["name"] + (f"  ({i18n.t('en', 'ui.you')})" if i == seat else ""))
        out.append(i18n.t("en", f"ui.status.{s['status']}"))
        mark = "locked" if i in rnd["locked"] else "submitted" if i in rnd["submitted"] else ""
        if mark:
            out.append(i18n.t("en", f"ui.status.{mark}"))
    if host_swap is not None:
        out.append(i18n.t("en", "ui.host.swap_hint", name=t.seats[host_swap]["name"]))
    return out


async def test_seat_list_follows_every_change() -> None:
    """Rows redrawn one by one (a phone waking, a choice, a lock), the list redrawn whole (the
    host picking a seat to swap, a new question), in random order: every screen's seat list
    shows the table as it is – also when the table comes back to a state drawn before."""
    t, tokens, server, pubsub = await _table(4)
    clients = await H.open_table(server, pubsub, t, tokens, host=True)
    host = clients[-1]
    await H.quiet(clients)
    # A row redrawn on its own, then the table back as it was while the host's screen was held
    # back, then that screen drawn whole: its seat list must not be passed over as unchanged.
    t.disconnect(0)
    await H.quiet(clients)
    H.mute([host], True)
    t.connect(0)
    H.mute([host], False)  # draws the host's screen whole
    await H.quiet(clients)
    assert seat_list_texts(host, 3) == expected_seat_list(t, None)[:3] == ["Seats", "P1", "here"]
    r = random.Random(5)
    for step in range(60):
        k, seat = r.randrange(6), r.randrange(4)
        if k == 0:
            t.disconnect(seat)
        elif k == 1:
            t.connect(seat)
        elif k in (2, 3):
            op = {"type": "submit", "value": r.randrange(10)} if k == 2 else {"type": "lock"}
            try:
                await t.request(tokens[seat], {"op": "act", "action": op})
            except RuleError:
                pass
        elif k == 4:  # the host taps a seat's swap button (a hint appears under the list) or taps it off
            scr = host.screen
            if scr.local.get("swap_from") is None:
                scr.local["swap_from"] = seat
            else:
                scr.local.pop("swap_from")
            scr.render(force=True)
        else:
            await t.request(t.host_token, {"op": "host_act", "action": {
                "type": "ask", "mode": "number", "question": f"Q{step}", "min": 0, "max": 9}})
        await H.quiet(clients, idle=0.01)
        for c in clients:
            want = expected_seat_list(t, None, host.screen.local.get("swap_from")) if c is host \
                else expected_seat_list(t, c.screen.seat)
            assert seat_list_texts(c, len(want)) == want, step
    for c in clients:
        c.close()
    await asyncio.sleep(0)


async def test_history_signed_once_per_state_and_right_after_undo(monkeypatch: Any) -> None:
    """The past rounds' signature is worked out once per state for all screens of the table
    (not once or more per screen), and an undone reveal followed by another vote shows the new
    votes in every screen's history."""
    t, tokens, server, pubsub = await _table(3)
    clients = await H.open_table(server, pubsub, t, tokens, host=True)

    async def vote(values: list[int], question: str) -> None:
        await t.request(t.host_token, {"op": "host_act", "action": {
            "type": "ask", "mode": "number", "question": question, "min": 0, "max": 9}})
        for tok, value in zip(tokens, values, strict=True):
            await t.request(tok, {"op": "act", "action": {"type": "submit", "value": value}})
        for tok in tokens:
            await t.request(tok, {"op": "act", "action": {"type": "lock"}})
        await H.quiet(clients)
    for rnd in range(3):
        await vote([rnd, rnd, rnd], f"R{rnd}")
    made: list[str] = []
    real = t.memo
    monkeypatch.setattr(t, "memo", lambda kind, make: real(kind, lambda: made.append(kind) or make()))
    await vote([1, 2, 3], "Before undo")
    history = [k for k in made if k.startswith("sv.history")]
    assert 0 < len(history) <= 2 * 7, made  # 7 states (a question, 3 votes, 3 locks), 4 screens
    for _ in range(2):  # the last lock, which revealed (its round's votes and locks go with it), the question
        await t.request(t.host_token, {"op": "undo"})
    await H.quiet(clients)
    await vote([7, 8, 9], "After undo")
    # (the game's part under a reveal's moment is drawn once the cards have turned: views/moment.Part)
    await asyncio.sleep(M.BACKS_S + D.FLIP_S + 0.3)
    await H.quiet(clients)
    for c in clients:
        texts = [x.value for x in walk(c.session.page.views) if isinstance(x, ft.Text)]  # type: ignore[union-attr]
        assert "Before undo" not in " ".join(texts) and "9" in texts, texts
    for c in clients:
        c.close()
    await asyncio.sleep(0)


def test_frozen_props_equal_exactly_for_equal_data() -> None:
    """A part is passed over when its data is equal, whether or not the data shares objects; a
    prop built from a view cannot be changed in place."""
    name = "Ada " * 10
    shared = [name, name, {"k": name, "n": 3}]
    fresh = json.loads(json.dumps(shared))
    assert kit.freeze(("x", shared)) == kit.freeze(("x", fresh))
    assert kit.freeze(("x", shared)) != kit.freeze(("x", [name, name, {"k": name, "n": 4}]))
    frozen = kit.freeze(shared)
    assert isinstance(frozen, tuple) and isinstance(frozen[2], kit.Frozen)
    for change in (lambda: frozen[2].__setitem__("n", 4), lambda: frozen[2].update(n=4), lambda: frozen[2].pop("n")):
        try:
            change()
        except TypeError:
            continue
        raise AssertionError("a frozen prop was changed")
    assert frozen[2] == {"k": name, "n": 3}


async def test_a_game_part_is_drawn_again_only_when_its_props_change(monkeypatch: Any) -> None:
    """A game module's part (here LUTETIA's track, players and log – Flet components of props
    built from the view) is drawn again by Flet when one of its props changes and passed over
    when they are all equal, however the screen around it is drawn again."""
    from companion.games.lutetia import screens as lt_ui
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    t, tokens = H.make_table(hub, 3, game="lutetia")
    pubsub = H.new_pubsub()
    clients = await H.open_table(server, pubsub, t, tokens, host=True)
    # (the host's own panel draws no track – the table display beside it does: a watcher's screen)
    host = H.Client(server, f"/host/{t.code}", {"lang": "en"})
    await host.open(pubsub)
    clients.append(host)
    await H.quiet(clients)
    assert host.screen.role == "watch"
    rendered: list[str] = []
    real_render = Renderer.render
    monkeypatch.setattr(Renderer, "render", lambda self, fn, *a, **k: rendered.append(fn.__name__)
                        or real_render(self, fn, *a, **k))
    tracks: list[Any] = []
    monkeypatch.setattr(lt_ui, "_track_card", lambda look, v, cell, real=lt_ui._track_card:
                        tracks.append(v["miraculix"]) or real(look, v, cell))
    host.screen.render(force=True)  # the whole host screen again: its game part with equal props
    await H.quiet(clients)
    assert "Root" in rendered and not {"Track", "Players", "Log"} & set(rendered), rendered
    assert tracks == []
    rendered.clear()
    await host.screen.set_lang("de")  # a changed prop (look: the language): all three drawn again
    await H.quiet(clients)
    assert {"Track", "Players", "Log"} <= set(rendered), rendered
    assert len(tracks) == 1
    assert host.session is not None
    shown = [c.value for c in walk(host.session.page.views) if isinstance(c, ft.Text)]
    assert i18n.t("de", "lutetia.ui.players") in shown and i18n.t("en", "lutetia.ui.players") not in shown
    for c in clients:
        c.close()
    await asyncio.sleep(0)


def test_seat_button_text_reads_on_every_seat_colour() -> None:
    """Text on a coloured seat button has ≥ 4.5:1 contrast for every seat colour (white on the
    yellow seat was 2.0:1)."""
    from companion.table.table import COLOURS
    from companion.ui import kit
    for c in COLOURS:
        b = kit.button("Sit as Ann", None, colour=c)
        assert kit.contrast(c, b.color) >= 4.5, (c, b.color)


def test_every_seat_colour_has_its_own_mark() -> None:
    """Seats differ by more than colour: each seat colour its own white mark in the dot."""
    from companion.table.table import COLOURS
    from companion.ui import kit
    marks = [kit.seat_mark(c) for c in COLOURS]
    assert len(set(marks)) == len(COLOURS)
    for c in COLOURS:
        assert kit.seat_dot(c, 22).content is not None


async def test_a_locked_phone_says_whom_it_still_waits_for() -> None:
    """After this phone locked, "Waiting for …" follows the other players' locks (the phone's
    part's props hold who has locked once it shows them; before, it kept the first list)."""
    t, tokens, server, pubsub = await _table(3)
    phone, = await H.open_table(server, pubsub, t, tokens[:1], host=False)
    for tok in tokens:
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": 3}})
    await t.request(tokens[0], {"op": "act", "action": {"type": "lock"}})
    await H.quiet([phone])

    def texts() -> list[str]:
        assert phone.session is not None
        return [c.value for c in walk(phone.session.page.views) if isinstance(c, ft.Text)]
    assert i18n.t("en", "ui.waiting_for", names=i18n.t("en", "ui.list_and", first="P2", last="P3")) in texts()
    await t.request(tokens[1], {"op": "act", "action": {"type": "lock"}})
    await H.quiet([phone])
    assert i18n.t("en", "ui.waiting_for", names="P3") in texts(), texts()
    phone.close()
    await asyncio.sleep(0)
