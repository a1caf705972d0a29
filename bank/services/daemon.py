"""The daemon: one loop that owns the unit (and through it the game) and is its only mutator.

Readers, panels and the control socket post inputs to one inbox; the loop feeds them to the
unit's behaviour, which executes commands through the game (each committed to the journal
before it is confirmed), and hands the resulting screens and cues to every panel, to the
readers' own feedback (buzzer/LED) and to listeners (the control socket, the web view).
Time is an input too: the loop posts a :class:`Tick` when the unit's next deadline comes.

The loop never dies of one input or one fault: an input, a tick or a hook that raises is
logged and the loop goes on (a fault the unit can report, such as a journal that cannot be
written, it reports itself). Only a loop that keeps failing on every turn gives up; it then
records :attr:`Daemon.failure`, and the command exits non-zero so systemd restarts it.

Imports the bank and the unit's I/O types; backends arrive as objects that follow the
protocols of ``drivers.base`` (the command line wires them).
"""

from __future__ import annotations

import logging
import math
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

#: consecutive failed turns after which the loop gives up (the process then exits non-zero)
MAX_CONSECUTIVE_FAILURES = 50
#: after a failed tick, wait this long before the next one (no busy loop on a failing deadline)
FAILURE_BACKOFF = 0.5
#: no input for this long: the daemon is idle and runs its idle hooks (a journal checkpoint)
IDLE_AFTER = 3.0


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
        #: called once an input's outputs are all dispatched, with all of them (the voice)
        self.batch_listeners: list[Callable[[list[Output]], None]] = []
        #: called with True when an input starts and False once its outputs went out (the
        #: voice pauses the engine making a sentence meanwhile, so it never delays a screen)
        self.busy_listeners: list[Callable[[bool], None]] = []
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self.last_screen: Screen | None = None
        #: run in the loop thread once the daemon has been idle for :data:`IDLE_AFTER` seconds
        self.on_idle: list[Callable[[], None]] = []
        #: the exception that ended the loop, when it gave up (None after a clean stop)
        self.failure: BaseException | None = None
        self._failures = 0
        self._retry_at = 0.0
        self._busy_since: float | None = None  # the last input, until the idle hooks ran
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
        if self._stopping.is_set():
            raise TimeoutError("the daemon loop has stopped")
        c = _Call(fn)
        self._inbox.put(c)
        deadline = time.monotonic() + timeout
        while not c.done.wait(min(0.2, max(0.0, deadline - time.monotonic()))):
            if self._stopping.is_set():  # queued after the loop drained its inbox
                raise TimeoutError("the daemon loop has stopped")
            if time.monotonic() >= deadline:
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
        busy = list(self.busy_listeners)
        for hook in busy:
            self._safely(hook, True)
        try:
            outputs = self.unit.handle(inp)
            self.dispatch(outputs)
        finally:
            for hook in busy:  # the screens are out (or the unit failed): what waited goes on
                self._safely(hook, False)
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
        if outputs:
            for batch in list(self.batch_listeners):
                self._safely(batch, outputs)

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
        except BaseException as err:
            self.failure = err
            log.critical("the daemon loop stopped: %s", err, exc_info=err)
        finally:
            self._stopping.set()
            self._refuse_pending()
        sd_notify("STOPPING=1")

    def _refuse_pending(self) -> None:
        """The loop has ended: calls still queued are answered at once, not left to time out
        (a web view's read would otherwise hold the process's exit for its whole timeout)."""
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Call):
                item.error = TimeoutError("the daemon loop has stopped")
                item.done.set()

    def _loop(self, next_watchdog: float) -> None:
        state = {"watchdog": next_watchdog}
        while True:
            try:
                if self._turn(state):
                    return
                self._failures = 0
            except Exception as err:
                self._failures += 1
                self._retry_at = self.clock() + FAILURE_BACKOFF
                if self._failures >= MAX_CONSECUTIVE_FAILURES:
                    raise RuntimeError(
                        f"{self._failures} turns of the daemon loop failed in a row: {err}"
                    ) from err
                if self._failures == 1:
                    log.exception("the daemon loop failed; it goes on")
                else:
                    log.error("the daemon loop failed again (%d in a row): %s", self._failures, err)

    def _wait(self, deadline: float | None, now: float, next_watchdog: float) -> float:
        """How long the inbox may wait: until the next deadline, watchdog ping or idle hook."""
        wait = self.idle_wakeup
        if deadline is not None and not math.isnan(deadline):  # NaN: never due, no busy loop
            wait = min(wait, max(0.0, deadline - now, self._retry_at - now))
        if self.watchdog_seconds:
            wait = min(wait, max(0.0, next_watchdog - now))
        if self._busy_since is not None and self.on_idle:
            wait = min(wait, max(0.0, self._busy_since + IDLE_AFTER - now))
        return wait  # bounded by idle_wakeup, whatever the deadline (an infinite one too)

    def _turn(self, state: dict[str, float]) -> bool:
        """One turn of the loop: wait for an input or a deadline and run it. True: stop."""
        now = self.clock()
        if self.watchdog_seconds and now >= state["watchdog"]:
            sd_notify("WATCHDOG=1")
            state["watchdog"] = now + self.watchdog_seconds
        deadline = self.unit.next_deadline()
        try:
            item = self._inbox.get(timeout=self._wait(deadline, now, state["watchdog"]))
        except queue.Empty:
            self._run_due()
            if self._busy_since is not None and self.clock() >= self._busy_since + IDLE_AFTER:
                self._busy_since = None
                for hook in list(self.on_idle):
                    hook()
            return False
        if item is _STOP:
            return True
        self._busy_since = self.clock()
        if isinstance(item, _Call):
            try:
                item.result = item.fn()
            except BaseException as err:  # handed back to the caller
                item.error = err
            item.done.set()
            return False
        try:
            self.feed(item)
        except Exception:
            log.exception("the unit failed on %r", item)
        self._run_due()
        return False

    def _run_due(self) -> None:
        """Feed a :class:`Tick` if the unit's deadline has come (and no failure backs it off)."""
        deadline = self.unit.next_deadline()
        now = self.clock()
        if deadline is not None and now >= deadline and now >= self._retry_at:
            self.feed(Tick(now))
            if self.unit.next_deadline() == deadline:  # the tick did not move it: no busy loop
                self._retry_at = now + FAILURE_BACKOFF

    def start_thread(self) -> threading.Thread:
        """Run the loop in a thread of its own (when the main thread runs a UI)."""
        thread = threading.Thread(target=self.run, name="ultibank-daemon", daemon=True)
        thread.start()
        return thread
