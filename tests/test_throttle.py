"""The phone benchmark's throttling proxy (benchmarks/throttle.py): bytes paced, latency added, bytes counted."""

from __future__ import annotations

import asyncio
import time

from benchmarks.throttle import ThrottleProxy

BIG = 250_000  # bytes: 0.5 s at 4 Mbit/s


async def _server() -> tuple[asyncio.AbstractServer, int]:
    async def handle(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        while True:
            try:
                head = await r.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                break
            path = head.split(b" ")[1]
            if path == b"/big":
                w.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % BIG + b"x" * BIG)
            elif path == b"/chunked":
                w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
            elif path == b"/same":
                w.write(b"HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n")
            else:
                w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            await w.drain()
        w.close()

    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    return srv, srv.sockets[0].getsockname()[1]


async def _get(r: asyncio.StreamReader, w: asyncio.StreamWriter, path: str, size: int) -> bytes:
    w.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await w.drain()
    return await r.readexactly(size)


def test_proxy_paces_delays_and_counts() -> None:
    async def main() -> None:
        srv, port = await _server()
        async with ThrottleProxy("127.0.0.1", port, mbit=4, latency_ms=200) as proxy:
            r, w = await asyncio.open_connection("127.0.0.1", proxy.port)
            small = len(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            t0 = time.monotonic()
            await _get(r, w, "/small", small)
            rtt = time.monotonic() - t0  # one request and its answer: one round trip of latency

            big_head = len(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % BIG)
            t0 = time.monotonic()
            await _get(r, w, "/big", big_head + BIG)
            big = time.monotonic() - t0

            chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                       b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
            await _get(r, w, "/chunked", len(chunked))
            not_modified = b"HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n"
            await _get(r, w, "/same", len(not_modified))
            w.close()

            assert rtt >= 0.2, rtt
            assert big >= 0.2 + BIG * 8 / 4e6 * 0.95, big  # latency + 250 kB at 4 Mbit/s (0.5 s)
            assert rtt < 5 and big < 10  # (a loaded machine: generous upper bounds)
            assert [(x["request"], x["status"], x["bytes"]) for x in proxy.responses] == [
                ("GET /small HTTP/1.1", 200, small), ("GET /big HTTP/1.1", 200, big_head + BIG),
                ("GET /chunked HTTP/1.1", 200, len(chunked)), ("GET /same HTTP/1.1", 304, len(not_modified))]
            assert proxy.http_bytes == proxy.bytes_down == small + big_head + BIG + len(chunked) + len(not_modified)
            assert proxy.connections == 1
        srv.close()

    asyncio.run(main())


def test_link_is_shared_by_connections() -> None:
    """Two downloads at once share the link: together they take as long as both bytes at the rate."""
    async def main() -> None:
        srv, port = await _server()
        async with ThrottleProxy("127.0.0.1", port, mbit=8, latency_ms=0) as proxy:
            head = len(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % BIG)

            async def one() -> None:
                r, w = await asyncio.open_connection("127.0.0.1", proxy.port)
                await _get(r, w, "/big", head + BIG)
                w.close()

            t0 = time.monotonic()
            await asyncio.gather(one(), one())
            both = time.monotonic() - t0
            assert both >= 2 * BIG * 8 / 8e6 * 0.95, both  # 500 kB at 8 Mbit/s: 0.5 s
            assert proxy.connections == 2 and proxy.http_bytes == 2 * (head + BIG)
        srv.close()

    asyncio.run(main())
