"""The shared device (pass-and-play, issue 29) on the REAL server, read frame by frame.

A sealed bid with two shared seats (Ann, Bob: one shared device) and two phones (Cy, Di). The
raw WebSocket frames the server sends to the shared device (tests/reliability/raw_client.py) are
read for the seats' private strings – each seat's secret bid:
- while the device is covered, no frame holds any seat's secret (a phone's, or a shared seat's
  after it was covered again) – and neither does the whole page sent again after a reload of
  the tab, even one made while a seat was uncovered;
- a tap on another seat's cover button while a seat is open (a forged uncover) opens nothing;
  an action replayed after "Done – cover" is refused and changes nothing;
- a seat with a PIN: a wrong PIN says so and opens nothing (nothing private is sent).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.table.store import SQLiteStore
from companion.table.table import Table
from tests.reliability.raw_client import RawClient
from tests.reliability.test_attacks import Server

CODE = "KLMN"
SECRET = {"Ann": 734519, "Bob": 615243, "Cy": 381727, "Di": 562913}


def prepared(data: Path, pin: str | None = None) -> tuple[str, dict[str, str]]:
    """The table before the server starts: (the device token, the phones' tokens). The phones have
    bid already (their secrets are in the state the server holds)."""
    store = SQLiteStore(data)
    t = Table.create(store, CODE, "sealed_vote", {"mode": "number", "min": 0, "max": 999999},
                     [{"name": "Ann", "shared": True}, {"name": "Bob", "shared": True}, {"name": "Cy"},
                      {"name": "Di"}], 5)
    dev = t.request_sync(t.host_token, {"op": "device"})["token"]
    if pin:
        t.request_sync(dev, {"op": "set_pin", "seat": 1, "pin": pin})  # Bob's
    phones = {n: t.request_sync(None, {"op": "join", "seat": i})["token"] for i, n in ((2, "Cy"), (3, "Di"))}
    t.request_sync(t.host_token, {"op": "start"})
    for n, tok in phones.items():
        t.request_sync(tok, {"op": "act", "action": {"type": "submit", "value": SECRET[n]}})
    store.close()
    return dev, phones


@pytest.fixture
def table_server(tmp_path: Path) -> Iterator[tuple[Server, Path, str]]:
    data = tmp_path / "data"
    dev, _ = prepared(data)
    srv = Server(data)
    try:
        yield srv, data, dev
    finally:
        srv.stop()


def _walk(x: Any, out: list[dict[str, Any]]) -> None:
    if isinstance(x, dict):
        out.append(x)
        for v in x.values():
            _walk(v, out)
    elif isinstance(x, list):
        for v in x:
            _walk(v, out)


def control_id(c: RawClient, key: str) -> int:
    """The id of the last control sent with this key."""
    found: list[dict[str, Any]] = []
    _walk(c.frames, found)
    ids = [d["_i"] for d in found if d.get("key") == key and isinstance(d.get("_i"), int)]
    assert ids, key
    return ids[-1]


def control_with_text(c: RawClient, cls: str, text: str) -> int:
    """The id of the last control of class `cls` whose own text (or content's) is `text`."""
    found: list[dict[str, Any]] = []
    _walk(c.frames, found)
    ids = [d["_i"] for d in found if d.get("_c") == cls and (d.get("content") == text or (
        isinstance(d.get("content"), dict) and d["content"].get("value") == text))]
    assert ids, (cls, text)
    return ids[-1]


def secrets_in(frames: list[Any], who: list[str]) -> list[str]:
    dump = json.dumps(frames, default=str)
    return [n for n in who if str(SECRET[n]) in dump]


async def settle(c: RawClient, seconds: float = 0.6) -> None:
    await asyncio.sleep(seconds)


async def test_covered_the_shared_device_receives_no_secret_not_even_after_a_reload(
        table_server: tuple[Server, Path, str]) -> None:
    srv, _data, dev = table_server
    everyone = list(SECRET)
    c = RawClient(srv.base, f"/shared/{CODE}", prefs={f"shared:{CODE}": dev})
    await c.open()
    try:
        assert await c.wait_for("Pass to Ann")
        await settle(c)
        assert secrets_in(c.frames, everyone) == []  # the cover: public facts only
        assert not any("Your bid" in t for t in c.texts())
        # Ann opens her screen and bids; her own screen (only) shows her bid
        await c.event(control_id(c, "uncover:0"), "click")
        assert await c.wait_for("Ann's screen")
        field = control_with_text(c, "FilledButton", "Submit")
        tf = [d for d in _all(c) if d.get("_c") == "TextField" and "Your bid" in str(d.get("label"))][-1]["_i"]
        await c.forge({"value": str(SECRET["Ann"])}, tf)
        await c.event(tf, "change", str(SECRET["Ann"]))
        await c.event(field, "click")
        assert await c.wait_for(f"Your choice: {SECRET['Ann']}")
        assert secrets_in(c.frames, ["Bob", "Cy", "Di"]) == []
        # a reload while Ann's screen is open: the page comes back on the cover
        sid = c.session_id
        await c.close()
        await asyncio.sleep(1.0)
        again = RawClient(srv.base, f"/shared/{CODE}", prefs={f"shared:{CODE}": dev}, session_id=sid)
        await again.open()
        try:
            assert await again.wait_for("Pass to Ann")
            await settle(again)
            # (the tab asked for its old session; the device's session ended when its socket went,
            # so the reload gets a new one: it never held a private screen)
            assert again.session_id and again.session_id != sid
            assert secrets_in(again.frames, everyone) == []
            assert not any("Ann's screen" in t for t in again.texts())
        finally:
            await again.close()
    finally:
        await c.close()


def _all(c: RawClient) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    _walk(c.frames, found)
    return found


async def test_a_forged_uncover_and_a_replay_after_the_cover_are_refused(
        table_server: tuple[Server, Path, str]) -> None:
    srv, data, dev = table_server
    c = RawClient(srv.base, f"/shared/{CODE}", prefs={f"shared:{CODE}": dev})
    await c.open()
    try:
        assert await c.wait_for("Pass to Ann")
        await settle(c)
        ann, bob = control_id(c, "uncover:0"), control_id(c, "uncover:1")
        await c.event(ann, "click")
        assert await c.wait_for("Ann's screen")
        lock = control_with_text(c, "FilledButton", "Lock my choice")
        submit = control_with_text(c, "FilledButton", "Submit")
        tf = [d for d in _all(c) if d.get("_c") == "TextField" and "Your bid" in str(d.get("label"))][-1]["_i"]
        await c.forge({"value": str(SECRET["Ann"])}, tf)
        await c.event(tf, "change", str(SECRET["Ann"]))
        await c.event(submit, "click")
        assert await c.wait_for(f"Your choice: {SECRET['Ann']}")
        # Ann's screen is open: a tap on Bob's cover button (gone from the page) opens nothing
        mark = len(c.frames)
        await c.event(bob, "click")
        await settle(c)
        assert not any("Bob's screen" in t for t in RawClient_texts(c.frames[mark:]))
        # "Done – cover"; then Ann's lock replayed: refused, nothing private sent
        await c.event(control_id(c, "cover"), "click")
        assert await c.wait_for("Then: Bob")
        await settle(c)
        mark = len(c.frames)
        for target in (lock, submit):
            await c.event(target, "click")
        await settle(c, 1.0)
        assert secrets_in(c.frames[mark:], list(SECRET)) == []
        assert not any("Ann's screen" in t for t in RawClient_texts(c.frames[mark:]))
    finally:
        await c.close()
    srv.stop()
    t = Table.load(SQLiteStore(data), CODE)
    assert 0 not in t.view(None)["round"]["locked"]  # the replayed lock did nothing
    assert t.view(0)["round"]["mine"] == SECRET["Ann"]  # (her bid went through while she was uncovered)


def RawClient_texts(frames: list[Any]) -> list[str]:  # noqa: N802
    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            out.append(x)
    walk(frames)
    return out


async def test_a_wrong_pin_opens_nothing_and_sends_nothing_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    dev, _ = prepared(data, pin="2468")
    srv = Server(data)
    try:
        c = RawClient(srv.base, f"/shared/{CODE}", prefs={f"shared:{CODE}": dev})
        await c.open()
        try:
            assert await c.wait_for("Then: Bob")
            await settle(c)
            await c.event(control_id(c, "uncover:1"), "click")  # Bob's button: his PIN is asked for
            assert await c.wait_for("Bob's PIN")
            field = control_id(c, "pin:1")
            for wrong in ("1111", "2467", "", "24681"):
                await c.forge({"value": wrong}, field)
                await c.event(field, "submit")
                await settle(c)
                assert any("Wrong PIN: nothing opened." in x for x in c.texts())
            assert not any("Bob's screen" in x for x in c.texts())
            assert secrets_in(c.frames, list(SECRET)) == []
            await c.forge({"value": "2468"}, field)
            await c.event(field, "submit")
            assert await c.wait_for("Bob's screen")
            assert secrets_in(c.frames, ["Ann", "Cy", "Di"]) == []
        finally:
            await c.close()
    finally:
        srv.stop()
