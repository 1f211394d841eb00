"""benchmarks/shared_seats.py runs (a few uncovers and reveals): the pass-and-play speed figures of
docs/BENCHMARKS.md come from real taps on the cover and real reveals, each one checked."""

from __future__ import annotations

import math

from benchmarks import shared_seats as B


async def test_the_uncover_benchmark_taps_the_cover_and_times_the_seats_screen() -> None:
    r = await B.uncovers("sealed_vote", 3, memory=True, seed=3)
    assert r["uncovers"] == 3 and r["seats"] == "6 (3 shared)"
    assert 0 < r["drawn p50 ms"] <= r["drawn max ms"] and r["messages"] >= 1 and r["cpu p50 ms"] > 0


async def test_the_reveal_benchmark_compares_the_mixed_table_with_the_all_phone_one() -> None:
    rows = {r["table"]: r for r in await B.reveals(2, memory=True)}
    assert set(rows) == {"all phones", "mixed, phone locks last", "mixed, device locks last"}
    assert rows["all phones"]["ratio p95"] == 1 and rows["all phones"]["sessions"] == 7
    for case in ("mixed, phone locks last", "mixed, device locks last"):
        assert rows[case]["sessions"] == 5 and rows[case]["rounds"] == 2
        assert not math.isnan(rows[case]["ratio p95"]) and rows[case]["device p50 ms"] > 0
