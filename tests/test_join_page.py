"""Issue 31.4: the join screen before Flutter – a seatless phone's seat buttons in the page of
/t/CODE (companion/join_page.py), the tap through POST /t/CODE/join (the same table request as
the Flet join screen's, behind the same guards), and the page's Flet session moved to the seat."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from benchmarks import harness as H
from companion import i18n, join_page
from companion.app import build
from companion.table import hub as hub_mod
from companion.table.hub import GUESS_LIMIT, Hub
from companion.table.store import MemoryStore
from companion.ui import boot
from companion.ui.boot import Boot
from companion.ui.screens import Server

PAGE = "0123456789abcdef0123456789abcdef"
HTML = {"Accept": "text/html"}


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_STATIC_ENCODINGS", "gzip")
    monkeypatch.setenv("COMPANION_STATIC_WARM", "0")


def lobby(hub: Hub, names: list[str] | None = None) -> Any:
    return hub.create("sealed_vote", None, [{"name": n} for n in (names or ["Ann", "Bob", "Cem"])])


def client(hub: Hub, address: str = "10.0.0.5") -> TestClient:
    return TestClient(build(hub, "http://127.0.0.1:1"), client=(address, 5000))


def post(c: TestClient, code: str, body: Any, lang: str = "en", **headers: str) -> Any:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return c.post(f"/t/{code}/join", content=raw, headers={"Content-Type": "application/json",
                                                          "Accept-Language": lang, **headers})


# ---------------------------------------------------------------- the tap: POST /t/CODE/join


def test_a_tap_takes_the_seat_through_the_tables_own_request(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    with client(hub) as c:
        r = post(c, t.code, {"seat": 1, "name": "  Zoë  ", "page": PAGE, "lang": "de"})
        assert r.status_code == 200, r.text
        got = r.json()
        assert t.seat_of(got["token"]) == 1 and t.seats[1]["name"] == "Zoë"
        assert got["you"] == "Du bist Zoë" and got["told"] is False and r.headers["cache-control"] == "no-store"
        # no name typed: the seat's own name, as on the Flet join screen
        r = post(c, t.code.lower(), {"seat": 2, "name": None})
        assert r.status_code == 200 and t.seats[2]["name"] == "Cem" and t.seat_of(r.json()["token"]) == 2


def test_a_seat_taken_meanwhile_says_so_and_seats_nobody(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    t.request_sync(None, {"op": "join", "seat": 0, "name": "Dora"})
    before = len(t.entries)
    with client(hub) as c:
        r = post(c, t.code, {"seat": 0, "name": "Eve"}, lang="fr-FR,fr;q=0.9")
        assert r.status_code == 409
        body = r.json()
        assert body["key"] == "tbl.err.seat_taken" and body["message"] == i18n.t("fr", "tbl.err.seat_taken")
        # the seat list to redraw the buttons with: Dora's seat taken, in the player's language
        assert body["seats"][0] == {"i": 0, "label": "Prise\u00a0: Dora", "colour": t.seats[0]["colour"], "state": "taken"}
        assert [s["state"] for s in body["seats"]] == ["taken", "free", "free"]
        assert "token" not in json.dumps(body) and t.seats[0]["token"] not in r.text
    assert len(t.entries) == before and t.seats[0]["name"] == "Dora"


@pytest.mark.parametrize(("body", "status", "key"), [
    ({"seat": 7, "name": "Al"}, 400, "tbl.err.no_seat"),
    ({"seat": -1, "name": "Al"}, 400, "tbl.err.no_seat"),
    ({"seat": "0", "name": "Al"}, 400, "join.err.bad"),
    ({"seat": True, "name": "Al"}, 400, "join.err.bad"),
    ({"seat": 0, "name": 5}, 400, "join.err.bad"),
    ({"name": "Al"}, 400, "join.err.bad"),
    ([0, "Al"], 400, "join.err.bad"),
    (b"{not json", 400, "join.err.bad"),
    ({"seat": 0, "name": "x" * 25}, 400, "tbl.err.name_long"),
    ({"seat": 0, "name": "x" * 5000}, 413, "join.err.bad"),
    ({"seat": 0, "name": "\u0007\u202e"}, 400, "tbl.err.name"),
])
def test_bad_input_is_refused_in_the_players_language_and_changes_nothing(env: Any, body: Any, status: int,
                                                                        key: str) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    before = len(t.entries)
    with client(hub) as c:
        r = post(c, t.code, body, lang="de-CH,de;q=0.9")
    assert r.status_code == status, r.text
    assert r.json()["key"] == key and r.json()["message"] == i18n.t("de", key, max=24)
    assert "Traceback" not in r.text and len(t.entries) == before and all(s["token"] is None for s in t.seats)


def test_wrong_method_type_origin_and_a_started_table(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    with client(hub) as c:
        r = c.get(f"/t/{t.code}/join", headers={"Accept": "application/json", "Accept-Language": "fr"})
        assert r.status_code == 405 and r.json()["message"] == i18n.t("fr", "join.err.bad") and r.headers["allow"] == "POST"
        assert c.put(f"/t/{t.code}/join", content=b"{}").status_code == 405
        r = c.post(f"/t/{t.code}/join", content=b"seat=0&name=Al",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert r.status_code == 415 and r.json()["key"] == "join.err.bad"  # (a cross-site form cannot send JSON)
        r = post(c, t.code, {"seat": 0, "name": "Al"}, Origin="http://evil.example")
        assert r.status_code == 403
        assert post(c, t.code, {"seat": 0, "name": "Al"}, Origin="http://testserver").status_code == 200
        t.request_sync(t.host_token, {"op": "start"})
        r = post(c, t.code, {"seat": 1, "name": "Bo"}, lang="en")
        assert r.status_code == 409 and r.json()["key"] == "tbl.err.started" and "seats" not in r.json()
    assert [s["token"] is not None for s in t.seats] == [True, False, False]


def test_an_unknown_code_counts_as_a_wrong_guess_as_on_the_socket(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    with client(hub, "10.0.0.9") as c:
        for _ in range(GUESS_LIMIT):
            r = post(c, "QQQQ", {"seat": 0, "name": "Al"})
            assert r.status_code == 404 and r.json()["key"] == "tbl.err.no_table"
        r = post(c, t.code, {"seat": 0, "name": "Al"})  # locked out: even the right code
        assert r.status_code == 429 and r.json()["key"] == "tbl.err.too_many_guesses"
    assert t.seats[0]["token"] is None
    with client(hub, "10.0.0.10") as other:  # another phone is not affected
        assert post(other, t.code, {"seat": 0, "name": "Al"}).status_code == 200


def test_a_flood_of_taps_is_answered_429(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    with client(hub, "10.0.0.7") as c:
        codes = [post(c, t.code, {"seat": 9, "name": "Al"}, lang="de").status_code for _ in range(join_page.TRIES + 3)]
        assert codes == [400] * join_page.TRIES + [429] * 3
        r = post(c, t.code, {"seat": 0, "name": "Al"}, lang="de")
        assert r.status_code == 429 and r.json()["message"] == i18n.t("de", "join.err.busy")
    assert t.seats[0]["token"] is None


# ---------------------------------------------------------------- the screen in the page


def _screen(html: str) -> str:
    m = re.search(r'<div id="tc-join".*?</script></div>', html, flags=re.S)
    return m.group(0) if m else ""


def test_the_page_of_a_lobby_carries_the_join_screen_escaped_and_in_the_phones_language(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub, ["<b>Ann</b>", "Bob", "Cem\"'&"])
    t.request_sync(None, {"op": "join", "seat": 1, "name": "<img src=x onerror=1>"})
    with client(hub) as c:
        r = c.get(f"/t/{t.code}", headers={**HTML, "Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
        assert r.status_code == 200 and "content-security-policy" in r.headers
        assert "accept-language" in r.headers["vary"]
        html = r.text
    screen = _screen(html)
    assert screen and html.index(screen) < html.index('<div id="loading"')  # first in <body>
    assert 'data-lang="de"' in screen and ">Willkommen am Tisch<" in screen
    assert ">Platz nehmen als &lt;b&gt;Ann&lt;/b&gt;<" in screen
    assert "disabled" in screen and ">Besetzt: &lt;img src=x onerror=1&gt;<" in screen
    assert "Cem&quot;&#x27;&amp;" in screen
    assert "<img src=x" not in screen.split("<script>")[0] and "<b>Ann" not in screen.split("<script>")[0]
    # the other languages for the script (the saved language wins, as in the app), escaped for a script
    script = screen.split("<script>")[1]
    assert '"<b>Ann<\\/b>"' in script and '"Platz nehmen als {name}"' in script and "</b>" not in script
    # three seats, one button each, the taken one disabled; large targets
    assert screen.count('class="tj-seat"') == 3 and screen.count(" disabled") == 1
    assert "min-height:56px" in html
    with client(hub) as c:  # English by default, French by the first tag (as navigator.language)
        assert 'data-lang="en"' in _screen(c.get(f"/t/{t.code}", headers=HTML).text)
        assert 'data-lang="en"' in _screen(c.get(f"/t/{t.code}", headers={**HTML, "Accept-Language": "es, fr"}).text)
        assert 'data-lang="fr"' in _screen(c.get(f"/t/{t.code}", headers={**HTML, "Accept-Language": "fr-CA"}).text)


def test_the_screen_holds_no_secret_and_none_for_a_phone_with_a_seat(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    tok = t.request_sync(None, {"op": "join", "seat": 0, "name": "Ann"})["token"]
    watcher = t.request_sync(None, {"op": "spectate", "name": "Wes"})["token"]
    with client(hub) as c:
        html = c.get(f"/t/{t.code}", headers=HTML).text
        screen = _screen(html)
        assert screen
        for secret in (tok, watcher, t.host_token):
            assert secret not in html
        # only what the Flet join screen shows a seatless phone: seat names, colours, free/taken
        assert "Wes" not in html and "pin" not in screen
        # a phone whose address brings its seat token gets its own seat's screen, not the join
        # screen (test_a_seated_phones_page_…); a watcher's, none at all
        assert " data-seated " in _screen(c.get(f"/t/{t.code}?s={tok}", headers=HTML).text)
        assert not _screen(c.get(f"/t/{t.code}?s={watcher}", headers=HTML).text)
        assert _screen(c.get(f"/t/{t.code}?s=forged", headers=HTML).text)
        # ... nor one whose page said it has a seat here (BOOT_JS: the `tc_seat` flag, no token)
        assert not _screen(c.get(f"/t/{t.code}", headers={**HTML, "Cookie": "tc_seat=1"}).text)
        # the script hides it at once for a phone whose storage holds a seat here (before showing it)
        assert 'hidden data-code' in screen and 'getItem("flutter.seat:"+code)' in screen


def test_no_screen_for_a_started_or_full_table_or_an_unknown_code(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub(MemoryStore())
    started, full, open_ = lobby(hub), lobby(hub, ["A", "B"]), lobby(hub)
    started.request_sync(started.host_token, {"op": "start"})
    full.request_sync(None, {"op": "join", "seat": 0})
    full.request_sync(None, {"op": "join", "seat": 1})
    with client(hub, "10.0.0.3") as c:
        assert not _screen(c.get(f"/t/{started.code}", headers=HTML).text)
        assert not _screen(c.get(f"/t/{full.code}", headers=HTML).text)
        assert _screen(c.get(f"/t/{open_.code}", headers=HTML).text)
        assert not _screen(c.get(f"/host/{open_.code}", headers=HTML).text)
    monkeypatch.setenv("COMPANION_BOOT_COOKIE", "0")  # (the screen needs the page's id)
    with client(hub, "10.0.0.3") as c:
        assert not _screen(c.get(f"/t/{open_.code}", headers=HTML).text)


def test_the_page_of_a_wrong_code_is_a_try_but_page_and_socket_count_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Which codes carry a join screen must not be a way round the guess limit: the page counts a
    wrong code as the socket does – and its own socket's look-up of the same code is not counted
    again (one try, not two, for a mistyped address)."""
    now = [1000.0]
    monkeypatch.setattr(hub_mod.time, "monotonic", lambda: now[0])
    hub = Hub(MemoryStore())
    t = lobby(hub)
    for i in range(GUESS_LIMIT):
        code = "QQQ" + "ACDEFGHJKLMN"[i]
        assert hub.page_table(code, "10.0.0.4") is None
        with pytest.raises(hub_mod.RuleError):
            hub.lookup(code, "10.0.0.4")  # its page's socket: not counted again
        assert not hub.locked_out("10.0.0.4") or i == GUESS_LIMIT - 1
    assert hub.locked_out("10.0.0.4")
    assert hub.page_table(t.code, "10.0.0.4") is None  # locked out: no screen, whatever the code
    assert hub.page_table(t.code, "10.0.0.5") is t
    now[0] += 61
    assert hub.page_table(t.code, "10.0.0.4") is t
    # the same wrong code asked again by the socket later (not its page's) counts again
    hub.page_table("WWWW", "10.0.0.6")
    now[0] += hub_mod.PAGE_TRY + 1
    with pytest.raises(hub_mod.RuleError):
        hub.lookup("WWWW", "10.0.0.6")
    assert len(hub._guesses["10.0.0.6"]) == 2


