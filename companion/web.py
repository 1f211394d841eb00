"""Serving the Flet web client: its files through ServeStatic, compressed once; the page is ours.

Stock Flet sends its 9 MB `main.dart.wasm` / `main.dart.js`, the renderer's wasm and the icon
font uncompressed and revalidates every file. `WebFront` sits in front of the whole app (an ASGI
middleware):

* the client's static files (the flet-web package's `web` directory, and our own assets
  directory, which Flet gives precedence) are served by **ServeStatic** (`ClientFiles`): it picks
  the smallest compressed copy the browser accepts (`Content-Encoding`, `Vary`), answers ETag /
  If-Modified-Since revalidations with 304, HEAD and Range requests;
* the copies are made **once**, into a cache directory (`Precompressed`; per user, shared by every
  server of this flet-web version), at the first start – the boot files' gzip copies before the
  first request is served, the rest by a background thread at the lowest priority: gzip for every
  file (the two big files are the committed zopfli gzips, `companion/assets/precompressed/`,
  5–6 % smaller than zlib's), then zstd (`compression.zstd`, or the `backports.zstd` package
  before Python 3.14) and brotli (when the `brotli` module is installed). Nothing is compressed
  per request: until a copy is made the file is sent as it is; a restart finds the copies;
* every file is also served under `/v/<version>/…`, where the version is a hash of the flet-web
  version and of every served file's size and mtime, with `Cache-Control: public,
  max-age=31536000, immutable`; the page (companion/page.py) loads the client from there, so a
  return visit takes it from the browser's cache without a request. The unversioned paths and a
  file under another version (a page loaded before an upgrade) are served `no-cache`;
* the Material icon font (1.26 MB; loaded before the first frame) is served as the subset holding
  the icons the app and Flutter's widgets use (47 kB; `companion/assets/icons/`, made by
  `tools/subset_icons.py`) – only while the installed original is byte for byte the file the
  subset was cut from (COMPANION_ICON_SUBSET=0 turns this off);
* the files Flet patches at start-up (index.html, manifest.json, FontManifest.json) and every
  route (`/t/CODE`, `/ws`, `/qr/...`) go through Flet; the page and those two JSON files are
  adjusted on the way by companion/page.py; WebSockets go through companion/sockets.py's guard.

Flet's control modules (imported lazily, i.e. by the first session) are imported in the
background at start-up too. COMPANION_STATIC_VERSIONED=0 / COMPANION_STATIC_PRELOAD=0 /
COMPANION_WARM_MODULES=0 / COMPANION_PRELOAD_TAGS=0 turn these off (for measurements);
COMPANION_STATIC_WARM=0 compresses before the first request is served instead of in the
background (tests).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import importlib
import json
import os
import re
import shutil
import threading
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any
from wsgiref.headers import Headers

from servestatic import ServeStaticASGI
from servestatic.asgi import FileServerASGI
from servestatic.responders import StaticFile
from servestatic.utils import decode_path_info

from companion import fallback_fonts, resources, settings
from companion.dirs import user_cache_dir
from companion.page import (
    FONT_MANIFEST,
    IMMUTABLE,
    MANIFEST,
    NO_CACHE,
    UNUSED_FONT_FAMILIES,
    Page,
    font_files,
    own_colours,
    trim_fonts,
    wants_html,
    with_cache_control,
)
from companion.sockets import SocketGuard
from companion.ui import boot

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Files Flet rewrites at start-up (into its own temp dir): never serve the package copies.
PATCHED = frozenset({"index.html", "manifest.json", "assets/FontManifest.json"})
# Already compressed: not worth trying.
INCOMPRESSIBLE = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".woff2", ".woff", ".gz", ".zip",
                            ".whl", ".br", ".zst", ".ico", ".mp3", ".mp4", ".ogg"})
MIN_SIZE = 1024  # smaller files are sent as they are
WORTH = 0.92  # keep a compressed copy only if it is at most this fraction of the original
# Types ServeStatic would name otherwise (or not at all).
MEDIA_TYPES = {".otf": "font/otf", ".ttf": "font/ttf", ".map": "application/json",
               ".json": "application/json; charset=utf-8"}
# The headers Flet's own middleware adds (skwasm's threads need cross-origin isolation).
FLET_HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}
# Sharding seam (docs/SCALING.md): with ws_per_table, the page of /t/CODE or /host/CODE opens its
# WebSocket at /ws/CODE, so a reverse proxy hashing on the code keeps page and socket on one process.
TABLE_PAGE = re.compile(r"^/(?:t|host)/([A-Za-z]{2,12})/?$")
TABLE_WS = re.compile(r"^/ws/([A-Za-z]{2,12})$")
VERSIONED = re.compile(r"^/v/([0-9a-f]{1,32})/(.+)$")
# The icon font subset (see tools/subset_icons.py and companion/assets/icons/README.md).
ICON_FONT = "assets/fonts/MaterialIcons-Regular.otf"
ICON_SUBSET_DIR = resources.path("assets/icons")
# The client's two big files gzipped once by zopfli (tools/precompress_web.py), 5–6 % smaller than
# zlib's gzip -9; used as the gzip copy only while the installed file is the one recorded.
PRECOMPRESSED = ["main.dart.wasm", "canvaskit/skwasm.wasm", "main.dart.js", "canvaskit/canvaskit.wasm"]
PRECOMPRESSED_DIR = resources.path("assets/precompressed")
RULES = "4"  # bump when a change here alters what is served for the same files (4: font slices, not a 302 to the whole font)
# Flet imports its control modules lazily, on first use – i.e. inside the first session after a
# start, on that phone's critical path (~0.3 s of CPU; seconds on a loaded machine). Imported in
# the background at start-up instead.
WARM_MODULES = ("flet.controls",)

# What the client loads before the first frame, per renderer (paths under the web dir): compressed first.
BOOT_FILES = {
    "skwasm": ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.wasm", "canvaskit/skwasm.js",
               "canvaskit/skwasm_heavy.wasm", "canvaskit/skwasm_heavy.js"],
    "canvaskit": ["main.dart.js", "canvaskit/chromium/canvaskit.wasm", "canvaskit/chromium/canvaskit.js",
                  "canvaskit/canvaskit.wasm", "canvaskit/canvaskit.js"],
    "common": ["flutter_bootstrap.js", "python.js", "flutter.js", "assets/fonts/MaterialIcons-Regular.otf",
               "assets/packages/cupertino_icons/assets/CupertinoIcons.ttf", "assets/AssetManifest.bin.json",
               "assets/AssetManifest.bin", "assets/shaders/ink_sparkle.frag", "assets/shaders/stretch_effect.frag"],
}
SUFFIX = {"br": ".br", "zstd": ".zst", "gzip": ".gz"}
BLOCK = 1 << 20  # bytes a file is sent in (see _FileSender)


def _zstd_module() -> Any:
    for name in ("compression.zstd", "backports.zstd"):  # Python 3.14's, or its backport
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def available_encoders() -> dict[str, Callable[[bytes], bytes]]:
    """Encoders this machine offers, best first. gzip (stdlib) is always there."""
    out: dict[str, Callable[[bytes], bytes]] = {}
    try:
        import brotli  # type: ignore[import-not-found]

        out["br"] = lambda data: brotli.compress(data, quality=11)
    except ImportError:
        pass
    zstd = _zstd_module()
    if zstd is not None:
        out["zstd"] = lambda data: zstd.compress(data, level=19)
    out["gzip"] = lambda data: gzip.compress(data, compresslevel=9, mtime=0)
    return out


def encodings_from_env(default: Iterable[str] | None = None) -> list[str]:
    """COMPANION_STATIC_ENCODINGS="gzip" (or "zstd,gzip", or "identity" for none) limits what is offered."""
    raw = settings.current().static_encodings
    have = available_encoders()
    wanted = list(raw) if raw else list(default or have)
    return [e for e in wanted if e in have]


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _made_from(original: Path, source: dict[str, Any], made: Path, record: dict[str, Any]) -> bool:
    """`original` is the recorded source and `made` the recorded result (sizes first, then SHA-256)."""
    if original.stat().st_size != source["size"] or made.stat().st_size != record["size"]:
        return False
    return bool(_sha256_file(original) == source["sha256"] and _sha256_file(made) == record["sha256"])


def matching_icon_subset(original: Path, subset_dir: Path = ICON_SUBSET_DIR) -> Path | None:
    """The committed subset of the Material icon font if it was cut from exactly `original` (same
    size and SHA-256, as recorded next to it by tools/subset_icons.py) and is intact; else None."""
    name = Path(ICON_FONT).name
    font, meta = subset_dir / name, subset_dir / (Path(name).stem + ".json")
    try:
        info = json.loads(meta.read_text("utf-8"))
        return font if _made_from(original, info["source"], font, info["subset"]) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def matching_precompressed(rel: str, original: Path, pre_dir: Path = PRECOMPRESSED_DIR) -> Path | None:
    """The committed zopfli gzip of `rel` if `original` is exactly the file it was made from (same
    size and SHA-256, as recorded by tools/precompress_web.py) and the gzip is intact; else None."""
    if rel not in PRECOMPRESSED:
        return None
    try:
        info = json.loads((pre_dir / "precompressed.json").read_text("utf-8"))["files"][rel]
        packed = pre_dir / Path(info["gzip"]["file"]).name
        return packed if _made_from(original, info["source"], packed, info["gzip"]) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


class Precompressed:
    """The compressed copies of the client's files, made once into `cache_dir` and kept there:
    `cache_dir/<encoding>/<key>-<name><suffix>`, the key a hash of the file's path, size and mtime
    (and whether the committed zopfli gzip is its gzip copy). A copy is written to a temporary
    name and moved into place, so a server that finds it finds it whole; two servers starting at
    once on an empty cache may both make a copy (the same bytes), nothing worse. A file that does
    not compress well enough leaves a `.skip` mark instead."""

    def __init__(self, cache_dir: Path, zopfli: bool = True,
                 encoders: dict[str, Callable[[bytes], bytes]] | None = None) -> None:
        self.dir = cache_dir
        self.zopfli = zopfli
        self.encoders = available_encoders() if encoders is None else encoders
        self._pre: dict[tuple[str, str, int, int], Path | None] = {}

    @staticmethod
    def compressible(f: Path, st: os.stat_result) -> bool:
        return st.st_size >= MIN_SIZE and f.suffix.lower() not in INCOMPRESSIBLE

    def committed(self, rel: str, f: Path, st: os.stat_result) -> Path | None:
        """The committed zopfli gzip for this file (checked once per file version), or None."""
        if not self.zopfli or rel not in PRECOMPRESSED:
            return None
        key = (rel, str(f), st.st_size, st.st_mtime_ns)
        if key not in self._pre:
            self._pre[key] = matching_precompressed(rel, f)
        return self._pre[key]

    def path(self, rel: str, f: Path, st: os.stat_result, enc: str) -> Path:
        made = f"{f}\0{st.st_size}\0{st.st_mtime_ns}"
        pre = self.committed(rel, f, st) if enc == "gzip" else None
        if pre is not None:  # not a zlib copy an older server left in the shared cache
            made += f"\0zopfli\0{pre.stat().st_size}"
        key = hashlib.sha256(made.encode()).hexdigest()[:24]
        return self.dir / enc / f"{key}-{Path(rel).name}{SUFFIX[enc]}"

    def ready(self, rel: str, f: Path, enc: str) -> Path | None:
        """The copy, if made (never makes one)."""
        try:
            st = f.stat()
            dst = self.path(rel, f, st, enc) if self.compressible(f, st) else None
        except OSError:
            return None
        return dst if dst is not None and dst.is_file() else None

    def make(self, rel: str, f: Path, enc: str) -> Path | None:
        """The copy, made now if missing; None when compression does not pay."""
        try:
            st = f.stat()
            if not self.compressible(f, st) or enc not in self.encoders:
                return None
            dst = self.path(rel, f, st, enc)
            skip = dst.with_name(dst.name + ".skip")
            if dst.is_file():
                return dst
            if skip.exists():
                return None
            dst.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = dst.with_name(f"{dst.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            pre = self.committed(rel, f, st) if enc == "gzip" else None
            if pre is not None:
                shutil.copyfile(pre, tmp)
            else:
                tmp.write_bytes(self.encoders[enc](f.read_bytes()))
            if tmp.stat().st_size > WORTH * st.st_size:
                skip.touch()
                tmp.unlink()
                return None
            os.replace(tmp, dst)
            return dst
        except Exception:  # noqa: BLE001 - (an encoder's error too) a copy not made is simply not offered
            return None


class _FileSender(FileServerASGI):
    """ServeStatic's sender, in blocks of BLOCK bytes instead of 8 kB: each block is a hop to a
    file thread and an ASGI message (uvicorn offers neither `pathsend` nor `zerocopysend`), and a
    first join's 4 MB in 8 kB blocks cost ≈ 0.1 s of server CPU more than the old one-piece reads."""

    def __init__(self, static_file: Any) -> None:
        super().__init__(static_file)
        self.block_size = BLOCK


