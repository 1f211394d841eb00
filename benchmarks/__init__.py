"""Benchmarks for issue 7 (see docs/BENCHMARKS.md). Run one with `python -m benchmarks.<name>`, all with `make bench`."""
