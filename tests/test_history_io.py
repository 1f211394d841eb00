"""Issue 21.3: the history's HTTP routes (host's computer only) and the `companion history`
command (one-line errors, exit 2, no traceback, nothing changed by a refused import)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion import history
from companion.app import build
from companion.cli import main
from companion.table.hub import Hub
from companion.table.store import MemoryStore, SQLiteStore
from tests.test_history_stats import SET

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_STATIC_ENCODINGS", "gzip")
    monkeypatch.setenv("COMPANION_STATIC_WARM", "0")


def client(hub: Hub, address: str) -> TestClient:
    return TestClient(build(hub, "http://127.0.0.1:1"), client=(address, 5000))


def test_export_routes_are_for_the_host_computer_only(env: Any) -> None:
    store = MemoryStore()
    store.import_history(SET, [])
    hub = Hub(store)
    with client(hub, "192.168.1.50") as phone:
        for path in ("/history/export.csv", "/history/export.json"):
            assert phone.get(path).status_code == 404
        assert phone.post("/history/import", content=b"{}").status_code == 404
    with client(hub, "127.0.0.1") as host:
        r = host.get("/history/export.csv")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        assert "attachment" in r.headers["content-disposition"]
        assert r.text == history.export_csv(store.history(), store.aliases())
        r = host.get("/history/export.json")
        assert r.status_code == 200 and json.loads(r.text)["games"] == store.history()
        assert host.get("/history/export.xml").status_code == 404
        text = r.text
    other = Hub(MemoryStore())
    with client(other, "::1") as host:
        r = host.post("/history/import?lang=de", content=text.encode())
        assert r.status_code == 200 and r.json()["added"] == 5 and "5 Partien importiert" in r.json()["message"]
        r = host.post("/history/import?lang=fr", content=text.encode())
        assert r.json()["added"] == 0 and r.json()["already"] == 5
        r = host.post("/history/import?lang=fr", content=b"not json")
        assert r.status_code == 400 and r.json()["key"] == "hist.err.not_json" and "Rien n’a été importé" in r.json()["message"]
    assert len(other.store.history()) == 5


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "history", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "LANG": "C"})


def test_cli_export_and_import_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = tmp_path / "old", tmp_path / "new"
    s = SQLiteStore(src)
    s.import_history(SET, [])
    history.merge(s, "Annie", "Ann")
    s.close()
    out_json, out_csv = tmp_path / "h.json", tmp_path / "h.csv"
    assert main(["history", "export", str(out_json), "--data-dir", str(src)]) == 0
    assert main(["history", "export", str(out_csv), "--data-dir", str(src)]) == 0
    assert "5 games exported" in capsys.readouterr().out
    assert out_csv.read_text().startswith(",".join(history.CSV_COLUMNS))
    assert main(["history", "import", str(out_json), "--data-dir", str(dst), "--lang", "de"]) == 0
    assert "5 Partien importiert (0 schon vorhanden)" in capsys.readouterr().out
    assert main(["history", "import", str(out_json), "--data-dir", str(dst)]) == 0
    assert "0 games imported (5 already there)" in capsys.readouterr().out
    a, b = SQLiteStore(src), SQLiteStore(dst)
    assert a.history() == b.history() and len(b.aliases()) == 1


def test_cli_errors_are_one_line_exit_2_and_change_nothing(tmp_path: Path) -> None:
    d = tmp_path / "data"
    s = SQLiteStore(d)
    s.import_history(SET[:2], [])
    s.close()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else", "games": []}')
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "tabletop-companion-history", "version": 1, "games": [{')
    cases = [
        (["import", str(bad), "--data-dir", str(d)], "not a history export"),
        (["import", str(broken), "--data-dir", str(d), "--lang", "fr"], "pas du JSON"),
        (["import", str(tmp_path / "missing.json"), "--data-dir", str(d)], "cannot be read"),
        (["export", str(tmp_path / "x.txt"), "--data-dir", str(d)], "Cannot tell the format"),
        (["export", str(tmp_path / "x.csv"), "--data-dir", str(tmp_path / "nowhere")], "No history here"),
        (["export", str(tmp_path / "no" / "dir" / "x.csv"), "--data-dir", str(d)], "Cannot write"),
    ]
    for args, words in cases:
        r = run_cli(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "Traceback" not in r.stderr
    assert len(SQLiteStore(d).history()) == 2
    assert not (tmp_path / "nowhere").exists()


def test_the_command_catalog_is_complete() -> None:
    """The command's messages are entries of the platform catalog's history.po in every language."""
    import string

    from companion import i18n

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    keys = [k for k in i18n.CORE["en"] if k.startswith("hcli.")]
    assert len(keys) >= 4
    for lang in ("de", "fr"):
        for k in keys:
            assert fields(i18n.CORE[lang][k]) == fields(i18n.CORE["en"][k]), (lang, k)
