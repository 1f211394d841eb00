"""A mischievous player on the Wi-Fi (issue 17, items 1–3 and 6): attacks on the REAL server –
`python -m companion` on loopback – with raw WebSocket clients (tests/reliability/raw_client.py)
and plain HTTP, as a player with a laptop at the table would try them. Each test failed on the
code before its fix (see docs/RELIABILITY.md, "Security").

Two "machines" on one host: every test client connects from a loopback source address of its own
(127.0.0.1 = the attacker, 127.0.0.2 = another phone); the server sees them as two clients, as it
would two phones on the Wi-Fi. `--host-addresses 127.0.0.1` makes only the first one "the host's
own computer" where a test needs a phone on the Wi-Fi that is not.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table.store import SQLiteStore
from companion.table.table import Table
from tests.browser.helpers import ROOT, free_port
from tests.reliability.raw_client import RawClient

PHONE_B = ("127.0.0.2", 0)  # another phone: a source address of its own


def _limit_files(n: int) -> None:
    """In the server's process: at most n open files (a desktop's usual 1,024)."""
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


class Server:
    def __init__(self, data: Path, *extra: str, env: dict[str, str] | None = None, nofile: int | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data.parent / f"server-{self.port}.log"
        env = {"FLET_FORCE_WEB_SERVER": "true", "PYTHONUNBUFFERED": "1", "COMPANION_STATIC_ENCODINGS": "gzip",
               "COMPANION_STATIC_WARM": "0", "PATH": "/usr/bin:/bin", **(env or {})}
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port",
                                      str(self.port), "--data-dir", str(data), "--public-url", self.base,
                                      "--no-browser", *extra], cwd=ROOT, env=env,
                                     stdout=open(self.log, "ab"), stderr=subprocess.STDOUT,
                                     preexec_fn=(lambda: _limit_files(nofile)) if nofile else None)
        deadline = time.time() + 60
        while time.time() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-2000:]
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("server did not start")

    def get(self, path: str, cookie: str | None = None) -> tuple[int, bytes]:
        req = urllib.request.Request(self.base + path, headers={"Cookie": cookie} if cookie else {})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def tables(self) -> int:
        return int(json.loads(self.get("/health")[1])["tables"])

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def prepared(data: Path) -> tuple[str, str, str]:
    """A sealed-vote table in the data directory before the server starts: (code, host key, a seat token)."""
    store = SQLiteStore(data)
    t = Table.create(store, "KLMN", "sealed_vote", {}, [{"name": "Ana"}, {"name": "Ben"}], 5)
    token = t.request_sync(None, {"op": "join", "seat": 0})["token"]
    store.close()
    return t.code, t.host_token, token


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Server, str, str, str]]:
    data = tmp_path / "data"
    code, key, token = prepared(data)
    extra = getattr(request, "param", ())
    srv = Server(data, *extra)
    try:
        yield srv, code, key, token
    finally:
        srv.stop()


async def guess(c: RawClient, n: int, forge: bool) -> int:
    """n wrong codes, each after forging another client_ip when `forge`; returns how many were refused."""
    refused_before = sum("Too many wrong codes" in t for t in c.texts())
    for i in range(n):
        if forge:
            await c.forge({"client_ip": f"10.9.{i}.{i}"})
        await c.go(f"/t/WX{'ACDEFGHJKLMNPQRTUVWXY'[i % 21]}Y")
        await asyncio.sleep(0.12)
    await asyncio.sleep(0.3)
    return sum("Too many wrong codes" in t for t in c.texts()) - refused_before


@pytest.mark.slow
async def test_a_forged_client_ip_does_not_reset_the_guess_limit(server: tuple[Server, str, str, str]) -> None:
    """Item 1: the limit was keyed on page.client_ip, which the client may overwrite (60 guesses in 36 s,
    none refused). Now it is the connection's own address: the 11th wrong code is refused however
    often the client renames itself."""
    srv, _code, _key, _token = server
    async with RawClient(srv.base, "/") as c:
        assert await c.wait_for("Tabletop Companion")
        assert await guess(c, 16, forge=True) > 0, "16 wrong codes, each under another forged client_ip: none refused"


@pytest.mark.slow
async def test_wrong_codes_are_charged_to_the_guesser_not_to_another_phone(
        server: tuple[Server, str, str, str]) -> None:
    """Item 1: by forging another phone's address as its client_ip, a guesser locked that phone out."""
    srv, code, _key, _token = server
    async with RawClient(srv.base, "/") as attacker:
        assert await attacker.wait_for("Tabletop Companion")
        for i in range(12):
            await attacker.forge({"client_ip": "127.0.0.2"})
            await attacker.go(f"/t/WX{'ACDEFGHJKLMNPQRTUVWXY'[i]}Y")
            await asyncio.sleep(0.12)
        await asyncio.sleep(0.3)
    async with RawClient(srv.base, f"/t/{code}", local_addr=PHONE_B) as victim:
        assert await victim.wait_for("Welcome to the table"), "another phone was locked out by the guesser"
        assert not any("Too many" in t for t in victim.texts())