# ---------------------------------------------------------------- the page's Flet session


async def _open(server: Server, route: str, hint: Boot | None, prefs: dict[str, Any] | None = None) -> H.Client:
    boot.BOOT.set(hint)
    c = await H.Client(server, route, prefs or {}).open(H.new_pubsub())
    await H.quiet([c])
    return c


async def _tap(server: Server, code: str, seat: int, name: str, page: str = PAGE, lang: str = "en") -> Any:
    status, body = await join_page.take_seat(server.hub, server.joins, server.join_limit, code, "10.0.0.8",
                                             {"content-type": "application/json", "accept-language": lang},
                                             json.dumps({"seat": seat, "name": name, "page": page,
                                                         "lang": lang}).encode())
    assert status == 200, body
    return body


async def test_a_session_already_open_is_moved_to_the_seat_its_page_took() -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    server = Server(hub, "http://10.0.0.2:8550")
    c = await _open(server, f"/t/{t.code}", Boot(None, "en-US", f"seat:{t.code}", None, PAGE))
    other = await _open(server, f"/t/{t.code}", Boot(None, "en-US", f"seat:{t.code}", None, "f" * 32))
    assert c.screen.seat is None and c.screen.role == "phone"
    got = await _tap(server, t.code, 1, "Zoë", lang="de")
    assert got["told"] is True
    for _ in range(50):
        await H.quiet([c, other])
        if c.screen.seat == 1:
            break
        await asyncio.sleep(0.02)
    assert (c.screen.seat, c.screen.token, c.screen.lang) == (1, got["token"], "de")
    assert c.screen._route == f"/t/{t.code}?s={got['token']}"  # the address the page waits for
    assert other.screen.seat is None  # another page's session: not moved
    c.close()
    other.close()


