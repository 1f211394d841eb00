"""In-process phones and hosts: real Flet `Session`s running our `session_main`, over a fake
connection that answers the client-side calls (SharedPreferences, device info) and timestamps
every message the server sends (serialised with msgpack exactly like the websocket path).

See /work/shared/guide/FLET.md "Testing without a browser". Flet internals: pinned to 1.0.5.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page, context
from flet.messaging.connection import Connection
from flet.messaging.protocol import MessageAction, configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.table.hub import Hub
from companion.ui.screens import Server, session_main

_EXECUTOR = ThreadPoolExecutor(thread_name_prefix="bench")
_ENCODE = configure_encode_object_for_msgpack(BaseControl)


class FakeConnection(Connection):
    """A browser that answers at once: localStorage is `prefs`; every send is counted and timestamped."""

    def __init__(self, loop: asyncio.AbstractEventLoop, hub: PubSubHub, prefs: dict[str, Any]) -> None:
        super().__init__()
        self.loop = loop
        self.executor = _EXECUTOR
        self.pubsubhub = hub
        self.prefs = prefs
        self.session: Session | None = None
        self.sent = 0
        self.bytes = 0
        self.last_send = 0.0
        self.watch_from: float | None = None  # first send after this moment is recorded in first_after
        self.first_after: float | None = None
        self.first_sent = asyncio.Event()  # set with first_after: waiting costs no polling

    def send_message(self, message: Any) -> None:
        body = msgpack.packb([message.action, message.body], default=_ENCODE)
        now = time.perf_counter()
        self.sent += 1
        self.bytes += len(body) + 1
        self.last_send = now
        if self.watch_from is not None and self.first_after is None and now >= self.watch_from \
                and message.action != MessageAction.INVOKE_METHOD:
            self.first_after = now
            self.first_sent.set()
        if message.action == MessageAction.INVOKE_METHOD:
            b = message.body
            name, args = b.name, b.args or {}
            result: Any = None
            error: str | None = None
            if name == "get":
                result = self.prefs.get(args.get("key"))
            elif name == "set":
                self.prefs[args.get("key")] = args.get("value")
                result = True
            else:
                error = f"{name} not available in the benchmark client"
            assert self.session is not None
            self.loop.call_soon(self.session.handle_invoke_method_results, b.control_id, b.call_id, result, error)

    def watch(self) -> None:
        self.watch_from = time.perf_counter()
        self.first_after = None
        self.first_sent.clear()

    async def until_sent(self, timeout: float) -> bool:
        """Wait (without polling) until something has been sent since watch(); False on timeout."""
        try:
            await asyncio.wait_for(self.first_sent.wait(), timeout)
        except TimeoutError:
            return False
        return True


class Client:
    """One browser session on a route, e.g. /t/CODE (phone) or /host/CODE (host)."""

    def __init__(self, server: Server, route: str, prefs: dict[str, Any] | None = None) -> None:
        self.server = server
        self.route = route
        self.prefs = prefs if prefs is not None else {}
        self.conn: FakeConnection | None = None
        self.session: Session | None = None

    async def open(self, pubsub: PubSubHub) -> Client:
        loop = asyncio.get_running_loop()
        self.conn = FakeConnection(loop, pubsub, self.prefs)
        self.session = Session(self.conn)
        self.conn.session = self.session
        self.session.apply_page_patch({"route": self.route, "width": 412, "height": 860, "web": True,
                                       "platform": "android", "client_ip": "10.0.0.1"})
        page = self.session.page
        page.client_ip = "10.0.0.1"
        # As flet_web does on register: the page goes out first, so services attach to it.
        self.conn.bytes += len(msgpack.packb(self.session.get_page_patch(), default=_ENCODE))
        _context_page.set(page)
        context.reset_auto_update()
        await session_main(page, self.server)
        await self.session.after_event(page)
        return self

    @property
    def screen(self) -> Any:
        assert self.session is not None
        return self.session.page.data

    def close(self) -> None:
        if self.session is not None:
            try:
                self.screen._on_close(None)
            except Exception:
                pass
            self.session.close()


def new_pubsub() -> PubSubHub:
    return PubSubHub(loop=asyncio.get_running_loop(), executor=_EXECUTOR)


async def quiet(clients: list[Client], idle: float = 0.03, timeout: float = 30.0) -> None:
    """Wait until no session has sent anything for `idle` seconds and nothing is queued on the
    event loop behind this wait.

    The second half matters on a loaded machine: a change is drawn in a chain of loop steps (the
    screens' refresh, then their seat rows, then Flet's update task, which sends), and the first
    steps send nothing. A process held off the CPU for `idle` seconds right after this wait set its
    timer wakes up with the chain not yet sent, and the last send (of the change before) looks
    `idle` old. The loop's ready queue (CPython's BaseEventLoop._ready) still holds the chain then.
    """
    loop = asyncio.get_running_loop()
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        await asyncio.sleep(idle)
        now = time.perf_counter()
        if all(c.conn is None or now - c.conn.last_send >= idle for c in clients) \
                and not getattr(loop, "_ready", None):
            return


def make_table(hub: Hub, phones: int, game: str = "sealed_vote", start: bool = True) -> tuple[Any, list[str]]:
    """A table with every seat taken (tokens returned, in seat order), optionally started."""
    t = hub.create(game, None, [{"name": f"P{i + 1}"} for i in range(phones)])
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(phones)]
    if start:
        t.request_sync(t.host_token, {"op": "start"})
    return t, tokens


async def open_table(server: Server, pubsub: PubSubHub, t: Any, tokens: list[str],
                     host: bool = True) -> list[Client]:
    clients = [Client(server, f"/t/{t.code}", {f"seat:{t.code}": tok, "lang": "en"}) for tok in tokens]
    if host:
        clients.append(Client(server, f"/host/{t.code}", {f"host:{t.code}": t.host_token, "lang": "en"}))
    for c in clients:
        await c.open(pubsub)
    if host:  # the host's seat list, join card and downloads: in its admin panel during play (issue 18.1)
        clients[-1].screen.local["admin"] = True
        clients[-1].screen.render(force=True)
    return clients


def mute(clients: list[Client], on: bool) -> None:
    """Hold back the screens' re-renders (setting up a round for many tables costs nothing then);
    unmuting re-renders each session once."""
    for c in clients:
        scr = c.screen
        scr._pending = on
        if not on:
            scr.render(force=True)
