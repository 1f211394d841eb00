"""Wiring: the FastAPI server with the Flet app mounted, plus plain HTTP routes.

Flet's mount is a catch-all, so our routes (QR code, health, downloads) come first.
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
from pathlib import Path
from typing import Any

import flet as ft
import flet.fastapi as flet_fastapi
from fastapi import Request, Response
from fastapi.responses import JSONResponse
from flet.controls.types import WebRenderer

from companion import i18n, join_page, resources, settings
from companion.table.hub import Hub
from companion.table.store import RefusingStore, SQLiteStore, StoreError
from companion.ui import boot
from companion.ui.screens import Server, qr_png, session_main
from companion.ui.sessions import flet_sessions
from companion.web import WebFront, boot_files, encodings_from_env, shared_cache_dir, web_dir

# Our files served at the web root before Flet's (favicon, home-screen icons): package data
ASSETS = resources.path("assets/web")
# Measured in benchmarks/phone_join.py (docs/BENCHMARKS.md): see RENDERER_WHY.
RENDERER = WebRenderer.AUTO
RENDERER_WHY = "auto: skwasm (wasm) where the browser supports WasmGC, else CanvasKit (dart2js)"


def web_renderer() -> WebRenderer:
    """COMPANION_WEB_RENDERER=auto|canvaskit|skwasm overrides the default (benchmarks compare them)."""
    raw = settings.current().web_renderer
    try:
        return WebRenderer(raw) if raw else RENDERER
    except ValueError:
        return RENDERER


def static_cache_dir(hub: Hub) -> Path:
    """Compressed copies of the web client: the per-user cache (~/.cache/tabletop-companion, shared
    by every server of this user), else the (private) data directory, else a fresh temp dir."""
    shared = shared_cache_dir()
    if shared is not None:
        return shared
    data_dir = getattr(hub.store, "dir", None)
    if isinstance(data_dir, Path):
        d = data_dir / "cache" / "web"
        try:
            d.mkdir(parents=True, exist_ok=True, mode=0o700)
            return d
        except OSError:
            pass
    return Path(tempfile.mkdtemp(prefix="companion-web-"))


def print_cache_dir(hub: Hub) -> Path:
    """Where printables rendered in another language are kept: the data directory, else a temp dir."""
    data_dir = getattr(hub.store, "dir", None)
    if isinstance(data_dir, Path):
        return data_dir / "cache" / "print"
    return Path(tempfile.mkdtemp(prefix="companion-print-"))


def bad_lang(lang: str) -> Response:
    """400 for a print download in a language the catalog does not have."""
    return Response(f"Unknown language {lang[:20]!r}: use lang=" + ", lang=".join(i18n.LANGS) + ".\n",
                    status_code=400, media_type="text/plain; charset=utf-8")


def open_hub(data_dir: str | Path) -> tuple[Hub, str | None]:
    """Open the store; a broken data directory (read-only, full, not a directory) gives a message and
    a table list that refuses every action it could not store, as a full disk does."""
    try:
        store: Any = SQLiteStore(data_dir)
    except StoreError as e:
        msg = i18n.t("en", e.key, path=e.path, reason=e.reason)
        return Hub(RefusingStore(e.path, e.reason)), msg
    hub = Hub(store)
    hub.load_all()
    return hub, None


# Python's full garbage collection (its oldest generation) walks every object, and the server of
# a busy venue holds a lot of long-lived ones (every phone's screen): at 600 phones each full
# collection stopped all tables for 0.35–0.8 s, yet found almost nothing (≈ 1,000 objects in
# 20 s – cyclic garbage dies young and goes in the young collections). A full collection now
# waits for 1,000 young-generation collections instead of 10: every 10–15 minutes at 600 phones
# instead of every 10 s. Measured with benchmarks/capacity.py (benchmarks/results/HISTORY.md (c)).
GC_THRESHOLDS = (700, 10, 1000)


def tune_gc() -> None:
    """Garbage collection for a long-running server with many long-lived objects (see above)."""
    gc.set_threshold(*GC_THRESHOLDS)


def build(hub: Hub, join_base: str, other_bases: list[str] | None = None,
          data_problem: str | None = None, host_addresses: tuple[str, ...] | None = None) -> Any:
    """host_addresses: the connection addresses whose browsers are the host's own (None: loopback)."""
    tune_gc()
    server = Server(hub, join_base, other_bases, data_problem, host_addresses=host_addresses)
    api = flet_fastapi.FastAPI()

    @api.get("/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(hub.open_tables()), "loaded": len(hub.loaded()), **flet_sessions()}

    def hosted(request: Request, code: str) -> Any:
        """The table, if this request comes from a browser that holds its host key (the table's
        `tc_h_CODE` cookie, companion/ui/boot.py); else None – for an unknown code and for a
        known one alike, so the answer tells a guesser nothing."""
        t = hub.get(code)
        keys = boot.host_keys(dict(request.cookies))
        if t is None or not t.is_host(keys.get(t.code)):
            return None
        return t

    @api.get("/qr/{code}.png")
    async def qr(request: Request, code: str) -> Response:
        """The table's QR code as a PNG, for its host only (the host screen draws its own)."""
        t = hosted(request, code)
        if t is None:
            return Response(status_code=404)
        return Response(qr_png(server.join_url(t.code)), media_type="image/png",
                        headers={"Cache-Control": "private, no-store"})

    print_cache: Path | None = None
    print_locks: dict[str, asyncio.Lock] = {}

    @api.get("/print/{name}.pdf")
    async def printable(name: str, lang: str = "en") -> Response:
        """The print-and-play PDFs, for download from the host screen: lang=en (default) is the
        committed file in printables/; lang=de|fr is the same recipe rendered on demand (seconds
        of CPU, in a thread) and cached in the data directory – and so is English where there is no
        printables/ (an installed wheel)."""
        nonlocal print_cache
        from companion.printing import printables

        if not name.replace("-", "").isalnum() or printables.spec_for(name) is None:
            return Response(status_code=404)
        if lang not in i18n.LANGS:
            return bad_lang(lang)
        path = printables.PRINTABLES / f"{name}.pdf"
        if lang == "en" and path.is_file():
            data = await asyncio.to_thread(path.read_bytes)
            filename = f"{name}.pdf"
        else:
            if print_cache is None:
                print_cache = print_cache_dir(hub)
            lock = print_locks.setdefault(f"{name}-{lang}", asyncio.Lock())
            async with lock:  # one render per file, however many hosts press the button
                data = await asyncio.to_thread(printables.localized, name, lang, print_cache)
            filename = f"{name}.pdf" if lang == "en" else f"{name}-{lang}.pdf"
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @api.get("/join-card/{code}.pdf")
    async def join_card(request: Request, code: str, paper: str = "a4", lang: str = "en") -> Response:
        """A printable join card (QR code, code and URL) for a table, in lang=en|de|fr, rendered
        off the event loop; for the table's host only (the host screen's download button)."""
        t = hosted(request, code)
        if t is None or paper not in ("a4", "letter"):
            return Response(status_code=404)
        if lang not in i18n.LANGS:
            return bad_lang(lang)
        from companion.printing.api import join_card_pdf

        data = await asyncio.to_thread(join_card_pdf, t.code, server.join_url(t.code), paper, lang=lang)
        filename = f"join-{t.code}.pdf" if lang == "en" else f"join-{t.code}-{lang}.pdf"
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @api.post("/t/{code}/join")
    async def join(request: Request, code: str) -> Response:
        """A seat taken on the page's own HTML join screen (companion/join_page.py): JSON
        {seat, name, page, lang} → 200 {token, …}, or a status and {key, message}."""
        body: bytes | None = b""
        async for chunk in request.stream():
            body = (body or b"") + chunk
            if len(body) > join_page.MAX_BODY:
                body = None
                break
        status, reply = await join_page.take_seat(
            hub, server.joins, server.join_limit, code, boot.conn_from_scope(request.scope).client or "",
            {k.lower(): v for k, v in request.headers.items()}, body)
        return JSONResponse(reply, status_code=status, headers={"Cache-Control": "no-store"})

    @api.get("/t/{code}/seats")
    async def join_seats(request: Request, code: str, lang: str = "en") -> Response:
        """The HTML join screen's seat list again (companion/join_page.py), while a player types on it."""
        status, reply = await join_page.seat_list_for(hub, server.seat_looks, code,
                                                      boot.conn_from_scope(request.scope).client or "", lang)
        return JSONResponse(reply, status_code=status, headers={"Cache-Control": "no-store"})

    @api.api_route("/t/{code}/join", methods=["GET", "PUT", "DELETE", "PATCH"])
    async def join_other(request: Request, code: str) -> Response:
        lang = join_page.request_lang(request.headers.get("accept-language", ""))
        return JSONResponse({"key": "join.err.bad", "message": i18n.t(lang, "join.err.bad")}, status_code=405,
                            headers={"Allow": "POST", "Cache-Control": "no-store"})

    def join_screen(scope: dict[str, Any], code: str) -> str | None:
        """The page of /t/CODE: the table's HTML join screen for a phone without a seat, or a seated
        phone's own seat (its `tc_seat` cookie holds its token), if any."""
        if not settings.current().boot_cookie:  # (it needs the page's id: companion/ui/boot.py)
            return None
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        return join_page.for_page(hub, code, boot.conn_from_scope(scope).client or "",
                                  headers.get(b"accept-language", b"").decode("latin-1"),
                                  scope.get("query_string", b"").decode("latin-1"),
                                  boot.cookies(scope).get(boot.SEATED_COOKIE))

    from companion.history_routes import add_routes as history_routes

    history_routes(api, hub, server)  # /history/export.csv|json, /history/import (host's computer only)

    async def main(page: ft.Page) -> None:
        await session_main(page, server)

    renderer = web_renderer()
    api.mount("/", flet_fastapi.app(main, no_cdn=True, assets_dir=str(ASSETS) if ASSETS.is_dir() else None,
                                   app_name="Tabletop Companion", app_short_name="Companion",
                                   app_description=i18n.t("en", "app.description"),
                                   web_renderer=renderer))
    api.state.server = server
    # The client's files through ServeStatic, compressed once, and our page, in front of everything
    # (companion/web.py, companion/page.py); the middleware stack is built when the server starts.
    api.add_middleware(WebFront, roots=[ASSETS, web_dir()], cache_dir=static_cache_dir(hub),
                       encodings=encodings_from_env(), warm=boot_files(renderer.value),
                       ws_per_table=settings.current().ws_per_table, join_screen=join_screen)
    return api
