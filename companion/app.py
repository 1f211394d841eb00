"""Wiring: the FastAPI server with the Flet app mounted, plus plain HTTP routes.

Flet's mount is a catch-all, so our routes (QR code, health, downloads) come first.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path
from typing import Any

import flet as ft
import flet.fastapi as flet_fastapi
from fastapi import Response
from flet.controls.types import WebRenderer

from companion import i18n
from companion.table.hub import Hub
from companion.table.store import MemoryStore, SQLiteStore, StoreError
from companion.ui.screens import Server, qr_png, session_main
from companion.web import StaticCompression, boot_files, encodings_from_env, shared_cache_dir, web_dir

ASSETS = Path(__file__).resolve().parent.parent / "assets"
# Measured in benchmarks/phone_join.py (docs/BENCHMARKS.md): see RENDERER_WHY.
RENDERER = WebRenderer.AUTO
RENDERER_WHY = "auto: skwasm (wasm) where the browser supports WasmGC, else CanvasKit (dart2js)"


def web_renderer() -> WebRenderer:
    """COMPANION_WEB_RENDERER=auto|canvaskit|skwasm overrides the default (benchmarks compare them)."""
    raw = os.environ.get("COMPANION_WEB_RENDERER")
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


PRINTABLES = Path(__file__).resolve().parent.parent / "printables"


def open_hub(data_dir: str | Path) -> tuple[Hub, str | None]:
    """Open the store; a broken data directory gives a message and a working in-memory table list."""
    try:
        store: Any = SQLiteStore(data_dir)
    except StoreError as e:
        msg = i18n.t("en", e.key, path=e.path, reason=e.reason)
        return Hub(MemoryStore()), msg
    hub = Hub(store)
    hub.load_all()
    return hub, None


def build(hub: Hub, join_base: str, other_bases: list[str] | None = None,
          data_problem: str | None = None) -> Any:
    server = Server(hub, join_base, other_bases, data_problem)
    api = flet_fastapi.FastAPI()

    @api.get("/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(hub.tables)}

    @api.get("/qr/{code}.png")
    async def qr(code: str) -> Response:
        t = hub.get(code)
        if t is None:
            return Response(status_code=404)
        return Response(qr_png(server.join_url(t.code)), media_type="image/png")

    @api.get("/print/{name}.pdf")
    async def printable(name: str) -> Response:
        """The committed print-and-play PDFs (printables/), for download from the host screen."""
        path = PRINTABLES / f"{name}.pdf"
        if not name.replace("-", "").isalnum() or not path.is_file():
            return Response(status_code=404)
        data = await asyncio.to_thread(path.read_bytes)
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{name}.pdf"'})

    @api.get("/join-card/{code}.pdf")
    async def join_card(code: str, paper: str = "a4") -> Response:
        """A printable join card (QR code, code and URL) for a table, rendered off the event loop."""
        t = hub.get(code)
        if t is None or paper not in ("a4", "letter"):
            return Response(status_code=404)
        from companion.printing.api import join_card_pdf

        data = await asyncio.to_thread(join_card_pdf, t.code, server.join_url(t.code), paper)
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="join-{t.code}.pdf"'})

    async def main(page: ft.Page) -> None:
        await session_main(page, server)

    renderer = web_renderer()
    api.mount("/", flet_fastapi.app(main, no_cdn=True, assets_dir=str(ASSETS) if ASSETS.is_dir() else None,
                                   app_name="Tabletop Companion", app_short_name="Companion",
                                   web_renderer=renderer))
    api.state.server = server
    # Compressed, revalidating static files in front of everything (see companion/web.py); the
    # middleware stack (and the warm-up thread) is built when the server starts.
    api.add_middleware(StaticCompression, roots=[ASSETS, web_dir()], cache_dir=static_cache_dir(hub),
                       encodings=encodings_from_env(), warm=boot_files(renderer.value),
                       ws_per_table=os.environ.get("COMPANION_WS_PER_TABLE") == "1")
    return api
