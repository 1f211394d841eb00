"""The first screen without asking the browser (companion/ui/boot.py): the page reads the seat
token, the saved language and the device's language from localStorage into a short-lived
cookie; the WebSocket handshake brings it; the session draws its first screen from it in one
message. A cookie that does not fit is ignored and the browser is asked, as before."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import msgpack
import pytest
from flet.messaging.protocol import MessageAction

from benchmarks import harness as H
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui import boot
from companion.ui.boot import Boot
from companion.ui.screens import Server
from tests.web_client import app_client


def cookie(**values: Any) -> str:
    return f"{boot.COOKIE}={quote(json.dumps(values))}"


def test_parse_reads_the_cookie_and_nothing_else() -> None:
    c = cookie(l="de", n="fr-CH", k="seat:ABCD", v="tok")
    assert boot.parse(f"a=1; {c}; b=2") == Boot("de", "fr-CH", "seat:ABCD", "tok")
    assert boot.parse(cookie(l=None, n="en-US", k=None, v=None)) == Boot(None, "en-US", None, None)
    assert boot.parse("a=1; tc_boot_x=2") is None
    assert boot.parse(f"{boot.COOKIE}=") is None
    assert boot.parse(f"{boot.COOKIE}=%7Bnot-json") is None
    assert boot.parse(f"{boot.COOKIE}={quote('[1, 2]')}") is None
    assert boot.parse(f"{boot.COOKIE}={'x' * (boot.MAX_BYTES + 1)}") is None
    # values of the wrong kind (or absurdly long) count as absent
    assert boot.parse(cookie(l=3, n=["x"], k={"a": 1}, v="t" * 300)) == Boot(None, None, None, None)
    scope = {"headers": [(b"host", b"x"), (b"cookie", c.encode())]}
    assert boot.from_scope(scope) == Boot("de", "fr-CH", "seat:ABCD", "tok")
    assert boot.from_scope({"headers": []}) is None


def test_the_page_carries_the_script_unless_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    with app_client() as c:
        html = c.get("/t/ABCD", headers={"Accept": "text/html"}).text
        assert html.count(f'"{boot.COOKIE}="') == 1 and "flutter." in html
        assert "history.replaceState" in html  # the stored token into the address
        assert html.index(boot.COOKIE) < html.index("var flet")  # before any of Flet's scripts
    monkeypatch.setenv("COMPANION_BOOT_COOKIE", "0")
    with app_client() as c:
        assert boot.COOKIE not in c.get("/t/ABCD", headers={"Accept": "text/html"}).text


def test_the_pages_own_scripts_are_one_inline_script_first_in_head() -> None:
    """Locale guard, vibration, chime and boot cookie run as ONE inline script at the top of <head>
    (in that order): on a slow phone every inline script is a main-thread task of its own, compiled
    without a code cache (issue 31.4, benchmarks/phone_trace)."""
    from companion.page import SOUND_JS, TURN_JS

    with app_client() as c:
        html = c.get("/t/ABCD", headers={"Accept": "text/html"}).text
    head = html[html.index("<head>"):html.index("</head>")]
    first = head[head.index("<script"):]
    first = first[:first.index("</script>")]
    assert head[len("<head>"):].lstrip().startswith("<script>")  # nothing of Flet's before it
    marks = ["Intl.getCanonicalLocales", "navigator.vibrate", "__tcChimes", f'"{boot.COOKIE}="']
    at = [first.find(m) for m in marks]
    assert all(i >= 0 for i in at) and at == sorted(at), at
    others = re.findall(r"<script>(.*?)</script>", html, flags=re.S)[1:]
    assert not any(marker in sc for sc in others
                   for marker in ("Intl.getCanonicalLocales", "navigator.vibrate", "__tcChimes"))
    assert TURN_JS.strip() not in html and SOUND_JS.strip() not in html  # not as scripts of their own


class Recorder(H.FakeConnection):
    """The benchmark's browser, also keeping every message in order."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.log: list[tuple[int, Any]] = []

    def send_message(self, message: Any) -> None:
        self.log.append((message.action, message.body))
        super().send_message(message)


