"""The WebSocket door: how many sockets one client may hold open, and a clean end for every socket.

Two things `WebFront` (companion/web.py) does for every WebSocket, through `SocketGuard`:

* **A cap per client.** Each open WebSocket is counted against the address it comes from – the
  peer address of the connection itself (ASGI `scope["client"]`), never `page.client_ip` or a
  header, which the client writes. Above `PER_CLIENT` open sockets from one address the handshake
  is refused (HTTP 403; ASGI `websocket.close` before the accept): a phone on the table's Wi-Fi
  cannot hold hundreds of sessions open. 32 is far above what a real table needs from one address
  – one socket per tab, so the host laptop's host and table-display tabs plus a few stray ones, or
  a phone with a handful of tabs; a socket that drops stops counting at once – and far below the
  hundreds that make a table slow for everyone (docs/BENCHMARKS.md, dropped sessions).
  COMPANION_WS_PER_CLIENT=N sets another cap, 0 turns it off (e.g. behind a reverse proxy, where
  every socket comes from the proxy's address).
* **Every socket ends its session.** Flet 1.0.5 (flet_web/fastapi/flet_app.py) marks a session
  disconnected only after its send loop has ended cleanly; a send to a socket that is already
  gone (a tab that vanished right after it registered: its first screen goes out to a dead
  peer) raises, the send loop dies, and the session stays "connected" to nothing for good –
  never expired, redrawn on every change at its table. Measured: 1,000 such sessions made every
  action at the table take 0.3–1 s instead of 20 ms. Here a send to a socket known to be gone is
  dropped instead of raising, so Flet's own disconnect path runs (`on_disconnect`, then the
  session's expiry). And a socket that drops before the client registered leaves Flet's handler
  waiting for ever (no session, so nothing stops its send loop): once the socket is gone the
  handler gets `LINGER` seconds to finish, then it is cancelled.
* **What a client may say on its socket** (`Frames`, issue 33). Flet 1.0.5 applies whatever a
  client sends: a second REGISTER_CLIENT on the same socket made a new session (1,000 on one
  socket: 1,000 sessions, and only the last was ended when the socket dropped); a property
  update may write any field of any control, event handlers and private fields included
  (`{"on_disconnect": null}` on the page: the session never learnt that its socket had gone,
  and its seat showed "here" for good); and it may send the page the events only the server
  raises (connect, disconnect, close). Here, read from the frames themselves before Flet sees
  them: **one socket carries one session** – a second registration closes the socket (1008),
  which ends the one session it carried; a property whose name starts with `on_` or `_`, at any
  depth, is dropped from a property update and from the registration's page; a page event named
  connect, disconnect or close from the client is dropped. Presence thus follows the socket as
  the server sees it, never a property the client can write.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PER_CLIENT = 32
LINGER = 10.0
CLOSE_POLICY = 1008  # "policy violation" (the client sees HTTP 403: refused before the accept)


REGISTER_CLIENT, CONTROL_EVENT, UPDATE_CONTROL_PROPS = 1, 3, 4  # flet.messaging.protocol.MessageAction
PAGE_ID = 1  # Flet's page is the first control of every session
SERVER_EVENTS = frozenset(("connect", "disconnect", "close"))  # raised by the server only
CLOSE = object()  # Frames.screen: end this socket


def _writable(name: Any) -> bool:
    """A property a client may write: not an event handler (`on_…`), not a private field (`_…`)."""
    return not (isinstance(name, str) and (name.startswith("on_") or name.startswith("_")))


def _strip(value: Any) -> tuple[Any, bool]:
    """`value` without the properties a client may not write, at any depth; and whether any went."""
    if isinstance(value, dict):
        out, cut = {}, False
        for k, v in value.items():
            if not _writable(k):
                cut = True
                continue
            out[k], c = _strip(v)
            cut = cut or c
        return out, cut
    if isinstance(value, list):
        items = [_strip(v) for v in value]
        return [v for v, _ in items], any(c for _, c in items)
    return value, False


class Frames:
    """One socket's messages from its client, looked at before Flet applies them (see above)."""

    def __init__(self) -> None:
        self.registered = False
        self.stripped = 0  # messages that lost properties the client may not write
        self.dropped = 0  # forged page events

    def screen(self, data: bytes) -> bytes | object | None:
        """The frame to pass on (as it came, or without what the client may not write), None to
        drop it, or CLOSE to end the socket."""
        if not data or data[0] != 0:
            return data  # (a data-channel frame, or one Flet drops itself)
        try:
            msg = msgpack.unpackb(data[1:], strict_map_key=False)
        except Exception:
            return data  # (Flet fails on it the same way and ends the socket)
        if not (isinstance(msg, list) and len(msg) == 2 and isinstance(msg[1], dict)):
            return data
        action, body = msg
        if action == REGISTER_CLIENT:
            if self.registered:
                return CLOSE  # one socket, one session
            self.registered = True
            key = "page"
        elif action == UPDATE_CONTROL_PROPS:
            key = "props"
        elif action == CONTROL_EVENT:
            if body.get("target") == PAGE_ID and body.get("name") in SERVER_EVENTS:
                self.dropped += 1
                return None
            return data
        else:
            return data
        clean, cut = _strip(body.get(key))
        if not cut:
            return data
        self.stripped += 1
        return b"\x00" + msgpack.packb([action, {**body, key: clean}])


