"""Helpers shared by the benchmark modules: timing, percentiles, results, the machine, the report.

A benchmark module ``bench/bench_<area>.py`` exposes ``run(quick: bool) -> list[Result]``;
``python -m bench`` discovers it, prints its results and rewrites that area's section of
``BENCHMARKS.md``. Imports only the standard library.
"""

from __future__ import annotations

import contextlib
import math
import os
import platform
import re
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

__all__ = [
    "DURABILITY_PRAGMAS",
    "Machine",
    "Result",
    "Stats",
    "Target",
    "at_least",
    "at_most",
    "filesystem_of",
    "format_value",
    "interleaved",
    "load_note",
    "machine",
    "percentile",
    "pragmas",
    "render_report",
    "same_pragmas",
    "scratch_dir",
    "stats",
    "time_each",
    "write_report",
]


# -- targets and results ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """A bound a figure must meet: on the value itself, or on its ratio to the baseline."""

    bound: float
    at_least: bool
    on_ratio: bool = False

    def met(self, value: float, ratio: float | None) -> bool | None:
        """Whether the figure meets the bound (None if it needs a ratio and has none)."""
        x = ratio if self.on_ratio else value
        if x is None:
            return None
        return x >= self.bound if self.at_least else x <= self.bound

    def describe(self, unit: str) -> str:
        """The bound as a reader sees it, e.g. ``≥ 0.8× baseline`` or ``≤ 0.5 s``."""
        sign = "≥" if self.at_least else "≤"
        if self.on_ratio:
            return f"{sign} {format_value(self.bound)}× baseline"
        return f"{sign} {format_value(self.bound)} {unit}".rstrip()


def at_least(bound: float, *, ratio: bool = False) -> Target:
    """A target met when the value (or its ratio to the baseline) is at least *bound*."""
    return Target(bound, at_least=True, on_ratio=ratio)


def at_most(bound: float, *, ratio: bool = False) -> Target:
    """A target met when the value (or its ratio to the baseline) is at most *bound*."""
    return Target(bound, at_least=False, on_ratio=ratio)


@dataclass(frozen=True, slots=True)
class Result:
    """One measured figure, with what it is compared to."""

    area: str
    name: str
    value: float
    unit: str
    target: Target | None = None
    baseline: float | None = None
    ratio: float | None = None
    note: str = ""

    @property
    def passed(self) -> bool | None:
        """True/False against the target; None when there is no target."""
        return None if self.target is None else self.target.met(self.value, self.ratio)


# -- timing -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stats:
    """Summary of per-operation durations, in seconds."""

    n: int
    total: float
    p50: float
    p99: float
    best: float
    worst: float

    @property
    def ops_per_s(self) -> float:
        """Operations per second over the whole run."""
        return self.n / self.total if self.total > 0 else math.inf


def percentile(samples: Sequence[float], p: float) -> float:
    """The *p*-th percentile (0..100) of *samples*, interpolated between ranks."""
    if not samples:
        raise ValueError("percentile of no samples")
    ordered = sorted(samples)
    pos = (len(ordered) - 1) * p / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def stats(samples: Sequence[float]) -> Stats:
    """Summarise per-operation durations (seconds)."""
    return Stats(
        n=len(samples),
        total=math.fsum(samples),
        p50=percentile(samples, 50),
        p99=percentile(samples, 99),
        best=min(samples),
        worst=max(samples),
    )


def time_each(fn: Callable[[], object], n: int, warmup: int = 0) -> list[float]:
    """Call *fn* ``warmup`` times untimed, then *n* times; return each call's duration (s)."""
    for _ in range(warmup):
        fn()
    clock = time.perf_counter_ns
    out = []
    for _ in range(n):
        start = clock()
        fn()
        out.append((clock() - start) / 1e9)
    return out