def _table() -> tuple[Any, list[str], Server]:
    hub = Hub(MemoryStore())
    t, tokens = H.make_table(hub, 2)
    return t, tokens, Server(hub, "http://10.0.0.2:8550")


async def _open(server: Server, route: str, prefs: dict[str, Any], hint: Boot | None,
                monkeypatch: pytest.MonkeyPatch) -> tuple[H.Client, list[tuple[int, Any]]]:
    monkeypatch.setattr(H, "FakeConnection", Recorder)
    boot.BOOT.set(hint)
    c = await H.Client(server, route, prefs).open(H.new_pubsub())
    await H.quiet([c])
    assert c.conn is not None
    assert isinstance(c.conn, Recorder)
    return c, c.conn.log


def _asked(log: list[tuple[int, Any]]) -> list[str]:
    return [b.name for a, b in log if a == MessageAction.INVOKE_METHOD]


def _patches(log: list[tuple[int, Any]]) -> list[bytes]:
    """The patches sent, packed as on the socket (to look for a text in them)."""
    return [msgpack.packb(b.patch, default=H._ENCODE) for a, b in log if a == MessageAction.PATCH_CONTROL]


async def test_a_returning_phone_is_drawn_from_the_cookie_in_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    t, tokens, server = _table()
    # storage would say otherwise: the screen must not have asked it
    c, log = await _open(server, f"/t/{t.code}", {"lang": "fr"},
                         Boot("de", "en-US", f"seat:{t.code}", tokens[1]), monkeypatch)
    scr = c.screen
    assert (scr.seat, scr.token, scr.lang) == (1, tokens[1], "de")
    assert _asked(log) == ["push_route"]  # no storage, no device info: only the address
    push = next(i for i, (a, _) in enumerate(log) if a == MessageAction.INVOKE_METHOD)
    before = _patches(log[:push])
    # the seat screen (both names in it) in one message, before the address moves
    assert [b"P1" in p and b"P2" in p for p in before].count(True) == 1
    assert log[push][1].args["route"] == f"/t/{t.code}?s={tokens[1]}"
    assert t.presence.get(1) == 1  # counted present
    c.close()