def per_client_from_env(default: int = PER_CLIENT) -> int:
    raw = os.environ.get("COMPANION_WS_PER_CLIENT")
    try:
        return max(0, int(raw)) if raw else default
    except ValueError:
        return default


def client_of(scope: Scope) -> str:
    """The peer address of the connection (what the TCP connection says, not the client)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


class SocketGuard:
    """Counts open WebSockets per client address, refuses those above the cap, ends each cleanly."""

    def __init__(self, per_client: int | None = None, linger: float = LINGER) -> None:
        self.per_client = per_client_from_env() if per_client is None else per_client
        self.linger = linger
        self.open: dict[str, int] = {}
        self.refused = 0
        self.cancelled = 0  # handlers that did not end after their socket was gone
        self.second_registrations = 0  # sockets closed for a second REGISTER_CLIENT

    def count(self, client: str) -> int:
        return self.open.get(client, 0)

    async def __call__(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        client = client_of(scope)
        if self.per_client and self.open.get(client, 0) >= self.per_client:
            self.refused += 1
            await refuse(receive, send)
            return
        self.open[client] = self.open.get(client, 0) + 1
        gone = asyncio.Event()
        counted = True

        def release() -> None:
            nonlocal counted
            gone.set()
            if counted:
                counted = False
                left = self.open.get(client, 1) - 1
                if left > 0:
                    self.open[client] = left
                else:
                    self.open.pop(client, None)

        frames = Frames()

        async def guarded_receive() -> Message:
            while True:
                message = await receive()
                kind = message.get("type")
                if kind == "websocket.disconnect":
                    release()
                elif kind == "websocket.receive" and message.get("bytes"):
                    verdict = frames.screen(message["bytes"])
                    if verdict is None:
                        continue  # (a forged page event: as if never sent)
                    if verdict is CLOSE:  # a second session on this socket: the socket ends
                        self.second_registrations += 1
                        if not gone.is_set():
                            try:
                                await send({"type": "websocket.close", "code": CLOSE_POLICY})
                            except Exception:
                                pass
                        release()
                        return {"type": "websocket.disconnect", "code": CLOSE_POLICY}
                    if verdict is not message["bytes"]:
                        message = {**message, "bytes": verdict}
                return message

        async def guarded_send(message: Message) -> None:
            kind = message.get("type")
            if kind in ("websocket.send", "websocket.close"):
                if gone.is_set():
                    return  # the peer is gone: nothing to send, and nothing to fail
                try:
                    await send(message)
                except Exception:  # the peer went away during the send (uvicorn: OSError/RuntimeError)
                    release()
                return
            await send(message)

        task = asyncio.ensure_future(app(scope, guarded_receive, guarded_send))
        waiter = asyncio.ensure_future(gone.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                await asyncio.wait({task}, timeout=self.linger)
                if not task.done():
                    self.cancelled += 1
                    task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                if not task.cancelled():
                    raise
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
        except asyncio.CancelledError:
            task.cancel()
            raise
        finally:
            waiter.cancel()
            release()


async def refuse(receive: Receive, send: Send) -> None:
    """Turn a WebSocket handshake down (the client sees HTTP 403)."""
    message = await receive()
    if message.get("type") == "websocket.connect":
        await send({"type": "websocket.close", "code": CLOSE_POLICY})
