"""Fixtures for the panel tests: a serial cable (socat pty pair), the firmware, a clock."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bank.unit.io import Input
from firmware_sim.panel_firmware import PanelFirmware
from tests.support.fakes import FakeClock
from tests.support.pty_pair import PtyPair, make_pair


def wait_until(predicate: Callable[[], object], timeout: float = 5.0, what: str = "") -> None:
    """Poll *predicate* until true; fail the test at the deadline (real threads are involved)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what or predicate}")
        time.sleep(0.002)


class Inbox:
    """Collects what a panel posts (thread-safe enough: list.append is atomic)."""

    def __init__(self) -> None:
        self.items: list[Input] = []

    def __call__(self, item: Input) -> None:
        self.items.append(item)

    def of(self, kind: type) -> list[Input]:
        return [i for i in self.items if isinstance(i, kind)]


@pytest.fixture
def cable(tmp_path: Path) -> Iterator[PtyPair]:
    pair = make_pair(tmp_path)
    yield pair
    pair.close()


@pytest.fixture
def firmware(cable: PtyPair) -> Iterator[PanelFirmware]:
    fw = PanelFirmware(cable.panel_path, ack_timeout=0.05)
    fw.start()
    yield fw
    fw.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()
