"""A raw Flet client over a real WebSocket: what a browser tab says to the server, without a browser.

It registers a page (`REGISTER_CLIENT` with a route), answers the server's calls the way a phone's
browser would (SharedPreferences `get`/`set` from a dict, device info, `push_route`), keeps every
control it has been sent (by id, for taps and typing), and timestamps each patch, so a test or a
benchmark can wait for a text to appear on this "phone". It can connect from another loopback
address (`source="127.0.0.7"`: Linux accepts any 127/8 source) – another client as far as the
server can tell – and drop its socket without a goodbye.

Flet 1.0.5's wire format (flet_web/fastapi/flet_app.py): every frame is `0x00` + msgpack
`[action, body]`. Pinned with flet.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgpack
import websockets
from flet.messaging.protocol import MessageAction

REGISTER = MessageAction.REGISTER_CLIENT.value
PATCH = MessageAction.PATCH_CONTROL.value
EVENT = MessageAction.CONTROL_EVENT.value
PROPS = MessageAction.UPDATE_CONTROL_PROPS.value
INVOKE = MessageAction.INVOKE_METHOD.value


def frame(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def strings(x: Any, out: list[str]) -> list[str]:
    if isinstance(x, dict):
        for v in x.values():
            strings(v, out)
    elif isinstance(x, list | tuple):
        for v in x:
            strings(v, out)
    elif isinstance(x, str):
        out.append(x)
    return out


class RawPhone:
    """One tab. `await RawPhone(url, "/t/CODE", prefs).open()`; `close()` or `drop()` to leave."""

    def __init__(self, ws_url: str, route: str, prefs: dict[str, Any] | None = None,
                 source: str | None = None, session_id: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.ws_url = ws_url
        self.route = route
        self.prefs = prefs if prefs is not None else {}
        self.source = source
        self.session_id = session_id
        self.headers = headers or {}  # of the handshake (e.g. the page's boot cookie, companion/ui/boot.py)
        self.ws: Any = None
        self.controls: dict[int, dict[str, Any]] = {}  # every control dict sent, by its id ("_i")
        self.texts: list[tuple[float, str]] = []  # (arrival, string) of every string in a patch
        self.patches = 0
        self.received: list[tuple[float, int, int]] = []  # (arrival, action, bytes) of every message
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

    async def connect(self) -> RawPhone:
        """Only the socket (no registration): what a tab that has not started Flutter yet holds."""
        kw: dict[str, Any] = {"open_timeout": 30, "ping_interval": None, "max_size": None,
                              "compression": None}
        if self.source:
            kw["local_addr"] = (self.source, 0)
        if self.headers:
            kw["additional_headers"] = self.headers
        self.ws = await websockets.connect(self.ws_url, **kw)
        return self

    async def open(self, wait_for: str | None = None, timeout: float = 30) -> RawPhone:
        if self.ws is None:
            await self.connect()
        page = {"route": self.route, "web": True, "width": 412.0, "height": 860.0, "platform": "android",
                "pwa": False, "debug": False}
        await self.ws.send(frame(REGISTER, {"session_id": self.session_id, "page_name": "", "page": page}))
        self._reader = asyncio.ensure_future(self._read())
        if wait_for is not None:
            await self.wait_text(wait_for, timeout)
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                if not raw or raw[0] != 0:
                    continue
                action, body = msgpack.unpackb(raw[1:], strict_map_key=False)
                now = time.perf_counter()
                self.received.append((now, action, len(raw)))
                if action == REGISTER:
                    self.session_id = body.get("session_id") if isinstance(body, dict) else body[0]
                    self._index(body)
                elif action == PATCH:
                    self.patches += 1
                    self._index(body)
                    self.texts.extend((now, s) for s in strings(body, []))
                elif action == INVOKE:
                    await self._answer(body)
                self._changed.set()
        except (websockets.ConnectionClosed, OSError):
            pass
        finally:
            self.closed.set()
            self._changed.set()

    def _index(self, x: Any) -> None:
        if isinstance(x, dict):
            i = x.get("_i")
            if isinstance(i, int) and "_c" in x:
                self.controls[i] = x
            for v in x.values():
                self._index(v)
        elif isinstance(x, list | tuple):
            for v in x:
                self._index(v)

    async def _answer(self, body: Any) -> None:
        if isinstance(body, dict):
            cid, call, name, args = body.get("control_id"), body.get("call_id"), body.get("name"), body.get("args")
        else:
            cid, call, name, args = body[0], body[1], body[2], (body[3] if len(body) > 3 else None)
        args = args or {}
        result: Any = None
        error: str | None = None
        if name == "get":
            result = self.prefs.get(args.get("key"))
        elif name == "set":
            self.prefs[args.get("key")] = args.get("value")
            result = True
        elif name == "get_device_info":
            result = None
            error = "no device info in the raw client"
        elif name == "push_route":
            self.route = args.get("route", self.route)
        try:
            await self.ws.send(frame(MessageAction.INVOKE_METHOD.value,
                                     {"control_id": cid, "call_id": call, "result": result, "error": error}))
        except websockets.ConnectionClosed:
            pass

    # ---------- reading the screen ----------
    def seen(self, text: str, since: float = 0.0) -> float | None:
        """When a patch first carried a string containing `text` (after `since`), else None."""
        for at, s in self.texts:
            if at >= since and text in s:
                return at
        return None

    async def wait_text(self, text: str, timeout: float = 30, since: float = 0.0) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            at = self.seen(text, since)
            if at is not None:
                return at
            if self.closed.is_set():
                raise ConnectionError(f"closed before {text!r} appeared on {self.route}")
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{text!r} did not appear on {self.route}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                pass

    def find(self, kind: str, text: str) -> int:
        """The id of the last control of class `kind` whose own props mention `text`."""
        found = None
        for i, c in self.controls.items():
            if c.get("_c") == kind and any(text in s for s in strings(
                    {k: v for k, v in c.items() if not isinstance(v, dict | list) or k in ("content",)}, [])):
                found = i
        if found is None:
            raise LookupError(f"no {kind} showing {text!r} on {self.route}")
        return found

    # ---------- acting ----------
    async def type_into(self, control: int, value: str) -> None:
        await self.ws.send(frame(PROPS, {"id": control, "props": {"value": value}}))

    async def tap(self, control: int, event: str = "click") -> None:
        await self.ws.send(frame(EVENT, {"target": control, "name": event, "data": None}))

    # ---------- leaving ----------
    async def close(self) -> None:
        """A tab closed politely (a WebSocket close handshake)."""
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    def drop(self) -> None:
        """A phone gone from the Wi-Fi / a tab killed: the TCP connection ends, no close handshake."""
        if self.ws is not None:
            transport = getattr(self.ws, "transport", None)
            if transport is not None:
                transport.abort()
        if self._reader is not None:
            self._reader.cancel()
