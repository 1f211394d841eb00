"""Wiring: the FastAPI server with the Flet app mounted, plus plain HTTP routes.

Flet's mount is a catch-all, so our routes (QR code, health, downloads) come first.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import flet as ft
import flet.fastapi as flet_fastapi
from fastapi import Response

from companion import i18n
from companion.table.hub import Hub
from companion.table.store import MemoryStore, SQLiteStore, StoreError
from companion.ui.screens import Server, qr_png, session_main

ASSETS = Path(__file__).resolve().parent.parent / "assets"
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

    api.mount("/", flet_fastapi.app(main, no_cdn=True, assets_dir=str(ASSETS) if ASSETS.is_dir() else None,
                                   app_name="Tabletop Companion", app_short_name="Companion"))
    api.state.server = server
    return api
