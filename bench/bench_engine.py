"""Benchmarks of the bank core: the engine in memory, durable commands against bare SQLite,
resuming a game of 10,000 transactions, and SIGKILL crash-and-resume at random moments.

The durable baseline is a bare SQLite ``INSERT`` + commit of a record of the same size with
the journal's settings (WAL, ``synchronous=FULL``), measured in the same run, alternating
blocks. Imports the bank, ``bench.common``, ``tests.support.crash_game`` and the stdlib.
"""

from __future__ import annotations

import contextlib
import gc
import json
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

from bank.engine.commands import Command, Land, NewGame
from bank.engine.errors import RuleError
from bank.engine.events import apply
from bank.engine.game import Game
from bank.engine.records import record_text
from bank.engine.snapshot import SNAPSHOT_EVERY
from bank.rulesets.ultime.commands import PassGo
from bank.services.journal import Journal
from bench.bench_journal import layout_sqlite
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
from board_assets import Edition, load_edition
from tests.support.crash_game import crash_once, expected_states, next_command

AREA = "engine"
EDITION = load_edition("ultime-fr")


def _stream_runner(game: Game, seed: int) -> Callable[[], None]:
    """One random command per call (mostly legal); a finished game is reset."""
    rnd = random.Random(seed)

    def step() -> None:
        if game.state.game_over or not game.state.started:
            game.reset()
            game.execute(NewGame((1, 2, 3, 4)))
            return
        with contextlib.suppress(RuleError):
            game.execute(next_command(rnd, game.state))

    return step


def _in_memory(n: int) -> list[Result]:
    game = Game(EDITION)
    samples = time_each(_stream_runner(game, 3), n, warmup=200)
    s = stats(samples)
    return [
        Result(
            AREA,
            "engine throughput in memory (random legal+illegal commands)",
            s.ops_per_s,
            "commands/s",
            note=f"{n} commands, p50 {s.p50 * 1e6:.1f} µs, p99 {s.p99 * 1e6:.1f} µs",
        )
    ]


def _durable(root: Path, n: int, rounds: int) -> list[Result]:
    # The same accepted transactions (purchases, rents, raises, salaries) a real game makes,
    # found in memory first so that only committed transactions are timed.
    commands = iter(long_game(Game(EDITION), n + 30))
    journal = Journal(root / "journal.sqlite")
    game = Game(EDITION, journal=journal)

    def one_transaction() -> None:
        game.execute(next(commands))

    record = {
        "v": 1,
        "edition": "ultime-fr",
        "command": Land(2, 16).to_dict(),
        "events": [
            {"payer": 2, "payee": 1, "amount": 200, "reason": "rent", "kind": "money"},
            {"number": 16, "old_owner": 1, "new_owner": 1, "old_level": 1, "new_level": 2,
             "kind": "property"},
        ],
        "undo_group": 12,
    }  # fmt: skip
    payload = json.dumps(record, separators=(",", ":"))
    conn = sqlite3.connect(root / "bare.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)")

    def bare() -> None:
        conn.execute("INSERT INTO t (payload) VALUES (?)", (payload,))

    layout, same_layout = layout_sqlite(root / "layout.sqlite", payload)
    fair = same_pragmas(journal._db(), conn)
    same_pragmas(journal._db(), layout)
    rules_work, warm = _rules_work()

    def bare_after_python() -> None:
        rules_work()
        bare()

    try:
        samples = interleaved({"bare": bare, "game": one_transaction, "layout": same_layout,
                               "python": bare_after_python}, n, rounds, warmup=20)  # fmt: skip
    finally:
        journal.close()
        conn.close()
        layout.close()
    b, g, same = stats(samples["bare"]), stats(samples["game"]), stats(samples["layout"])
    py = stats(samples["python"])
    fs = filesystem_of(root)
    return [
        Result(
            AREA,
            "durable transactions (execute = decide + commit + apply)",
            g.ops_per_s,
            "tx/s",
            target=at_least(0.9, ratio=True),
            baseline=b.ops_per_s,
            ratio=g.ops_per_s / b.ops_per_s,
            note=f"{g.n} each, {rounds} alternating blocks, {fs}; baseline: bare SQLite "
            f"INSERT + commit of a {len(payload)}-byte record, {fair}: each commit on disk "
            f"(fdatasync) before it returns, as ours; {load_note()} at the end",
        ),
        Result(AREA, "durable transaction p50", g.p50 * 1e3, "ms", baseline=b.p50 * 1e3,
               ratio=g.p50 / b.p50),
        Result(AREA, "durable transaction p99", g.p99 * 1e3, "ms", baseline=b.p99 * 1e3,
               ratio=g.p99 / b.p99, target=at_most(1 / 0.9, ratio=True)),
        Result(AREA, "durable transactions against SQLite alone in the journal's table layout",
               g.ops_per_s, "tx/s", baseline=same.ops_per_s, ratio=g.ops_per_s / same.ops_per_s,
               note="the same INSERT + commit of a ready-made row into the journal's tables (a "
               "row of six columns, one page a commit), same settings; p50 "
               f"{same.p50 * 1e3:.3f} ms, p99 {same.p99 * 1e3:.3f} ms; what is left is Python: "
               "deciding, the record, its JSON, the chained checksum, the tip file, applying"),
        Result(AREA, "what Python costs between two commits here: the bare commit after "
               f"{warm * 1e6:.1f} µs of the rules' Python (warm)", py.ops_per_s, "tx/s",
               baseline=b.ops_per_s, ratio=py.ops_per_s / b.ops_per_s,
               note=f"p50 {py.p50 * 1e3:.3f} ms against {b.p50 * 1e3:.3f} ms: "
               f"{(py.p50 - b.p50) * 1e6:.1f} µs more, {(py.p50 - b.p50) / warm:.1f}× the "
               f"work's warm time (mean {(1 / py.ops_per_s - 1 / b.ops_per_s) * 1e6:.1f} µs "
               f"more); p99 {py.p99 * 1e3:.3f} ms. A calibration, no target: the same rules "
               "deciding the same landings on one state, then the bare INSERT + commit, in the "
               "same alternating blocks. Code that runs between two commits pays for the cold "
               "caches the fsync's sleep leaves, so each µs of warm Python costs more here"),
    ]  # fmt: skip


