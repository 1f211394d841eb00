"""HTTP routes of the history (docs/HISTORY.md), for the host's own computer only – the same rule
as the table list (Server.is_host_machine: the connection's own address is loopback or one of
--host-addresses, never anything the browser says); anyone else gets 404, as for an unknown path.

    GET  /history/export.csv      the CSV export (attachment)
    GET  /history/export.json     the JSON export (attachment)
    POST /history/import?lang=xx  body: a JSON export; 200 {"added", "already", "message"} or
                                  400 {"key", "message"} (a broken or foreign file: nothing changed)
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import Request, Response
from fastapi.responses import JSONResponse

from companion import history, i18n
from companion.ui import boot


def add_routes(api: Any, hub: Any, server: Any) -> None:
    def from_host(request: Request) -> bool:
        return bool(server.is_host_machine(boot.conn_from_scope(request.scope)))

    def stamp() -> str:
        return time.strftime("%Y%m%d-%H%M", time.localtime())

    @api.get("/history/export.{fmt}")
    async def history_export(request: Request, fmt: str) -> Response:
        if not from_host(request) or fmt not in ("csv", "json"):
            return Response(status_code=404)
        records, aliases = await asyncio.to_thread(lambda: (hub.store.history(), hub.store.aliases()))
        if fmt == "csv":
            body, media = history.export_csv(records, aliases), "text/csv; charset=utf-8"
        else:
            body, media = history.export_json(records, aliases), "application/json"
        return Response(body.encode("utf-8"), media_type=media, headers={
            "Content-Disposition": f'attachment; filename="companion-history-{stamp()}.{fmt}"',
            "Cache-Control": "private, no-store"})

    @api.post("/history/import")
    async def history_import(request: Request, lang: str = "en") -> Response:
        if not from_host(request):
            return Response(status_code=404)
        lang = lang if lang in i18n.LANGS else "en"
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > history.MAX_IMPORT_BYTES:
                break
        try:
            added, dup = await asyncio.to_thread(history.import_file, hub.store, data)
        except history.HistoryError as e:
            return JSONResponse({"key": e.key, "message": e.text(lang)}, status_code=400)
        return JSONResponse({"added": added, "already": dup,
                             "message": history.t(lang, "hist.imported", n=added, dup=dup)})
