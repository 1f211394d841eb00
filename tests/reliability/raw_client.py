"""A raw Flet WebSocket client for attacking the real server the way a mischievous player would:
no browser, just the messages Flet's client sends (msgpack `[action, body]` behind one kind byte),
including ones the real client never sends – forged page properties, events for any control.

    async with RawClient(base, "/t/ABCD") as c:
        await c.forge({"client_ip": "10.9.9.9"})    # UPDATE_CONTROL_PROPS for the page
        await c.go("/t/WXYZ")                       # the page's route_change event
        assert "No table" in " ".join(c.texts())
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import websockets
from flet.messaging.protocol import MessageAction

PAGE_ID = 1  # Flet's page is the first control of a session


def _ws_url(base: str) -> str:
    return base.replace("http://", "ws://", 1).rstrip("/") + "/ws"


class RawClient:
    def __init__(self, base: str, route: str, headers: dict[str, str] | None = None,
                 page: dict[str, Any] | None = None, max_size: int | None = 2**24,
                 local_addr: tuple[str, int] | None = None, prefs: dict[str, Any] | None = None,
                 session_id: str | None = None) -> None:
        self.base = base
        self.route = route
        self.headers = headers or {}
        self.page = page or {}
        self.max_size = max_size
        self.local_addr = local_addr  # a loopback source address of its own: another "machine"
        self.prefs: dict[str, Any] = dict(prefs or {})  # the "browser's" storage, answered at once
        self.session_id = session_id  # a reload of the same tab: Flet's session kept in sessionStorage
        self.asked: list[str] = []
        self.asked_keys: list[Any] = []  # the storage keys the server asked for ("seat:CODE", …)
        self.frames: list[Any] = []
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

    async def __aenter__(self) -> RawClient:
        await self.open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def open(self) -> None:
        extra: dict[str, Any] = {"local_addr": self.local_addr} if self.local_addr else {}
        self.ws = await websockets.connect(_ws_url(self.base), additional_headers=self.headers,
                                           max_size=self.max_size, open_timeout=20, **extra)
        register = {"session_id": self.session_id, "page_name": self.route.lstrip("/").split("?")[0],
                    "page": {"route": self.route, "web": True, "width": 412.0, "height": 860.0,
                             "platform": "android", **self.page}}
        await self.send(MessageAction.REGISTER_CLIENT.value, register)
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                if isinstance(raw, bytes) and raw:
                    try:
                        msg = msgpack.unpackb(raw[1:], strict_map_key=False)
                    except Exception:
                        continue
                    self.frames.append(msg)
                    if isinstance(msg, list) and len(msg) == 2 and msg[0] == MessageAction.REGISTER_CLIENT.value \
                            and isinstance(msg[1], dict) and msg[1].get("session_id"):
                        self.session_id = msg[1]["session_id"]
                    if isinstance(msg, list) and len(msg) == 2 and msg[0] == MessageAction.INVOKE_METHOD.value:
                        await self._answer(msg[1])
        except Exception:
            pass
        finally:
            self.closed.set()

    async def _answer(self, call: dict[str, Any]) -> None:
        """Answer the server's calls as a browser would: storage from `prefs`, nothing else."""
        name, args = call.get("name"), call.get("args") or {}
        self.asked.append(str(name))
        if name in ("get", "set"):
            self.asked_keys.append(args.get("key"))
        result: Any = None
        if name == "get":
            result = self.prefs.get(args.get("key"))
        elif name == "set":
            self.prefs[args.get("key")] = args.get("value")
            result = True
        elif name == "get_device_info":
            result = {"language": "en-US"}
        await self.send(MessageAction.INVOKE_METHOD.value, {"control_id": call.get("control_id"),
                                                            "call_id": call.get("call_id"),
                                                            "result": result, "error": None})

    async def send(self, action: int, body: Any) -> None:
        await self.ws.send(b"\x00" + msgpack.packb([action, body]))

    async def forge(self, props: dict[str, Any], control_id: int = PAGE_ID) -> None:
        """Write properties of a control (the page by default), as a client may."""
        await self.send(MessageAction.UPDATE_CONTROL_PROPS.value, {"id": control_id, "props": props})

    async def event(self, target: int, name: str, data: Any = None) -> None:
        await self.send(MessageAction.CONTROL_EVENT.value, {"target": target, "name": name, "data": data})

    async def go(self, route: str) -> None:
        """What the client sends when its address changes."""
        await self.forge({"route": route})
        await self.event(PAGE_ID, "route_change", {"route": route})

    def values(self) -> list[Any]:
        return RawClient.values_of(self.frames)

    @staticmethod
    def texts_of(frames: list[Any]) -> list[str]:
        return [v for v in RawClient.values_of(frames) if isinstance(v, str)]

    @staticmethod
    def values_of(frames: list[Any]) -> list[Any]:
        out: list[Any] = []

        def walk(x: Any) -> None:
            if isinstance(x, dict):
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
            else:
                out.append(x)
        for f in frames:
            walk(f)
        return out

    def texts(self) -> list[str]:
        return [v for v in self.values() if isinstance(v, str)]

    async def wait_for(self, needle: str, timeout: float = 20) -> bool:
        """True once some text sent to this client contains `needle`."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            if any(needle in t for t in self.texts()):
                return True
            if self.closed.is_set():
                return False
            await asyncio.sleep(0.05)
        return False

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except Exception:
                pass
