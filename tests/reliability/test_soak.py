"""The soak in CI: `python -m benchmarks.soak` with 10 tables x 6 phones and a fixed amount of work –
4,000 acknowledged actions (games ended after 400 actions, ≈ 20 games), however long that takes –
so its verdict is the same on a fast and a slow machine: no error, every game's final state = a
fresh load = the replay of its log, RSS growth after the first 10 % of the work within 3 MB per
table in play, and at the end no table left in memory and the live Python objects back within
2 MB of the start (the history is in SQLite only). ≈ 50 s here. The 50-table run is a benchmark
(docs/RELIABILITY.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLES = 10


@pytest.mark.slow
def test_soak_fixed_work(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "benchmarks.soak", "--tables", str(TABLES), "--phones", "6",
                        "--actions", "4000", "--game-actions", "400", "--data-dir", str(tmp_path / "data"),
                        "--rss-per-table-mb", "3", "--end-traced-mb", "2"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout[: r.stdout.rindex("}") + 1])
    assert out["errors"] == 0 and not out["capped"]
    assert 4000 <= out["actions"] < 4000 + 100 and out["games_checked"] >= TABLES  # the work, not the clock
    assert out["rss_bound_mb"] == 3 * TABLES and out["rss_growth_after_warmup_mb"] <= out["rss_bound_mb"]
    assert out["tables_loaded_end"] == 0 and out["unloads"] == out["games_checked"]
    assert out["tables_loaded_max"] <= 2 * TABLES  # tables in play (+ ended ones within their grace second)
    assert out["traced_growth_mb"] <= 2
    print("SOAK-REPORT", json.dumps(out))
