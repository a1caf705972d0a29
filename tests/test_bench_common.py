"""Tests of bench.common: percentiles, targets, and BENCHMARKS.md keeping other areas' sections."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.__main__ import discover
from bench.common import Result, at_least, at_most, machine, percentile, stats, write_report

WHEN = datetime(2026, 11, 29, 16, 0, tzinfo=UTC)


def test_percentiles_interpolate_between_ranks():
    samples = [float(x) for x in range(1, 101)]
    assert percentile(samples, 50) == pytest.approx(50.5)
    assert percentile(samples, 99) == pytest.approx(99.01)
    assert percentile([3.0], 99) == 3.0
    s = stats([0.001] * 10)
    assert s.ops_per_s == pytest.approx(1000)
    with pytest.raises(ValueError):
        percentile([], 50)


def test_targets_on_values_and_on_ratios():
    fast = Result("a", "x", 0.3, "s", target=at_most(0.5))
    slow = Result("a", "x", 0.7, "s", target=at_most(0.5))
    good = Result("a", "y", 90, "ops/s", target=at_least(0.8, ratio=True), baseline=100, ratio=0.9)
    bad = Result("a", "y", 70, "ops/s", target=at_least(0.8, ratio=True), baseline=100, ratio=0.7)
    assert (fast.passed, slow.passed, good.passed, bad.passed) == (True, False, True, False)
    assert Result("a", "z", 1, "s").passed is None
    assert at_least(0.8, ratio=True).describe("ops/s") == "≥ 0.8× baseline"


def test_report_replaces_the_areas_run_and_keeps_the_others(tmp_path: Path):
    out = tmp_path / "BENCHMARKS.md"
    write_report(out, [Result("journal", "append", 100, "ops/s")], when=WHEN, machine_line="m1")
    write_report(
        out,
        [Result("panel", "frame", 2.5, "ms", target=at_most(2.0))],
        when=WHEN,
        machine_line="m2",
        command="python -m bench panel",
    )
    write_report(out, [Result("journal", "append", 200, "ops/s")], when=WHEN, machine_line="m3")
    text = out.read_text()
    assert text.count("## journal") == 1 and text.count("## panel") == 1
    assert "| append | 200 ops/s |" in text and "100 ops/s" not in text
    assert "on m2, with `python -m bench panel`" in text and "on m3" in text
    assert "**FAIL**" in text  # 2.5 ms against a 2 ms target
    assert text.index("## journal") < text.index("## panel")


def test_discovery_finds_the_journal_benchmark_and_machine_is_described():
    assert discover()["journal"] == "bench.bench_journal"
    m = machine()
    assert m.cores >= 1 and m.python.count(".") == 2 and m.cpu
