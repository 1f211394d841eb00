"""Shared seats (pass-and-play, issue 29): a seat played on the table's shared device.

The host marks a seat shared (before or during the game), a phone cannot take it, it counts as
seated for starting and playing, the shared device acts for shared seats only, the log and a
rematch keep it all."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.games.base import RuleError
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.table.table import Table

SEATS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}, {"name": "Dan"}]
OPTS = {"mode": "number", "min": 0, "max": 20}


def table(hub: Hub | None = None, seats=SEATS) -> Table:
    hub = hub or Hub(MemoryStore())
    return hub.create("sealed_vote", OPTS, seats, seed=3)


def refused(t: Table, token, op) -> str:
    with pytest.raises(RuleError) as e:
        t.request_sync(token, op)
    return e.value.key


def test_a_shared_seat_is_not_offered_to_phones_and_counts_as_seated():
    t = table()
    h = t.host_token
    t.request_sync(h, {"op": "share", "seat": 0, "shared": True})
    t.request_sync(h, {"op": "share", "seat": 2, "shared": True})
    assert t.shared_seats() == [0, 2] and t.free_seats() == [1, 3]
    assert [s["status"] for s in t.public_seats()] == ["shared", "free", "shared", "free"]
    assert refused(t, None, {"op": "join", "seat": 0}) == "tbl.err.seat_shared"
    b = t.request_sync(None, {"op": "join", "seat": 1})["token"]
    t.request_sync(None, {"op": "join", "seat": 3})
    assert refused(t, None, {"op": "join", "seat": 2}) == "tbl.err.full"  # the shared seats are taken
    t.request_sync(h, {"op": "start"})
    assert t.phase == "playing" and t.seat_of(b) == 1
    # a spectator cannot be seated on a shared seat either
    w = t.request_sync(None, {"op": "spectate", "name": "Wen"})["token"]
    assert refused(t, h, {"op": "seat", "seat": 0, "token": w}) == "tbl.err.seat_shared"


def test_only_the_host_marks_seats_and_only_with_a_yes_or_no():
    t = table()
    b = t.request_sync(None, {"op": "join", "seat": 1})["token"]
    for tok in (None, "", b, "forged"):
        assert refused(t, tok, {"op": "share", "seat": 0, "shared": True}) == "err.host_only"
    h = t.host_token
    assert refused(t, h, {"op": "share", "seat": 9, "shared": True}) == "tbl.err.no_seat"
    assert refused(t, h, {"op": "share", "seat": 0, "shared": "yes"}) == "err.unknown_action"
    assert refused(t, h, {"op": "share", "seat": 0, "shared": False}) == "tbl.err.not_shared"
    t.request_sync(h, {"op": "share", "seat": 0, "shared": True})
    assert refused(t, h, {"op": "share", "seat": 0, "shared": True}) == "tbl.err.shared_already"
    assert t.shared_seats() == [0]


def test_a_phone_seat_becomes_shared_and_back_during_the_game():
    t = table()
    h = t.host_token
    toks = [t.request_sync(None, {"op": "join", "seat": i, "name": n})["token"]
            for i, n in enumerate(["Ann", "Bob", "Cleo", "Dan"])]
    t.request_sync(h, {"op": "start"})
    t.request_sync(h, {"op": "share", "seat": 1, "shared": True})  # Bob's phone died
    assert t.seat_of(toks[1]) is None and t.seat_status(1) == "shared"
    assert refused(t, toks[1], {"op": "act", "action": {"type": "submit", "value": 3}}) == "tbl.err.bad_token"
    t.request_sync(h, {"op": "share", "seat": 1, "shared": False})  # Bob's phone is charged again
    assert t.seat_status(1) == "free" and not t.shared_seats()
    w = t.request_sync(None, {"op": "spectate", "name": "Bob"})["token"]
    t.request_sync(h, {"op": "seat", "seat": 1, "token": w})
    assert t.seat_of(w) == 1
    # every screen is told (a shared seat's private screen is on the shared device now)
    assert t.host_moves == [{"op": "share", "name": "Bob"}, {"op": "unshare", "name": "Bob"}]


def test_the_shared_device_acts_for_shared_seats_only():
    t = table()
    h = t.host_token
    t.request_sync(h, {"op": "share", "seat": 0, "shared": True})
    t.request_sync(h, {"op": "share", "seat": 1, "shared": True})
    c = t.request_sync(None, {"op": "join", "seat": 2})["token"]
    t.request_sync(None, {"op": "join", "seat": 3})
    assert not t.device_token and not t.is_device("")
    dev = t.request_sync(h, {"op": "device"})["token"]
    assert t.is_device(dev) and not t.is_host(dev) and t.seat_of(dev) is None
    assert refused(t, dev, {"op": "device"}) == "err.host_only"
    t.request_sync(h, {"op": "start"})
    t.request_sync(dev, {"op": "act", "seat": 0, "action": {"type": "submit", "value": 4}})
    t.request_sync(dev, {"op": "act", "seat": 1, "action": {"type": "submit", "value": 5}})
    assert t.actions[0]["seat"] == 0 and t.actions[1]["seat"] == 1
    for op in ({"op": "act", "seat": 2, "action": {"type": "submit", "value": 6}},  # a phone's seat
               {"op": "act", "action": {"type": "submit", "value": 6}},  # no seat
               {"op": "act", "seat": None, "action": {"type": "reveal"}},  # the host's
               {"op": "rename", "seat": 0, "name": "X"}, {"op": "leave", "seat": 0}):
        assert refused(t, dev, op) == "tbl.err.not_shared_seat"
    # a new shared device replaces the old one: the old token is worth nothing any more
    dev2 = t.request_sync(h, {"op": "device"})["token"]
    assert dev2 != dev and not t.is_device(dev)
    assert refused(t, dev, {"op": "act", "seat": 0, "action": {"type": "lock"}}) == "tbl.err.bad_token"
    t.request_sync(c, {"op": "act", "action": {"type": "submit", "value": 6}})


def test_swap_moves_the_shared_mark_with_the_device():
    t = table()
    h = t.host_token
    t.request_sync(h, {"op": "share", "seat": 0, "shared": True})
    b = t.request_sync(None, {"op": "join", "seat": 1, "name": "Bob"})["token"]
    t.request_sync(h, {"op": "swap", "a": 0, "b": 1})
    assert t.seat_of(b) == 0 and t.shared_seats() == [1] and t.seats[1]["name"] == "Ann"


def test_the_log_and_a_restart_keep_shared_seats_and_the_device():
    store = MemoryStore()
    hub = Hub(store)
    t = table(hub, [{"name": "Ann", "shared": True}, {"name": "Bob"}, {"name": "Cleo", "shared": "x"}])
    h = t.host_token
    assert t.shared_seats() == [0]  # (only a real yes marks a seat on the create screen)
    t.request_sync(h, {"op": "share", "seat": 2, "shared": True})
    dev = t.request_sync(h, {"op": "device"})["token"]
    t.request_sync(None, {"op": "join", "seat": 1})
    t.request_sync(h, {"op": "start"})
    again = Table.load(store, t.code)
    assert again.shared_seats() == [0, 2] and again.is_device(dev)
    assert again.public_seats() == t.public_seats()
    assert [e["k"] for e in store.entries(t.code)][:3] == ["create", "share", "device"]


def test_a_rematch_keeps_which_seats_are_shared_and_the_device():
    hub = Hub(MemoryStore())
    t = table(hub)
    h = t.host_token
    t.request_sync(h, {"op": "share", "seat": 0, "shared": True})
    t.request_sync(h, {"op": "share", "seat": 3, "shared": True})
    dev = t.request_sync(h, {"op": "device"})["token"]
    b = t.request_sync(None, {"op": "join", "seat": 1, "name": "Bob"})["token"]
    t.request_sync(None, {"op": "join", "seat": 2})
    t.request_sync(h, {"op": "start"})
    t.request_sync(h, {"op": "end"})
    new = hub.rematch(t.code)
    assert new.shared_seats() == [0, 3] and new.is_device(dev) and new.seat_of(b) == 1
    assert [s["name"] for s in new.seats] == ["Ann", "Bob", "Cleo", "Dan"]
    assert new.phase == "playing"


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_new_words_exist_in_every_language(lang):
    keys = {"tbl.err.seat_shared": {"name": "Ann"}, "tbl.err.shared_already": {"name": "Ann"},
            "tbl.err.not_shared": {"name": "Ann"}, "tbl.err.not_shared_seat": {},
            "ui.status.shared": {}, "ui.moves.share": {"name": "Ann"}, "ui.moves.unshare": {"name": "Ann"}}
    for key, params in keys.items():
        text = i18n.t(lang, key, **params)
        assert text != key and "{" not in text, (lang, key)
    assert i18n.t(lang, "ui.moves.share", name="Ann") != i18n.t("en" if lang != "en" else "de",
                                                                 "ui.moves.share", name="Ann")


# ---------------------------------------------------------------- the host's screens (in-process)

async def _host_client(hub: Hub, route: str, prefs: dict) -> object:
    import benchmarks.harness as H
    from companion.ui import boot
    from companion.ui.screens import Server

    reset = boot.CONN.set(boot.Conn("127.0.0.1", {}))  # the host's own computer
    try:
        return await H.Client(Server(hub, "http://companion.test"), route, prefs).open(H.new_pubsub())
    finally:
        boot.CONN.reset(reset)


def _icon_button(controls, tip: str):
    import flet as ft

    from tests import ui_harness as U
    found = [c for c in U.controls_of(controls) if isinstance(c, ft.IconButton) and c.tooltip == tip]
    assert found, tip
    return found[0]


async def test_the_create_screen_marks_seats_shared():
    import flet as ft

    from tests import ui_harness as U
    hub = Hub(MemoryStore())
    c = await _host_client(hub, "/", {"lang": "de"})
    scr = c.screen
    boxes = [x for x in U.controls_of(scr.create_form()) if isinstance(x, ft.Checkbox)]
    assert len(boxes) == 4 and boxes[1].label == "Gemeinsames Gerät"
    assert boxes[1].tooltip == "Platz 2 spielt an einem gemeinsamen Gerät (ohne Handy)"
    boxes[1].value = True
    await boxes[1].on_change(type("E", (), {"control": boxes[1]})())
    form = scr.create_form()
    await U.buttons(form)[scr.t("ui.create.go")].on_click(None)
    (t,) = hub.loaded()
    assert t.shared_seats() == [1] and t.free_seats() == [0, 2, 3]
    c.close()


async def test_table_admin_moves_a_seat_to_the_shared_device_and_back_with_a_confirmation():
    from tests import ui_harness as U
    hub = Hub(MemoryStore())
    t = table(hub)
    tok = t.request_sync(None, {"op": "join", "seat": 0, "name": "Ann"})["token"]
    c = await _host_client(hub, f"/host/{t.code}", {f"host:{t.code}": t.host_token, "lang": "en"})
    scr = c.screen
    rows = [fn() for _, fn in scr.seat_section(True).rows]
    await _icon_button(rows, "Move Ann to the shared device").on_click(None)
    dlg = c.session.page._dialogs.controls[-1]
    assert U.text(dlg.title) == "Move Ann to the shared device?" and "A phone on this seat leaves it" in U.text(dlg.content)
    assert t.shared_seats() == []  # nothing before the yes
    await U.buttons(dlg.actions)["Use the shared device"].on_click(None)
    assert t.shared_seats() == [0] and t.seat_of(tok) is None
    t.request_sync(t.host_token, {"op": "start"})
    rows = [fn() for _, fn in scr.seat_section(True).rows]
    assert "shared device" in U.texts(rows[0])
    await _icon_button(rows, "Free Ann's seat for a phone").on_click(None)
    dlg = c.session.page._dialogs.controls[-1]
    assert "Every screen will show that you freed it" in U.text(dlg.content)
    await U.buttons(dlg.actions)["Free for a phone"].on_click(None)
    assert t.shared_seats() == [] and t.free_seats() == [0, 1, 2, 3]
    assert "The host took Ann off the shared device: the seat is free for a phone." in U.texts(scr.host_moves_card())
    c.close()


# ---------------------------------------------------------------- a shared seat's PIN (step 3)

def test_a_pin_is_set_once_by_the_device_stored_hashed_checked_and_reset_by_the_host():
    store = MemoryStore()
    hub = Hub(store)
    t = table(hub)
    h = t.host_token
    t.request_sync(h, {"op": "share", "seat": 0, "shared": True})
    dev = t.request_sync(h, {"op": "device"})["token"]
    b = t.request_sync(None, {"op": "join", "seat": 1})["token"]
    t.request_sync(h, {"op": "start"})
    assert t.check_pin(0, "") and not t.has_pin(0)  # no PIN: a tap opens the seat
    for bad in ("123", "12345", "abcd", 1234, None):
        assert refused(t, dev, {"op": "set_pin", "seat": 0, "pin": bad}) == "tbl.err.pin_digits"
    assert refused(t, b, {"op": "set_pin", "seat": 0, "pin": "1234"}) == "err.unknown_action"  # a phone
    assert refused(t, dev, {"op": "set_pin", "seat": 1, "pin": "1234"}) == "tbl.err.not_shared_seat"
    t.request_sync(dev, {"op": "set_pin", "seat": 0, "pin": "2580"})
    entry = store.entries(t.code)[-1]
    assert entry["k"] == "pin" and "2580" not in str(entry) and len(entry["pin"]) == 16 + 1 + 64  # hashed
    assert t.has_pin(0) and t.public_seats()[0].get("pin") is True
    assert refused(t, dev, {"op": "set_pin", "seat": 0, "pin": "1111"}) == "tbl.err.pin_set"
    assert not t.check_pin(0, "1111") and t.check_pin(0, "2580")
    again = Table.load(store, t.code)
    assert again.check_pin(0, "2580") and not again.check_pin(0, "0000")
    assert refused(t, dev, {"op": "reset_pin", "seat": 0}) == "err.host_only"
    t.request_sync(h, {"op": "reset_pin", "seat": 0})
    assert not t.has_pin(0) and t.check_pin(0, "")
    assert t.host_moves[-1] == {"op": "pin_reset", "name": "Ann"}  # every screen says so
    assert refused(t, h, {"op": "reset_pin", "seat": 0}) == "tbl.err.no_pin"
    # a forged pin entry (not a hash) never gets into the log
    with pytest.raises(RuleError):
        t.submit_sync({"k": "pin", "seat": 0, "pin": "2580"})


def test_wrong_pins_in_a_row_make_the_device_wait():
    t = table()
    h = t.host_token
    t.request_sync(h, {"op": "share", "seat": 2, "shared": True})
    dev = t.request_sync(h, {"op": "device"})["token"]
    t.request_sync(dev, {"op": "set_pin", "seat": 2, "pin": "4711"})
    for i in range(5):
        assert not t.check_pin(2, f"000{i}", now=100.0 + i)
    with pytest.raises(RuleError) as e:
        t.check_pin(2, "4711", now=106.0)  # even the right one, for now
    assert e.value.key == "tbl.err.pin_wait" and e.value.params["seconds"] == 24
    assert t.check_pin(2, "4711", now=131.0)  # 30 s after the first wrong try


def test_giving_a_seat_back_drops_its_pin_and_a_rematch_keeps_it():
    hub = Hub(MemoryStore())
    t = table(hub)
    h = t.host_token
    for s in (0, 1):
        t.request_sync(h, {"op": "share", "seat": s, "shared": True})
    dev = t.request_sync(h, {"op": "device"})["token"]
    t.request_sync(dev, {"op": "set_pin", "seat": 0, "pin": "1357"})
    t.request_sync(dev, {"op": "set_pin", "seat": 1, "pin": "2468"})
    t.request_sync(h, {"op": "share", "seat": 1, "shared": False})
    t.request_sync(h, {"op": "share", "seat": 1, "shared": True})
    assert not t.has_pin(1)
    t.request_sync(h, {"op": "start"})
    t.request_sync(h, {"op": "end"})
    new = hub.rematch(t.code)
    assert new.check_pin(0, "1357") and not new.check_pin(0, "2468") and not new.has_pin(1)
