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
"""

from __future__ import annotations

from typing import Any

MAX_WS_MESSAGE = 256 * 1024
MAX_HEAD_BYTES = 32 * 1024
MAX_HEADERS = 100

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

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._in_head:  # also bounds a head that never ends (llhttp itself has no limit)
                self._head += len(data)
                if self._head > MAX_HEAD_BYTES + 8192:
                    self._refuse()
                    return
            super().data_received(data)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_head, self._head, self._exact, self._count = True, 0, 0, 0

        def on_url(self, url: bytes) -> None:
            self._counted(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count += 1
            self._counted(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._in_head = False
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

    return LimitedHttpToolsProtocol


def uvicorn_options() -> dict[str, Any]:
    return {"http": http_protocol(), "ws_max_size": MAX_WS_MESSAGE,
            "h11_max_incomplete_event_size": MAX_HEAD_BYTES}
