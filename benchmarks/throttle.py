"""A throttling TCP proxy for the phone benchmarks: a slow link between a browser and the server.

    async with ThrottleProxy("127.0.0.1", server_port, mbit=30, latency_ms=20) as proxy:
        browser goes to f"http://127.0.0.1:{proxy.port}/…"
        proxy.responses  # [{"request": "GET /x HTTP/1.1", "status": 200, "bytes": …}, …]

For engines without Chrome DevTools' network emulation (WebKitGTK, Firefox). Every byte in
each direction goes through one shared link per direction (like a phone's one Wi-Fi link, not a
link per connection), sent at `mbit` Mbit/s, and arrives `latency_ms / 2` after it was sent:
a request and its answer take `latency_ms` more than on the bare loopback (DevTools' "latency"
is this round-trip figure). The proxy reads the HTTP/1.1 responses it forwards and counts the
bytes of each (status line and headers included, as they crossed the link); after a 101 the
connection's bytes are WebSocket frames, counted in `ws_bytes`. `bytes_down` is everything sent
towards the browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

CHUNK = 16 * 1024  # bytes read (and paced) at a time


class Link:
    """One direction of the slow link: bytes leave one after another at `rate` bytes/s."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.free_at = 0.0  # when the link has sent everything handed to it (monotonic clock)

    def reserve(self, n: int) -> float:
        """The moment the last of `n` more bytes has left."""
        now = time.monotonic()
        self.free_at = max(self.free_at, now) + (n / self.rate if self.rate > 0 else 0.0)
        return self.free_at


class ResponseCounter:
    """Splits a connection's server-to-browser bytes into HTTP/1.1 responses, incrementally."""

    def __init__(self, sink: list[dict[str, Any]], requests: list[str], proxy: ThrottleProxy) -> None:
        self.sink, self.requests, self.proxy = sink, requests, proxy
        self.buf = b""
        self.state = "head"  # head, body (length), chunked, trailer, close (until EOF), ws
        self.left = 0  # body bytes left (length) or of the current chunk
        self.current: dict[str, Any] | None = None

    def _done(self) -> None:
        if self.current is not None:
            self.sink.append(self.current)
        self.current = None
        self.state = "head"

    def feed(self, data: bytes) -> None:
        if self.state == "ws":
            self.proxy.ws_bytes += len(data)
            return
        self.buf += data
        while self.buf:
            if self.state == "head":
                end = self.buf.find(b"\r\n\r\n")
                if end < 0:
                    return
                head, self.buf = self.buf[:end + 4], self.buf[end + 4:]
                lines = head.decode("latin-1").split("\r\n")
                parts = lines[0].split(" ", 2)
                status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
                hdrs = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, v = line.split(":", 1)
                        hdrs[k.strip().lower()] = v.strip()
                if 100 <= status < 200 and status != 101:  # 100 Continue: the real answer follows
                    continue
                request = self.requests.pop(0) if self.requests else "?"
                self.current = {"request": request, "status": status, "bytes": len(head),
                                "encoding": hdrs.get("content-encoding", ""), "type": hdrs.get("content-type", "")}
                if status == 101:
                    self._done()
                    self.state = "ws"
                    rest, self.buf = self.buf, b""
                    self.proxy.ws_bytes += len(rest)
                    return
                if request.startswith("HEAD ") or status in (204, 304):
                    self._done()
                elif "chunked" in hdrs.get("transfer-encoding", "").lower():
                    self.state, self.left = "chunked", -1
                elif "content-length" in hdrs:
                    self.state, self.left = "body", int(hdrs["content-length"])
                    if self.left == 0:
                        self._done()
                else:
                    self.state = "close"
            elif self.state in ("body", "close"):
                n = len(self.buf) if self.state == "close" else min(self.left, len(self.buf))
                assert self.current is not None
                self.current["bytes"] += n
                self.buf = self.buf[n:]
                if self.state == "body":
                    self.left -= n
                    if self.left == 0:
                        self._done()
            elif self.state == "chunked":
                assert self.current is not None
                if self.left <= 0:  # a chunk-size line (after the previous chunk's CRLF)
                    skip = 2 if self.left == 0 else 0
                    if len(self.buf) < skip:
                        return
                    end = self.buf.find(b"\r\n", skip)
                    if end < 0:
                        return
                    size = int(self.buf[skip:end].split(b";")[0].strip() or b"0", 16)
                    self.current["bytes"] += end + 2
                    self.buf = self.buf[end + 2:]
                    if size == 0:
                        self.state = "trailer"
                    else:
                        self.left = size
                else:
                    n = min(self.left, len(self.buf))
                    self.current["bytes"] += n
                    self.buf = self.buf[n:]
                    self.left -= n  # 0: the chunk's CRLF comes before the next size line
            elif self.state == "trailer":
                end = self.buf.find(b"\r\n")
                if end < 0:
                    return
                assert self.current is not None
                self.current["bytes"] += end + 2
                line, self.buf = self.buf[:end], self.buf[end + 2:]
                if not line:
                    self._done()

    def eof(self) -> None:
        if self.state == "close":
            self._done()


