"""Fixtures for the panel tests: a serial cable (socat pty pair), the firmware, a clock."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.unit.io import Icon, Input, PanelStatus, Screen
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


#: host timings that keep the link tests short
FAST: dict[str, Any] = {
    "ack_timeout": 0.1,
    "ping_interval": 0.3,
    "backoff_start": 0.05,
    "backoff_max": 0.2,
}

#: an Ultime property screen with most fields
BALANCE = Screen(
    "property",
    lines=("Rue de la Paix", "Loyer 250"),
    amount=250,
    number=22,
    token="boat",
    level=3,
    icons=frozenset({Icon.AUCTION}),
    countdown=8,
)

#: a classic deed screen with every field, classic icons (bits 10-15) and the longest token
#: id of the classic editions
DEED = Screen(
    "deed",
    lines=("12 Av. Mozart", "chien loyer 14 €"),
    amount=14,
    number=12,
    token="wheelbarrow",
    level=5,
    icons=frozenset({Icon.MORTGAGE, Icon.CARD, Icon.GO}),
    colour="#d93a96",
)


class Inbox:
    """Collects what a panel posts (thread-safe enough: list.append is atomic)."""

    def __init__(self) -> None:
        self.items: list[Input] = []

    def __call__(self, item: Input) -> None:
        self.items.append(item)

    def of(self, kind: type) -> list[Input]:
        return [i for i in self.items if isinstance(i, kind)]


def connected(inbox: Inbox) -> bool:
    """Whether the last link status a panel posted says connected."""
    statuses = inbox.of(PanelStatus)
    return bool(statuses) and statuses[-1].connected  # type: ignore[union-attr]


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
