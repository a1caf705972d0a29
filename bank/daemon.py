"""The daemon: one loop that owns the unit (and through it the game) and is its only mutator.

Readers, panels and the control socket post inputs to one inbox; the loop feeds them to the
unit's behaviour, which executes commands through the game (each committed to the journal
before it is confirmed), and hands the resulting screens and cues to every panel, to the
readers' own feedback (buzzer/LED) and to listeners (the control socket, the web view).
Time is an input too: the loop posts a :class:`Tick` when the unit's next deadline comes.

Imports the bank and the unit's I/O types; backends arrive as objects that follow the
protocols of ``drivers.base`` (the command line wires them).
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bank.unit.io import Cue, Input, Output, PlayCue, Screen, ShowScreen, Tick

log = logging.getLogger("ultibank.daemon")


class UnitLike(Protocol):
    def handle(self, inp: Input) -> list[Output]: ...

    def next_deadline(self) -> float | None: ...


class PanelLike(Protocol):
    def show(self, screen: Screen) -> None: ...

    def play(self, cue: Cue) -> None: ...


class FeedbackLike(Protocol):
    def feedback(self, cue: Cue) -> None: ...


@dataclass(slots=True)
class _Call:
    """Run *fn* inside the loop thread and hand its result back."""

    fn: Callable[[], Any]
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


_STOP = object()


def sd_notify(message: str) -> bool:
    """Send *message* (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``) to systemd, if it listens."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as err:
        log.warning("cannot notify systemd at %s: %s", address, err)
        return False
    return True


class Daemon:
    """The loop. ``post`` is thread-safe; everything else runs in the loop's thread."""

    def __init__(
        self,
        unit: UnitLike,
        clock: Callable[[], float] = time.monotonic,
        idle_wakeup: float = 5.0,
        watchdog_seconds: float | None = None,
    ) -> None:
        self.unit = unit
        self.clock = clock
        self.idle_wakeup = idle_wakeup
        self.panels: list[PanelLike] = []
        self.feedback: list[FeedbackLike] = []
        self.listeners: list[Callable[[Output], None]] = []
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self.last_screen: Screen | None = None
        if watchdog_seconds is None:
            usec = os.environ.get("WATCHDOG_USEC")
            watchdog_seconds = int(usec) / 2e6 if usec and usec.isdigit() else None
        self.watchdog_seconds = watchdog_seconds

    # ------------------------------------------------------------------ any thread

    def post(self, inp: Input) -> None:
        """Queue an input (from a reader, a panel, a timer); returns at once."""
        self._inbox.put(inp)

    def call(self, fn: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Run *fn* in the loop thread and return its result (control socket, web view)."""
        c = _Call(fn)
        self._inbox.put(c)
        if not c.done.wait(timeout):
            raise TimeoutError("the daemon loop did not answer")
        if c.error is not None:
            raise c.error
        return c.result

    def stop(self) -> None:
        """Finish what is already queued (a tap made just before quitting counts), then stop."""
        self._inbox.put(_STOP)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    # ------------------------------------------------------------------ loop thread

    def feed(self, inp: Input) -> list[Output]:
        """Hand one input to the unit and dispatch what it produced (loop thread only)."""
        outputs = self.unit.handle(inp)
        self.dispatch(outputs)
        return outputs

    def dispatch(self, outputs: list[Output]) -> None:
        for out in outputs:
            if isinstance(out, ShowScreen):
                self.last_screen = out.screen
                for panel in self.panels:
                    self._safely(panel.show, out.screen)
            elif isinstance(out, PlayCue):
                for panel in self.panels:
                    self._safely(panel.play, out.cue)
                for reader in self.feedback:
                    self._safely(reader.feedback, out.cue)
            for listener in list(self.listeners):
                self._safely(listener, out)

    @staticmethod
    def _safely(fn: Callable[[Any], None], arg: Any) -> None:
        try:
            fn(arg)
        except Exception:  # a faulty panel must not stop the bank
            log.exception("output to %r failed", fn)

    def run(self) -> None:
        """Process inputs until :meth:`stop`. Blocks."""
        next_watchdog = self.clock()
        try:
            self._loop(next_watchdog)
        finally:
            self._stopping.set()
        sd_notify("STOPPING=1")

    def _loop(self, next_watchdog: float) -> None:
        while True:
            now = self.clock()
            if self.watchdog_seconds and now >= next_watchdog:
                sd_notify("WATCHDOG=1")
                next_watchdog = now + self.watchdog_seconds
            deadline = self.unit.next_deadline()
            wait = self.idle_wakeup if deadline is None else max(0.0, deadline - now)
            if self.watchdog_seconds:
                wait = min(wait, max(0.0, next_watchdog - now))
            try:
                item = self._inbox.get(timeout=wait)
            except queue.Empty:
                if deadline is not None and self.clock() >= deadline:
                    self.feed(Tick(self.clock()))
                continue
            if item is _STOP:
                break
            if isinstance(item, _Call):
                try:
                    item.result = item.fn()
                except BaseException as err:  # handed back to the caller
                    item.error = err
                item.done.set()
                continue
            try:
                self.feed(item)
            except Exception:
                log.exception("the unit failed on %r", item)
            deadline = self.unit.next_deadline()
            if deadline is not None and self.clock() >= deadline:
                self.feed(Tick(self.clock()))

    def start_thread(self) -> threading.Thread:
        """Run the loop in a thread of its own (when the main thread runs a UI)."""
        thread = threading.Thread(target=self.run, name="ultibank-daemon", daemon=True)
        thread.start()
        return thread
