"""Serving the Flet web client fast: pre-compressed static files and revalidating caches.

Stock Flet sends its 9 MB `main.dart.wasm` / `main.dart.js`, the renderer's wasm and the icon
font uncompressed. `StaticCompression` sits in front of the whole app (an ASGI middleware):

* a GET/HEAD for one of the client's static files (the flet-web package's `web` directory, or
  our own assets directory, which Flet gives precedence) is answered here. Each file is
  compressed **once** (gzip level 9 always; zstd when the `zstd` command is installed, brotli
  when the `brotli` module is) into a cache directory keyed by the file's size and mtime, so a
  restart reuses the work; the body is sent with `Content-Encoding` when the browser accepts it.
* every such response carries `ETag` and `Cache-Control: no-cache`, so a return visit asks
  "still the same?" and gets `304 Not Modified` (a few hundred bytes) instead of megabytes; the
  ETag names the encoding, and `Vary: Accept-Encoding` keeps shared caches honest.
* FontManifest.json (Flet's no_cdn copy) leaves out font families the app never uses (KaTeX,
  Cupertino icons), which Flutter would otherwise download before the first frame;
* the files Flet patches at start-up (index.html, manifest.json, FontManifest.json) and every
  route (`/t/CODE`, `/ws`, `/qr/...`) pass through to Flet untouched, with `Cache-Control:
  no-cache` added when the response has none – `no_cdn` stays Flet's business.

The boot files of the chosen renderer are compressed in a background thread at start-up so
the first phone does not wait; any other file is compressed on its first request (gzip inline
in a worker thread; the slow encoders in the background, gzip served meanwhile).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import mimetypes
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("font/otf", ".otf")
mimetypes.add_type("font/ttf", ".ttf")
mimetypes.add_type("font/woff2", ".woff2")
mimetypes.add_type("application/json", ".map")

# Files Flet rewrites at start-up (into its own temp dir): never serve the package copies.
PATCHED = frozenset({"", "index.html", "manifest.json", "assets/FontManifest.json"})
# Already compressed: not worth trying.
INCOMPRESSIBLE = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".woff2", ".woff", ".gz", ".zip",
                            ".whl", ".br", ".zst", ".ico", ".mp3", ".mp4", ".ogg"})
# The headers Flet's own middleware adds (skwasm's threads need cross-origin isolation).
FLET_HEADERS = [(b"cross-origin-opener-policy", b"same-origin"), (b"cross-origin-embedder-policy", b"require-corp"),
                (b"access-control-allow-origin", b"*")]
CACHE_CONTROL = b"no-cache"
# Fonts Flutter downloads before the first frame because they are in FontManifest.json, though
# this app never uses them: the KaTeX fonts (math in Markdown) and the Cupertino icons – about
# 480 kB gzipped, 10% of a first join. Dropped from the manifest Flet serves.
UNUSED_FONT_FAMILIES = ("packages/flutter_math_fork/", "packages/cupertino_icons/")
FONT_MANIFEST = "/assets/FontManifest.json"
# Sharding seam (docs/SCALING.md): with ws_per_table, the page of /t/CODE or /host/CODE opens its
# WebSocket at /ws/CODE, so a reverse proxy hashing on the code keeps page and socket on one process.
TABLE_PAGE = re.compile(r"^/(?:t|host)/([A-Za-z]{2,12})/?$")
TABLE_WS = re.compile(r"^/ws/([A-Za-z]{2,12})$")
WS_ENDPOINT = re.compile(r'flet\.webSocketEndpoint="[^"]*";')
BUSY_TIMEOUT = 1800  # seconds after which an unfinished compression by another process is retried
MIN_SIZE = 1024  # smaller files are sent as they are
WORTH = 0.92  # keep a compressed copy only if it is at most this fraction of the original

# What the client loads before the first frame, per renderer (paths under the web dir).
BOOT_FILES = {
    "skwasm": ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.wasm", "canvaskit/skwasm.js",
               "canvaskit/skwasm_heavy.wasm", "canvaskit/skwasm_heavy.js"],
    "canvaskit": ["main.dart.js", "canvaskit/chromium/canvaskit.wasm", "canvaskit/chromium/canvaskit.js",
                  "canvaskit/canvaskit.wasm", "canvaskit/canvaskit.js"],
    "common": ["flutter_bootstrap.js", "python.js", "flutter.js", "assets/fonts/MaterialIcons-Regular.otf",
               "assets/packages/cupertino_icons/assets/CupertinoIcons.ttf", "assets/AssetManifest.bin.json",
               "assets/AssetManifest.bin", "assets/shaders/ink_sparkle.frag", "assets/shaders/stretch_effect.frag"],
}


def _gzip(src: Path, dst: Path) -> None:
    with open(src, "rb") as f:
        data = f.read()
    dst.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def _zstd(src: Path, dst: Path) -> None:
    exe = shutil.which("zstd")
    if exe is None:
        raise OSError("zstd not installed")
    # lowest CPU priority: the compression runs once per machine, in the background
    subprocess.run([exe, "-19", "-q", "-f", "-o", str(dst), str(src)], check=True, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800,
                   preexec_fn=_lowest_priority if os.name == "posix" else None)


def _lowest_priority() -> None:
    try:
        os.nice(19)
    except OSError:
        pass


def _brotli(src: Path, dst: Path) -> None:
    import brotli  # type: ignore[import-not-found]

    dst.write_bytes(brotli.compress(src.read_bytes(), quality=11))


def available_encoders() -> dict[str, Callable[[Path, Path], None]]:
    """Encoders this machine offers, best first. gzip (stdlib) is always there."""
    out: dict[str, Callable[[Path, Path], None]] = {}
    try:
        import brotli  # type: ignore[import-not-found]  # noqa: F401

        out["br"] = _brotli
    except ImportError:
        pass
    if shutil.which("zstd"):
        out["zstd"] = _zstd
    out["gzip"] = _gzip
    return out


def encodings_from_env(default: Iterable[str] | None = None) -> list[str]:
    """COMPANION_STATIC_ENCODINGS="gzip" (or "zstd,gzip", or "identity" for none) limits what is offered."""
    raw = os.environ.get("COMPANION_STATIC_ENCODINGS")
    have = available_encoders()
    wanted = [e.strip() for e in raw.split(",")] if raw else list(default or have)
    return [e for e in wanted if e in have]


def accepted(header: str) -> set[str]:
    """Codings the client accepts (q > 0) from an Accept-Encoding header."""
    out: set[str] = set()
    for part in header.split(","):
        bits = [b.strip() for b in part.split(";")]
        name = bits[0].lower()
        q = 1.0
        for b in bits[1:]:
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        if name and q > 0:
            out.add(name)
    if "*" in out:
        out |= {"gzip", "br", "zstd"}
    return out


class StaticCompression:
    """ASGI middleware: pre-compressed, revalidating static files in front of the Flet mount."""

    def __init__(self, app: ASGIApp, roots: list[Path], cache_dir: Path, encodings: list[str] | None = None,
                 warm: Iterable[str] = (), drop_fonts: Iterable[str] = UNUSED_FONT_FAMILIES,
                 ws_per_table: bool = False) -> None:
        self.app = app
        self.ws_per_table = ws_per_table
        self.drop_fonts = tuple(drop_fonts)
        self.roots = [r.resolve() for r in roots if r.is_dir()]
        self.cache_dir = cache_dir
        encoders = available_encoders()
        self.encodings = [e for e in (encodings if encodings is not None else list(encoders)) if e in encoders]
        self._encoders = encoders
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._background: set[tuple[str, str]] = set()
        self.stats = {"served": 0, "not_modified": 0, "compressed": 0}
        warm = [w for w in warm]
        if warm and os.environ.get("COMPANION_STATIC_WARM", "1") != "0":
            threading.Thread(target=self._warm, args=(warm,), name="static-compress", daemon=True).start()

    # ---------- finding and compressing files ----------
    def resolve(self, path: str) -> tuple[str, Path] | None:
        rel = path.lstrip("/")
        if rel in PATCHED or rel.endswith("/"):
            return None
        parts = rel.split("/")
        if any(p in ("", ".", "..") or "\\" in p or "\x00" in p for p in parts):
            return None
        for root in self.roots:
            f = root.joinpath(*parts)
            try:
                if f.is_file() and f.resolve().is_relative_to(root):
                    return rel, f
            except OSError:
                continue
        return None

    def _lock(self, key: tuple[str, str]) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(key, threading.Lock())

    def _cache_path(self, rel: str, f: Path, st: os.stat_result, enc: str) -> Path:
        key = hashlib.sha256(f"{f}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:24]
        return self.cache_dir / enc / f"{key}-{Path(rel).name}.{enc}"

    def compressible(self, f: Path, st: os.stat_result) -> bool:
        return st.st_size >= MIN_SIZE and f.suffix.lower() not in INCOMPRESSIBLE

    def variant(self, rel: str, f: Path, st: os.stat_result, enc: str) -> Path | None:
        """The compressed copy (made now if missing), or None when compression does not pay."""
        dst = self._cache_path(rel, f, st, enc)
        skip = dst.with_name(dst.name + ".skip")
        if dst.exists():
            return dst
        if skip.exists():
            return None
        with self._lock((rel, enc)):
            if dst.exists():
                return dst
            dst.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = dst.with_name(f"{dst.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            claim = dst.with_name(dst.name + ".busy")  # one process at a time compresses a file
            try:
                fd = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
                os.close(fd)
            except FileExistsError:
                try:
                    if time.time() - claim.stat().st_mtime < BUSY_TIMEOUT:
                        return None  # another server is on it; send another encoding meanwhile
                    claim.unlink(missing_ok=True)  # stale (a killed server): the next request retries
                    return None
                except OSError:
                    return None
            except OSError:
                return None
            try:
                self._encoders[enc](f, tmp)
                if tmp.stat().st_size > WORTH * st.st_size:
                    skip.touch()
                    tmp.unlink()
                    return None
                os.replace(tmp, dst)
                self.stats["compressed"] += 1
                return dst
            except (OSError, subprocess.SubprocessError):
                tmp.unlink(missing_ok=True)
                return None
            finally:
                claim.unlink(missing_ok=True)

    def ready(self, rel: str, f: Path, st: os.stat_result, enc: str) -> Path | None:
        dst = self._cache_path(rel, f, st, enc)
        return dst if dst.exists() else None

    def _warm(self, rels: list[str]) -> None:
        for enc in reversed(self.encodings):  # gzip first (fast), then the slow, better ones
            for rel in rels:
                found = self.resolve(rel)
                if found is None:
                    continue
                _, f = found
                try:
                    st = f.stat()
                    if self.compressible(f, st):
                        self.variant(rel, f, st, enc)
                except OSError:
                    continue

    def _compress_later(self, rel: str, f: Path, st: os.stat_result, enc: str) -> None:
        key = (rel, enc)
        if key in self._background:
            return
        self._background.add(key)

        def run() -> None:
            try:
                self.variant(rel, f, st, enc)
            finally:
                self._background.discard(key)
        threading.Thread(target=run, name="static-compress", daemon=True).start()

    async def choose(self, rel: str, f: Path, st: os.stat_result, accept: set[str]) -> tuple[str, Path]:
        """The encoding and file to send: the best accepted one ready now; gzip is made on the spot."""
        if not self.compressible(f, st):
            return "identity", f
        for enc in self.encodings:
            if enc not in accept:
                continue
            got = self.ready(rel, f, st, enc)
            if got is not None:
                return enc, got
            if self._cache_path(rel, f, st, enc).with_name(
                    self._cache_path(rel, f, st, enc).name + ".skip").exists():
                continue
            if enc == "gzip":
                got = await asyncio.to_thread(self.variant, rel, f, st, enc)
                if got is not None:
                    return enc, got
            else:
                self._compress_later(rel, f, st, enc)
        return "identity", f

    # ---------- ASGI ----------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.ws_per_table:
            m = TABLE_WS.match(scope.get("path", ""))
            if scope["type"] == "websocket" and m:
                scope = {**scope, "path": "/ws", "raw_path": b"/ws"}
            m = TABLE_PAGE.match(scope.get("path", ""))
            if scope["type"] == "http" and m and scope.get("method") in ("GET", "HEAD"):
                await self.app(scope, receive, self._rewrite_html(send, f"/ws/{m.group(1).upper()}"))
                return
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if scope.get("path") == FONT_MANIFEST and self.drop_fonts:
            await self.app(scope, receive, self._trim_fonts(send))
            return
        found = self.resolve(scope.get("path", "/"))
        if found is None:
            await self.app(scope, receive, self._with_cache_control(send))
            return
        rel, f = found
        try:
            st = f.stat()
        except OSError:
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        accept = accepted(headers.get(b"accept-encoding", b"").decode("latin-1"))
        enc, body_path = await self.choose(rel, f, st, accept)
        base = f"{st.st_size:x}-{st.st_mtime_ns:x}"
        etag = f'"{base}-{enc}"'
        out = [(b"content-type", self._content_type(f)), (b"cache-control", CACHE_CONTROL),
               (b"etag", etag.encode()), (b"vary", b"accept-encoding"), *FLET_HEADERS]
        inm = headers.get(b"if-none-match", b"").decode("latin-1")
        seen = self._matches(inm, base) if inm else None
        if seen is not None:
            self.stats["not_modified"] += 1
            out[2] = (b"etag", seen.encode())  # the copy the client holds stays the one it has
            await send({"type": "http.response.start", "status": 304, "headers": out})
            await send({"type": "http.response.body", "body": b""})
            return
        data = await asyncio.to_thread(body_path.read_bytes)
        if enc != "identity":
            out.append((b"content-encoding", enc.encode()))
        out.append((b"content-length", str(len(data)).encode()))
        self.stats["served"] += 1
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else data})

    @staticmethod
    def _matches(if_none_match: str, base: str) -> str | None:
        """The client's tag that names the current file (any encoding), or None."""
        if if_none_match.strip() == "*":
            return f'"{base}-identity"'
        for raw in if_none_match.split(","):
            tag = raw.strip()
            if tag.startswith("W/"):
                tag = tag[2:]
            bare = tag.strip('"')
            if bare == base or bare.rsplit("-", 1)[0] == base:
                return tag if tag.startswith('"') else f'"{bare}"'
        return None

    @staticmethod
    def _content_type(f: Path) -> bytes:
        ctype, _ = mimetypes.guess_type(f.name)
        ctype = ctype or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/json", "application/javascript"):
            ctype += "; charset=utf-8"
        return ctype.encode()

    def _rewrite_html(self, send: Send, ws_path: str) -> Send:
        """Point the page's WebSocket at /ws/CODE (index.html is small: buffered)."""
        return self._buffered(send, lambda body: WS_ENDPOINT.sub(
            f'flet.webSocketEndpoint="{ws_path}";', body.decode("utf-8")).encode("utf-8"))

    def _buffered(self, send: Send, change: Callable[[bytes], bytes]) -> Send:
        start: dict[str, Message] = {}
        chunks: list[bytes] = []

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                start["m"] = message
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            head = start["m"]
            body = b"".join(chunks)
            if head.get("status") == 200 and body:
                try:
                    body = change(body)
                except (ValueError, UnicodeError):
                    pass
            # (the ETag stays: the change is a pure function of the file it names)
            hs = [(k, v) for k, v in head.get("headers", []) if k.lower() not in (b"content-length", b"cache-control")]
            hs += [(b"content-length", str(len(body)).encode()), (b"cache-control", CACHE_CONTROL)]
            await send({**head, "headers": hs})
            await send({"type": "http.response.body", "body": body})
        return wrapped

    def _trim_fonts(self, send: Send) -> Send:
        """Flet's (no_cdn-patched) FontManifest.json without the unused families."""
        def change(body: bytes) -> bytes:
            fonts = json.loads(body)
            if not isinstance(fonts, list):
                return body
            kept = [f for f in fonts if not (isinstance(f, dict) and str(f.get("family", "")).startswith(self.drop_fonts))]
            return json.dumps(kept, separators=(",", ":")).encode()
        return self._buffered(send, change)

    @staticmethod
    def _with_cache_control(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                hs = list(message.get("headers", []))
                if not any(k.lower() == b"cache-control" for k, _ in hs):
                    hs.append((b"cache-control", CACHE_CONTROL))
                    message = {**message, "headers": hs}
            await send(message)
        return wrapped


def shared_cache_dir() -> Path | None:
    """Per-user cache shared by every server on this machine (tests start many): the compressed
    copies are made once per flet-web version, not once per data directory."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    try:
        from flet_web.version import version as flet_web_version
    except ImportError:
        flet_web_version = "unknown"
    d = Path(base) / "tabletop-companion" / f"web-{flet_web_version}"
    try:
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not os.access(d, os.W_OK):
            return None
        if os.name == "posix" and d.stat().st_uid != os.getuid():
            return None
        return d
    except OSError:
        return None


def web_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def boot_files(renderer: str) -> list[str]:
    kinds = ["skwasm", "canvaskit"] if renderer == "auto" else [renderer]
    return [f for k in kinds for f in BOOT_FILES.get(k, [])] + BOOT_FILES["common"]
