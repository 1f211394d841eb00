"""How big are the WebSocket messages the app's own browser client sends? (for companion/limits.py)

    .venv/bin/python benchmarks/ws_client_messages.py

Runs the real server (`companion.cli.main`) with Starlette's `WebSocket.receive` wrapped to note the
size of every message a browser sends, then drives headless Chromium through a table's start: the
host opens the home page, types four 24-character player names, creates a sealed vote; four phones
open the join link, one types a 24-character name, all sit down; the host starts; every phone
votes and locks. Prints the count and the largest sizes.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SERVER = """
import os, sys
import starlette.websockets as sw
out = open(os.environ["WS_SIZES"], "a", buffering=1)
real = sw.WebSocket.receive
async def receive(self):
    m = await real(self)
    if m.get("type") == "websocket.receive":
        out.write(f"{len(m.get('bytes') or b'') + len((m.get('text') or '').encode())}\\n")
    return m
sw.WebSocket.receive = receive
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


async def drive(base: str) -> None:
    from playwright.async_api import async_playwright

    from tests.browser.helpers import CHROMIUM_ARGS, chromium_path, create_table, join_phones, see, tap

    class S:
        pass
    server = S()
    server.base = base  # type: ignore[attr-defined]
    names = [f"{c}" * 24 for c in "ABCD"]
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        host = await create_table(b, server, seats=4)  # (typing the seats' names on the phones)
        phones = await join_phones(b, host.join_url, names, typed=True)
        await see(host.page, names[3])
        await tap(host.page, "Start")
        for ph in phones:
            await tap(ph, "Yes", exact=True)
            await tap(ph, "Lock my choice")
        await see(phones[0], "Tally")
        await b.close()


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="ws-sizes-"))
    sizes = tmp / "sizes.txt"
    port = 8700 + os.getpid() % 200
    env = {**os.environ, "WS_SIZES": str(sizes), "FLET_FORCE_WEB_SERVER": "true",
           "COMPANION_STATIC_ENCODINGS": "gzip"}
    env.pop("DISPLAY", None)
    proc = subprocess.Popen([sys.executable, "-c", SERVER, "--host", "127.0.0.1", "--port", str(port),
                             "--data-dir", str(tmp / "data"), "--no-browser", "--public-url",
                             f"http://127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=open(tmp / "server.log", "w"))
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        asyncio.run(drive(f"http://127.0.0.1:{port}"))
    finally:
        proc.terminate()
        proc.wait(10)
    got = sorted(int(x) for x in sizes.read_text().split())
    print(f"WS-CLIENT-MESSAGES count {len(got)}, largest {got[-5:][::-1]} bytes, median {got[len(got) // 2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
