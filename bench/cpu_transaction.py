"""Warm CPU of one durable transaction's Python, with its journal on tmpfs (an fsync costs
nothing there), part by part: what is left of a transaction once the disk is taken away.

Run: ``.venv/bin/python -m bench.cpu_transaction``. Prints µs per call (the best of five
repeats): the rules' ``decide``, the record's text, the whole ``Game.execute`` with a
journal, and a bare SQLite INSERT + commit on the same tmpfs for scale. No target and
nothing written to BENCHMARKS.md: a tool to compare two versions of the code, run in turn.
Imports the bank, ``bench.bench_engine`` and the standard library.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path

from bank.engine.errors import RuleError
from bank.engine.game import Game
from bank.engine.records import record_text
from bank.services.journal import Journal
from bench.bench_engine import EDITION, long_game

#: where an fsync costs nothing (a RAM file system), else the system's temporary directory
FAST_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else None


def _per_call(fn: Callable[[], object], calls: int) -> float:
    """The best of five repeats of *fn* (which makes *calls* calls), in µs per call."""
    return min(timeit.repeat(fn, number=1, repeat=5)) / calls * 1e6


def measure() -> dict[str, float]:
    commands = long_game(Game(EDITION), 24_000)
    game = Game(EDITION)
    for command in commands[:2000]:
        game.execute(command)
    state, rules = game.state, game.ruleset
    accepted = []
    for command in commands[2000:3000]:
        with contextlib.suppress(RuleError):
            accepted.append((command, rules.decide(state, command)))
    n = len(accepted)

    def decide() -> None:
        for command, _ in accepted:
            rules.decide(state, command)

    def text() -> None:
        for command, d in accepted:
            record_text(command, d.events, 5, EDITION.id, game.ruleset_name, d.outcome)

    out = {"decide": _per_call(decide, n), "record text": _per_call(text, n)}
    with tempfile.TemporaryDirectory(dir=FAST_DIR) as tmp:
        root = Path(tmp)
        journal = Journal(root / "journal.sqlite")
        live = Game(EDITION, journal=journal)
        turn = iter(commands)
        for _ in range(500):
            live.execute(next(turn))

        def executes() -> None:
            for _ in range(4000):
                live.execute(next(turn))

        out["Game.execute, journal on tmpfs"] = _per_call(executes, 4000)
        journal.close()
        conn = sqlite3.connect(root / "bare.sqlite", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
        payload = ("x" * 300,)

        def inserts() -> None:
            for _ in range(4000):
                conn.execute("INSERT INTO t (payload) VALUES (?)", payload)

        out["bare INSERT + commit, tmpfs"] = _per_call(inserts, 4000)
        conn.close()
    return out


def main() -> None:
    figures = measure()
    for name, us in figures.items():
        print(f"{name:32s} {us:7.2f} µs")
    print(f"(load average {os.getloadavg()[0]:.2f}; {FAST_DIR or tempfile.gettempdir()})")


if __name__ == "__main__":
    main()