async def test_the_page_put_the_stored_token_in_the_address_nothing_to_send_but_the_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's script has put the stored token into the address (BOOT_JS): the session neither
    moves the address nor stores the token again – the first screen is all it sends."""
    t, tokens, server = _table()
    c, log = await _open(server, f"/t/{t.code}?s={tokens[0]}", {},
                         Boot("fr", "en", f"seat:{t.code}", tokens[0]), monkeypatch)
    assert (c.screen.seat, c.screen.lang) == (0, "fr")
    assert _asked(log) == []
    c.close()
    # a token in the address that storage does not hold (yet) is stored, as before
    c, log = await _open(server, f"/t/{t.code}?s={tokens[1]}", {},
                         Boot("fr", "en", f"seat:{t.code}", None), monkeypatch)
    assert c.screen.seat == 1 and _asked(log) == ["set"]
    c.close()


async def test_a_new_phone_takes_its_language_from_the_device(monkeypatch: pytest.MonkeyPatch) -> None:
    t, _tokens, server = _table()
    c, log = await _open(server, f"/t/{t.code}", {}, Boot(None, "fr-BE", f"seat:{t.code}", None), monkeypatch)
    assert (c.screen.seat, c.screen.token, c.screen.lang) == (None, None, "fr")
    assert _asked(log) == []
    c.close()


async def test_a_cookie_for_another_page_or_a_stale_token_is_not_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    t, tokens, server = _table()
    # read for another table: the browser is asked (and its answer is used)
    c, log = await _open(server, f"/t/{t.code}", {f"seat:{t.code}": tokens[0], "lang": "en"},
                         Boot("de", "de-DE", "seat:ZZZZ", "nope"), monkeypatch)
    assert "get" in _asked(log) and "get_device_info" in _asked(log)
    assert (c.screen.seat, c.screen.lang) == (0, "en")
    c.close()
    # a token that is no seat's: the join screen, as with a stale token from storage
    c, log = await _open(server, f"/t/{t.code}", {}, Boot("en", "en", f"seat:{t.code}", "stale"), monkeypatch)
    assert c.screen.seat is None and "push_route" not in _asked(log)
    c.close()


async def test_a_host_is_drawn_from_the_cookie(monkeypatch: pytest.MonkeyPatch) -> None:
    t, _tokens, server = _table()
    c, log = await _open(server, f"/host/{t.code}", {}, Boot(None, "de", f"host:{t.code}", t.host_token),
                         monkeypatch)
    assert (c.screen.role, c.screen.lang) == ("host", "de")
    # drawn from the boot cookie, and the key never moved into the address (the table reads it)
    assert "push_route" not in _asked(log) and "get" not in _asked(log)
    c.close()


def test_the_socket_handshake_hands_the_cookie_to_the_session() -> None:
    """Through the whole app: the Cookie header of the WebSocket handshake reaches the session."""
    hub = Hub(MemoryStore())
    t, tokens = H.make_table(hub, 2)
    with app_client(hub) as client:
        headers = {"cookie": cookie(l="fr", n="en", k=f"seat:{t.code}", v=tokens[0])}
        with client.websocket_connect("/ws", headers=headers) as ws:
            register = {"session_id": None, "page_name": f"t/{t.code}",
                        "page": {"route": f"/t/{t.code}", "web": True, "width": 412.0, "height": 860.0,
                                 "platform": "android"}}
            ws.send_bytes(b"\x00" + msgpack.packb([MessageAction.REGISTER_CLIENT.value, register]))
            seen: list[Any] = []
            while not any(m[0] == MessageAction.INVOKE_METHOD.value for m in seen):
                seen.append(msgpack.unpackb(ws.receive_bytes()[1:], strict_map_key=False))
            asked = [m[1]["name"] for m in seen if m[0] == MessageAction.INVOKE_METHOD.value]
            assert asked == ["push_route"], asked  # the token and language came with the handshake
            assert "P1" in str(seen)  # the seat screen, drawn before the address changed


async def test_the_storage_service_comes_when_first_used_and_on_the_sessions_own_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone drawn from the cookie registers no storage service at start (one socket message
    fewer before a slow phone's first screen, issue 31.4); used later – even from code running in
    another session's context, as inside a pubsub callback, where `ft.context.page` is the
    sender's page – it is registered on this session's own page."""
    from flet.controls.context import _context_page

    t, tokens, server = _table()
    other, _ = await _open(server, f"/t/{t.code}?s={tokens[0]}", {},
                           Boot("en", "en", f"seat:{t.code}", tokens[0]), monkeypatch)
    c, log = await _open(server, f"/t/{t.code}?s={tokens[1]}", {f"seat:{t.code}": tokens[1], "sound:phone": "on"},
                         Boot("en", "en", f"seat:{t.code}", tokens[1]), monkeypatch)
    scr = c.screen

    def services(page: Any) -> list[str]:
        return [type(s).__name__ for s in page._services._services]

    assert services(scr.page) == [] and _asked(log) == []
    assert b"SharedPreferences" not in b"".join(_patches(log))
    mark = _context_page.set(other.screen.page)  # (the sender's page, as in a pubsub callback)
    try:
        assert await scr._get("sound:phone") == "on"
    finally:
        _context_page.reset(mark)
    assert services(scr.page) == ["SharedPreferences"] and _asked(log) == ["get"]
    assert "SharedPreferences" not in services(other.screen.page)
    assert scr.prefs is scr.prefs  # made once
    c.close()
    other.close()
