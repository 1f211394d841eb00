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
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PER_CLIENT = 32
LINGER = 10.0
CLOSE_POLICY = 1008  # "policy violation" (the client sees HTTP 403: refused before the accept)


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

        async def guarded_receive() -> Message:
            message = await receive()
            if message.get("type") == "websocket.disconnect":
                release()
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
