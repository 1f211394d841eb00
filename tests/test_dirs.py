"""The data and cache folders come from platformdirs (right on macOS and Windows) and on Linux are
the ones the app used before it (XDG by hand), so a host's existing tables are found."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.dirs import default_data_dir, user_cache_dir
from companion.web import shared_cache_dir

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG folders are Linux's")


def test_linux_folders_are_the_ones_of_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    assert default_data_dir() == tmp_path / ".local" / "share" / "tabletop-companion"
    assert user_cache_dir() == tmp_path / ".cache" / "tabletop-companion"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_data_dir() == tmp_path / "data" / "tabletop-companion"
    shared = shared_cache_dir()
    assert shared is not None and shared.parent == tmp_path / "cache" / "tabletop-companion"
    assert shared.name.startswith("web-")


def test_the_commands_default_to_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from companion import cli, history_cli

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    want = str(tmp_path / "tabletop-companion")
    assert cli.serve_parser().parse_args([]).data_dir == want
    assert history_cli.parser().parse_args(["export", "-"]).data_dir == want


def test_history_cli_does_not_import_cli() -> None:
    """No import loop: both commands take their default folder from companion.dirs."""
    import subprocess

    code = "import sys, companion.history_cli; print('companion.cli' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1], timeout=60).stdout.strip()
    assert out == "False"