def interleaved(
    fns: Mapping[str, Callable[[], object]], n: int, rounds: int, warmup: int = 0
) -> dict[str, list[float]]:
    """Time each of *fns* *n* times in total, alternating in *rounds* blocks.

    Alternating blocks spread slow drifts (disk cache, CPU frequency, other load) over all
    the contestants instead of penalising whichever ran last.
    """
    out: dict[str, list[float]] = {name: [] for name in fns}
    per_round = max(1, n // rounds)
    for fn in fns.values():
        time_each(fn, 0, warmup)
    for _ in range(rounds):
        for name, fn in fns.items():
            out[name].extend(time_each(fn, per_round))
    return out


# -- fairness of an SQLite baseline ---------------------------------------------------------

#: the settings that decide what an SQLite commit costs and what it guarantees
DURABILITY_PRAGMAS = (
    "journal_mode",
    "synchronous",
    "page_size",
    "wal_autocheckpoint",
    "locking_mode",
    "cache_size",
    "mmap_size",
    "fullfsync",
)


def pragmas(conn: sqlite3.Connection) -> dict[str, object]:
    """The :data:`DURABILITY_PRAGMAS` of a connection, as it reports them."""
    return {name: conn.execute(f"PRAGMA {name}").fetchone()[0] for name in DURABILITY_PRAGMAS}


def same_pragmas(ours: sqlite3.Connection, baseline: sqlite3.Connection) -> str:
    """Check that a baseline commits as ours does (the same :data:`DURABILITY_PRAGMAS`);
    returns them in a few words for a note. Raises ValueError on a difference: a baseline
    with other settings would not be a fair one."""
    mine, theirs = pragmas(ours), pragmas(baseline)
    if mine != theirs:
        raise ValueError(f"unfair baseline: ours {mine}, the baseline's {theirs}")
    sync = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(int(str(mine["synchronous"])))
    return (
        f"same settings checked ({mine['journal_mode']}, synchronous={sync}, "
        f"{mine['page_size']}-byte pages, autocheckpoint {mine['wal_autocheckpoint']} pages)"
    )


# -- the machine --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Machine:
    """What the figures were measured on."""

    cpu: str
    cores: int
    python: str
    os: str

    def describe(self) -> str:
        """One line for the report."""
        return f"{self.cpu}, {self.cores} cores, Python {self.python}, {self.os}"


def _cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return platform.processor() or platform.machine() or "unknown CPU"
    # x86 says "model name"; Raspberry Pi kernels say "Model" (the board) and "Hardware"
    for key in ("model name", "Model", "Hardware", "cpu model"):
        match = re.search(rf"^{key}\s*:\s*(.+)$", text, re.MULTILINE)
        if match:
            return match.group(1).strip()
    return platform.machine() or "unknown CPU"


def machine() -> Machine:
    """Describe this machine: CPU model, cores, Python version, operating system."""
    return Machine(
        cpu=_cpu_model(),
        cores=os.cpu_count() or 1,
        python=platform.python_version(),
        os=f"{platform.system()} {platform.release()}",
    )


def load_note() -> str:
    """The machine's load now, for a note: a busy disk or CPU moves every figure, and a
    ratio to a baseline measured while other work shares the disk says little."""
    one, five, _ = os.getloadavg()
    cores = os.cpu_count() or 1
    note = f"load average {one:.1f} (5 min {five:.1f}) on {cores} cores"
    if min(one, five) > cores:
        note += " (busy with other work: this figure is no evidence for or against its target)"
    return note


def filesystem_of(path: str | os.PathLike[str]) -> str:
    """The file-system type holding *path* (``ext4``, ``tmpfs``...), or ``unknown``."""
    target = os.path.realpath(path)
    best, kind = "", "unknown"
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                parts = line.split()
                if len(parts) < 3:
                    continue
                mount = parts[1].replace("\\040", " ")
                inside = target == mount or target.startswith(mount.rstrip("/") + "/")
                if inside and len(mount) > len(best):
                    best, kind = mount, parts[2]
    except OSError:
        pass
    return kind


@contextlib.contextmanager
def scratch_dir(prefix: str = "ultibank-bench-") -> Iterator[Path]:
    """A temporary directory on a disk, so fsync costs what it costs for real.

    ``$ULTIBANK_BENCH_DIR`` chooses the parent; otherwise the system temporary directory,
    unless it lives in memory (tmpfs), in which case ``~/.cache`` is used.
    """
    parent = os.environ.get("ULTIBANK_BENCH_DIR")
    if parent is None and filesystem_of(tempfile.gettempdir()) in ("tmpfs", "ramfs"):
        parent = str(Path.home() / ".cache")
    if parent is not None:
        Path(parent).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=prefix, dir=parent) as name:
        yield Path(name)


# -- the report ---------------------------------------------------------------------------

_SECTION = re.compile(r"<!-- bench:area (\S+) -->\n.*?<!-- bench:end \1 -->\n", re.DOTALL)

_HEADER = """\
# Benchmarks

Generated by `python -m bench` (the modules are in `bench/`). Each section says when, on
which machine and with which command it was measured; `python -m bench <area>` refreshes one
section and keeps the others. Targets come from the project's issues; a failed target is a
finding, not a test failure.

"""


def format_value(value: float) -> str:
    """A figure with as many digits as it deserves."""
    if math.isnan(value):
        return "–"
    if math.isinf(value):
        return "∞"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 0.01 or magnitude == 0:
        return f"{value:.3g}"
    return f"{value:.2e}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_section(
    area: str, results: Sequence[Result], machine_line: str, when: datetime, command: str
) -> str:
    """One area's section of the report, between markers the next run can find."""
    lines = [
        f"<!-- bench:area {area} -->",
        f"## {area}",
        "",
        f"Measured {when.strftime('%Y-%m-%d %H:%M')} UTC on {machine_line}, with `{command}`.",
        "",
        "| Measure | Value | Baseline | Ratio | Target | Result | Note |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    for r in results:
        value = f"{format_value(r.value)} {r.unit}".rstrip()
        baseline = "" if r.baseline is None else f"{format_value(r.baseline)} {r.unit}".rstrip()
        ratio = "" if r.ratio is None else f"{format_value(r.ratio)}×"
        target = "" if r.target is None else r.target.describe(r.unit)
        verdict = {None: "", True: "pass", False: "**FAIL**"}[r.passed]
        cells = (r.name, value, baseline, ratio, target, verdict, r.note)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines += ["", f"<!-- bench:end {area} -->", ""]
    return "\n".join(lines)


def render_report(existing: str, sections: Mapping[str, str]) -> str:
    """The whole report: *sections* replace their areas; other areas of *existing* stay."""
    kept = {m.group(1): m.group(0) for m in _SECTION.finditer(existing)}
    kept.update(sections)
    body = "\n".join(kept[area] for area in sorted(kept))
    return _HEADER + body


def write_report(
    path: Path,
    results: Sequence[Result],
    *,
    command: str = "python -m bench",
    when: datetime | None = None,
    machine_line: str | None = None,
) -> None:
    """Rewrite *path* with a section per area in *results*, keeping the other areas' sections."""
    when = when or datetime.now(UTC)
    machine_line = machine_line or machine().describe()
    by_area: dict[str, list[Result]] = {}
    for r in results:
        by_area.setdefault(r.area, []).append(r)
    sections = {
        area: render_section(area, rs, machine_line, when, command) for area, rs in by_area.items()
    }
    existing = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(render_report(existing, sections), encoding="utf-8")
