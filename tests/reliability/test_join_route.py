"""POST /t/CODE/join on the real server (`python -m companion`): the HTML join screen's tap
(companion/join_page.py). Every bad request gets its status and a message in the player's
language, changes nothing, and leaves no traceback in the server's log; a good one seats."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion import i18n, join_page
from tests.browser.helpers import lobby_server


@pytest.fixture
def lobby(tmp_path: Path) -> Any:
    with lobby_server(tmp_path / "data", ("Ann", "Bob", "Cem")) as (server, code):
        yield server, code, tmp_path / "data"


def call(base: str, path: str, body: bytes | None, method: str = "POST", lang: str = "de",
         ctype: str = "application/json", **headers: str) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(base + path, data=body, method=method,
                                 headers={"Content-Type": ctype, "Accept-Language": lang, "Accept": "application/json",
                                          **headers})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def seats(data: Path, code: str) -> list[tuple[str, bool]]:
    from companion.table.store import SQLiteStore
    from companion.table.table import Table

    store = SQLiteStore(data)
    try:
        t = Table.load(store, code)
        return [(s["name"], bool(s["token"])) for s in t.seats]
    finally:
        store.close()


def test_the_join_route_refuses_bad_requests_plainly_and_seats_a_good_one(lobby: Any) -> None:
    server, code, data = lobby
    base, path = server.base, f"/t/{code}/join"
    before = seats(data, code)
    refused = [
        (call(base, "/t/QQQQ/join", json.dumps({"seat": 0, "name": "Al"}).encode()), 404, "tbl.err.no_table"),
        (call(base, path, json.dumps({"seat": 1, "name": "Al"}).encode()), 409, "tbl.err.seat_taken"),
        (call(base, path, json.dumps({"seat": 0, "name": "\u202e\u0000"}).encode()), 400, "tbl.err.name"),
        (call(base, path, json.dumps({"seat": 0, "name": "x" * 30}).encode()), 400, "tbl.err.name_long"),
        (call(base, path, json.dumps({"seat": 9, "name": "Al"}).encode()), 400, "tbl.err.no_seat"),
        (call(base, path, b"{broken"), 400, "join.err.bad"),
        (call(base, path, b"x" * 200_000), 413, "join.err.bad"),
        (call(base, path, b"seat=0", ctype="application/x-www-form-urlencoded"), 415, "join.err.bad"),
        (call(base, path, json.dumps({"seat": 0}).encode(), Origin="http://elsewhere.example"), 403, "join.err.bad"),
        (call(base, path, None, method="GET"), 405, "join.err.bad"),
    ]
    for (status, body), want, key in refused:
        assert (status, body.get("key")) == (want, key), body
        assert body["message"] == i18n.t("de", key, max=24, code="QQQQ"), body
    assert seats(data, code) == before  # nothing changed
    status, body = call(base, path, json.dumps({"seat": 2, "name": "Zoë"}).encode(), lang="fr")
    assert status == 200 and body["you"] == "Vous êtes Zoë" and body["told"] is False
    assert seats(data, code) == [("Ann", False), ("Bea", True), ("Zoë", True)]
    # a flood from one address: 429 once its tries are used up (this test used 12 already)
    statuses = [call(base, path, json.dumps({"seat": 9}).encode())[0] for _ in range(join_page.TRIES)]
    assert statuses[-1] == 429 and set(statuses) <= {400, 429}
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]