class ThrottleProxy:
    def __init__(self, host: str, port: int, mbit: float, latency_ms: float, listen_port: int = 0) -> None:
        self.upstream = (host, port)
        rate = mbit * 1_000_000 / 8
        self.down, self.up = Link(rate), Link(rate)
        self.delay = latency_ms / 1000 / 2  # one way
        self.listen_port = listen_port
        self.port = 0
        self.responses: list[dict[str, Any]] = []
        self.ws_bytes = 0
        self.bytes_down = 0
        self.bytes_up = 0
        self.connections = 0
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def reset(self) -> None:
        """Counts from zero (a new visit); connections already open keep going."""
        self.responses.clear()
        self.ws_bytes = self.bytes_down = self.bytes_up = self.connections = 0

    @property
    def http_bytes(self) -> int:
        return sum(r["bytes"] for r in self.responses)

    async def start(self) -> ThrottleProxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", self.listen_port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for t in list(self._tasks):
            t.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    async def __aenter__(self) -> ThrottleProxy:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _client(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await asyncio.sleep(self.delay * 2)  # the TCP handshake crosses the link once each way
            try:
                s_reader, s_writer = await asyncio.open_connection(*self.upstream)
            except OSError:
                c_writer.close()
                return
            requests: list[str] = []
            counter = ResponseCounter(self.responses, requests, self)

            def on_up(data: bytes) -> None:
                self.bytes_up += len(data)
                if counter.state != "ws":  # request lines, in order (a browser does not pipeline)
                    for line in data.split(b"\r\n"):
                        word = line.split(b" ", 1)[0]
                        if word in (b"GET", b"HEAD", b"POST", b"PUT", b"DELETE", b"OPTIONS", b"PATCH") \
                                and line.endswith((b"HTTP/1.1", b"HTTP/1.0")):
                            requests.append(line.decode("latin-1"))

            def on_down(data: bytes) -> None:
                self.bytes_down += len(data)
                counter.feed(data)

            try:
                await asyncio.gather(self._pipe(c_reader, s_writer, self.up, on_up),
                                     self._pipe(s_reader, c_writer, self.down, on_down, counter.eof),
                                     return_exceptions=True)
            finally:
                s_writer.close()
        except asyncio.CancelledError:
            pass  # the proxy is closing
        finally:
            if task is not None:
                self._tasks.discard(task)
            c_writer.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: Link,
                    seen: Any, at_eof: Any = None) -> None:
        """Read, then deliver each piece when the link has sent it plus the one-way delay, in order."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()
                seen(data)
            if at_eof is not None:
                at_eof()
            with contextlib.suppress(Exception):
                if writer.can_write_eof():
                    writer.write_eof()

        sender = asyncio.create_task(send())
        try:
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    break
                queue.put_nowait((link.reserve(len(data)) + self.delay, data))
            queue.put_nowait((0.0, b""))
            await sender
        except (ConnectionError, asyncio.CancelledError):
            sender.cancel()
            raise
