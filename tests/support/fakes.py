"""Test doubles shared by several test folders: a hand-moved clock, an in-memory journal."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class FakeClock:
    """A clock that moves only when the test moves it: set ``now`` or call ``advance``."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class MemoryJournal:
    """Keeps a game's records in memory, so a replay can be compared with the live state."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def append(self, record: dict[str, Any]) -> int:
        self.rows.append(record)
        return len(self.rows)

    def records(self) -> Iterator[dict[str, Any]]:
        return iter(list(self.rows))

    def new_game(self, meta: dict[str, Any]) -> int:
        self.rows = []
        return 1
