"""(e) Print: the full LUTETIA set as one PDF, 300 dpi, A4, duplex backs.

    python -m benchmarks.printing [--repeat 2]

`companion.printing.render_pdf("lutetia", paper="a4", dpi=300, backs="duplex-long")` – pages
painted in parallel worker processes (as many as the machine has, at most 4), indexed-colour
pages (the default). Growth: cards (copies of each card), resolution.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
from typing import Any

from benchmarks.common import header, load, save, table
from companion.printing.api import render_pdf
from companion.printing.pdf import read_pages


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="only the headline figure")
    args = ap.parse_args()
    header("(e) print: full LUTETIA set, A4, duplex")
    cases = [{"dpi": 300, "copies": 1}]
    if not args.quick:
        cases += [{"dpi": 150, "copies": 1}, {"dpi": 300, "copies": 2}]
    rows: list[dict[str, Any]] = []
    for c in cases:
        times = []
        cpus = []
        pdf = b""
        for _ in range(args.repeat):
            c0 = os.times()
            t0 = time.perf_counter()
            pdf = render_pdf("lutetia", paper="a4", dpi=c["dpi"], backs="duplex-long", copies=c["copies"])
            times.append(time.perf_counter() - t0)
            c1 = os.times()
            cpus.append(sum(c1[:4]) - sum(c0[:4]))  # user+sys, this process and its page painters
        n = pages(pdf)
        rows.append({"dpi": c["dpi"], "copies": c["copies"], "pages": n, "seconds (median)": statistics.median(times),
                     "cpu s": statistics.median(cpus), "cpu s / nproc": statistics.median(cpus) / (os.cpu_count() or 1),
                     "MB": len(pdf) / 1e6, "MB/page": len(pdf) / max(n, 1) / 1e6,
                     "max MB/page": max(len(p.image) for p in read_pages(pdf)) / 1e6, "load": load()})
        print(table(rows[-1:]), flush=True)
    print(table(rows))
    print("target (issue 20): ≤ 5 s on this 2-core machine; ≤ 0.5 MB per page")
    save("printing", {"args": vars(args), "rows": rows})


if __name__ == "__main__":
    main()
