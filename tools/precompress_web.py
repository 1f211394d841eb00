"""Gzip the Flet web client's four big files once, with zopfli, and commit the result.

    .venv/bin/pip install zopfli          # needed only to run this script
    .venv/bin/python tools/precompress_web.py [--iterations 5] [--blocks 100]

Every phone's first join downloads `main.dart.wasm` and `canvaskit/skwasm.wasm` (8.5 + 3.6 MB,
4.33 MB with zlib's gzip -9) – or, on the CanvasKit build of iPhones and Firefox, `main.dart.js`
and `canvaskit/canvaskit.wasm` (9.6 + 7.2 MB, 5.45 MB gzip -9; browsers that take brotli get the
server's br copy instead, but Chrome and Firefox offer br and zstd only to secure origins – HTTPS,
localhost – and a table's server is plain HTTP on the local network). zopfli writes the same gzip format 5–6 % smaller but takes minutes
per file, too slow for a server's start on a host laptop. So it is done here, once per flet-web
version (flet is pinned), and the files are committed under `companion/assets/precompressed/`
with a record of the source files' sizes and SHA-256. The server (`companion/web.py`) uses a
committed file as its gzip copy only when the installed file is byte for byte the one recorded
(else it gzips the installed file with zlib as before). The files are Flet's and Flutter's build
output, compressed: see `companion/assets/precompressed/README.md` for their licences.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.web import PRECOMPRESSED, PRECOMPRESSED_DIR, web_dir  # noqa: E402


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=5, help="zopfli's iterations (5: its advice for files of MBs)")
    ap.add_argument("--blocks", type=int, default=100,
                    help="most deflate blocks per file (zopfli's default 15; 100: −30 kB on main.dart.wasm)")
    args = ap.parse_args()
    import zopfli.gzip  # only this script needs it
    from flet.version import flet_version

    web = web_dir()
    out = PRECOMPRESSED_DIR
    out.mkdir(parents=True, exist_ok=True)
    record: dict[str, object] = {
        "about": "The Flet web client's largest files gzipped by zopfli (tools/precompress_web.py); served by "
                 "companion/web.py as their gzip copy only while the installed file matches the source below.",
        "flet_web": flet_version, "iterations": args.iterations, "blocks": args.blocks, "files": {}}
    files: dict[str, object] = {}
    for rel in PRECOMPRESSED:
        data = (web / rel).read_bytes()
        t = time.perf_counter()
        gz = zopfli.gzip.compress(data, numiterations=args.iterations, blocksplittingmax=args.blocks)
        took = time.perf_counter() - t
        if gzip.decompress(gz) != data:
            raise SystemExit(f"{rel}: the gzip does not give back the file")
        zlib9 = len(gzip.compress(data, compresslevel=9, mtime=0))
        dst = out / (rel.replace("/", "__") + ".gz")
        dst.write_bytes(gz)
        files[rel] = {"source": {"size": len(data), "sha256": sha256(data)},
                      "gzip": {"file": dst.name, "size": len(gz), "sha256": sha256(gz)},
                      "zlib_9_size": zlib9}
        print(f"{rel}: {len(data):,} B → zopfli {len(gz):,} B (zlib -9 {zlib9:,} B, {len(gz) - zlib9:+,}) in {took:.0f} s")
    record["files"] = files
    (out / "precompressed.json").write_text(json.dumps(record, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
