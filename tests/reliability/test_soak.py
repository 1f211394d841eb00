"""The one-minute soak in CI: `python -m companion.soak` with 10 tables x 6 phones for 45 s of play
(+ the final checks): no error, every game's final state = a fresh load = the replay of its log,
RSS growth after warm-up within the bound. The 10-minute, 50-table run is a benchmark
(docs/RELIABILITY.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_one_minute_soak(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "companion.soak", "--tables", "10", "--phones", "6", "--minutes",
                        "0.75", "--data-dir", str(tmp_path / "data"), "--rss-bound-mb", "60"],
                       cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout[: r.stdout.rindex("}") + 1])
    assert out["errors"] == 0 and out["games_checked"] >= 10 and out["actions"] > 1000
    assert out["rss_growth_after_warmup_mb"] <= 60
    print("SOAK-REPORT", json.dumps(out))
