"""Every `COMPANION_*` environment variable in one place: what it does, its default, how it is read.

These are switches for measurements and tests (docs/BENCHMARKS.md compares variants with them),
not options a host needs: the command line (`companion --help`) is the host's interface.
`current()` reads the environment each time it is called, so a test that sets a variable (or
pytest's monkeypatch) sees its effect without reloading anything.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


def _on(env: Mapping[str, str], name: str, default: bool = True) -> bool:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() not in ("0", "false", "no", "off")


@dataclass(frozen=True)
class Settings:
    flet_patches: bool = True  # COMPANION_FLET_PATCHES: companion/ui/flet_fast.py's faster copies of Flet's hot paths
    web_renderer: str | None = None  # COMPANION_WEB_RENDERER: auto | canvaskit | skwasm (companion/app.py)
    ws_per_table: bool = False  # COMPANION_WS_PER_TABLE: one WebSocket path per table (docs/SCALING.md)
    static_encodings: tuple[str, ...] | None = None  # COMPANION_STATIC_ENCODINGS: e.g. "gzip" or "zstd,gzip"
    static_warm: bool = True  # COMPANION_STATIC_WARM: compress the client in the background at the first start (0: before serving)
    static_versioned: bool = True  # COMPANION_STATIC_VERSIONED: content-versioned client URLs
    static_preload: bool = True  # COMPANION_STATIC_PRELOAD: the page preloads the client's big files
    preload_tags: bool = True  # COMPANION_PRELOAD_TAGS: ... with plain <link> tags too
    warm_modules: bool = True  # COMPANION_WARM_MODULES: import Flet's control modules at start-up
    icon_subset: bool = True  # COMPANION_ICON_SUBSET: serve the subset of the Material icon font
    precompressed: bool = True  # COMPANION_PRECOMPRESSED: the committed zopfli gzips of the client
    boot_cookie: bool = True  # COMPANION_BOOT_COOKIE: the first screen's storage values with the handshake
    fallback_fonts: bool = True  # COMPANION_FALLBACK_FONTS: serve Flutter's fallback fonts (companion/fallback_fonts.py)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        enc = e.get("COMPANION_STATIC_ENCODINGS")
        return cls(
            flet_patches=_on(e, "COMPANION_FLET_PATCHES"),
            web_renderer=e.get("COMPANION_WEB_RENDERER") or None,
            ws_per_table=_on(e, "COMPANION_WS_PER_TABLE", False),
            static_encodings=tuple(x.strip() for x in enc.split(",") if x.strip()) if enc else None,
            static_warm=_on(e, "COMPANION_STATIC_WARM"),
            static_versioned=_on(e, "COMPANION_STATIC_VERSIONED"),
            static_preload=_on(e, "COMPANION_STATIC_PRELOAD"),
            preload_tags=_on(e, "COMPANION_PRELOAD_TAGS"),
            warm_modules=_on(e, "COMPANION_WARM_MODULES"),
            icon_subset=_on(e, "COMPANION_ICON_SUBSET"),
            precompressed=_on(e, "COMPANION_PRECOMPRESSED"),
            boot_cookie=_on(e, "COMPANION_BOOT_COOKIE"),
            fallback_fonts=_on(e, "COMPANION_FALLBACK_FONTS"),
        )


def current() -> Settings:
    return Settings.from_env()
