"""Benchmarks of the journal: durable appends against bare SQLite, and resuming 10,000 records.

The baseline is the cheapest durable write SQLite offers with the journal's settings: one
autocommitted ``INSERT`` of a ready-made JSON text of the same size, WAL mode,
``synchronous=FULL``. Both contestants run in the same process, in alternating blocks, on a
disk-backed scratch directory. Imports ``bank.services.journal``, ``bench.common`` and the standard
library.
"""

from __future__ import annotations

import gc
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bank.engine.snapshot import SNAPSHOT_EVERY
from bank.services.journal import _SCHEMA as JOURNAL_SCHEMA
from bank.services.journal import Journal
from bench.common import (
    Result,
    at_least,
    at_most,
    filesystem_of,
    interleaved,
    load_note,
    percentile,
    same_pragmas,
    scratch_dir,
    stats,
    time_each,
)

AREA = "journal"
RESUME_RECORDS = 10_000


def typical_record(i: int) -> dict[str, Any]:
    """A transaction as the game layer stores it: a rent payment with its command."""
    return {
        "v": 1,
        "edition": "ultime-fr",
        "command": {"card": 1 + i % 4, "number": 1 + i % 22, "name": "land"},
        "events": [
            {
                "payer": 1 + i % 4,
                "payee": 1 + (i + 1) % 4,
                "amount": 1_200_000,
                "reason": "rent",
                "kind": "money",
            },
        ],
        "undo_group": i + 1,
    }


def _bare_sqlite(path: Path, payload: str) -> tuple[sqlite3.Connection, Any]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)")

    def insert() -> None:
        conn.execute("INSERT INTO t (payload) VALUES (?)", (payload,))

    return conn, insert


