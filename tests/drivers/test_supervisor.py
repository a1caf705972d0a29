"""The reader supervisor: loss, backoff, recovery and status reports, on a virtual clock."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from bank.unit.io import CardId, CardLifted, CardTapped, Cue, Input, ReaderStatus
from drivers.base import CardAbsent, CardPresent, Presence, ReaderError, ReaderUnavailable
from drivers.deck import Deck
from drivers.sim import VirtualClock
from drivers.supervisor import ReaderService

A = "04A1B2C3D4E5F6"
DECK = Deck({A: CardId("prop", 16)})

#: one open's behaviour: raise this, return, emit these then block, emit these then raise,
#: or run for some virtual seconds and then fail
Step = BaseException | str | list[Presence] | tuple[list[Presence], BaseException] | float


class ScriptedBackend:
    """A backend that follows a script, one step per open, then blocks until stopped."""

    path = "scripted"

    def __init__(self, clock: VirtualClock, steps: list[Step]) -> None:
        self.clock = clock
        self.steps = list(steps)
        self.opens = 0
        self.wakes = 0
        self.cues: list[Cue] = []
        self._woken = threading.Event()

    def run(self, emit: Callable[[Presence], None], stop: threading.Event) -> None:
        self.opens += 1
        step: Step = self.steps.pop(0) if self.steps else []
        if isinstance(step, BaseException):
            raise step
        if step == "return":
            return
        if isinstance(step, tuple):
            for event in step[0]:
                emit(event)
            raise step[1]
        if isinstance(step, float):
            self.clock.advance(step)
            raise ReaderError("lost after a long healthy run")
        assert isinstance(step, list)
        for event in step:
            emit(event)
        while not stop.is_set():
            self._woken.wait()
            self._woken.clear()

    def wake(self) -> None:
        self.wakes += 1
        self._woken.set()

    def feedback(self, cue: Cue) -> None:
        if cue is Cue.ERROR:
            raise ReaderError("the buzzer fell off")
        self.cues.append(cue)


class Rig:
    def __init__(self, steps: list[Step], **kwargs: object) -> None:
        self.clock = VirtualClock(0.0)
        self.backend = ScriptedBackend(self.clock, steps)
        self.inbox: queue.Queue[Input] = queue.Queue()
        self.delays: list[float] = []
        self.service = ReaderService(
            self.backend,
            self.inbox.put,
            DECK,
            self.clock,
            waiter=self.wait,
            poll_s=0.005,
            **kwargs,  # type: ignore[arg-type]
        )

    def wait(self, delay: float) -> None:
        self.delays.append(delay)
        self.clock.advance(delay)

    def until(self, pred: Callable[[], bool], what: str, timeout: float = 3.0) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}")
            time.sleep(0.001)  # polling a real thread with a deadline, not waiting for time

    def inputs(self) -> list[Input]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def statuses(self, items: list[Input]) -> list[tuple[bool, str]]:
        return [(i.connected, i.detail) for i in items if isinstance(i, ReaderStatus)]


@contextmanager
def running(rig: Rig) -> Iterator[Rig]:
    rig.service.start()
    try:
        yield rig
    finally:
        assert rig.service.stop(timeout=3.0)


def test_backoff_grows_then_stays_at_five_seconds() -> None:
    rig = Rig([ReaderError("gone")] * 7)
    with running(rig):
        rig.until(lambda: rig.backend.opens >= 8, "eight opens")
    assert rig.delays == [0.2, 0.5, 1.0, 2.0, 5.0, 5.0, 5.0]


def test_backoff_resets_after_a_healthy_run() -> None:
    rig = Rig([ReaderError("gone"), ReaderError("gone"), 11.0, ReaderError("gone")])
    with running(rig):
        rig.until(lambda: rig.backend.opens >= 5, "five opens")
    assert rig.delays == [0.2, 0.5, 0.2, 0.5]


def test_a_short_healthy_run_does_not_reset_the_backoff() -> None:
    rig = Rig([ReaderError("gone"), 3.0, ReaderError("gone")])
    with running(rig):
        rig.until(lambda: rig.backend.opens >= 4, "four opens")
    assert rig.delays == [0.2, 0.5, 1.0]


def test_loss_is_reported_once_and_recovery_once() -> None:
    gone: list[Step] = [ReaderError("usb: no such device")] * 3
    rig = Rig([*gone, [CardAbsent(None)]])
    with running(rig):
        rig.until(lambda: rig.service.connected is True, "the reader back")
    assert rig.statuses(rig.inputs()) == [(False, "usb: no such device"), (True, "")]
    assert rig.service.opens == 4


def test_run_returning_means_the_reader_was_lost() -> None:
    rig = Rig(["return", [CardAbsent(None)]])
    with running(rig):
        rig.until(lambda: rig.service.connected is True, "the reopen")
    assert rig.statuses(rig.inputs()) == [(False, "the reader stopped answering"), (True, "")]


@pytest.mark.parametrize("rearm_s", [0.0, 0.4])
@pytest.mark.parametrize("outage", [0.2, 30.0])
def test_a_card_lying_on_a_reader_that_is_lost_and_reopened_is_one_tap(
    rearm_s: float, outage: float
) -> None:
    """However long the reader was away, the card that never left is not tapped twice."""
    rig = Rig(
        [([CardPresent(A)], ReaderError("gone")), [CardPresent(A)]],
        rearm_s=rearm_s,
        backoff=(outage,),
    )
    with running(rig):
        rig.until(lambda: rig.backend.opens == 2 and rig.service.connected is True, "reopen")
        rig.until(lambda: rig.service.debouncer.current == A, "the card seen again")
    items = rig.inputs()
    assert rig.statuses(items) == [(True, ""), (False, "gone"), (True, "")]
    assert len([i for i in items if isinstance(i, CardTapped)]) == 1
    assert not [i for i in items if isinstance(i, CardLifted)]


def test_a_card_taken_away_during_an_outage_is_lifted_when_the_reader_is_back() -> None:
    rig = Rig([([CardPresent(A)], ReaderError("gone")), [CardAbsent(None)]], rearm_s=0.4)
    with running(rig):
        rig.until(lambda: rig.service.connected is True and rig.backend.opens == 2, "reopen")
        rig.clock.advance(0.5)
        rig.until(lambda: rig.service.debouncer.current is None, "the lift")
    items = rig.inputs()
    assert [type(i).__name__ for i in items if not isinstance(i, ReaderStatus)] == [
        "CardTapped",
        "CardLifted",
    ]


def test_another_card_after_an_outage_is_a_new_tap() -> None:
    b = "04B0B0B0B0B0B0"
    rig = Rig([([CardPresent(A)], ReaderError("gone")), [CardPresent(b)]], rearm_s=0.4)
    with running(rig):
        rig.until(lambda: rig.service.debouncer.current == b, "the second card")
    taps = [i.uid for i in rig.inputs() if isinstance(i, CardTapped)]
    assert taps == [A, b]


def test_any_exception_is_a_loss_not_a_crash() -> None:
    rig = Rig([RuntimeError("driver bug"), [CardAbsent(None)]])
    with running(rig):
        rig.until(lambda: rig.service.connected is True, "the reopen")
    assert rig.statuses(rig.inputs()) == [(False, "driver bug"), (True, "")]


def test_unavailable_is_logged_once_and_retried_slowly(caplog: pytest.LogCaptureFixture) -> None:
    missing = ReaderUnavailable("pyscard is not installed: pip install 'ultibank[pcsc]'")
    rig = Rig([missing, missing, missing, [CardAbsent(None)]], unavailable_retry_s=30.0)
    with caplog.at_level(logging.DEBUG, logger="drivers.supervisor"), running(rig):
        rig.until(lambda: rig.service.connected is True, "the reader after install")
    assert rig.delays == [30.0, 30.0, 30.0]
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "ultibank[pcsc]" in errors[0].getMessage()
    assert rig.statuses(rig.inputs()) == [(False, str(missing)), (True, "")]


def test_a_quiet_backend_is_reported_connected_once_it_settles() -> None:
    rig = Rig([[]], settle_s=0.5)
    with running(rig):
        rig.until(lambda: rig.backend.opens == 1, "the open")
        assert rig.service.connected is None  # no event yet, and no time has passed
        rig.clock.advance(0.5)
        rig.until(lambda: rig.service.connected is True, "the settle report")
    assert rig.statuses(rig.inputs()) == [(True, "")]


def test_the_first_event_reports_connected_at_once() -> None:
    rig = Rig([[CardAbsent(None)]], settle_s=1000.0)
    with running(rig):
        assert rig.service.wait_connected(3.0)
    assert rig.statuses(rig.inputs()) == [(True, "")]


def test_wait_connected_times_out_while_the_reader_is_away() -> None:
    rig = Rig([ReaderError("gone")] * 100, backoff=(1000.0,))
    with running(rig):
        rig.until(lambda: rig.service.connected is False, "the loss")
        assert not rig.service.wait_connected(0.01)


def test_lifts_are_posted_by_the_service_once_rearm_passes() -> None:
    rig = Rig([[CardPresent(A), CardAbsent(A)]], rearm_s=0.4)
    with running(rig):
        rig.until(lambda: rig.service.debouncer.current == A, "the tap")
        rig.clock.advance(0.4)
        rig.until(lambda: rig.service.debouncer.current is None, "the lift")
    items = rig.inputs()
    assert [type(i) for i in items] == [ReaderStatus, CardTapped, CardLifted]
    assert items[2] == CardLifted(0.0, A, "scripted")


def test_stop_wakes_the_backend_and_joins() -> None:
    rig = Rig([[]])
    rig.service.start()
    rig.until(lambda: rig.backend.opens == 1, "the open")
    assert rig.service.stop(timeout=3.0)
    assert rig.backend.wakes >= 1


def test_stop_reports_a_backend_that_will_not_stop() -> None:
    class Stubborn(ScriptedBackend):
        def wake(self) -> None:
            raise OSError("cannot wake")

        def run(self, emit: Callable[[Presence], None], stop: threading.Event) -> None:
            self.opens += 1
            release.wait(5.0)

    release = threading.Event()
    clock = VirtualClock()
    backend = Stubborn(clock, [])
    service = ReaderService(backend, lambda i: None, DECK, clock)
    service.start()
    try:
        deadline = time.monotonic() + 3
        while backend.opens == 0 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert service.stop(timeout=0.05) is False
    finally:
        release.set()


def test_feedback_reaches_the_backend_and_its_failure_is_swallowed() -> None:
    rig = Rig([[]])
    rig.service.feedback(Cue.READ)
    rig.service.feedback(Cue.ERROR)  # the backend raises; the service only logs
    assert rig.backend.cues == [Cue.READ]


def test_a_service_starts_once() -> None:
    rig = Rig([[]])
    with running(rig), pytest.raises(RuntimeError, match="already started"):
        rig.service.start()


def test_backoff_must_not_be_empty() -> None:
    with pytest.raises(ValueError, match="backoff"):
        Rig([], backoff=())