async def test_a_seat_taken_before_the_socket_is_the_sessions_first_screen() -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    server = Server(hub, "http://10.0.0.2:8550")
    got = await _tap(server, t.code, 2, "Ulla", lang="fr")
    assert got["told"] is False
    # the handshake's cookie was written before the tap: no token in it
    c = await _open(server, f"/t/{t.code}", Boot(None, "en-US", f"seat:{t.code}", None, PAGE))
    assert (c.screen.seat, c.screen.token, c.screen.lang) == (2, got["token"], "fr")
    c.close()
    # the seat waits for its own page only, and once
    again = await _open(server, f"/t/{t.code}", Boot(None, "en-US", f"seat:{t.code}", None, PAGE))
    assert again.screen.seat is None
    again.close()


def test_page_joins_forget_what_they_should() -> None:
    joins = join_page.PageJoins()

    class S:
        def seated_by_page(self, code: str, token: str, lang: str | None) -> bool:
            self.got = (code, token)
            return True
    s = S()
    assert joins.attach("short", s) is None and joins.taken("not an id!", "ABCD", "tok", None) is False
    assert joins.attach(PAGE, s) is None
    assert joins.taken(PAGE, "ABCD", "tok", None) is True and s.got == ("ABCD", "tok")
    joins.detach(PAGE, s)
    assert joins.taken(PAGE, "ABCD", "tok2", "de") is False
    assert joins.attach(PAGE, s) == ("ABCD", "tok2", "de")


