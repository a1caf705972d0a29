"""The reader supervisor: keeps one backend running, reopens it when lost, reports its state.

:class:`ReaderService` runs ``backend.run(emit, stop)`` in a thread and feeds what it emits
through the :class:`~drivers.debounce.Debouncer` into ``post`` (the daemon's inbox). Any
exception from ``run``, or ``run`` returning while the service is not stopping, means the
device was lost: the service posts ``ReaderStatus(connected=False, detail=...)`` once, tells
the debouncer the field is empty, backs off (0.2, 0.5, 1, 2, 5 s; back to the start after
10 s of healthy running) and reopens. ``ReaderUnavailable`` (a library or service missing) is
logged once with its message and retried slowly.

A backend is reported connected (``ReaderStatus(connected=True)``) when it emits its first
event after opening, or when ``run`` has lasted ``settle_s`` without failing. Backends should
therefore emit ``CardAbsent()`` as soon as their device is open (or the card they find on it),
so the unit learns at once that the reader is back.

Sleeping goes through an injectable *waiter* (default: the stop event's ``wait``) and time
through an injectable *clock*, so tests drive the backoff without waiting for it.

The debouncer's re-arm time is *rearm_s* when given (the ``reader.rearm_seconds`` setting),
else the one the backend declares for its stack (``backend.rearm_s``; see
:func:`drivers.debounce.rearm_for_poll`), else :data:`drivers.debounce.DEFAULT_REARM_S`.

Imports ``bank.unit.io``, ``drivers.base``, ``drivers.debounce``, ``drivers.deck`` and the
standard library only.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from types import TracebackType

from bank.unit.io import Cue, Input, ReaderStatus
from drivers.base import CardAbsent, Presence, ReaderBackend, ReaderUnavailable
from drivers.debounce import Debouncer, backend_rearm
from drivers.deck import Deck, record_cards

log = logging.getLogger(__name__)

DEFAULT_BACKOFF = (0.2, 0.5, 1.0, 2.0, 5.0)


class ReaderService:
    """One supervised reader: backend thread, debouncer, reconnection and status reports."""

    def __init__(
        self,
        backend: ReaderBackend,
        post: Callable[[Input], None],
        deck: Deck,
        clock: Callable[[], float] = time.monotonic,
        *,
        rearm_s: float | None = None,
        backoff: Sequence[float] = DEFAULT_BACKOFF,
        healthy_s: float = 10.0,
        unavailable_retry_s: float = 30.0,
        settle_s: float = 0.5,
        poll_s: float = 0.05,
        waiter: Callable[[float], object] | None = None,
        warn_unknown: bool = True,
    ) -> None:
        if not backoff:
            raise ValueError("backoff needs at least one delay")
        self.backend = backend
        self.reader = backend.path
        self._post = post
        self._clock = clock
        self._backoff = tuple(backoff)
        self._healthy_s = healthy_s
        self._unavailable_retry_s = unavailable_retry_s
        self._settle_s = settle_s
        self._poll_s = poll_s
        self._stop = threading.Event()
        self._waiter: Callable[[float], object] = waiter or self._stop.wait
        if rearm_s is None:
            rearm_s = backend_rearm(backend)  # the re-arm the reader's stack needs
        self.debouncer = Debouncer(
            deck, post, clock, reader=self.reader, rearm_s=rearm_s, warn_unknown=warn_unknown
        )
        self._lock = threading.Lock()
        self._connected: bool | None = None
        self._up = threading.Event()
        self._run_started: float | None = None
        self._announced = False
        self._threads: list[threading.Thread] = []
        #: how many times ``run`` was entered (opens attempted), for tests and diagnostics
        self.opens = 0

    # ---------------------------------------------------------------- public

    @property
    def connected(self) -> bool | None:
        """The last state reported (None before the first report)."""
        with self._lock:
            return self._connected

    def wait_connected(self, timeout: float = 5.0) -> bool:
        """Block until the reader is reported connected (True) or *timeout* passes (False)."""
        return self._up.wait(timeout)

    def start(self) -> None:
        """Start the backend and housekeeping threads."""
        if self._threads:
            raise RuntimeError("ReaderService already started")
        name = f"reader {self.reader}"
        self._threads = [
            threading.Thread(target=self._supervise, name=name, daemon=True),
            threading.Thread(target=self._housekeep, name=f"{name} timer", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 5.0) -> bool:
        """Stop the service and join its threads; False if the backend would not stop in time."""
        self._stop.set()
        try:
            self.backend.wake()
        except Exception as err:  # a failing wake must not keep the daemon from stopping
            log.debug("wake() of %s failed: %s", self.reader, err)
        deadline = time.monotonic() + timeout
        stopped = True
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                log.warning("%s did not stop within %.1f s", thread.name, timeout)
                stopped = False
        return stopped

    def feedback(self, cue: Cue) -> None:
        """Pass a cue to the reader's own buzzer/LED; a failure there is only logged."""
        try:
            self.backend.feedback(cue)
        except Exception as err:  # feedback is a courtesy; the read already happened
            log.debug("feedback %s on %s failed: %s", cue.value, self.reader, err)

    def __enter__(self) -> ReaderService:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ---------------------------------------------------------------- threads

    def _emit(self, event: Presence) -> None:
        self._announce()
        self.debouncer.feed(event)

    def _announce(self) -> None:
        with self._lock:
            if self._announced or self._run_started is None:
                return
            self._announced = True
            self._report_locked(True, "")

    def _report_locked(self, connected: bool, detail: str) -> None:
        # called with self._lock held, so a late "connected" cannot overtake a "lost"
        if self._connected is connected:
            return
        self._connected = connected
        if connected:
            log.info("reader %s connected", self.reader)
            self._up.set()
        else:
            self._up.clear()
        self._post(
            ReaderStatus(at=self._clock(), connected=connected, reader=self.reader, detail=detail)
        )

    def _supervise(self) -> None:
        # What a tag's record may name is read from every shipped edition file, once per
        # process (about 60 ms): read it now, not on the first card laid on the reader.
        record_cards()
        failures = 0
        last_unavailable = ""
        while not self._stop.is_set():
            started = self._clock()
            with self._lock:
                self._run_started = started
                self._announced = False
            self.opens += 1
            error: BaseException | None = None
            try:
                self.backend.run(self._emit, self._stop)
            except Exception as err:  # any failure of the device or its stack means "lost"
                error = err
            with self._lock:
                self._run_started = None
            if self._stop.is_set():
                break
            ran = self._clock() - started
            if ran >= self._healthy_s:
                failures = 0
            detail = str(error) if error is not None else "the reader stopped answering"
            self.debouncer.suspend()
            if isinstance(error, ReaderUnavailable):
                delay = self._unavailable_retry_s
                if detail != last_unavailable:
                    log.error("reader %s unavailable: %s", self.reader, detail)
                    last_unavailable = detail
            else:
                delay = self._backoff[min(failures, len(self._backoff) - 1)]
                failures += 1
                was = self.connected
                level = logging.WARNING if was is not False else logging.DEBUG
                log.log(
                    level, "reader %s lost: %s; reopening in %.1f s", self.reader, detail, delay
                )
                if error is not None and not isinstance(error, OSError):
                    log.debug("traceback of the loss", exc_info=error)
            with self._lock:
                self._report_locked(False, detail)
            self._waiter(delay)

    def _housekeep(self) -> None:
        while not self._stop.wait(self._poll_s):
            self.debouncer.poll()
            with self._lock:
                due = (
                    self._run_started is not None
                    and not self._announced
                    and self._clock() - self._run_started >= self._settle_s
                )
            if due:
                self._announce()
                # open and quiet for settle_s: the field is empty (a card lying there when the
                # reader was lost has gone)
                self.debouncer.feed(CardAbsent(None))
