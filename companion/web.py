"""Serving the Flet web client fast: pre-compressed static files, cached for good under versioned URLs.

Stock Flet sends its 9 MB `main.dart.wasm` / `main.dart.js`, the renderer's wasm and the icon
font uncompressed. `StaticCompression` sits in front of the whole app (an ASGI middleware):

* a GET/HEAD for one of the client's static files (the flet-web package's `web` directory, or
  our own assets directory, which Flet gives precedence) is answered here. Each file is
  compressed **once** (gzip level 9 always; zstd when the `zstd` command is installed, brotli
  when the `brotli` module is) into a cache directory keyed by the file's size and mtime, so a
  restart reuses the work; the body is sent with `Content-Encoding` when the browser accepts it;
* the page (index.html, for / and every client route such as /t/CODE) loads every client file
  from `/v/<version>/…`, where the version is a hash of the flet-web version and of every
  served file's size and mtime. Those responses are `Cache-Control: public, max-age=31536000,
  immutable`: a return visit takes the whole client from the browser's cache **without a
  single request** (a revalidation is a round trip per file, and the loader's chain – page →
  flutter_bootstrap.js → main.dart.mjs → main.dart.wasm → FontManifest → fonts – made them
  serial). The page itself is `no-cache` with an ETag (a 304 of a few hundred bytes), so after
  an upgrade the phone gets a new version, i.e. new URLs: never a stale mix. A file under
  another version (a page loaded before an upgrade) is served as it is now, `no-cache`; the
  unversioned paths still work and revalidate (ETag + `no-cache`, `304 Not Modified`).
* the page starts the downloads itself (`<link rel=preload>` / `modulepreload`, chosen by the
  same tests as Flutter's loader) instead of three hops later: main.dart.mjs/.wasm, the skwasm
  renderer (or main.dart.js + CanvasKit), FontManifest.json and the fonts.
* FontManifest.json (Flet's no_cdn copy) leaves out font families the app never uses (KaTeX,
  Cupertino icons), which Flutter would otherwise download before the first frame;
* the Material icon font (1.26 MB; 0.47 MB gzipped, also loaded before the first frame) is
  replaced by a subset holding the icons the app and Flutter's widgets use (47 kB; 19 kB
  gzipped; `companion/assets/icons/`, made by `tools/subset_icons.py`) – only while the
  installed original is byte for byte the file the subset was cut from, else the original is
  served (COMPANION_ICON_SUBSET=0 turns this off);
* the files Flet patches at start-up (index.html, manifest.json, FontManifest.json) and every
  route (`/t/CODE`, `/ws`, `/qr/...`) go through Flet – `no_cdn` stays Flet's business.

The boot files of the chosen renderer are compressed in a background thread at start-up so
the first phone does not wait; any other file is compressed on its first request (gzip inline
in a worker thread; the slow encoders in the background, gzip served meanwhile).
Flet's control modules (imported lazily, i.e. by the first session) are imported in the
background at start-up too. COMPANION_STATIC_VERSIONED=0 / COMPANION_STATIC_PRELOAD=0 /
COMPANION_WARM_MODULES=0 / COMPANION_PRELOAD_TAGS=0 (preloads by script only) turn these off (for
measurements).
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

from companion import settings
from companion.sockets import SocketGuard
from companion.ui import boot

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
# The page may load, connect to and run only what this server sends (plus what it makes itself:
# blob: workers, data: images, inline scripts and styles). The offline promise, kept by the browser:
# Flet's client asks a CDN (cdn.jsdelivr.net) for the Rive animation runtime at start-up – the app
# never shows a Rive animation; offline the request only fails, but at a venue whose Wi-Fi reaches
# the internet a phone would download it while it joins. ws:/wss: are listed besides 'self'
# because older browsers do not count the socket to their own host as 'self'.
CSP = (b"default-src 'self' blob: data:; "
       b"script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob: data:; "
       b"style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss: blob: data:; "
       b"worker-src 'self' blob:; object-src 'none'; base-uri 'self'")
# Fonts Flutter downloads before the first frame because they are in FontManifest.json, though
# this app never uses them: the KaTeX fonts (math in Markdown) and the Cupertino icons – about
# 480 kB gzipped, 10% of a first join. Dropped from the manifest Flet serves.
UNUSED_FONT_FAMILIES = ("packages/flutter_math_fork/", "packages/cupertino_icons/")
FONT_MANIFEST = "/assets/FontManifest.json"
# The web app manifest (home-screen name and icons): Flet writes the names we give it, but keeps its
# own colours; ours are the app's theme.
MANIFEST = "/manifest.json"
MANIFEST_COLOURS = {"theme_color": "#8d5524", "background_color": "#fff8f5"}
# Sharding seam (docs/SCALING.md): with ws_per_table, the page of /t/CODE or /host/CODE opens its
# WebSocket at /ws/CODE, so a reverse proxy hashing on the code keeps page and socket on one process.
TABLE_PAGE = re.compile(r"^/(?:t|host)/([A-Za-z]{2,12})/?$")
TABLE_WS = re.compile(r"^/ws/([A-Za-z]{2,12})$")
WS_ENDPOINT = re.compile(r'flet\.webSocketEndpoint="[^"]*";')
# Versioned URLs: /v/<version>/<file> is <file>, and "immutable" while <version> is the current one
# (a hash of the flet-web version, every served file's size and mtime, and this module's rules).
# index.html – never cached without asking – points the client at the current version, so a
# return visit loads the whole client from the browser's cache without a single request, and an
# upgrade is a new URL (no phone keeps running a stale mix).
VERSIONED = re.compile(r"^/v/([0-9a-f]{1,32})/(.+)$")
IMMUTABLE = b"public, max-age=31536000, immutable"
LOADING_IMG = re.compile(r'<img src="([^"]*icons/loading-animation\.png)"[^>]*>')
PAGE_REF = re.compile(r'\b(src|href)="([A-Za-z0-9_][A-Za-z0-9_./-]*)"')
# Started by the page itself instead of three hops later (index.html → flutter_bootstrap.js →
# main.dart.mjs → main.dart.wasm; fonts only once the wasm runs): the files of the build Flutter's
# loader will pick – the same tests as flutter_bootstrap.js (WasmGC + a Chromium engine → dart2wasm
# with skwasm, or skwasm_heavy without the browser's codecs; else dart2js with CanvasKit) – and
# the fonts of the (trimmed) FontManifest. `as=fetch` + crossorigin is what fetch() asks for, so
# the loader's own requests are served from these preloads. flutter_bootstrap.js is preloaded too:
# as an `async` script it would otherwise get a low priority behind the megabytes.
PRELOAD_JS = """<script>(function(){try{
var v=%(base)s,f=window.flet||{},r=f.webRenderer||"auto",h=document.head,n=navigator,d=%(static)s;
function add(p,as,m){if(d.indexOf(p)>=0)return;var l=document.createElement("link");l.rel=m?"modulepreload":"preload";
l.href=v+p;if(!m){l.as=as;if(as==="fetch")l.crossOrigin="anonymous";}h.appendChild(l);}
add("flutter_bootstrap.js","script");
var blink=n.vendor==="Google Inc."||n.userAgent.indexOf("Edg/")>=0,gc=false;
try{gc=WebAssembly.validate(new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,95,1,120,0]));}catch(e){}
var codecs=blink&&typeof ImageDecoder!=="undefined",
brk=typeof Intl.v8BreakIterator!=="undefined"&&typeof Intl.Segmenter!=="undefined";
if(r!=="canvaskit"&&gc&&blink&&(window.WebGL2RenderingContext||window.WebGLRenderingContext)){
var s="canvaskit/"+(codecs&&brk?"skwasm":"skwasm_heavy");
add("main.dart.mjs","script",1);add("main.dart.wasm","fetch");add(s+".js","script",1);add(s+".wasm","fetch");
}else if(r!=="skwasm"){var c=codecs&&brk?"canvaskit/chromium/":"canvaskit/";
add("main.dart.js","script");add(c+"canvaskit.js","script",1);add(c+"canvaskit.wasm","fetch");}
%(fonts)s.forEach(function(p){add(p,"fetch");});
}catch(e){}})();</script>
"""
# The icon font subset (see tools/subset_icons.py and companion/assets/icons/README.md).
ICON_FONT = "assets/fonts/MaterialIcons-Regular.otf"
ICON_SUBSET_DIR = Path(__file__).resolve().parent / "assets" / "icons"
# The client's two big files gzipped once by zopfli (tools/precompress_web.py), 5–6 % smaller than
# zlib's gzip -9; used as the gzip copy only while the installed file is the one recorded.
PRECOMPRESSED = ["main.dart.wasm", "canvaskit/skwasm.wasm"]
PRECOMPRESSED_DIR = Path(__file__).resolve().parent / "assets" / "precompressed"
# The same preloads as plain <link> tags, found by the browser's preload scanner while the page
# is still arriving (the script above runs only once the parser reaches it: here ~130 ms later
# on a first join): the fonts for every browser, and the skwasm build's files when the
# User-Agent is a Chromium that has WasmGC (≥ 119; iOS browsers are WebKit and do not say
# "Chrome/"), where Flutter's loader always picks that build. Any other browser is left to the
# script (a wrong guess would only cost bytes: Flutter's loader decides, not this list).
CHROMIUM_UA = re.compile(r"\b(?:Headless)?Chrome/(\d+)\.")
WASM_GC_CHROMIUM = 119
SKWASM_STATIC = (("main.dart.mjs", None), ("main.dart.wasm", "fetch"), ("canvaskit/skwasm.js", None),
                 ("canvaskit/skwasm.wasm", "fetch"))
RULES = "2"  # bump when a change here alters what is served for the same files
BUSY_TIMEOUT = 1800  # seconds after which an unfinished compression by another process is retried
MIN_SIZE = 1024  # smaller files are sent as they are
WORTH = 0.92  # keep a compressed copy only if it is at most this fraction of the original

# Flet imports its control modules lazily, on first use – i.e. inside the first session after a
# start, on that phone's critical path (~0.3 s of CPU; seconds on a loaded machine). Imported in
# the background at start-up instead.
WARM_MODULES = ("flet.controls",)

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
    """In an encoder's child process: lowest CPU priority, and killed with the server (Linux) – an
    orphan would burn minutes of CPU for a result nobody moves into the cache."""
    try:
        os.nice(19)
    except OSError:
        pass
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError, ValueError):
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, not ours to signal
    return True


def _claim(claim: Path) -> bool:
    """Take the right to compress one file (a file holding our PID), unless a live process holds it
    (for less than BUSY_TIMEOUT); a claim left by a killed server is taken over."""
    for _ in range(2):
        try:
            fd = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            return True
        except FileExistsError:
            try:
                raw = claim.read_text().strip()
                fresh = time.time() - claim.stat().st_mtime < BUSY_TIMEOUT
                if fresh and (not raw.isdigit() or _alive(int(raw))):
                    return False  # another server is on it
                claim.unlink(missing_ok=True)  # stale: its process is gone
                for tmp in claim.parent.glob(claim.name.removesuffix(".busy") + f".{raw}.*tmp"):
                    tmp.unlink(missing_ok=True)
            except OSError:
                return False
        except OSError:
            return False
    return False


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
    raw = settings.current().static_encodings
    have = available_encoders()
    wanted = list(raw) if raw else list(default or have)
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
                 ws_per_table: bool = False, versioned: bool | None = None,
                 warm_modules: Iterable[str] | None = None, icon_subset: bool | None = None) -> None:
        self.app = app
        conf = settings.current()
        self.versioned = conf.static_versioned if versioned is None else versioned
        self.ws_per_table = ws_per_table
        self.drop_fonts = tuple(drop_fonts)
        self.roots = [r.resolve() for r in roots if r.is_dir()]
        self.cache_dir = cache_dir
        # files served in place of others (path → file): the icon font subset, when it fits
        self.substitutes: dict[str, Path] = {}
        if conf.icon_subset if icon_subset is None else icon_subset:
            found = self._find(ICON_FONT)
            sub = matching_icon_subset(found[1]) if found else None
            if sub is not None:
                self.substitutes[ICON_FONT] = sub
        self.version = self._version()
        # the client's big files gzipped by zopfli, committed (tools/precompress_web.py)
        self.use_precompressed = conf.precompressed
        self._pre: dict[tuple[str, str, int, int], Path | None] = {}
        self.preload = conf.static_preload
        self.preload_tags = conf.preload_tags
        # the page hands the first screen's storage values over with the socket (companion/ui/boot.py)
        self.boot_cookie = conf.boot_cookie
        self.fonts = self._fonts()
        encoders = available_encoders()
        self.encodings = [e for e in (encodings if encodings is not None else list(encoders)) if e in encoders]
        self._encoders = dict(encoders)
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._background: set[tuple[str, str]] = set()
        self.stats = {"served": 0, "not_modified": 0, "compressed": 0}
        warm = [w for w in warm]
        if warm and conf.static_warm:
            threading.Thread(target=self._warm, args=(warm,), name="static-compress", daemon=True).start()
        mods = list(WARM_MODULES if warm_modules is None else warm_modules)
        if mods and conf.warm_modules:
            threading.Thread(target=import_all, args=(mods,), name="warm-imports", daemon=True).start()

    def _fonts(self) -> list[str]:
        """The font files Flutter loads before its first frame (FontManifest.json less the dropped
        families, plus the Roboto that Flet's no_cdn patch adds)."""
        out: list[str] = []
        for root in self.roots:
            f = root / "assets" / "FontManifest.json"
            if f.is_file():
                try:
                    for fam in json.loads(f.read_text("utf-8")):
                        if str(fam.get("family", "")).startswith(self.drop_fonts):
                            continue
                        out += ["assets/" + x["asset"] for x in fam.get("fonts", []) if isinstance(x.get("asset"), str)]
                except (ValueError, AttributeError, TypeError, OSError):
                    return []
                break
        if self.resolve("/assets/fonts/roboto.woff2"):
            out.append("assets/fonts/roboto.woff2")
        return ["assets/FontManifest.json"] + [p for p in dict.fromkeys(out) if self.resolve("/" + p)]

    def _version(self) -> str:
        h = hashlib.sha256(f"{RULES}\0{self.drop_fonts}".encode())
        try:
            from flet_web.version import version as flet_web_version
            h.update(str(flet_web_version).encode())
        except ImportError:
            pass
        for rel, sub in sorted(self.substitutes.items()):
            st = sub.stat()
            h.update(f"\0={rel}\0{sub}\0{st.st_size}\0{st.st_mtime_ns}".encode())
        for root in self.roots:
            h.update(f"\0{root}".encode())
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames.sort()
                for name in sorted(filenames):
                    try:
                        st = os.stat(os.path.join(dirpath, name))
                    except OSError:
                        continue
                    h.update(f"\0{os.path.relpath(os.path.join(dirpath, name), root)}\0{st.st_size}\0{st.st_mtime_ns}".encode())
        return h.hexdigest()[:12]

    # ---------- finding and compressing files ----------
    def resolve(self, path: str) -> tuple[str, Path] | None:
        """The file served for a URL path: (path relative to the roots, file), or None."""
        found = self._find(path)
        if found is not None and found[0] in self.substitutes:
            return found[0], self.substitutes[found[0]]
        return found

    def _find(self, path: str) -> tuple[str, Path] | None:
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
        made = f"{f}\0{st.st_size}\0{st.st_mtime_ns}"
        pre = self._precompressed(rel, f, st) if enc == "gzip" else None
        if pre is not None:  # not a zlib copy an older server left in the shared cache
            made += f"\0zopfli\0{pre.stat().st_size}"
        key = hashlib.sha256(made.encode()).hexdigest()[:24]
        return self.cache_dir / enc / f"{key}-{Path(rel).name}.{enc}"

    def _precompressed(self, rel: str, f: Path, st: os.stat_result) -> Path | None:
        """The committed zopfli gzip for this file (checked once per file version), or None."""
        if not self.use_precompressed or rel not in PRECOMPRESSED:
            return None
        key = (rel, str(f), st.st_size, st.st_mtime_ns)
        if key not in self._pre:
            self._pre[key] = matching_precompressed(rel, f)
        return self._pre[key]

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
            if not _claim(claim):
                return None  # another server is on it; send another encoding meanwhile
            try:
                pre = self._precompressed(rel, f, st) if enc == "gzip" else None
                if pre is not None:
                    shutil.copyfile(pre, tmp)
                else:
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
        if self.use_precompressed and rel in PRECOMPRESSED and (rel, str(f), st.st_size, st.st_mtime_ns) not in self._pre:
            await asyncio.to_thread(self._precompressed, rel, f, st)  # hashes the file once, off the event loop
        for enc in self.encodings:
            if enc not in accept:
                continue
            got = self.ready(rel, f, st, enc)
            if got is not None:
                return enc, got
            path = self._cache_path(rel, f, st, enc)
            if path.with_name(path.name + ".skip").exists():
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
        cache_control = CACHE_CONTROL
        v = VERSIONED.match(path)
        if v:  # /v/<version>/<file>: the same file, cached for a year when the version is current
            path = "/" + v.group(2)
            scope = {**scope, "path": path, "raw_path": path.encode("latin-1", "replace")}
            if v.group(1) == self.version:
                cache_control = IMMUTABLE
        if path == FONT_MANIFEST and self.drop_fonts:
            await self.app(scope, receive, self._trim_fonts(send, cache_control))
            return
        if path == MANIFEST:
            await self.app(scope, receive, self._own_colours(send, cache_control))
            return
        found = self.resolve(path)
        if found is None:
            m = TABLE_PAGE.match(path)
            if not v and (m or path == "/" or self._wants_html(scope)):
                ws = f"/ws/{m.group(1).upper()}" if m and self.ws_per_table else None
                await self._page(scope, receive, send, ws)
                return
            # (a route reached under /v/…, e.g. a relative URL resolved against the asset base, is
            # not a file of this version: never "immutable")
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
        out = [(b"content-type", self._content_type(f)), (b"cache-control", cache_control),
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

    _sockets: SocketGuard | None = None

    def socket_guard(self) -> SocketGuard:
        """Open WebSockets per client (capped) and a clean end for each (companion/sockets.py)."""
        if self._sockets is None:
            self._sockets = SocketGuard()
        return self._sockets

    # ---------- the page (index.html) ----------
    @staticmethod
    def _wants_html(scope: Scope) -> bool:
        """A page load (a navigation asks for text/html), as opposed to a script, image or API call."""
        for k, val in scope.get("headers", []):
            if k.lower() == b"accept":
                return b"text/html" in val
        return False

    async def _page(self, scope: Scope, receive: Receive, send: Send, ws_path: str | None) -> None:
        """index.html (for / and every client route), rewritten: the client's files are loaded
        from /v/<version>/ (cached for good: a new version is a new URL), the WebSocket at
        `ws_path` if given; gzipped, and revalidated by an ETag of the rewritten page (the page
        itself stays no-cache: it is what names the version). Anything else passes through."""
        asked = {k.lower(): val for k, val in scope.get("headers", [])}
        inner = {**scope, "method": "GET",  # (a HEAD is answered from the rewritten GET)
                 "headers": [(k, val) for k, val in scope.get("headers", [])
                             if k.lower() not in (b"if-none-match", b"if-modified-since")]}
        state: dict[str, Any] = {"head": None, "chunks": [], "through": False}

        async def collect(message: Message) -> None:
            if message["type"] == "http.response.start":
                hs = list(message.get("headers", []))
                ctype = next((val for k, val in hs if k.lower() == b"content-type"), b"")
                encoded = any(k.lower() == b"content-encoding" for k, _ in hs)
                if message.get("status") != 200 or not ctype.startswith(b"text/html") or encoded:
                    state["through"] = True
                    if not any(k.lower() == b"cache-control" for k, _ in hs):
                        hs.append((b"cache-control", CACHE_CONTROL))
                    await send({**message, "headers": hs})
                    return
                state["head"] = message
            elif state["through"]:
                await send(message)
            elif message["type"] == "http.response.body":
                state["chunks"].append(message.get("body", b""))

        await self.app(inner, receive, collect)
        head = state["head"]
        if state["through"] or head is None:
            return
        hs = [(k, val) for k, val in head.get("headers", [])
              if k.lower() not in (b"content-length", b"cache-control", b"etag", b"last-modified")]
        body = b"".join(state["chunks"])
        try:
            html = self.rewrite_page(body.decode("utf-8"), ws_path,
                                     asked.get(b"user-agent", b"").decode("latin-1")).encode("utf-8")
        except UnicodeError:
            html = body
        etag = f'"p-{hashlib.sha256(html).hexdigest()[:20]}"'
        hs += [(b"cache-control", CACHE_CONTROL), (b"etag", etag.encode()), (b"vary", b"accept-encoding, user-agent"),
               (b"content-security-policy", CSP)]
        if etag in asked.get(b"if-none-match", b"").decode("latin-1"):
            await send({"type": "http.response.start", "status": 304, "headers": hs})
            await send({"type": "http.response.body", "body": b""})
            return
        if "gzip" in accepted(asked.get(b"accept-encoding", b"").decode("latin-1")):
            html = gzip.compress(html, compresslevel=6, mtime=0)
            hs.append((b"content-encoding", b"gzip"))
        hs.append((b"content-length", str(len(html)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": hs})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else html})

    def static_preloads(self, html: str, ua: str) -> list[tuple[str, str | None]]:
        """(path, as) of the files the page preloads with plain tags (as None: a module script)."""
        out: list[tuple[str, str | None]] = []
        if not self.preload_tags:
            return out
        m = CHROMIUM_UA.search(ua)
        renderer = re.search(r'flet\.webRenderer="([a-z]*)";', html)
        if m and int(m.group(1)) >= WASM_GC_CHROMIUM and (renderer is None or renderer.group(1) != "canvaskit"):
            out += [(p, kind) for p, kind in SKWASM_STATIC if self.resolve("/" + p) is not None]
        return out + [(p, "fetch") for p in self.fonts]

    def rewrite_page(self, html: str, ws_path: str | None = None, ua: str = "") -> str:
        if ws_path:
            html = WS_ENDPOINT.sub(f'flet.webSocketEndpoint="{ws_path}";', html)
        if self.boot_cookie and "<head>" in html:
            html = html.replace("<head>", "<head>\n" + boot.BOOT_JS, 1)
        if "<head>" in html:  # first of all: a `C` locale must not stop Flutter (boot.LOCALE_JS)
            html = html.replace("<head>", "<head>\n" + boot.LOCALE_JS, 1)
        # the app's own loading screen instead of Flet's logo (companion/ui/boot.py)
        html = LOADING_IMG.sub(lambda m: boot.loading_screen(m.group(1)), html, count=1)
        if not self.versioned or 'flet.assetBase="/";' not in html:
            return html  # (mounted below a path prefix: left as Flet wrote it)
        pre = f"/v/{self.version}/"
        for key in ("entrypointBaseUrl", "assetBase"):
            html = html.replace(f'flet.{key}="/";', f'flet.{key}="{pre}";')
        html = html.replace('flet.canvasKitBaseUrl="/canvaskit/";', f'flet.canvasKitBaseUrl="{pre}canvaskit/";')
        html = html.replace('flet.fontFallbackBaseUrl="assets/fonts/";',
                            f'flet.fontFallbackBaseUrl="{pre}assets/fonts/";')

        def local(m: re.Match[str]) -> str:
            ref = m.group(2)
            return f'{m.group(1)}="{pre}{ref}"' if self.resolve("/" + ref) is not None else m.group(0)
        html = PAGE_REF.sub(local, html)
        if self.preload:
            tags = self.static_preloads(html, ua)
            script = PRELOAD_JS % {"base": json.dumps(pre), "fonts": json.dumps(self.fonts),
                                   "static": json.dumps([p for p, _ in tags])}
            at = html.find(f'<script src="{pre}python.js"')
            at = at if at >= 0 else html.find("</head>")
            if at >= 0:
                html = html[:at] + script + html[at:]
            links = "".join(f'<link rel="modulepreload" href="{pre}{p}">' if kind is None else
                            f'<link rel="preload" href="{pre}{p}" as="{kind}" crossorigin="anonymous">'
                            for p, kind in tags)
            # after the page's first script (a parser-blocking one: asked for first, before the
            # megabytes; the preload scanner reads on past it while it loads)
            after = re.search(r'<script src="[^"]*python\.js"></script>', html) or re.search(r"</head>", html)
            if links and after:
                at = after.end() if after.group(0).startswith("<script") else after.start()
                html = html[:at] + "\n" + links + html[at:]
        return html

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

    def _buffered(self, send: Send, change: Callable[[bytes], bytes], cache_control: bytes = CACHE_CONTROL) -> Send:
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
            hs += [(b"content-length", str(len(body)).encode()),
                   (b"cache-control", cache_control if head.get("status") == 200 else CACHE_CONTROL)]
            await send({**head, "headers": hs})
            await send({"type": "http.response.body", "body": body})
        return wrapped

    def _trim_fonts(self, send: Send, cache_control: bytes = CACHE_CONTROL) -> Send:
        """Flet's (no_cdn-patched) FontManifest.json without the unused families."""
        def change(body: bytes) -> bytes:
            fonts = json.loads(body)
            if not isinstance(fonts, list):
                return body
            kept = [f for f in fonts if not (isinstance(f, dict) and str(f.get("family", "")).startswith(self.drop_fonts))]
            return json.dumps(kept, separators=(",", ":")).encode()
        return self._buffered(send, change, cache_control)

    def _own_colours(self, send: Send, cache_control: bytes = CACHE_CONTROL) -> Send:
        """Flet's manifest.json in the app's colours."""
        def change(body: bytes) -> bytes:
            manifest = json.loads(body)
            if not isinstance(manifest, dict):
                return body
            return json.dumps({**manifest, **MANIFEST_COLOURS}, indent=2).encode()
        return self._buffered(send, change, cache_control)

    @staticmethod
    def _with_cache_control(send: Send, cache_control: bytes = CACHE_CONTROL) -> Send:
        """Cache-Control added when the response has none; a versioned (immutable) one only on a 200."""
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                hs = list(message.get("headers", []))
                if cache_control != CACHE_CONTROL:
                    hs = [(k, v) for k, v in hs if k.lower() != b"cache-control"]
                if not any(k.lower() == b"cache-control" for k, _ in hs):
                    hs.append((b"cache-control", cache_control if message.get("status") == 200 else CACHE_CONTROL))
                message = {**message, "headers": hs}
            await send(message)
        return wrapped


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


def import_all(packages: list[str]) -> None:
    """Import every module of the given packages (errors ignored: warming only)."""
    import importlib
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