def test_a_seated_phones_return_visit_is_still_a_304(env: Any) -> None:
    """The page with a join screen changes with the seats; a seated phone (its `tc_seat` flag) gets
    the page without one – and its copy of the page with a join screen (which its script removes
    unseen) is still good: 304, a few hundred bytes. A seatless phone's copy is good only while
    the seats are as it shows them."""
    hub = Hub(MemoryStore())
    t = lobby(hub)
    with client(hub) as c:
        first = c.get(f"/t/{t.code}", headers=HTML)
        etag = first.headers["etag"]
        assert _screen(first.text) and "-j" in etag
        again = c.get(f"/t/{t.code}", headers={**HTML, "If-None-Match": etag})
        assert again.status_code == 304  # nothing changed: the same page
        t.request_sync(None, {"op": "join", "seat": 0, "name": "Ann"})
        seatless = c.get(f"/t/{t.code}", headers={**HTML, "If-None-Match": etag})
        assert seatless.status_code == 200 and "Taken: Ann" in _screen(seatless.text)  # the seats changed
        seated = c.get(f"/t/{t.code}", headers={**HTML, "If-None-Match": etag, "Cookie": "tc_seat=1"})
        assert seated.status_code == 304 and "-j" not in seated.headers["etag"]
        # a copy of another page is not good for a seated phone either
        assert c.get(f"/t/{t.code}", headers={**HTML, "If-None-Match": '"p-0123"', "Cookie": "tc_seat=1"}
                     ).status_code == 200


