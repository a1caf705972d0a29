"""A reader backend's ``run`` on its own thread, with what it emitted in a queue (for tests)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

import pytest

from drivers.base import CardPresent, Presence, ReaderBackend


class Running:
    """Runs *backend* until :meth:`close`; *emit* replaces the queue as the sink if given."""

    def __init__(
        self,
        backend: ReaderBackend,
        emit: Callable[[Presence], None] | None = None,
        *,
        timeout: float = 3.0,
    ) -> None:
        self.backend = backend
        self.timeout = timeout
        self.events: queue.Queue[Presence] = queue.Queue()
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self._emit = emit or self.events.put
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.backend.run(self._emit, self.stop)
        except BaseException as err:
            self.errors.append(err)

    def next(self, timeout: float | None = None) -> Presence:
        """The next presence event; fails the test if none comes in time."""
        wait = self.timeout if timeout is None else timeout
        try:
            return self.events.get(timeout=wait)
        except queue.Empty:
            pytest.fail(f"no presence event within {wait} s (errors: {self.errors})")

    def next_present(self, timeout: float | None = None) -> CardPresent:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            event = self.next(max(0.01, deadline - time.monotonic()))
            if isinstance(event, CardPresent):
                return event

    def during(self, seconds: float) -> list[Presence]:
        """Everything emitted in the next *seconds*."""
        seen: list[Presence] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                seen.append(self.events.get(timeout=left))
            except queue.Empty:
                break
        return seen

    def close(self) -> None:
        self.stop.set()
        self.backend.wake()
        self.thread.join(timeout=3.0)
        assert not self.thread.is_alive(), "run() did not return after stop + wake"
