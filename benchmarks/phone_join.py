"""(a) A phone's first join and return visit, in headless Chromium on a throttled network.

    python -m benchmarks.phone_join [--repeat 3] [--mbit 30] [--latency 20]

Network: Chrome DevTools `Network.emulateNetworkConditions` (30 Mbit/s down and up, 20 ms
latency) on a persistent browser profile (a disk cache, like a phone's browser). "Usable" =
the seat buttons of the join screen are in Flutter's accessibility tree ("Sit as …"); on the
return visit, the seated phone's own screen ("Rename"). Bytes = encoded bytes received for
every HTTP response (headers included) plus WebSocket frames, until usable.

Variants in one run: the stock-Flet hello page (baseline, uncompressed), and our app with
each web renderer and encoding (gzip only – what every phone browser accepts – and zstd
when the `zstd` command is installed, which Chromium and Firefox accept).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, header, load, median, save, table

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--enable-unsafe-swiftshader",
                 "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 412, "height": 860}


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, argv: list[str], env: dict[str, str], port: int, log: Path) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        e = {**os.environ, "FLET_FORCE_WEB_SERVER": "true", "PYTHONUNBUFFERED": "1", **env}
        e.pop("DISPLAY", None)
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=e, stdout=open(log, "ab"), stderr=subprocess.STDOUT)
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def wait_compressed(base: str, files: list[str], enc: str, timeout: float = 300) -> None:
    """Wait until the server has the compressed copies (made once, at start-up), so we time serving."""
    if enc == "identity":
        return
    deadline = time.time() + timeout
    pending = list(files)
    while pending and time.time() < deadline:
        f = pending[0]
        req = urllib.request.Request(f"{base}/{f}", method="HEAD", headers={"Accept-Encoding": enc})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                got = r.headers.get("Content-Encoding", "identity")
        except OSError:
            got = "error"
        if got == enc or got == "error":
            pending.pop(0)
        else:
            time.sleep(1)


def make_table(data_dir: Path) -> str:
    sys.path.insert(0, str(ROOT))
    from companion.table.hub import Hub
    from companion.table.store import SQLiteStore

    store = SQLiteStore(data_dir)
    hub = Hub(store)
    t = hub.create("sealed_vote", None, [{"name": f"P{i + 1}"} for i in range(6)])
    store.close()
    return t.code


async def visit(pw: Any, chromium: str, profile: Path, url: str, ready: str, mbit: float, latency: float,
                then_click: str | None = None, then_ready: str | None = None) -> dict[str, Any]:
    ctx = await pw.chromium.launch_persistent_context(str(profile), executable_path=chromium, headless=True,
                                                      args=CHROMIUM_ARGS, viewport=PHONE)
    try:
        page = ctx.pages[0] if ctx.pages else await ctx.new_page()
        cdp = await ctx.new_cdp_session(page)
        got: dict[str, Any] = {"http": 0, "ws": 0, "requests": 0, "not_modified": 0, "cached": 0, "urls": set(),
                               "enc": {}}

        def finished(ev: dict[str, Any]) -> None:
            got["http"] += int(ev.get("encodedDataLength", 0))

        def response(ev: dict[str, Any]) -> None:
            r = ev["response"]
            got["requests"] += 1
            got["urls"].add(r["url"])
            if r.get("status") == 304:
                got["not_modified"] += 1
            if r.get("fromDiskCache") or r.get("fromPrefetchCache"):
                got["cached"] += 1
            enc = {k.lower(): v for k, v in (r.get("headers") or {}).items()}.get("content-encoding")
            if enc:
                got["enc"][enc] = got["enc"].get(enc, 0) + 1

        def frame(ev: dict[str, Any]) -> None:
            resp = ev.get("response", {})
            data = resp.get("payloadData", "")
            got["ws"] += len(base64.b64decode(data)) if resp.get("opcode") == 2 else len(data.encode())

        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.responseReceived", response)
        cdp.on("Network.webSocketFrameReceived", frame)
        await cdp.send("Network.enable")
        bps = mbit * 1_000_000 / 8
        await cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
                                                             "downloadThroughput": bps, "uploadThroughput": bps})
        t0 = time.perf_counter()
        await page.goto(url, wait_until="commit", timeout=120_000)
        await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=120_000)
        await page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        await page.get_by_role("button", name=re.compile(ready)).first.wait_for(timeout=120_000)
        seconds = time.perf_counter() - t0
        out = {"seconds": seconds, "bytes": got["http"] + got["ws"], "http_bytes": got["http"],
               "ws_bytes": got["ws"], "requests": got["requests"], "304": got["not_modified"],
               "from_cache": got["cached"], "encodings": dict(got["enc"]),
               "renderer": "skwasm" if any("skwasm" in u for u in got["urls"]) else
               "canvaskit" if any("canvaskit.wasm" in u for u in got["urls"]) else "?"}
        if then_click:
            await page.get_by_role("button", name=re.compile(then_click)).first.click()
            await page.get_by_role("button", name=re.compile(then_ready or ".")).first.wait_for(timeout=60_000)
            await asyncio.sleep(1.0)  # let the seat token reach localStorage
        return out
    finally:
        await ctx.close()


async def measure(pw: Any, chromium: str, url: str, first_ready: str, return_ready: str, mbit: float,
                  latency: float, click: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    profile = Path(tempfile.mkdtemp(prefix="bench-phone-"))
    try:
        first = await visit(pw, chromium, profile, url, first_ready, mbit, latency, then_click=click,
                            then_ready=return_ready)
        again = await visit(pw, chromium, profile, url, return_ready, mbit, latency)
        return first, again
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def variants(renderers: list[str], encodings: list[str]) -> list[dict[str, str]]:
    out = [{"name": "stock Flet hello (baseline)", "kind": "stock", "renderer": "auto", "enc": "identity"}]
    for r in renderers:
        for e in encodings:
            out.append({"name": f"companion {r} {e}", "kind": "ours", "renderer": r, "enc": e})
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    from companion.web import available_encoders, boot_files

    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        raise SystemExit("no Chromium found (Debian: apt-get install chromium)")
    have = available_encoders()
    encodings = [e for e in args.encodings.split(",") if e in have]
    work = Path(args.data_dir or tempfile.mkdtemp(prefix="bench-join-"))
    work.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    raw: list[dict[str, Any]] = []
    async with async_playwright() as pw:
        for v in variants(args.renderers.split(","), encodings):
            port = free_port()
            if v["kind"] == "stock":
                srv = Server([sys.executable, "-m", "benchmarks.stock_hello", "--port", str(port)], {}, port,
                             work / "stock.log")
                url, first_ready, return_ready, click = srv.base + "/", "Tap me", "Tap me", None
            else:
                code = make_table(work / "data")
                srv = Server([sys.executable, "-m", "companion", "--host", "127.0.0.1", "--port", str(port),
                              "--data-dir", str(work / "data"), "--public-url", f"http://127.0.0.1:{port}",
                              "--no-browser"],
                             {"COMPANION_WEB_RENDERER": v["renderer"], "COMPANION_STATIC_ENCODINGS": v["enc"]},
                             port, work / "server.log")
                wait_compressed(srv.base, boot_files(v["renderer"]), v["enc"])
                url, first_ready, return_ready, click = f"{srv.base}/t/{code}", "Sit as", "Rename", "Sit as"
            try:
                firsts, agains = [], []
                for _ in range(args.repeat):
                    la = load()
                    f, a = await measure(pw, chromium, url, first_ready, return_ready, args.mbit, args.latency,
                                         click)
                    f["load"] = a["load"] = la
                    firsts.append(f)
                    agains.append(a)
                    raw.append({"variant": v["name"], "first": f, "return": a})
                    print(f"   {v['name']}: first {f['seconds']:.2f} s {f['bytes'] / 1e6:.2f} MB ({f['renderer']}) · "
                          f"return {a['seconds']:.2f} s {a['bytes'] / 1e3:.0f} kB · load {la}", flush=True)
                rows.append({"variant": v["name"], "renderer": firsts[0]["renderer"],
                             "first s": median([x["seconds"] for x in firsts]),
                             "first MB": median([x["bytes"] for x in firsts]) / 1e6,
                             "return s": median([x["seconds"] for x in agains]),
                             "return kB": median([x["bytes"] for x in agains]) / 1e3,
                             "return 304s": agains[0]["304"], "requests": firsts[0]["requests"]})
            finally:
                srv.stop()
    return {"rows": rows, "raw": raw}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mbit", type=float, default=30.0)
    ap.add_argument("--latency", type=float, default=20.0)
    ap.add_argument("--renderers", default="auto,canvaskit")
    ap.add_argument("--encodings", default="gzip,zstd")
    ap.add_argument("--data-dir", default=None, help="keeps the compressed copies between runs")
    args = ap.parse_args()
    header(f"(a) phone join, {args.mbit:g} Mbit/s + {args.latency:g} ms, median of {args.repeat}")
    res = asyncio.run(run(args))
    print(table(res["rows"]))
    print("targets: first join ≤ 3.0 s and ≤ 5 MB; return visit ≤ 1.5 s and ≤ 300 kB")
    save("phone_join", {"args": vars(args), **res})


if __name__ == "__main__":
    main()
