"""What is ours in serving the web client: the page (Flet's index.html, rewritten), its security
policy, and the two small JSON files we adjust. The client's static files themselves are served
by ServeStatic (companion/web.py).

The page (for / and every client route such as /t/CODE) is Flet's index.html with:

* the boot script (companion/ui/boot.py: the first screen's storage values in a short-lived
  cookie for the WebSocket handshake), the locale guard (a `C` locale must not stop Flutter), the
  turn's vibration and the reveal chime – one inline script (head_script);
* the app's own loading screen instead of Flet's logo;
* on the page of a table in its lobby (/t/CODE), its join screen in plain HTML first in <body>
  (companion/join_page.py: the seat buttons before Flutter has started);
* every client file – and the web manifest with its icons – loaded from `/v/<version>/…` (served
  `immutable`: a return visit takes the whole client from the browser's cache without a single request; an upgrade is a new version,
  i.e. new URLs – never a stale mix). The page itself is `no-cache` with an ETag (a 304 of a few
  hundred bytes);
* the boot files started by the page itself (`<link rel=preload>` / `modulepreload`, chosen by
  the same tests as Flutter's loader) instead of three hops later: main.dart.mjs/.wasm, the skwasm
  renderer (or main.dart.js + CanvasKit), FontManifest.json and the fonts; as plain tags where the
  User-Agent tells the build (a Chromium with WasmGC), by script otherwise;
* a Content-Security-Policy that keeps the page off the internet.

FontManifest.json (Flet's no_cdn copy) leaves out font families the app never uses (KaTeX,
Cupertino icons), which Flutter would otherwise download before the first frame; manifest.json
gets the app's colours.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servestatic.utils import parse_accept_encoding

from companion.ui import boot
from companion.ui.boot import SEATED_COOKIE, cookies

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

NO_CACHE = b"no-cache"
IMMUTABLE = b"public, max-age=31536000, immutable"
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
WS_ENDPOINT = re.compile(r'flet\.webSocketEndpoint="[^"]*";')
LOADING_IMG = re.compile(r'<img src="([^"]*icons/loading-animation\.png)"[^>]*>')
PAGE_REF = re.compile(r'\b(src|href)="([A-Za-z0-9_][A-Za-z0-9_./-]*)"')
# Flet's `python.js` (jsConnect/jsSend: the bridge to a Pyodide worker) is a parser-blocking
# script in <head>, used only by a page whose Python runs in the browser: a request on a first
# join and a main-thread task on every load for nothing on a page served by this server.
PYTHON_JS = re.compile(r'\s*<script src="[^"]*\bpython\.js"></script>')
NOT_PYODIDE = re.compile(r"flet\.pyodide\s*=\s*false\s*;")
# Started by the page itself instead of three hops later (index.html → flutter_bootstrap.js →
# main.dart.mjs → main.dart.wasm; fonts only once the wasm runs): the files of the build Flutter's
# loader will pick – the same tests as flutter_bootstrap.js (WasmGC + a Chromium engine → dart2wasm
# with skwasm, or skwasm_heavy without the browser's codecs; else dart2js with CanvasKit) – and
# the fonts of the (trimmed) FontManifest. `as=fetch` + crossorigin is what fetch() asks for, so
# the loader's own requests are served from these preloads. flutter_bootstrap.js is preloaded too:
# as an `async` script it would otherwise get a low priority behind the megabytes. CanvasKit's
# wasm (the build of every non-Chromium browser) is not preloaded but fetched here and handed to
# CanvasKit's own fetch() of the same URL (`early`): WebKit does not reuse a preload for a fetch()
# that starts while the preload is still loading – it downloaded the 2.9 MB twice (issue 31.3).
PRELOAD_JS = """<script>(function(){try{
var v=%(base)s,f=window.flet||{},r=f.webRenderer||"auto",h=document.head,n=navigator,d=%(static)s;
function add(p,as,m){if(d.indexOf(p)>=0)return;var l=document.createElement("link");l.rel=m?"modulepreload":"preload";
l.href=v+p;if(!m){l.as=as;if(as==="fetch")l.crossOrigin="anonymous";}h.appendChild(l);}
function early(p){if(d.indexOf(p)>=0||!window.fetch)return;var u=new URL(v+p,location.href).href,of=window.fetch,
got=of.call(window,u,{credentials:"same-origin"}),mine=function(i,o){var a="";try{a=new URL(typeof i==="string"?i:i.url,location.href).href;}catch(e){}
if(a===u&&got){var g=got;got=null;if(window.fetch===mine)window.fetch=of;return g;}return of.apply(this,arguments);};window.fetch=mine;}
add("flutter_bootstrap.js","script");
var blink=n.vendor==="Google Inc."||n.userAgent.indexOf("Edg/")>=0,gc=false;
try{gc=WebAssembly.validate(new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,95,1,120,0]));}catch(e){}
var codecs=blink&&typeof ImageDecoder!=="undefined",
brk=typeof Intl.v8BreakIterator!=="undefined"&&typeof Intl.Segmenter!=="undefined";
if(r!=="canvaskit"&&gc&&blink&&(window.WebGL2RenderingContext||window.WebGLRenderingContext)){
var s="canvaskit/"+(codecs&&brk?"skwasm":"skwasm_heavy");
add("main.dart.mjs","script",1);add("main.dart.wasm","fetch");add(s+".js","script",1);add(s+".wasm","fetch");
}else if(r!=="skwasm"){var c=codecs&&brk?"canvaskit/chromium/":"canvaskit/";
add("main.dart.js","script");add(c+"canvaskit.js","script",1);early(c+"canvaskit.wasm");}
%(fonts)s.forEach(function(p){add(p,"fetch");});
}catch(e){}})();</script>
"""
# The same preloads as plain <link> tags, found by the browser's preload scanner while the page
# is still arriving (the script above runs only once the parser reaches it: here ~130 ms later
# on a first join): the fonts for every browser, and the skwasm build's files when the
# User-Agent is a Chromium that has WasmGC (≥ 119; iOS browsers are WebKit and do not say
# "Chrome/"), where Flutter's loader always picks that build. Any other browser is left to the
# script (a wrong guess would only cost bytes: Flutter's loader decides, not this list).
# "Your turn" felt on a phone lying on the table (issue 18.6): the app marks the page's title while
# it is this seat's turn (companion/ui/views/phone.py TURN_MARK – Flet 1.0 runs no script of
# ours, but Flutter writes the title into the document); this script vibrates the phone when the
# mark appears, where the browser allows it (navigator.vibrate: Android's browsers, after the
# player's first tap – iPhones have no vibration API and only see the banner).
TURN_JS = """<script>(function(){var on=false;function look(){var now=(document.title||"").indexOf("\\u25b6")===0;
if(now&&!on&&navigator.vibrate){try{navigator.vibrate([400,150,400,150,400]);}catch(e){}}on=now;}
try{new MutationObserver(look).observe(document.head,{subtree:true,childList:true,characterData:true});}catch(e){}})();</script>
"""
# The reveal chime (companion/ui/sound.py): the server flips the title's invisible last character
# (U+200B / U+200C) at a reveal this screen chimes for; the page plays two short sine tones (Web
# Audio, made here: no sound file). A browser lets sound start after the first tap on the page. Only a
# change from one mark to the other chimes: the app's title always ends in one (Session.start), so the
# first title a (re)loaded page sees is where it starts from, and it does not chime for an old reveal.
# window.__tcChimes counts the chimes asked for (tests read it).
SOUND_JS = """<script>(function(){var last=null,ac=null;window.__tcChimes=0;
function ctx(){try{if(!ac){var A=window.AudioContext||window.webkitAudioContext;if(A)ac=new A();}
if(ac&&ac.state==="suspended")ac.resume();}catch(e){}return ac;}
["pointerdown","keydown","touchstart"].forEach(function(k){window.addEventListener(k,ctx,{capture:true,passive:true});});
function tone(a,f,t0,d){var o=a.createOscillator(),g=a.createGain();o.type="sine";o.frequency.value=f;
g.gain.setValueAtTime(0.0001,t0);g.gain.exponentialRampToValueAtTime(0.35,t0+0.02);
g.gain.exponentialRampToValueAtTime(0.0001,t0+d);o.connect(g);g.connect(a.destination);o.start(t0);o.stop(t0+d+0.05);}
function chime(){window.__tcChimes++;var a=ctx();if(!a)return;try{var t=a.currentTime+0.02;
tone(a,880,t,0.35);tone(a,1318.5,t+0.16,0.5);}catch(e){}}
function look(){var c=(document.title||"").slice(-1),m=(c==="\u200b"||c==="\u200c")?c:"";
if(!m)return;if(last!==null&&m!==last)chime();last=m;}
try{new MutationObserver(look).observe(document.head,{subtree:true,childList:true,characterData:true});}catch(e){}})();</script>
"""
CHROMIUM_UA = re.compile(r"\b(?:Headless)?Chrome/(\d+)\.")
WASM_GC_CHROMIUM = 119
SKWASM_STATIC = (("main.dart.mjs", None), ("main.dart.wasm", "fetch"), ("canvaskit/skwasm.js", None),
                 ("canvaskit/skwasm.wasm", "fetch"))


def font_files(roots: Iterable[Path], drop: tuple[str, ...], served: Callable[[str], bool]) -> list[str]:
    """The files Flutter loads before its first frame: FontManifest.json and its fonts, less the
    dropped families, plus the Roboto that Flet's no_cdn patch adds (paths under the web root)."""
    out: list[str] = []
    for root in roots:
        f = root / "assets" / "FontManifest.json"
        if f.is_file():
            try:
                for fam in json.loads(f.read_text("utf-8")):
                    if str(fam.get("family", "")).startswith(drop):
                        continue
                    out += ["assets/" + x["asset"] for x in fam.get("fonts", []) if isinstance(x.get("asset"), str)]
            except (ValueError, AttributeError, TypeError, OSError):
                return []
            break
    if served("assets/fonts/roboto.woff2"):
        out.append("assets/fonts/roboto.woff2")
    return ["assets/FontManifest.json"] + [p for p in dict.fromkeys(out) if served(p)]


