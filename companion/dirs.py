"""Where the app keeps its files on this computer, through `platformdirs` (the right place on Linux,
macOS and Windows). On Linux the same folders as before platformdirs, so existing tables are found:
$XDG_DATA_HOME or ~/.local/share, and $XDG_CACHE_HOME or ~/.cache, each + /tabletop-companion.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP = "tabletop-companion"


def default_data_dir() -> Path:
    """The tables, their logs and the history (SQLite): `companion --data-dir` overrides it."""
    return platformdirs.user_data_path(APP, appauthor=False)


def user_cache_dir() -> Path:
    """Things made again when lost (the client's compressed copies)."""
    return platformdirs.user_cache_path(APP, appauthor=False)