def _rules_work() -> tuple[Callable[[], None], float]:
    """A fixed piece of the rules' Python and its warm time (s): ``decide`` for a cycle of
    accepted landings and salaries on one mid-game state, nothing stored."""
    game = Game(EDITION)
    commands = long_game(game, 400)
    state = game.state
    decide = game.ruleset.decide
    fine = []
    for command in commands[1:]:
        with contextlib.suppress(RuleError):
            decide(state, command)
            fine.append(command)
    turn = iter(fine * (1 + 200_000 // len(fine)))

    def work() -> None:
        decide(state, next(turn))

    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(2000):
            work()
        times.append((time.perf_counter() - t0) / 2000)
    return work, min(times)


def _stages(root: Path, n: int) -> list[Result]:
    """Where one durable transaction's time goes: each stage of ``Game.execute`` timed on
    its own over the same accepted commands (median per stage), beside the bare commit."""
    from bank.services import journal as journal_module  # the stages of an append, timed one by one

    commands = long_game(Game(EDITION), n + 1)[1:]
    game = Game(EDITION)
    game.execute(NewGame((1, 2, 3, 4)))
    journal = Journal(root / "stages.sqlite")
    journal.new_game({"edition": EDITION.id})
    conn = journal._db()
    names = ("decide", "record text", "chain", "SQLite commit", "tip file", "apply")
    samples: dict[str, list[float]] = {name: [] for name in names}
    clock = time.perf_counter_ns
    head = b"\0" * 16
    sql = "INSERT INTO records (seq, game, at, version, payload, chain) VALUES (?,?,?,?,?,?)"
    seq = 10**9  # far above the journal's own numbers
    for command in commands:
        t0 = clock()
        decision = game.ruleset.decide(game.state, command)
        t1 = clock()
        # as Game.execute writes it: the record's JSON text straight from the transaction
        payload = record_text(command, decision.events, game.seq + 1, EDITION.id,
                              game.ruleset_name, decision.outcome)  # fmt: skip
        t3 = clock()
        seq += 1
        head = journal_module._link(head, seq, 1, 1.5, 2, payload)
        t4 = clock()
        conn.execute(sql, (seq, 1, 1.5, 2, payload, head))
        t5 = clock()
        journal._write_tip()
        t6 = clock()
        after = decision.state  # as Game does: the state the ruleset worked out
        game.state = apply(game.state, decision.events) if after is None else after
        t7 = clock()
        for name, a, b in zip(names, (t0, t1, t3, t4, t5, t6), (t1, t3, t4, t5, t6, t7),
                              strict=True):  # fmt: skip
            samples[name].append((b - a) / 1e9)
    journal.close()
    us = {name: percentile(values, 50) * 1e6 for name, values in samples.items()}
    python = sum(v for k, v in us.items() if k != "SQLite commit")
    parts = ", ".join(f"{k} {v:.1f}" for k, v in us.items())
    return [
        Result(AREA, "durable transaction, its stages p50 (Python, SQLite excluded)", python,
               "µs", note=f"{n} transactions, each stage timed alone, µs p50: {parts}"),
    ]  # fmt: skip


def long_game(game: Game, n: int) -> list[Command]:
    """*n* transactions of one game that never ends: purchases, rents, raises, salaries.

    Returns the accepted commands, for a replay.
    """
    rnd = random.Random(11)
    history: list[Command] = [NewGame((1, 2, 3, 4))]
    game.execute(history[0])
    while game.seq < n:
        card = rnd.randint(1, 4)
        player = game.state.player(card)
        assert player is not None
        cmd: Command = Land(card, rnd.randint(1, 22)) if player.balance > 2000 else PassGo(card)
        try:
            game.execute(cmd)
        except RuleError:
            continue
        history.append(cmd)
    return history


class Collector:
    """A journal that only keeps the records: a long game is played in memory, then stored
    in large commits (a 100,000-transaction game in seconds, not minutes of fsyncs)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def append(self, record: dict[str, Any]) -> int:
        self.rows.append(record)
        return len(self.rows)

    def records(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def new_game(self, meta: dict[str, Any]) -> int:
        self.rows = []
        return 1


def store_after_crash(path: Path, edition: Edition, rows: list[dict[str, Any]]) -> int:
    """Store *rows* (a game's records) in the journal *path* as a game that crashed: its
    newest snapshot as far behind the end as snapshots go (``SNAPSHOT_EVERY - 1`` records),
    so a resume replays the longest tail it can meet. Returns the tail's length."""
    tail = SNAPSHOT_EVERY - 1
    with Journal(path) as journal:
        if journal.current_game is None:
            journal.new_game({"edition": edition.id})
        for start in range(0, len(rows) - tail, 5000):
            journal.append_many(rows[start : min(start + 5000, len(rows) - tail)])
        Game(edition, journal=journal)  # replayed whole once: writes the snapshot
        journal.before_close.clear()
        journal.append_many(rows[len(rows) - tail :])
    return tail


def resume_results(
    label: str,
    edition: Edition,
    paths: dict[int, Path],
    runs: int,
    note: str = "",
    area: str = AREA,
) -> list[Result]:
    """Time ``Journal`` + ``Game`` on each journal of *paths* (transactions -> file); the rows
    go to *area*'s section (the area whose run measures them: a run replaces its sections)."""
    out = []
    for count, path in sorted(paths.items()):
        samples = []
        for run in range(runs + 1):  # the first warms the page cache up
            gc.collect()  # the garbage of the bench's earlier steps is not the resume's
            t0 = time.perf_counter()
            journal = Journal(path)
            game = Game(edition, journal=journal)
            took = time.perf_counter() - t0
            journal.before_close.clear()  # keep the crash's long tail for the next run
            journal.close()
            assert game.seq == count, (game.seq, count)
            if run:
                samples.append(took)
        s = stats(samples)
        size = path.stat().st_size // 1024
        out += [
            Result(area, f"resume {label} of {count:,} transactions after a crash p50",
                   s.p50, "s", target=at_most(0.05),
                   note=f"{runs} runs of Journal + Game (the close not timed): open, newest "
                   f"snapshot, a {SNAPSHOT_EVERY - 1}-transaction tail (the longest); "
                   f"{size:,} KiB; {note}"),
            Result(area, f"resume {label} of {count:,} transactions after a crash p99",
                   s.p99, "s", target=at_most(0.05),
                   note=f"worst {s.worst:.3f} s; {load_note()}"),
        ]  # fmt: skip
    return out


def _resume(root: Path, sizes: tuple[int, ...], runs: int) -> list[Result]:
    paths = {}
    for n in sizes:
        game = Game(EDITION, journal=Collector())
        long_game(game, n)
        assert not game.state.game_over
        path = root / f"resume-{n}.sqlite"
        store_after_crash(path, EDITION, cast(Collector, game.journal).rows)
        paths[game.seq] = path
    return resume_results("an Ultime game", EDITION, paths, runs)


def _crashes(root: Path, kills: int) -> list[Result]:
    seed, n = 21, 4000
    states = expected_states(seed, n)
    rnd = random.Random(2)
    lost = mismatched = 0
    resumes: list[float] = []
    t0 = time.perf_counter()
    for i in range(kills):
        r = crash_once(root / f"crash{i}", seed, n, rnd.uniform(0.0, 0.5), states)
        lost += r.resumed < r.confirmed
        mismatched += not r.state_ok
        resumes.append(r.resume_seconds)
    return [
        Result(
            AREA,
            f"SIGKILL at random moments: confirmed transactions lost over {kills} kills",
            float(lost),
            "",
            target=at_most(0),
            note=f"state ≠ replayed prefix: {mismatched}; resume p50 "
            f"{percentile(resumes, 50) * 1e3:.1f} ms; {time.perf_counter() - t0:.0f} s in all",
        )
    ]


def run(quick: bool) -> list[Result]:
    """Engine in memory, durable vs bare SQLite, resume of 10,000 and 100,000 transactions,
    crashes."""
    results = _in_memory(2000 if quick else 20000)
    with scratch_dir() as root:
        results += _durable(root, n=300 if quick else 3000, rounds=2 if quick else 30)
        results += _stages(root, n=300 if quick else 3000)
        sizes = (2000, 20_000) if quick else (10_000, 100_000)
        results += _resume(root, sizes, runs=3 if quick else 15)
        results += _crashes(root, kills=10 if quick else 120)
    return results
