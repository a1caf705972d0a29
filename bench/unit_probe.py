"""A whole unit behind a real reader, for the reader benchmarks: card laid -> the unit's screen.

``start_unit_reader(path, seen)`` runs what ``ultibank run --reader PATH`` runs (journal on
disk, game, unit, daemon loop, supervised and debounced reader) with a probe panel that notes
when the property screen appears, and reports into *seen* the same ``("present" | "absent",
uid, monotonic time)`` tuples the bare-library floors report. After each lift it presses X,
untimed, so the next tap starts from idle again. Imports the bank, ``drivers`` and the stdlib.
"""

from __future__ import annotations

import queue
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bank.app.runtime import Runtime
from bank.services.settings import load_settings
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Cue,
    Input,
    Screen,
)
from bench.common import Result, Stats, at_most
from drivers.registry import open_reader
from drivers.supervisor import ReaderService

Seen = tuple[str, str, float]
EVENT_TIMEOUT_S = 3.0


def wait_seen(seen: queue.Queue[Seen], kind: str, timeout: float = EVENT_TIMEOUT_S) -> float | None:
    """The time of the next *kind* report in *seen*, or None after *timeout*."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            got, _uid, at = seen.get(timeout=left)
        except queue.Empty:
            return None
        if got == kind:
            return at
    return None


def unit_added(area: str, start: str, unit: Stats, floor: Stats, note: str) -> list[Result]:
    """The unit's figures beside the bare stack's floor, and what it adds at p99 (< 5 ms)."""
    ms = 1000.0
    return [
        Result(area, f"{start} -> the unit's new screen p50", unit.p50 * ms, "ms",
               baseline=floor.p50 * ms, ratio=unit.p50 / floor.p50, note=note),
        Result(area, f"{start} -> the unit's new screen p99", unit.p99 * ms, "ms",
               baseline=floor.p99 * ms, ratio=unit.p99 / floor.p99),
        Result(area, "what the unit adds to the bare stack at p99",
               (unit.p99 - floor.p99) * ms, "ms", target=at_most(5.0),
               note="the unit's p99 minus the bare library floor's p99, measured alike"),
    ]  # fmt: skip


class _ScreenProbe:
    def __init__(self, seen: queue.Queue[Seen]) -> None:
        self.seen = seen
        self.uid = ""

    def start(self, post: Callable[[Input], None]) -> None:
        pass

    def show(self, screen: Screen) -> None:
        if screen.name == "property":
            self.seen.put(("present", self.uid, time.monotonic()))

    def play(self, cue: Cue) -> None:
        pass

    def close(self) -> None:
        pass


def start_unit_reader(path: str, seen: queue.Queue[Seen]) -> Callable[[], None]:
    """A running unit reading *path*; returns its stopper."""
    tmp = tempfile.TemporaryDirectory(prefix="ultibank-bench-unit-")
    rt = Runtime(load_settings(None, [f'game.data_dir="{Path(tmp.name)}"']))
    probe = _ScreenProbe(seen)
    rt.add_panel(probe)
    rt.start(control=False)
    for card in (1, 2):  # a game, so a property tap shows the property screen
        rt.daemon.post(CardTapped(time.monotonic(), CardId("bank", card)))
    rt.daemon.post(ButtonPressed(time.monotonic(), Button.OK))
    rt.daemon.post(ButtonReleased(time.monotonic(), Button.OK))
    rt.daemon.call(lambda: None)

    def post(inp: Input) -> None:
        if isinstance(inp, CardTapped):
            probe.uid = inp.uid
        rt.daemon.post(inp)
        if isinstance(inp, CardLifted):
            seen.put(("absent", inp.uid, time.monotonic()))
            rt.daemon.post(ButtonPressed(time.monotonic(), Button.CANCEL))
            rt.daemon.post(ButtonReleased(time.monotonic(), Button.CANCEL))

    service = ReaderService(open_reader(path), post, rt.deck, rt.clock)
    service.start()

    def stopper() -> None:
        service.stop()
        rt.stop()
        tmp.cleanup()

    return stopper