def head_script(boot_cookie: bool = True) -> str:
    """The page's own scripts, in the order they must run, as ONE inline <script> at the top of
    <head>: first of all the locale guard (a `C` locale must not stop Flutter: boot.LOCALE_JS), the
    turn's vibration (TURN_JS), the reveal chime (SOUND_JS), then the boot cookie (boot.BOOT_JS).
    Each keeps its own function scope and try/catch. One script, not four: on a slow phone each
    inline script is parsed, compiled and run as a task of its own on the main thread – which is
    busy from the navigation to the seat buttons (benchmarks/phone_trace) – and inline scripts get
    no code cache."""
    parts = [boot.LOCALE_JS, TURN_JS, SOUND_JS] + ([boot.BOOT_JS] if boot_cookie else [])
    bodies = []
    for part in parts:
        body = part.strip()
        assert body.startswith("<script>") and body.endswith("</script>"), part[:40]
        bodies.append(body[len("<script>"):-len("</script>")].strip())
    return "<script>" + "\n".join(bodies) + "</script>\n"


def wants_html(scope: Scope) -> bool:
    """A page load (a navigation asks for text/html), as opposed to a script, image or API call."""
    for k, val in scope.get("headers", []):
        if k.lower() == b"accept":
            return b"text/html" in val
    return False


