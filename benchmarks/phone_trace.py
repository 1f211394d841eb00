"""Where a slow phone's time goes: a first join and a return visit traced in Chromium (CPU slowed N×).

    python -m benchmarks.phone_trace [--rounds 3] [--cpu 4] [--variants stock,ours] [--keep DIR]

The same visits as benchmarks/phone_join (30 Mbit/s, 20 ms, a persistent profile; the return
visit is a new browser on the same profile, seated), recorded with Chrome's tracing (DevTools
protocol `Tracing`, the categories DevTools' Performance panel records plus V8's wasm ones) from
the navigation to Flutter's own seat buttons in its accessibility tree (not the page's HTML join
screen's, companion/join_page.py, which come long before). The renderer's main thread is then
split by what it was doing – each slice of time goes to the innermost traced event that names a
kind of work (`KINDS`): streaming the wasm in (download + compile, or reading V8's code cache),
instantiating it, compiling wasm functions lazily on their first call (Liftoff; V8's code cache
holds only the functions TurboFan optimised), Flutter's frames, timers/promises/socket messages
(Dart running), the browser's own DOM style/layout/paint, parsing and compiling JavaScript, the
loader, GC. Medians over the rounds, in the throttled page's milliseconds (4× a desktop's); `busy`
= the main thread's total, `wall` = navigation → button in the page's clock. On a slow phone the
main thread is busy nearly all the way (idle < 3 %): the network is not what it waits for.

`--keep DIR` writes each trace (Chrome's JSON: open it in DevTools' Performance panel or
ui.perfetto.dev) and its page timeline there.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import phone_join as pj
from benchmarks.common import header, median, save, table

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute", "v8.wasm",
              "disabled-by-default-v8.wasm.detailed", "disabled-by-default-v8.compile", "blink", "loading",
              "toplevel", "blink.user_timing"]
# What the main thread was doing: the innermost traced event that names one of these decides.
KINDS: list[tuple[str, set[str]]] = [
    ("wasm lazy compile", {"wasm.CompileLazy"}),
    ("wasm stream/cache", {"v8.wasm.compileConsume", "wasm.OnBytesReceived", "v8.wasm.compileConsumeDone",
                           "wasm.FinishStreaming", "v8.wasm.streamFromResponseCallback"}),
    ("wasm instantiate", {"wasm.AsyncInstantiate", "wasm.SyncInstantiate"}),
    ("GC", {"MinorGC", "MajorGC", "V8.GCScavenger", "V8.GC_MARK_COMPACTOR", "V8.GCFinalizeMC"}),
    ("JS compile", {"V8.CompileCode", "V8.ParseProgram", "V8.CompileScript", "v8.compile", "v8.compileModule",
                    "V8.ParseFunction", "V8.CompileLazy"}),
    ("HTML parse", {"ParseHTML"}),
    ("DOM style/layout/paint", {"WebFrameWidgetImpl::UpdateLifecycle", "Document::UpdateStyleAndLayout",
                                "UpdateLayoutTree", "Layout", "Paint", "Commit"}),
    ("loader", {"ResponseBodyLoader::DidFinishLoadingBody", "ResourceFetcher::requestResource",
                "ThrottlingURLLoader::OnReceiveResponse", "ResponseBodyLoader::OnStateChange",
                "DocumentLoader::CommitNavigation"}),
    ("Flutter frames", {"FireAnimationFrame"}),
    ("Dart: timers/promises/messages", {"TimerFire", "RunMicrotasks", "EventDispatch", "HandlePostMessage",
                                        "v8.run", "v8.evaluateModule"}),
]
KIND_OF = {name: kind for kind, names in KINDS for name in names}
OTHER = "other (task overhead)"
COLUMNS = [k for k, _ in KINDS] + [OTHER]


def breakdown(events: list[dict[str, Any]], seen_ms: float, since_ms: float | None = None) -> dict[str, float]:
    """The page's main thread from its navigation to `seen_ms` (page clock), in ms per kind; and
    `busy after first frame`, its tasks from `since_ms` (Flutter's first frame) to `seen_ms`: the
    first screen's own cost (the socket's messages, their widgets), which stock's hello page lacks."""
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name"}
    renderers = {e["pid"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"
                 and e["args"].get("name") == "Renderer"}
    busy_by: collections.Counter[int] = collections.Counter()
    for e in events:
        if e.get("pid") in renderers and e.get("name") == "RunTask" and e.get("ph") == "X" and \
                threads.get((e["pid"], e["tid"])) == "CrRendererMain":
            busy_by[e["pid"]] += e.get("dur", 0)
    pid = busy_by.most_common(1)[0][0]  # the page's renderer (not a WebUI one)
    navs = [e["ts"] for e in events if e.get("name") == "navigationStart" and e.get("pid") == pid
            and "http" in json.dumps(e.get("args", {}))]
    t0 = min(navs) if navs else min(e["ts"] for e in events if e.get("pid") == pid and e.get("ts"))
    end = t0 + seen_ms * 1000
    main_tid = next(t for (p, t), n in threads.items() if p == pid and n == "CrRendererMain")
    xs = sorted((e for e in events if e.get("pid") == pid and e.get("tid") == main_tid and e.get("ph") == "X"
                 and "dur" in e and t0 <= e["ts"] < end), key=lambda e: (e["ts"], -e["dur"]))
    out: collections.Counter[str] = collections.Counter()
    stack: list[tuple[float, str, int]] = []
    child: collections.Counter[int] = collections.Counter()
    kinds: list[str] = []
    for i, e in enumerate(xs):
        while stack and stack[-1][0] <= e["ts"]:
            stack.pop()
        kind = KIND_OF.get(e["name"]) or (stack[-1][1] if stack else OTHER)
        if stack:
            child[stack[-1][2]] += e["dur"]
        stack.append((e["ts"] + e["dur"], kind, i))
        kinds.append(kind)
    for i, e in enumerate(xs):
        out[kinds[i]] += max(0.0, min(e["dur"], end - e["ts"]) - child[i]) / 1000
    res = {k: round(out.get(k, 0.0)) for k in COLUMNS}
    res["busy"] = round(sum(out.values()))
    if since_ms is not None:
        start = t0 + since_ms * 1000
        res["busy after first frame"] = round(sum(
            max(0.0, min(e["ts"] + e["dur"], end) - max(e["ts"], start)) for e in xs
            if e["name"] == "RunTask" and e["ts"] + e["dur"] > start) / 1000)
    workers = [(p, t) for (p, t), n in threads.items() if p == pid and n.startswith("DedicatedWorker")]
    res["skwasm worker"] = round(sum(e.get("dur", 0) for e in events if (e.get("pid"), e.get("tid")) in workers
                                     and e.get("ph") == "X" and e.get("name") == "RunTask"
                                     and t0 <= e.get("ts", 0) < end) / 1000)
    return res


async def traced_visit(pw: Any, chromium: str, profile: Path, url: str, ready: str, cpu: float, mbit: float,
                       latency: float, then_click: str | None, then_ready: str | None, keep: Path | None,
                       tag: str) -> dict[str, Any]:
    ctx = await pw.chromium.launch_persistent_context(str(profile), executable_path=chromium, headless=True,
                                                      args=pj.CHROMIUM_ARGS, viewport=pj.PHONE)
    try:
        page = ctx.pages[0] if ctx.pages else await ctx.new_page()
        await page.add_init_script(pj.MARKS_JS)
        cdp = await ctx.new_cdp_session(page)
        await cdp.send("Network.enable")
        bps = mbit * 1_000_000 / 8
        await cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
                                                             "downloadThroughput": bps, "uploadThroughput": bps})
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        cdp.on("Tracing.tracingComplete", lambda ev: done.done() or done.set_result(ev))
        await cdp.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES,
                                                         "recordMode": "recordAsMuchAsPossible"},
                                         "transferMode": "ReturnAsStream"})
        t0 = time.perf_counter()
        await page.goto(url, wait_until="commit", timeout=120_000)
        await page.evaluate(f"window.__ready = new RegExp({json.dumps(ready)})")
        await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=120_000)
        await page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        # Flutter's own button (the page's HTML join screen has one of the same name: companion/join_page.py)
        await page.locator("flt-semantics-host").get_by_role("button", name=re.compile(ready)).first.wait_for(
            timeout=120_000)
        seconds = time.perf_counter() - t0
        timeline = await page.evaluate(pj.TIMELINE_JS)
        await cdp.send("Tracing.end")
        stream = (await done)["stream"]
        chunks = []
        while True:
            r = await cdp.send("IO.read", {"handle": stream, "size": 1 << 22})
            chunks.append(r["data"])
            if r.get("eof"):
                break
        await cdp.send("IO.close", {"handle": stream})
        raw = "".join(chunks)
        if keep is not None:
            (keep / f"{tag}.json").write_text(raw)
            (keep / f"{tag}.timeline.json").write_text(json.dumps(timeline))
        trace = json.loads(raw)
        events = trace["traceEvents"] if isinstance(trace, dict) else trace
        seen = float(timeline.get("seen") or seconds * 1000)
        ff = timeline.get("first_frame")
        out = {"seconds": round(seconds, 2), "wall": round(seen),
               **breakdown(events, seen, float(ff) if isinstance(ff, (int, float)) else None),
               "timeline": {k: round(v) if isinstance(v, float) else v for k, v in timeline.items()}}
        if then_click:  # (on Flutter's screen: the HTML join screen goes once Flutter's is drawn)
            await page.wait_for_selector("#tc-join", state="detached", timeout=60_000)
            await page.get_by_role("button", name=re.compile(then_click)).first.click()
            await page.get_by_role("button", name=re.compile(then_ready or ".")).first.wait_for(timeout=60_000)
            await asyncio.sleep(1.0)  # the seat token reaches localStorage
        return out
    finally:
        await ctx.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        raise SystemExit("no Chromium found (Debian: apt-get install chromium)")
    work = Path(tempfile.mkdtemp(prefix="bench-trace-"))
    keep = Path(args.keep) if args.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    vs = pj.variants(args.variants.split(","), ["auto"], ["gzip"])
    servers = []
    results: dict[tuple[str, str], list[dict[str, Any]]] = collections.defaultdict(list)
    try:
        for i, v in enumerate(vs):
            servers.append(pj.start(v, work, i))
        async with async_playwright() as pw:
            for rnd in range(args.rounds):
                order = range(len(vs)) if rnd % 2 == 0 else reversed(range(len(vs)))
                for i in order:
                    srv, url, first_ready, return_ready, click = servers[i]
                    profile = Path(tempfile.mkdtemp(prefix="trace-phone-"))
                    try:
                        name = vs[i]["name"]
                        tag = f"{'stock' if vs[i]['kind'] == 'stock' else 'ours'}{i}-{rnd}"
                        f = await traced_visit(pw, chromium, profile, url, first_ready, args.cpu, args.mbit,
                                               args.latency, click, return_ready, keep, f"{tag}-first")
                        r = await traced_visit(pw, chromium, profile, url, return_ready, args.cpu, args.mbit,
                                               args.latency, None, None, keep, f"{tag}-return")
                    finally:
                        shutil.rmtree(profile, ignore_errors=True)
                    results[(name, "first")].append(f)
                    results[(name, "return")].append(r)
                    print(f"   {name}: first {f['wall']} ms (busy {f['busy']}, after 1st frame "
                          f"{f.get('busy after first frame')}) · return {r['wall']} ms (busy {r['busy']}, after "
                          f"{r.get('busy after first frame')}) · load {pj.load()}", flush=True)
    finally:
        for srv, *_ in servers:
            srv.stop()
        shutil.rmtree(work, ignore_errors=True)
    rows = []
    for (name, visit), xs in results.items():
        row: dict[str, Any] = {"variant": name, "visit": visit, "wall": median([x["wall"] for x in xs]),
                               "busy": median([x["busy"] for x in xs])}
        row.update({k: median([x[k] for x in xs]) for k in COLUMNS + ["skwasm worker"]})
        after = [x["busy after first frame"] for x in xs if x.get("busy after first frame") is not None]
        row["busy after first frame"] = median(after) if after else None
        rows.append(row)
    return {"rows": rows, "raw": {f"{k[0]} {k[1]}": v for k, v in results.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", type=float, default=4.0, help="CPU slowdown of the page (DevTools)")
    ap.add_argument("--mbit", type=float, default=30.0)
    ap.add_argument("--latency", type=float, default=20.0)
    ap.add_argument("--variants", default="stock,ours", help="as benchmarks/phone_join's (gzip, auto renderer)")
    ap.add_argument("--keep", default=None, help="write the traces (Chrome JSON) into this folder")
    ap.add_argument("--out", default="phone_trace")
    args = ap.parse_args()
    header(f"phone trace: CPU {args.cpu:g}× slower, {args.mbit:g} Mbit/s + {args.latency:g} ms, "
           f"median of {args.rounds}")
    res = asyncio.run(run(args))
    print(table(res["rows"]))
    print("ms of the page's main thread, throttled clock; wall = navigation → seat buttons (page clock)")
    save(args.out, res)


if __name__ == "__main__":
    main()
