"""What the server accepts from one client: request head size and header count, WebSocket message size.

uvicorn's defaults are for APIs behind a proxy: a 16 MB WebSocket message, and with httptools (its
parser when installed) no limit at all on the size or number of request headers. Here the server
faces every phone on the Wi-Fi directly, so it refuses what no browser running this app sends:

- WebSocket messages: the Flet client sends taps, text fields' values (names ≤ 24 characters, a
  sealed-vote question ≤ 200) and its registration (route, sizes, platform), msgpack-framed:
  measured over a whole table start (benchmarks/ws_client_messages.py: host, 4 phones typing
  24-character names, a vote) 73 messages, median 51 bytes, largest 476. 256 KiB is > 500× that
  (room for a long paste into a field, which the rules then refuse politely) and refuses the
  5–10 MB message of an attack with close code 1009 (message too big) from the frame's header,
  before it is read.
- Request head (request line + headers): 32 KiB, and at most 100 headers. A browser sends 10–25
  headers and 1–4 kB (nginx's default buffer is 8 kB, Node's limit 16 kB); the margin is for
  cookies of other apps on the same host name (cookies ignore the port). Answered with
  431 Request Header Fields Too Large and the connection closed.
- Slow heads (slowloris, issue 33.4): uvicorn waits for a request head as long as the client
  likes – one address opening 1,100 connections that each sent a header line every 10 s used
  every file descriptor of a desktop's usual 1,024, and for 40 s every other phone's page and
  WebSocket failed. Now a connection whose request head is not complete `HEAD_TIMEOUT` seconds
  after it opened (or after its next request began) is closed (408), and one address may hold
  at most `HTTP_PER_CLIENT` plain HTTP connections open – the next is answered 503 and closed at
  once – as it may hold 32 WebSockets (companion/sockets.py; a connection that becomes a WebSocket
  counts there instead). A browser opens ≤ 6 connections to a server and sends a head in one
  packet: 64 is far above a household's tabs behind one address, far below the server's files.
  COMPANION_HTTP_PER_CLIENT=N sets another cap, 0 turns it off (behind a reverse proxy).
"""

from __future__ import annotations

import os
from typing import Any

MAX_WS_MESSAGE = 256 * 1024
MAX_HEAD_BYTES = 32 * 1024
MAX_HEADERS = 100

HEAD_TIMEOUT = 10.0  # s for a request head, from the connection (or the request's first byte)
HTTP_PER_CLIENT = 64

_503 = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: 32\r\nconnection: close\r\n\r\nToo many connections from you.\r\n")
_408 = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: 0\r\nconnection: close\r\n\r\n")


def http_per_client_from_env(default: int = HTTP_PER_CLIENT) -> int:
    raw = os.environ.get("COMPANION_HTTP_PER_CLIENT")
    try:
        return max(0, int(raw)) if raw else default
    except ValueError:
        return default


class OpenConnections:
    """Plain HTTP connections open per client address (the peer address of the connection itself)."""

    per_client = HTTP_PER_CLIENT
    open: dict[str, int] = {}
    refused = 0
    timed_out = 0


_431 = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: 32\r\nconnection: close\r\n\r\nRequest headers are too large.\r\n")


def http_protocol() -> Any:
    """uvicorn's httptools protocol with the head limits, or (without httptools) "h11", whose
    `h11_max_incomplete_event_size` caps the head size (and so the count: ≥ 4 bytes a header)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools is optional for uvicorn
        return "h11"

    class LimitedHttpToolsProtocol(HttpToolsProtocol):  # type: ignore[misc]
        _head = 0  # bytes received while in the current request's head
        _exact = 0  # bytes of its request line and complete headers
        _count = 0
        _in_head = True
        _refused = False
        _addr: str | None = None  # counted in OpenConnections under this address
        _head_timer: Any = None

        # ---- connections per client address, and a deadline for each request head (slowloris)
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            addr = str(self.client[0]) if self.client else ""
            held = OpenConnections.open.get(addr, 0)
            if OpenConnections.per_client and held >= OpenConnections.per_client:
                OpenConnections.refused += 1
                self._refused = True
                transport.write(_503)
                transport.close()
                return
            OpenConnections.open[addr] = held + 1
            self._addr = addr
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                OpenConnections.timed_out += 1
                self._refused = True
                self.transport.write(_408)
                self.transport.close()

        def _release(self) -> None:
            addr, self._addr = self._addr, None
            if addr is not None:
                left = OpenConnections.open.get(addr, 1) - 1
                if left > 0:
                    OpenConnections.open[addr] = left
                else:
                    OpenConnections.open.pop(addr, None)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            self._release()  # (a WebSocket now: counted by companion/sockets.py)
            super().handle_websocket_upgrade()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._in_head:  # also bounds a head that never ends (llhttp itself has no limit)
                before = self._head
                self._head += len(data)
                if self._head > MAX_HEAD_BYTES + 8192:
                    # (a head that ends in this piece, within the bound, is not refused for the
                    # body that came with it: a POST's head and body often arrive together)
                    end = data.find(b"\r\n\r\n")
                    if end < 0 or before + end > MAX_HEAD_BYTES + 8192:
                        self._refuse()
                        return
            super().data_received(data)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_head, self._head, self._exact, self._count = True, 0, 0, 0
            if self._addr is not None:
                self._arm()  # (a keep-alive connection's next request: its head has HEAD_TIMEOUT too)

        def on_url(self, url: bytes) -> None:
            self._counted(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count += 1
            self._counted(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._in_head = False
            self._disarm()
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._in_head, self._head = True, 0

        def _counted(self, n: int) -> None:
            self._exact += n
            if self._count > MAX_HEADERS or self._exact > MAX_HEAD_BYTES:
                self._refused = True
                raise ValueError("request head too large")  # stops the parser (HttpParserCallbackError)

        def send_400_response(self, msg: str) -> None:
            if self._refused:
                self._refuse()
            else:
                super().send_400_response(msg)

        def _refuse(self) -> None:
            self._refused = True
            if not self.transport.is_closing():
                self.transport.write(_431)
                self.transport.close()

    OpenConnections.per_client = http_per_client_from_env()
    return LimitedHttpToolsProtocol


def uvicorn_options() -> dict[str, Any]:
    return {"http": http_protocol(), "ws_max_size": MAX_WS_MESSAGE,
            "h11_max_incomplete_event_size": MAX_HEAD_BYTES}