def accepts_gzip(header: str) -> bool:
    """The client takes gzip (q > 0), as ServeStatic reads Accept-Encoding for the static files."""
    return bool({"gzip", "*"} & parse_accept_encoding(header))


@dataclass
class Page:
    """Flet's index.html, rewritten (see the module's docstring)."""

    version: str | None  # the client files' version (None: unversioned URLs, as Flet wrote them)
    served: Callable[[str], bool]  # is this path (under the web root) one of the client's files?
    fonts: list[str] = field(default_factory=list)
    preload: bool = True
    preload_tags: bool = True
    boot_cookie: bool = True

    def static_preloads(self, html: str, ua: str) -> list[tuple[str, str | None]]:
        """(path, as) of the files the page preloads with plain tags (as None: a module script)."""
        out: list[tuple[str, str | None]] = []
        if not self.preload_tags:
            return out
        m = CHROMIUM_UA.search(ua)
        renderer = re.search(r'flet\.webRenderer="([a-z]*)";', html)
        if m and int(m.group(1)) >= WASM_GC_CHROMIUM and (renderer is None or renderer.group(1) != "canvaskit"):
            out += [(p, kind) for p, kind in SKWASM_STATIC if self.served(p)]
        return out + [(p, "fetch") for p in self.fonts]

    def rewrite(self, html: str, ws_path: str | None = None, ua: str = "", body: str | None = None) -> str:
        """`body`: HTML put first into <body> (a table's join screen: companion/join_page.py)."""
        if body and "<body>" in html:
            html = html.replace("<body>", "<body>\n" + body, 1)
        if ws_path:
            html = WS_ENDPOINT.sub(f'flet.webSocketEndpoint="{ws_path}";', html)
        if "<head>" in html:  # our scripts first of all, as one (see head_script)
            html = html.replace("<head>", "<head>\n" + head_script(self.boot_cookie), 1)
        # the app's own loading screen instead of Flet's logo (companion/ui/boot.py)
        html = LOADING_IMG.sub(lambda m: boot.loading_screen(m.group(1)), html, count=1)
        if self.version is None or 'flet.assetBase="/";' not in html:
            return html  # (mounted below a path prefix: left as Flet wrote it)
        pre = f"/v/{self.version}/"
        for key in ("entrypointBaseUrl", "assetBase"):
            html = html.replace(f'flet.{key}="/";', f'flet.{key}="{pre}";')
        html = html.replace('flet.canvasKitBaseUrl="/canvaskit/";', f'flet.canvasKitBaseUrl="{pre}canvaskit/";')
        html = html.replace('flet.fontFallbackBaseUrl="assets/fonts/";',
                            f'flet.fontFallbackBaseUrl="{pre}assets/fonts/";')

        def local(m: re.Match[str]) -> str:
            ref = m.group(2)
            # (manifest.json is Flet's patched copy, not one of the files: served under the
            # version too – with its icons, which resolve against it – so a return visit asks
            # for neither again; see own_colours)
            return f'{m.group(1)}="{pre}{ref}"' if self.served(ref) or ref == MANIFEST.lstrip("/") else m.group(0)
        html = PAGE_REF.sub(local, html)
        if NOT_PYODIDE.search(html):
            html = PYTHON_JS.sub("", html, count=1)
        if self.preload:
            tags = self.static_preloads(html, ua)
            script = PRELOAD_JS % {"base": json.dumps(pre), "fonts": json.dumps(self.fonts),
                                   "static": json.dumps([p for p, _ in tags])}
            at = html.find(f'<script src="{pre}python.js"')  # (a Pyodide page's first script)
            at = at if at >= 0 else html.find("</head>")
            if at >= 0:
                html = html[:at] + script + html[at:]
            links = "".join(f'<link rel="modulepreload" href="{pre}{p}">' if kind is None else
                            f'<link rel="preload" href="{pre}{p}" as="{kind}" crossorigin="anonymous">'
                            for p, kind in tags)
            # after a Pyodide page's python.js (a parser-blocking script: asked for first, before
            # the megabytes; the preload scanner reads on past it while it loads), else at the end
            # of <head> (this server's pages have no such script, PYTHON_JS)
            after = re.search(r'<script src="[^"]*python\.js"></script>', html) or re.search(r"</head>", html)
            if links and after:
                at = after.end() if after.group(0).startswith("<script") else after.start()
                html = html[:at] + "\n" + links + html[at:]
        return html

    async def serve(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send, ws_path: str | None,
                    body: str | None = None) -> None:
        """index.html from Flet, rewritten (the WebSocket at `ws_path` if given, `body` first in its
        <body>); gzipped, and
        revalidated by an ETag of the rewritten page (the page itself stays no-cache: it is what
        names the version). Anything else Flet answers passes through."""
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
                        hs.append((b"cache-control", NO_CACHE))
                    await send({**message, "headers": hs})
                    return
                state["head"] = message
            elif state["through"]:
                await send(message)
            elif message["type"] == "http.response.body":
                state["chunks"].append(message.get("body", b""))

        await app(inner, receive, collect)
        head = state["head"]
        if state["through"] or head is None:
            return
        hs = [(k, val) for k, val in head.get("headers", [])
              if k.lower() not in (b"content-length", b"cache-control", b"etag", b"last-modified")]
        flet_page = b"".join(state["chunks"])
        try:
            html = self.rewrite(flet_page.decode("utf-8"), ws_path,
                                asked.get(b"user-agent", b"").decode("latin-1"), body).encode("utf-8")
        except UnicodeError:
            html = flet_page
        # The ETag names the page and, apart, its join screen: a seated phone (its `tc_seat` cookie,
        # companion/join_page.py) whose copy is the same page with a join screen – which its script
        # removes unseen – is answered 304 too (a return visit stays a few hundred bytes).
        base = html.replace(b"<body>\n" + body.encode("utf-8"), b"<body>", 1) if body else html
        etag = f'"p-{hashlib.sha256(base).hexdigest()[:20]}'
        loose = not body and SEATED_COOKIE in cookies(scope)
        etag = etag + (f'-j{hashlib.sha256(body.encode("utf-8")).hexdigest()[:8]}"' if body else '"')
        # (a seated phone's page carries its own seat: for its browser only, never a shared cache)
        private = bool(body) and boot.SEATED_SCREEN in body
        hs += [(b"cache-control", b"private, no-cache" if private else NO_CACHE), (b"etag", etag.encode()), (b"vary", b"accept-encoding, user-agent, accept-language"),
               (b"content-security-policy", CSP)]
        held = asked.get(b"if-none-match", b"").decode("latin-1")
        if etag in held or (loose and etag[:-1] + "-j" in held):
            await send({"type": "http.response.start", "status": 304, "headers": hs})
            await send({"type": "http.response.body", "body": b""})
            return
        if accepts_gzip(asked.get(b"accept-encoding", b"").decode("latin-1")):
            html = gzip.compress(html, compresslevel=6, mtime=0)
            hs.append((b"content-encoding", b"gzip"))
        hs.append((b"content-length", str(len(html)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": hs})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else html})


def _buffered(send: Send, change: Callable[[bytes], bytes], cache_control: bytes) -> Send:
    """`send` with a 200's body passed through `change` (e.g. Flet's FontManifest.json, trimmed)."""
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
               (b"cache-control", cache_control if head.get("status") == 200 else NO_CACHE)]
        await send({**head, "headers": hs})
        await send({"type": "http.response.body", "body": body})
    return wrapped


def trim_fonts(send: Send, drop: tuple[str, ...], cache_control: bytes = NO_CACHE) -> Send:
    """Flet's (no_cdn-patched) FontManifest.json without the unused families."""
    def change(body: bytes) -> bytes:
        fonts = json.loads(body)
        if not isinstance(fonts, list):
            return body
        kept = [f for f in fonts if not (isinstance(f, dict) and str(f.get("family", "")).startswith(drop))]
        return json.dumps(kept, separators=(",", ":")).encode()
    return _buffered(send, change, cache_control)


def own_colours(send: Send, cache_control: bytes = NO_CACHE, root: str | None = None) -> Send:
    """Flet's manifest.json in the app's colours. Served from below the site's root (`root` given:
    the versioned /v/<version>/manifest.json), its start URL and scope stay the root they were at
    /manifest.json ("." there): a phone's home-screen icon opens the app, not the version folder."""
    def change(body: bytes) -> bytes:
        manifest = json.loads(body)
        if not isinstance(manifest, dict):
            return body
        where = {"start_url": root, "scope": root} if root else {}
        return json.dumps({**manifest, **MANIFEST_COLOURS, **where}, indent=2).encode()
    return _buffered(send, change, cache_control)


def with_cache_control(send: Send, cache_control: bytes = NO_CACHE) -> Send:
    """Cache-Control added when the response has none; a versioned (immutable) one only on a 200."""
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            hs = list(message.get("headers", []))
            if cache_control != NO_CACHE:
                hs = [(k, v) for k, v in hs if k.lower() != b"cache-control"]
            if not any(k.lower() == b"cache-control" for k, _ in hs):
                hs.append((b"cache-control", cache_control if message.get("status") == 200 else NO_CACHE))
            message = {**message, "headers": hs}
        await send(message)
    return wrapped
