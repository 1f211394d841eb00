"""The platform proof: record every message Flet sends to each browser session (host, phones) and
show that no seat's unrevealed value reaches another seat or the host before the reveal.

Sessions are real `flet.messaging.session.Session` objects running `companion.ui.screens.session_main`
exactly as the web server does (register, main, after_event), on a fake connection that records the
msgpack frames it would put on the WebSocket. The fake client answers SharedPreferences like the
browser's storage does: a phone's stored seat token is how it is recognised (the least intrusive hook
– no change to the screens). The secret values are entered with each phone's own token through
`Table.request`, the call the phone's buttons make.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page, context
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.games.lutece import rules as L
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.table.table import Table
from companion.ui.screens import Server, session_main
from companion.ui.views import display as D
from companion.ui.views import moment as M

ENCODE = configure_encode_object_for_msgpack(BaseControl)


class RecordingClient(Connection):
    """A browser tab: records every frame sent to it and answers storage calls."""

    def __init__(self, loop: asyncio.AbstractEventLoop, name: str, prefs: dict[str, Any]) -> None:
        super().__init__()
        self.loop = loop
        self.executor = ThreadPoolExecutor(1)
        self.pubsubhub = PubSubHub(loop=loop, executor=self.executor)
        self.name = name
        self.prefs = prefs
        self.frames: list[tuple[int, bytes]] = []
        self.session: Session | None = None

    def send_message(self, message: Message) -> None:
        raw = msgpack.packb([message.action, message.body], default=ENCODE)  # what goes on the wire
        self.frames.append((message.action.value, raw))
        if message.action == MessageAction.INVOKE_METHOD:
            b = message.body
            args = b.args or {}
            res: Any = None
            err: str | None = None
            if b.name == "get":
                res = self.prefs.get(args.get("key"))
            elif b.name == "set":
                self.prefs[args["key"]] = args["value"]
                res = True
            else:
                err = "not available in this test"
            assert self.session is not None
            self.loop.call_soon(self.session.handle_invoke_method_results, b.control_id, b.call_id, res, err)

    def mark(self) -> int:
        return len(self.frames)

    def values(self, since: int = 0, patches_only: bool = False) -> list[Any]:
        """Every string and number in the frames sent since `since` (decoded msgpack)."""
        out: list[Any] = []

        def walk(x: Any) -> None:
            if isinstance(x, dict):
                for k, v in x.items():
                    walk(k)
                    walk(v)
            elif isinstance(x, list | tuple):
                for v in x:
                    walk(v)
            elif isinstance(x, str | int | float) and not isinstance(x, bool):
                out.append(x)
        for action, raw in self.frames[since:]:
            if patches_only and action != MessageAction.PATCH_CONTROL.value:
                continue
            walk(msgpack.unpackb(raw, strict_map_key=False))
        return out

    def texts(self, since: int = 0) -> list[str]:
        return sorted(v for v in self.values(since, patches_only=True) if isinstance(v, str))


async def open_page(server: Server, route: str, name: str, prefs: dict[str, Any]) -> RecordingClient:
    loop = asyncio.get_running_loop()
    conn = RecordingClient(loop, name, prefs)
    s = Session(conn)
    conn.session = s
    _context_page.set(s.page)
    s.page.route = route
    s.page.client_ip = f"10.0.0.{len(name)}"
    conn.send_message(Message(MessageAction.REGISTER_CLIENT,
                              RegisterClientResponseBody(session_id=s.id, page_patch=s.get_page_patch(), error="")))

    async def run() -> None:  # what flet_web does for a new session
        _context_page.set(s.page)
        context.reset_auto_update()
        await session_main(s.page, server)
        await s.after_event(s.page)
    await asyncio.create_task(run())
    await settle()
    return conn


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0.02)


def contains(values: list[Any], secret: int) -> bool:
    return any(v == secret or (isinstance(v, str) and str(secret) in v) for v in values)


async def table_with_pages(game: str, options: dict[str, Any], n: int, code: str, seed: int = 7,
                           ) -> tuple[Table, list[str], RecordingClient, list[RecordingClient]]:
    hub = Hub(MemoryStore())
    server = Server(hub, "http://companion.test")
    t = Table.create(hub.store, code, game, options, [{"name": f"Player{i}"} for i in range(n)], seed)
    hub.add(t)
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(n)]
    host = await open_page(server, f"/host/{code}", "host", {f"host:{code}": t.host_token})
    phones = [await open_page(server, f"/t/{code}", f"phone{i}", {f"seat:{code}": tok})
              for i, tok in enumerate(tokens)]
    await t.request(t.host_token, {"op": "start"})
    await settle()
    return t, tokens, host, phones


async def test_sealed_vote_values_reach_no_other_session_before_the_reveal() -> None:
    secrets = [731942, 584213, 296857, 815379]
    t, tokens, host, phones = await table_with_pages("sealed_vote", {"mode": "number", "min": 0,
                                                                     "max": 1_000_000}, 4, "VOTE")
    assert "VOTE" in host.texts() and any("Player2" in x for x in phones[0].texts())  # the pages render
    spectator = await open_page(Server(Hub(MemoryStore()), "http://x"), "/", "home", {})
    for i, tok in enumerate(tokens):
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": secrets[i]}})
        await settle()
        if i < 3:
            await t.request(tok, {"op": "act", "action": {"type": "lock"}})
            await settle()
    await t.request(tokens[3], {"op": "act", "action": {"type": "submit", "value": secrets[3] + 1}})  # changes
    await settle()
    for i, secret in enumerate(secrets):
        assert contains(phones[i].values(), secret), f"phone {i} should see its own value"  # search works
        for other in [host, spectator, *[p for j, p in enumerate(phones) if j != i]]:
            assert not contains(other.values(), secret), f"{other.name} received seat {i}'s secret {secret}"
    before = host.mark()
    await t.request(tokens[3], {"op": "act", "action": {"type": "lock"}})  # the last lock reveals
    await settle()
    assert t.view(None)["phase"] == "revealed"
    # the host's public part under the reveal's moment is drawn once the cards have turned (views/moment.Part)
    await asyncio.sleep(M.BACKS_S + D.FLIP_S + 0.3)
    await settle()
    for secret in secrets[:3] + [secrets[3] + 1]:
        assert contains(host.values(before), secret), "after the reveal the host shows every value"
        assert all(contains(p.values(), secret) for p in phones)
    assert not any(contains(c.values(), secrets[3]) for c in [host, *phones[:3]])  # the changed-away value


async def _lutece_round(pick: int, card: int, amount: int) -> tuple[list[str], list[str], list[str], list[str],
                                                                    dict[str, Any]]:
    t, tokens, host, phones = await table_with_pages("lutece", {"bribes": "sealed"}, 3, "LUTE")
    marks = [c.mark() for c in (host, *phones)]
    picks = [a["cards"] for a in L.legal(t.state, 0) if a["type"] == "pick"]
    await t.request(tokens[0], {"op": "act", "action": {"type": "pick", "cards": picks[pick]}})
    await settle()
    await t.request(tokens[0], {"op": "act", "action": {"type": "bribe", "card": card, "amount": amount}})
    await settle()
    await t.request(tokens[0], {"op": "act", "action": {"type": "lock"}})
    await settle()
    await t.request(tokens[1], {"op": "act", "action": {"type": "pick", "cards": picks[0]}})
    await settle()
    out = [c.texts(m) for c, m in zip((host, *phones), marks, strict=True)]
    return out[0], out[1], out[2], out[3], t.view(0)


async def test_a_lutece_sealed_bribe_reaches_no_other_session_before_the_reveal() -> None:
    """Two worlds, identical except seat 0's secret pick and sealed bribe: every text sent to the
    host and to the other phones is the same in both; seat 0's own phone shows the difference."""
    a_host, a_p0, a_p1, a_p2, view_a = await _lutece_round(pick=0, card=0, amount=4)
    b_host, b_p0, b_p1, b_p2, view_b = await _lutece_round(pick=-1, card=1, amount=2)
    assert view_a["me"]["pick"] != view_b["me"]["pick"]
    assert a_p0 != b_p0, "seat 0's own phone shows its pick and bribe (the comparison is sensitive)"
    assert a_host == b_host, set(a_host) ^ set(b_host)
    assert a_p1 == b_p1, set(a_p1) ^ set(b_p1)
    assert a_p2 == b_p2, set(a_p2) ^ set(b_p2)
    assert len(a_host) > 50


async def test_the_recorder_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sensitivity: if a seat's screen were built from another seat's view, the test above fails."""
    from companion.games.sealed_vote import rules as SV

    real = SV.view
    monkeypatch.setattr(SV, "view", lambda st, seat: real(st, 0 if seat == 1 else seat))
    with pytest.raises(AssertionError, match="phone1 received seat 0's secret"):
        await test_sealed_vote_values_reach_no_other_session_before_the_reveal()
    real_l = L.view
    monkeypatch.setattr(L, "view", lambda st, seat: real_l(st, 0))  # everyone gets seat 0's view
    with pytest.raises(AssertionError):
        await test_a_lutece_sealed_bribe_reaches_no_other_session_before_the_reveal()