def test_the_seat_list_again_for_a_screen_left_open(env: Any) -> None:
    """GET /t/CODE/seats: what the HTML join screen polls while a player types on it after Flutter's
    screen has come – behind the same door as a tap, and nothing but the seats."""
    hub = Hub(MemoryStore())
    t = lobby(hub)
    tok = t.request_sync(None, {"op": "join", "seat": 0, "name": "Ann"})["token"]
    with client(hub, "10.0.0.11") as c:
        r = c.get(f"/t/{t.code}/seats?lang=de")
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        assert [(s["state"], s["label"]) for s in r.json()["seats"]] == [
            ("taken", "Besetzt: Ann"), ("free", "Platz nehmen als Bob"), ("free", "Platz nehmen als Cem")]
        assert tok not in r.text and t.host_token not in r.text
        r = c.get("/t/QQQQ/seats")
        assert r.status_code == 404 and hub._guesses["10.0.0.11"]  # a wrong code, counted
        t.request_sync(t.host_token, {"op": "start"})
        assert c.get(f"/t/{t.code}/seats").status_code == 409
        codes = [c.get(f"/t/{t.code}/seats").status_code for _ in range(join_page.LOOKS)]
        assert codes[-1] == 429


# ---------------------------------------------------------------- a seated phone's return visit


