"""Shared bits of the benchmarks: the machine, the load, percentiles, small tables."""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Raw figures (JSON) go outside the tree unless asked: COMPANION_BENCH_OUT=benchmarks/results (make bench
# BENCH_OUT=benchmarks/results) keeps a run's figures with the committed ones.
RESULTS = Path(os.environ.get("COMPANION_BENCH_OUT") or Path(tempfile.gettempdir()) / "companion-bench")


def machine() -> dict[str, Any]:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "?"
    mem = "?"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory": mem, "python": sys.version.split()[0],
            "platform": platform.platform()}


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def speed(runs: int = 5) -> float:
    """CPU ms for a fixed piece of plain Python (the best of `runs`): how fast this machine is
    right now. This shared virtual machine runs the same work up to ≈ 1.5× slower at times; the
    figure, printed with every benchmark (and at its end), says which phase a run met."""
    best = float("inf")
    for _ in range(runs):
        t = time.process_time()
        s = 0
        for i in range(1_000_000):
            s += i * i
        best = min(best, time.process_time() - t)
    return best * 1000


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def header(title: str) -> None:
    m = machine()
    print(f"== {title}")
    print(f"   machine: {m['nproc']} CPUs, {m['cpu']}, {m['memory']} RAM, Python {m['python']}")
    print(f"   load average at start: {load()}   ({time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())})")
    print(f"   speed check: {speed():.0f} CPU-ms for a fixed loop of plain Python (best of 5; lower = faster phase)")


def table(rows: list[dict[str, Any]], cols: list[str] | None = None) -> str:
    """A Markdown table (also readable on a terminal)."""
    if not rows:
        return "(no rows)"
    cols = cols or list(dict.fromkeys(k for r in rows for k in r))  # every column of any row, in order

    def fmt(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"
        return str(v)
    cells = [[fmt(r.get(c, "")) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
    out = ["| " + " | ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)) + " |",
           "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += ["| " + " | ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) + " |" for row in cells]
    return "\n".join(out)


def save(name: str, data: dict[str, Any]) -> Path:
    """Keep the raw figures (JSON) next to the printed tables."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    data = {"machine": machine(), "load_end": load(), "speed_end_ms": round(speed(), 1), "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **data}
    p = RESULTS / f"{name}.json"
    p.write_text(json.dumps(data, indent=1, default=str))
    return p
