"""ultibank's benchmarks: ``python -m bench [--quick] [area ...]`` writes ``BENCHMARKS.md``.

Each ``bench/bench_<area>.py`` exposes ``run(quick: bool) -> list[bench.common.Result]``.
Speed is measured here, never asserted in the tests.
"""