def test_a_seated_phones_page_carries_its_own_seat_and_nothing_of_anyone_elses(env: Any) -> None:
    """Its `tc_seat` cookie holds its token (BOOT_JS): the page of /t/CODE comes with that seat's
    own screen in HTML – "You are …" in the seat's colour and the lobby's wait – checked by the
    server like any token; in a game, that its screen is on its way. Private to that browser."""
    hub = Hub(MemoryStore())
    t = lobby(hub, ["<b>Ann</b>", "Bob", "Player 3"])
    tok = t.request_sync(None, {"op": "join", "seat": 0, "name": None})["token"]
    bob = t.request_sync(None, {"op": "join", "seat": 1, "name": "Bob"})["token"]
    p3 = t.request_sync(None, {"op": "join", "seat": 2, "name": None})["token"]
    with client(hub) as c:
        r = c.get(f"/t/{t.code}", headers={**HTML, "Cookie": f"tc_seat={tok}", "Accept-Language": "fr-FR"})
        assert r.status_code == 200 and r.headers["cache-control"] == "private, no-cache"
        screen = _screen(r.text)
        assert screen and " data-seated " in screen and 'class="tj-seat"' not in screen
        assert 'data-lang="fr"' in screen and ">Vous êtes &lt;b&gt;Ann&lt;/b&gt;<" in screen
        assert ">Vous avez une place. En attente du début…<" in screen
        assert f"--c:{t.seats[0]['colour']}" in screen and t.seats[1]["colour"] not in screen
        script = screen.split("<script>")[1]
        assert '"You are <b>Ann<\\/b>"' in script and '"Du bist <b>Ann<\\/b>"' in script and "</b>" not in script
        for other in ("Bob", "Player 3", "Person 3", tok, bob, p3, t.host_token):
            assert other not in r.text
        # the address's token (a reload: the app put it there) counts as the cookie does; a default
        # name in the phone's language, as Flutter's screen says it
        de = _screen(c.get(f"/t/{t.code}?s={p3}", headers={**HTML, "Accept-Language": "de"}).text)
        assert ">Du bist Person 3<" in de and "Ann" not in de
        t.request_sync(t.host_token, {"op": "start"})
        playing = _screen(c.get(f"/t/{t.code}", headers={**HTML, "Cookie": f"tc_seat={bob}"}).text)
        assert ">You are Bob<" in playing and ">Getting your cards ready…<" in playing and "Waiting" not in playing
        assert "Préparation de vos cartes…" in playing and "Deine Karten werden vorbereitet …" in playing
        t.request_sync(t.host_token, {"op": "end"})
        ended = _screen(c.get(f"/t/{t.code}", headers={**HTML, "Cookie": f"tc_seat={bob}"}).text)
        assert ">You are Bob<" in ended and ">Game over<" in ended
    # (the script shows it only while storage holds the very token the page was asked with)
    assert 'st!==window.__tcSent' in screen and "hidden data-seated" in screen


def test_a_wrong_or_given_back_token_is_the_join_screen_again(env: Any) -> None:
    """A token that is no seat here (forged, given back, a watcher's) never shows a seat; in a lobby
    with a free seat it gets the join screen, marked stale so that the stored token does not hide it."""
    hub = Hub(MemoryStore())
    t = lobby(hub)
    tok = t.request_sync(None, {"op": "join", "seat": 0, "name": "Ann"})["token"]
    watcher = t.request_sync(None, {"op": "spectate", "name": "Wes"})["token"]
    t.request_sync(tok, {"op": "leave"})
    assert t.seat_of(tok) is None
    with client(hub) as c:
        for cookie in (f"tc_seat={tok}", "tc_seat=forged"):
            r = c.get(f"/t/{t.code}", headers={**HTML, "Cookie": cookie})
            screen = _screen(r.text)
            assert screen and " data-stale " in screen and " data-seated " not in screen
            assert 'class="tj-seat"' in screen and r.headers["cache-control"] == "no-cache"
        assert " data-stale " in _screen(c.get(f"/t/{t.code}?s=forged", headers=HTML).text)
        assert " data-stale " not in _screen(c.get(f"/t/{t.code}", headers=HTML).text)
        assert not _screen(c.get(f"/t/{t.code}", headers={**HTML, "Cookie": f"tc_seat={watcher}"}).text)
        assert not _screen(c.get(f"/t/{t.code}", headers={**HTML, "Cookie": "tc_seat=1"}).text)  # an older page's flag
        t.request_sync(t.host_token, {"op": "start"})
        assert not _screen(c.get(f"/t/{t.code}", headers={**HTML, "Cookie": "tc_seat=forged"}).text)


def test_a_seated_return_visit_is_small_and_then_a_304(env: Any) -> None:
    hub = Hub(MemoryStore())
    t = lobby(hub)
    tok = t.request_sync(None, {"op": "join", "seat": 0, "name": "Ann"})["token"]
    seated = {**HTML, "Cookie": f"tc_seat={tok}", "Accept-Encoding": "gzip"}
    with client(hub) as c:
        first = c.get(f"/t/{t.code}", headers=seated)
        assert first.headers["content-encoding"] == "gzip" and int(first.headers["content-length"]) < 50_000
        again = c.get(f"/t/{t.code}", headers={**seated, "If-None-Match": first.headers["etag"]})
        assert again.status_code == 304
        t.request_sync(tok, {"op": "rename", "name": "Anna"})  # its screen changed: a new page
        renamed = c.get(f"/t/{t.code}", headers={**seated, "If-None-Match": first.headers["etag"]})
        assert renamed.status_code == 200 and ">You are Anna<" in _screen(renamed.text)