def layout_sqlite(path: Path, payload: str) -> tuple[sqlite3.Connection, Callable[[], None]]:
    """A second baseline: the journal's own tables (a row of six columns, found by its
    primary key: one page a commit, as the bare baseline), the same pragmas, a ready-made row
    of *payload*: what SQLite alone costs for the journal's layout, so the rest of the
    difference is the journal's Python."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.executescript(JOURNAL_SCHEMA)
    conn.execute("INSERT INTO games (id, started, meta) VALUES (1, 0.0, '{}')")
    seq = iter(range(1, 10**9))
    chain = b"\x5a" * 16

    def insert() -> None:
        conn.execute(
            "INSERT INTO records (seq, game, at, version, payload, chain) VALUES (?,?,?,?,?,?)",
            (next(seq), 1, time.time(), 2, payload, chain),
        )

    return conn, insert


def _appends(root: Path, n: int, rounds: int) -> list[Result]:
    payload = json.dumps(typical_record(0), separators=(",", ":"))
    conn, bare_insert = _bare_sqlite(root / "bare.sqlite", payload)
    layout, layout_insert = layout_sqlite(root / "layout.sqlite", payload)
    journal = Journal(root / "journal.sqlite")
    journal.new_game({"edition": "ultime-fr"})
    fair = same_pragmas(journal._db(), conn)
    same_pragmas(journal._db(), layout)
    # ready-made records, as the bare arm's ready-made text: building them is the game
    # layer's work (timed in the engine area), not the journal's
    records = iter([typical_record(i) for i in range(n + 100)])

    def journal_append() -> None:
        journal.append(next(records))

    try:
        samples = interleaved(
            {"bare": bare_insert, "journal": journal_append, "layout": layout_insert},
            n,
            rounds,
            warmup=20,
        )
    finally:
        journal.close()
        conn.close()
        layout.close()
    bare, ours = stats(samples["bare"]), stats(samples["journal"])
    same = stats(samples["layout"])
    fs = filesystem_of(root)
    note = (
        f"{ours.n} appends each, {rounds} alternating blocks, {len(payload)}-byte records, {fs}; "
        f"baseline: bare SQLite INSERT + commit, {fair}: each commit on disk (fdatasync) "
        f"before it returns, as ours; {load_note()} at the end"
    )
    ms = 1000.0
    return [
        Result(
            AREA,
            "durable append throughput",
            ours.ops_per_s,
            "ops/s",
            target=at_least(0.95, ratio=True),
            baseline=bare.ops_per_s,
            ratio=ours.ops_per_s / bare.ops_per_s,
            note=note,
        ),
        Result(
            AREA,
            "durable append latency p50",
            ours.p50 * ms,
            "ms",
            baseline=bare.p50 * ms,
            ratio=ours.p50 / bare.p50,
        ),
        Result(
            AREA,
            "durable append latency p99",
            ours.p99 * ms,
            "ms",
            baseline=bare.p99 * ms,
            ratio=ours.p99 / bare.p99,
        ),
        Result(
            AREA,
            "durable append throughput against SQLite alone in the journal's table layout",
            ours.ops_per_s,
            "ops/s",
            baseline=same.ops_per_s,
            ratio=ours.ops_per_s / same.ops_per_s,
            note="the same INSERT + commit of a ready-made row into the journal's tables (a "
            "row of six columns, one page a commit as the bare baseline's), same settings; "
            f"p50 {same.p50 * ms:.3f} ms, p99 {same.p99 * ms:.3f} ms; what is left is the "
            "journal's Python (JSON, chained checksum, tip file)",
        ),
    ]


def _resume(root: Path, runs: int) -> list[Result]:
    path = root / "resume.sqlite"
    with Journal(path) as journal:
        journal.new_game({"edition": "ultime-fr"})
        for start in range(0, RESUME_RECORDS, 1000):
            journal.append_many([typical_record(i) for i in range(start, start + 1000)])

    def resume() -> None:
        with Journal(path) as j:
            got = sum(1 for _ in j.records())
        assert got == RESUME_RECORDS, got

    samples = time_each(resume, runs, warmup=1)
    size_kib = path.stat().st_size / 1024
    return [
        Result(
            AREA,
            f"read {RESUME_RECORDS:,} records p50 (open, verify, read them all: a history)",
            percentile(samples, 50),
            "s",
            target=at_most(0.5),
            note=f"{runs} runs, worst {max(samples):.3f} s, {size_kib:,.0f} KiB file, "
            "warm page cache",
        ),
    ]


def _resume_from_snapshot(root: Path, sizes: tuple[int, ...], runs: int) -> list[Result]:
    """Open a journal whose newest snapshot is ``SNAPSHOT_EVERY - 1`` records behind its end
    (a crash), read the snapshot and the records after it: what a game's resume reads."""
    tail = SNAPSHOT_EVERY - 1
    payload = "x" * 4096  # about a classic game's snapshot
    out = []
    for n in sizes:
        path = root / f"snap-{n}.sqlite"
        with Journal(path) as journal:
            journal.new_game({"edition": "ultime-fr"})
            for start in range(0, n - tail, 1000):
                stop = min(start + 1000, n - tail)
                journal.append_many([typical_record(i) for i in range(start, stop)])
            journal.save_snapshot(n - tail, "bench", payload)
            journal.append_many([typical_record(i) for i in range(n - tail, n)])
        samples = []
        for run in range(runs + 1):  # the first warms the page cache up
            gc.collect()
            t0 = time.perf_counter()
            journal = Journal(path)
            snap = journal.snapshot()
            assert snap is not None and snap.count == n - tail
            got = sum(1 for _ in journal.entries(after=snap.seq))
            took = time.perf_counter() - t0
            journal.close()
            assert got == tail, got
            if run:
                samples.append(took)
        s = stats(samples)
        size_kib = path.stat().st_size / 1024
        out += [
            Result(AREA, f"resume {n:,} records from a snapshot p50 (open, check the snapshot, "
                   f"verify and read the {tail} after it)", s.p50, "s", target=at_most(0.05),
                   note=f"{runs} runs, worst {s.worst:.4f} s, {size_kib:,.0f} KiB file, "
                   "warm page cache; the whole-file check left to the audit"),
        ]  # fmt: skip
    return out


def run(quick: bool) -> list[Result]:
    """Measure appends against bare SQLite, reading 10,000 records, and resuming 10,000 and
    100,000 records from a snapshot."""
    with scratch_dir() as root:
        results = _appends(root, n=300 if quick else 4000, rounds=2 if quick else 40)
        results += _resume(root, runs=3 if quick else 9)
        sizes = (2_000, 20_000) if quick else (10_000, 100_000)
        results += _resume_from_snapshot(root, sizes, runs=3 if quick else 9)
    return results