@pytest.mark.slow
async def test_a_guesser_never_locks_out_the_host_or_a_seated_phone(server: tuple[Server, str, str, str]) -> None:
    """Item 1: a wrong guess never locks out the host page or a phone that holds a seat – even from
    the same address; a right code alone does not get past the lock (else guessing goes on)."""
    srv, code, key, token = server
    async with RawClient(srv.base, "/") as attacker:
        assert await attacker.wait_for("Tabletop Companion")
        assert await guess(attacker, 12, forge=False) > 0
        await attacker.go(f"/t/{code}")  # the right code, now: still refused (else a lock tells nothing)
        await asyncio.sleep(0.5)
        assert not any("Welcome to the table" in t for t in attacker.texts())
    async with RawClient(srv.base, f"/t/{code}?s={token}") as phone:
        assert await phone.wait_for("(you)"), "the seated phone was locked out"
    async with RawClient(srv.base, f"/host/{code}", headers={"Cookie": f"tc_h_{code}={key}"}) as host:
        assert await host.wait_for("Start"), "the host page was locked out"


@pytest.mark.slow
def test_qr_and_join_card_answer_a_known_code_like_an_unknown_one(server: tuple[Server, str, str, str]) -> None:
    """Item 2: /qr/CODE.png and /join-card/CODE.pdf said 200 or 404 to anyone, so the whole code space
    could be tried in ≈ 1.4 min. Now they are the host's: without its key a known code gets the very
    answer an unknown one gets."""
    srv, code, key, _token = server
    known = [srv.get(f"/qr/{code}.png"), srv.get(f"/join-card/{code}.pdf")]
    unknown = [srv.get("/qr/WXYZ.png"), srv.get("/join-card/WXYZ.pdf")]
    assert known == unknown and all(status == 404 for status, _ in known)
    forged = srv.get(f"/qr/{code}.png", cookie=f"tc_h_{code}=not-the-key")
    assert forged == unknown[0]
    status, png = srv.get(f"/qr/{code}.png", cookie=f"tc_h_{code}={key}")
    assert status == 200 and png.startswith(b"\x89PNG")
    status, pdf = srv.get(f"/join-card/{code}.pdf", cookie=f"tc_h_{code}={key}")
    assert status == 200 and pdf.startswith(b"%PDF")


@pytest.mark.slow
@pytest.mark.parametrize("server", [("--host-addresses", "127.0.0.1")], indirect=True)
async def test_a_phone_on_the_wifi_sees_no_table_list_and_cannot_create(server: tuple[Server, str, str, str]) -> None:
    """Items 2 and 6: the home page listed every open table's code to anyone, and anyone could create
    tables. A phone on the Wi-Fi (here 127.0.0.2, not one of --host-addresses) gets the join box
    only; events forged for every control id it could guess create nothing."""
    srv, code, _key, _token = server
    before = srv.tables()
    async with RawClient(srv.base, "/", local_addr=PHONE_B) as phone:
        assert await phone.wait_for("Join a table") or await phone.wait_for("code")
        await asyncio.sleep(0.3)
        shown = " ".join(phone.texts())
        assert code not in shown, "the home page shows an open table's code to a phone on the Wi-Fi"
        assert "Create table" not in shown and "the computer the app runs on" in shown
        for target in range(1, 400):  # a click for every control id: the create button is not there
            await phone.event(target, "click")
        await asyncio.sleep(1.0)
    assert srv.tables() == before
    async with RawClient(srv.base, "/") as host_machine:  # 127.0.0.1: the host's own computer
        assert await host_machine.wait_for("Create table")
        assert await host_machine.wait_for(code)
