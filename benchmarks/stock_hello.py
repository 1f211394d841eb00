"""The stock-Flet baseline: a plain hello page served by flet_fastapi.app(no_cdn=True), no compression.

    python -m benchmarks.stock_hello --port 8599
"""

from __future__ import annotations

import argparse
import os

import flet as ft
import flet.fastapi as flet_fastapi


async def hello(page: ft.Page) -> None:
    async def tap(e: ft.Event[ft.FilledButton]) -> None:
        page.add(ft.Text("tapped"))
    page.add(ft.Text("Hello, world", size=24), ft.FilledButton(content="Tap me", on_click=tap))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "true")
    import uvicorn

    app = flet_fastapi.app(hello, no_cdn=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