class ClientFiles(ServeStaticASGI):
    """ServeStatic, with each file's compressed copies taken from the cache directory (`variants`:
    file → {encoding: copy}) instead of from beside the file: the library's `get_static_file`
    but for where the copies are, and its `__call__` but for the block size (`_FileSender`)."""

    variants: dict[str, dict[str, str]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:  # type: ignore[override]
        found = self.files.get(decode_path_info(scope["path"])) if scope["type"] == "http" else None
        if found is not None:
            await _FileSender(found)(scope, receive, send)  # type: ignore[arg-type]
            return
        await self.application(scope, receive, send)  # type: ignore[arg-type]

    def get_static_file(self, path: str, url: str, stat_cache: dict[str, os.stat_result] | None = None) -> StaticFile:
        headers = Headers([])
        self.add_mime_headers(headers, path, url)
        self.add_cache_headers(headers, path, url)
        if self.allow_all_origins:
            headers["Access-Control-Allow-Origin"] = "*"
        if self.add_headers_function is not None:
            self.add_headers_function(headers, path, url)
        static = StaticFile(path, headers.items(), encodings=self.variants.get(path, {}))
        # Without Last-Modified (Cache-Control and the ETag decide; If-Modified-Since still works):
        # ≈ 40 bytes a file that a first join need not carry
        static.alternatives = [(enc, p, [h for h in hs if h[0] != "Last-Modified"])
                               for enc, p, hs in static.alternatives]
        return static


OWN_FALLBACK = "fallback-fonts/"  # companion/assets/fallback-fonts: served whole as /fallback/… (fallback_fonts.py)


def client_files(roots: list[Path], substitutes: dict[str, Path]) -> dict[str, Path]:
    """URL path (without the leading /) → file, for every file of the roots (the first root that
    has a path wins) but the ones Flet patches; `substitutes` served in place of some."""
    out: dict[str, Path] = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                f = Path(dirpath) / name
                rel = f.relative_to(root).as_posix()
                if rel in out or rel in PATCHED or "\\" in rel or rel.startswith(OWN_FALLBACK):
                    continue
                try:
                    if f.is_file() and f.resolve().is_relative_to(root):
                        out[rel] = f
                except OSError:
                    continue
    return {**out, **{rel: sub for rel, sub in substitutes.items() if rel in out}}


def _lowest_priority() -> None:
    """This thread at the lowest CPU priority (Linux keeps a nice value per thread): the first
    start's compression must not slow the phones being served meanwhile."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (AttributeError, OSError):
        pass


class WebFront:
    """ASGI middleware in front of the Flet mount: WebSockets through the guard, the client's files
    through ServeStatic (`ClientFiles`), the page and routes through Flet (companion/page.py)."""

    def __init__(self, app: ASGIApp, roots: list[Path], cache_dir: Path, encodings: list[str] | None = None,
                 warm: Iterable[str] = (), drop_fonts: Iterable[str] = UNUSED_FONT_FAMILIES,
                 ws_per_table: bool = False, versioned: bool | None = None,
                 warm_modules: Iterable[str] | None = None, icon_subset: bool | None = None,
                 join_screen: Callable[[Scope, str], str | None] | None = None) -> None:
        self.app = app
        # the page of /t/CODE: a table's HTML join screen (companion/join_page.py), if it has one
        self.join_screen = join_screen
        conf = settings.current()
        self.versioned = conf.static_versioned if versioned is None else versioned
        self.ws_per_table = ws_per_table
        self.drop_fonts = tuple(drop_fonts)
        self.roots = [r.resolve() for r in roots if r.is_dir()]
        # files served in place of others (path → file): the icon font subset, when it fits
        self.substitutes: dict[str, Path] = {}
        if conf.icon_subset if icon_subset is None else icon_subset:
            original = client_files(self.roots, {}).get(ICON_FONT)
            sub = matching_icon_subset(original) if original else None
            if sub is not None:
                self.substitutes[ICON_FONT] = sub
        self.files = client_files(self.roots, self.substitutes)
        # Flutter's fallback fonts (emoji, other scripts), whole files found on this machine
        # (companion/fallback_fonts.py): family folder → path served
        found = fallback_fonts.find_fonts() if conf.fallback_fonts else {}
        self.fallback = {fam: fallback_fonts.served_path(f) for fam, f in found.items()}
        # (served as they are: a colour emoji font is PNG images, which do not compress)
        self.fallback_files = {fallback_fonts.served_path(f): f for f in found.values()}
        # each slice Flutter asks for, cut from those (and the client's Roboto) into the cache folder
        self.fonts = fallback_fonts.FallbackFonts(
            self.files.get("main.dart.js"), cache_dir, found,
            [self.files[r] for r in ("assets/fonts/roboto.woff2",) if r in self.files and conf.fallback_fonts])
        self.version = self._version()
        encoders = available_encoders()
        self.encodings = [e for e in (encodings if encodings is not None else list(encoders)) if e in encoders]
        self.cache = Precompressed(cache_dir, conf.precompressed, encoders)
        # the page hands the first screen's storage values over with the socket (companion/ui/boot.py)
        self.page = Page(self.version if self.versioned else None, self.served,
                         font_files(self.roots, self.drop_fonts, self.served),
                         conf.static_preload, conf.preload_tags, conf.boot_cookie)
        self.boot_cookie = conf.boot_cookie
        self.warm = [w for w in warm if w in self.files]
        self.in_background = conf.static_warm
        self.warm_modules = list(WARM_MODULES if warm_modules is None else warm_modules) if conf.warm_modules else []
        self.static = self.table()
        self._started = False
        self._sockets: SocketGuard | None = None

    def served(self, rel: str) -> bool:
        """Is this path (under the web root) one of the client's files?"""
        return rel in self.files

    def resolve(self, path: str) -> tuple[str, Path] | None:
        """The file served for a URL path: (path relative to the roots, file), or None."""
        rel = path.lstrip("/")
        return (rel, self.files[rel]) if rel in self.files else None

    def _version(self) -> str:
        """A hash of the flet-web version, these rules and every served file's path, size and mtime."""
        h = hashlib.sha256(f"{RULES}\0{self.drop_fonts}".encode())
        try:
            from flet_web.version import version as flet_web_version
            h.update(str(flet_web_version).encode())
        except ImportError:
            pass
        for rel, f in sorted({**self.files, **self.fallback_files}.items()):
            try:
                st = f.stat()
            except OSError:
                continue
            h.update(f"\0{rel}\0{f}\0{st.st_size}\0{st.st_mtime_ns}".encode())
        return h.hexdigest()[:12]

    # ---------- the files: ServeStatic's table, the copies made once ----------
    def _headers(self, headers: Headers, path: str, url: str) -> None:
        immutable = self.versioned and url.startswith(f"/v/{self.version}/")
        headers["Cache-Control"] = (IMMUTABLE if immutable else NO_CACHE).decode()
        for k, v in FLET_HEADERS.items():
            headers[k] = v
        headers["Content-Type"] = headers["Content-Type"].replace('charset="utf-8"', "charset=utf-8")

    def table(self) -> ClientFiles:
        """ServeStatic's table of the client's files, with the copies made so far."""
        static = ClientFiles(self._rest, max_age=None, mimetypes=MEDIA_TYPES, add_headers_function=self._headers)
        static.variants = {}
        for rel, f in self.files.items():
            got = {enc: str(p) for enc in self.encodings if (p := self.cache.ready(rel, f, enc)) is not None}
            if got:
                static.variants[str(f)] = got
        prefixes = ["/"] + ([f"/v/{self.version}/"] if self.versioned else [])
        for prefix in prefixes:
            for rel, f in {**self.files, **self.fallback_files}.items():
                static.add_file_to_dictionary(prefix + rel, str(f))
        return static

    def steps(self) -> list[tuple[str, list[str]]]:
        """(encoding, files) in the order the copies are made: gzip first (fast), the boot files
        before the rest, then the slower, better encoders."""
        rest = [r for r in self.files if r not in self.warm]
        return [(enc, batch) for enc in reversed(self.encodings) for batch in (self.warm, rest) if batch]

    def precompress(self, steps: list[tuple[str, list[str]]] | None = None) -> None:
        """Make the missing copies; ServeStatic's table is renewed after each step that made one."""
        for enc, batch in self.steps() if steps is None else steps:
            made = [self.cache.make(rel, self.files[rel], enc) for rel in batch
                    if self.cache.ready(rel, self.files[rel], enc) is None]
            if any(m is not None for m in made):
                self.static = self.table()

    async def start(self) -> None:
        """At the first ASGI event (the server's start-up, before it serves a request): the copies,
        and Flet's modules imported. The boot files' gzip copies (≈ 3 s of CPU, once) are made before
        the first request, so no phone ever gets the client uncompressed; the rest in a thread at
        the lowest priority (COMPANION_STATIC_WARM=0: everything before the first request)."""
        self._started = True
        steps = self.steps()
        first = 1 if self.in_background and steps and steps[0][0] == "gzip" else 0 if self.in_background else len(steps)
        if first:
            await asyncio.to_thread(self.precompress, steps[:first])
        if steps[first:]:
            def run() -> None:
                _lowest_priority()
                self.precompress(steps[first:])
            threading.Thread(target=run, name="static-compress", daemon=True).start()
        if self.warm_modules:
            threading.Thread(target=import_all, args=(self.warm_modules,), name="warm-imports", daemon=True).start()

    def socket_guard(self) -> SocketGuard:
        """Open WebSockets per client (capped) and a clean end for each (companion/sockets.py)."""
        if self._sockets is None:
            self._sockets = SocketGuard()
        return self._sockets

    # ---------- ASGI ----------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._started:
            await self.start()
        path = scope.get("path", "")
        if scope["type"] == "websocket":
            if self.ws_per_table and TABLE_WS.match(path):
                scope = {**scope, "path": "/ws", "raw_path": b"/ws"}
            # the session this socket starts reads it (its tasks copy this task's context)
            boot.BOOT.set(boot.from_scope(scope) if self.boot_cookie else None)
            boot.CONN.set(boot.conn_from_scope(scope))  # the peer's own address, the host-key cookies
            await self.socket_guard()(self.app, scope, receive, send)  # companion/sockets.py
            return
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        v = VERSIONED.match(path)
        if v and v.group(1) != self.version and v.group(2) in self.files:
            # another version's file (a page from before an upgrade): the current file, no-cache
            path = "/" + v.group(2)
            scope = {**scope, "path": path, "raw_path": path.encode("latin-1", "replace")}
        rel = v.group(2) if v else path.lstrip("/")
        family = fallback_fonts.asked_family(rel)
        if family is not None:
            await self.fallback_font(rel, family, scope, send, current=bool(v) and v.group(1) == self.version)
            return
        await self.static(scope, receive, send)  # ServeStatic: a client file, else self._rest

    async def fallback_font(self, rel: str, family: str, scope: Scope, send: Send, current: bool) -> None:
        """A slice of a Noto family Flutter asks for: always a font with status 200 (the CanvasKit
        build asks again at every layout for one it could not load) – the slice's own glyphs cut
        from a font here, or an empty font (companion/fallback_fonts.py). A URL Flutter's table
        does not list (another client): a redirect to the whole family file we have."""
        cache = IMMUTABLE if current and self.versioned else NO_CACHE
        body = await asyncio.to_thread(self.fonts.answer, rel)
        if body is None:
            where = f"/v/{self.version}/{self.fallback[family]}" if self.versioned else f"/{self.fallback[family]}"
            await send({"type": "http.response.start", "status": 302,
                        "headers": [(b"location", where.encode()), (b"content-length", b"0"), (b"cache-control", cache),
                                    *((k.lower().encode(), v.encode()) for k, v in FLET_HEADERS.items())]})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", fallback_fonts.media_type(body).encode()),
                                (b"content-length", str(len(body)).encode()), (b"cache-control", cache),
                                *((k.lower().encode(), v.encode()) for k, v in FLET_HEADERS.items())]})
        await send({"type": "http.response.body", "body": b"" if scope.get("method") == "HEAD" else body})

    async def _rest(self, scope: Scope, receive: Receive, send: Send) -> None:
        """What is not one of the client's files: Flet's patched files, the page, the routes."""
        path = scope.get("path", "")
        cache_control = NO_CACHE
        v = VERSIONED.match(path)
        if v:  # /v/<version>/<file>: Flet's file, cached for a year when the version is current
            path = "/" + v.group(2)
            scope = {**scope, "path": path, "raw_path": path.encode("latin-1", "replace")}
            if self.versioned and v.group(1) == self.version:
                cache_control = IMMUTABLE
        if path == FONT_MANIFEST and self.drop_fonts:
            await self.app(scope, receive, trim_fonts(send, self.drop_fonts, cache_control))
            return
        if path == MANIFEST:
            await self.app(scope, receive, own_colours(send, cache_control, "/" if v else None))
            return
        m = TABLE_PAGE.match(path)
        if not v and (m or path == "/" or wants_html(scope)):
            ws = f"/ws/{m.group(1).upper()}" if m and self.ws_per_table else None
            join = self.join_screen(scope, m.group(1)) if m and path.startswith("/t/") and self.join_screen else None
            await self.page.serve(self.app, scope, receive, send, ws, join)
            return
        # (a route reached under /v/…, e.g. a relative URL resolved against the asset base, is
        # not a file of this version: never "immutable")
        await self.app(scope, receive, with_cache_control(send))


def import_all(packages: list[str]) -> None:
    """Import every module of the given packages (errors ignored: warming only)."""
    import pkgutil

    for name in packages:
        try:
            pkg = importlib.import_module(name)
            for m in pkgutil.walk_packages(getattr(pkg, "__path__", []), name + "."):
                try:
                    importlib.import_module(m.name)
                except Exception:  # noqa: BLE001 - a module that cannot load is simply not warmed
                    continue
        except Exception:  # noqa: BLE001
            continue


def shared_cache_dir() -> Path | None:
    """Per-user cache shared by every server on this machine (tests start many): the compressed
    copies are made once per flet-web version, not once per data directory."""
    try:
        from flet_web.version import version as flet_web_version
    except ImportError:
        flet_web_version = "unknown"
    d = user_cache_dir() / f"web-{flet_web_version}"
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
